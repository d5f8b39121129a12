import PatchManifest
// `rawText` (the token's bytes in the parser's buffer) is SPI; swift-syntax is pinned (Package.swift).
@_spi(RawSyntax) import SwiftSyntax

/// Content hashes of declarations as the baseline and the thunks carry them: SHA-256 over the token
/// texts only, so reformatting or editing comments never changes a hash and any code change does.
enum ContentHash {
    /// Hashes `node`'s tokens, leaving out the tokens `prepare` itself adds or renames so that a
    /// prepared file and its original hash the same (`dynamic`, `__patch_native_body` read as `body`,
    /// the `fileprivate` modifier as `private`, an async function's `AsyncPrologue`).
    static func of(_ node: some SyntaxProtocol) -> String {
        // Token bytes are gathered from the raw tree (`rawText`: the parser's buffer, no String per
        // token, no syntax node made per token) and hashed in one call; per-token Strings, hasher
        // updates and walking `tokens(viewMode:)` were most of `prepare`'s scan time.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(node.totalLength.utf8Length)
        appendTokens(of: node.raw, to: &bytes, inModifier: false, nativeBody: SyntaxText(PreparedNames.nativeBodyStatic))
        return SHA256Hasher.hex(of: bytes)
    }

    /// The same hash leaving out the tokens of `omitted` (nodes inside `node`, e.g. some of its
    /// modifiers): what `BehaviourDigest` hashes. Only the path down to them is walked as syntax.
    static func of(_ node: some SyntaxProtocol, omitting omitted: [Syntax]) -> String {
        var bytes = TokenBytes()
        bytes.append(Syntax(node), omitting: omitted)
        return bytes.hash
    }

    /// Token texts gathered as `of` gathers them, from several nodes: the input of a hash over parts
    /// of declarations (a stored layout's types, its default values).
    struct TokenBytes {
        private(set) var bytes: [UInt8] = []

        mutating func append(_ node: some SyntaxProtocol) {
            ContentHash.appendTokens(of: node.raw, to: &bytes, inModifier: false, nativeBody: SyntaxText(PreparedNames.nativeBodyStatic))
        }

        /// A text that is not a token of the source (an inferred type's name), kept apart from tokens.
        mutating func append(text: String) {
            bytes.append(1)
            bytes += text.utf8
            bytes.append(0)
        }

        mutating func append(contentsOf other: TokenBytes) {
            bytes += other.bytes
        }

        /// Ends one part (a member), so that moving a token across parts changes the hash.
        mutating func endPart() {
            bytes.append(2)
        }

        mutating func append(_ node: Syntax, omitting omitted: [Syntax]) {
            if omitted.contains(node) { return }
            let range = node.position..<node.endPosition
            guard omitted.contains(where: { range.contains($0.position) }) else { return append(node) }
            for child in node.children(viewMode: .all) { append(child, omitting: omitted) }
        }

        var hash: String { SHA256Hasher.hex(of: bytes) }
    }

    /// `appendTokens` without the first present token of `raw` when it is `return` (the one prepare
    /// inserted); true once that token was passed.
    private static func appendTokens(skippingFirstTokenOf raw: RawSyntax, to bytes: inout [UInt8], nativeBody: SyntaxText) -> Bool {
        guard let layout = raw.layoutView else {
            guard let token = raw.tokenView, token.presence == .present else { return false }
            if token.rawText != "return" { appendTokens(of: raw, to: &bytes, inModifier: false, nativeBody: nativeBody) }
            return true
        }
        var skipped = false
        for case let child? in layout.children {
            if skipped {
                appendTokens(of: child, to: &bytes, inModifier: raw.kind == .declModifier, nativeBody: nativeBody)
            } else {
                skipped = appendTokens(skippingFirstTokenOf: child, to: &bytes, nativeBody: nativeBody)
            }
        }
        return skipped
    }

    /// `nativeBody`: the renamed body's name, passed down (a static read per token costs a
    /// once-check each time).
    private static func appendTokens(of raw: RawSyntax, to bytes: inout [UInt8], inModifier: Bool, nativeBody: SyntaxText) {
        if let layout = raw.layoutView {
            let isModifier = raw.kind == .declModifier
            // An async function's prologue, and the `return` it says prepare inserted after it.
            var skipsReturn = false
            for case let child? in layout.children {
                if raw.kind == .codeBlockItemList, let returning = AsyncPrologue.returning(raw: child) {
                    skipsReturn = returning
                } else if skipsReturn {
                    skipsReturn = false
                    _ = appendTokens(skippingFirstTokenOf: child, to: &bytes, nativeBody: nativeBody)
                } else {
                    appendTokens(of: child, to: &bytes, inModifier: isModifier, nativeBody: nativeBody)
                }
            }
            return
        }
        // Only what the source shows: not the tokens the parser had to assume.
        guard let token = raw.tokenView, token.presence == .present else { return }
        let text = token.rawText
        if inModifier && token.rawKind == .keyword && text == "dynamic" { return }
        if inModifier && token.rawKind == .keyword && text == "fileprivate" {
            // Read as `private`: `prepare` widens routed `private` members (`PrivateMemberWidening`).
            bytes += "private".utf8
        } else if text == nativeBody {
            bytes += "body".utf8
        } else if let base = text.baseAddress {
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: text.count))
        }
        // A separator keeps `a b` and `ab` apart.
        bytes.append(0)
    }
}

/// Names `prepare` introduces into the user's code and the generated files.
enum PreparedNames {
    /// What a view's own `body` is renamed to; the generated `body` routes to it (docs/prepare.md).
    static let nativeBody = nativeBodyStatic.description
    /// The same name as a static string: token text compares with it without allocating.
    static let nativeBodyStatic: StaticString = "__patch_native_body"
    /// Prefix of a function's dynamic replacement.
    static let functionReplacementPrefix = "__patch_"
    /// The comment marker that opts a function in to patching.
    static let patchableMarker = "@patchable"
    /// The comment marker that keeps a declaration native under `routing: all`.
    static let nativeMarker = "@native"
    /// Delimiters of the generated section `prepare` appends to a file holding private views.
    static let sectionBegin = "// patchcli:begin generated (do not edit; `patchcli prepare` rewrites it, `patchcli prepare --revert` removes it)"
    static let sectionEnd = "// patchcli:end generated"
    /// First line of every generated file; such files are never scanned as user sources.
    static let generatedHeader = "// Generated by patchcli. Do not edit: `patchcli prepare` and `patchcli init` rewrite it."
}
