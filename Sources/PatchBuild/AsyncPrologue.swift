@_spi(RawSyntax) import SwiftSyntax

/// The line `prepare` puts at the top of a routed `async` function's body (docs/async.md "The app
/// side"): a `@_dynamicReplacement` of an async function cannot fall back to the original (with
/// Swift 6.3.1 the call re-enters the replacement), so the function routes itself —
///
///     func fetch(id: Int) async throws -> Quote { if let __patchAsync = await __patchAsync_fetch(id: id) { return try __patchAsync.get() };
///
/// `__patchAsync_fetch` (generated, `ThunkEmitter.asyncHelper`) answers nil when the active module
/// lacks the function or the call fails, and the original body simply continues.
///
/// The statement goes on the line of the body's `{` (ended by `;`, as another statement may follow on
/// that line), so no line of the file moves. A body that was a single expression, its implicit
/// return, gets `return ` before it too (it is no longer the only statement); its prologue binds
/// `__patchAsyncReturn` to say so. It is prepare's own code, recognised by its first tokens
/// (`if let __patchAsync =` or `if let __patchAsyncReturn =`, names prepare reserves): the content
/// hash and the behaviour digest leave it (and such a `return`) out, the guest's copy of the sources
/// blanks it (and keeps the `return`, which means the same there), and unrouting or
/// `prepare --revert` removes both.
enum AsyncPrologue {
    /// The name the prologue binds the helper's answer to; with `=` after `if let`, what marks a prologue.
    static let binding = "__patchAsync"
    /// The binding of a prologue whose next statement's `return` prepare inserted.
    static let returningBinding = "__patchAsyncReturn"
    /// The prefix of the generated helper a prologue calls.
    static let helperPrefix = "__patchAsync_"
    /// How a prologue's text starts (either binding).
    static let opening = "if let \(binding)"
    /// What prepare inserts before the expression of a single-expression body.
    static let insertedReturn = "return "
    /// A prologue's first tokens (static strings: the raw tree's token text compares with them
    /// without allocating); the third is either binding.
    private static let marker: [[StaticString]] = [["if"], ["let"], ["__patchAsync", "__patchAsyncReturn"], ["="]]

    /// A prologue found in a function's body: the statement (with its `;`) and what it says.
    struct Found: Sendable, Codable, Equatable {
        /// The statement from `if` to its `;`.
        var range: Range<Int>
        /// The statement's text without trivia: a prologue that no longer matches the function (its
        /// parameters were renamed) is rewritten.
        var text: String
        /// What removing it takes out: the statement and the spaces before it on its line (the one
        /// `prepare` inserted after `{`).
        var removalRange: Range<Int>
        /// The `return ` prepare inserted before the next statement's expression.
        var insertedReturn: Range<Int>? = nil
    }

    /// The generated helper's name for a function's base name.
    static func helperName(of baseName: String) -> String {
        helperPrefix + baseName.replacingOccurrences(of: "`", with: "")
    }

    /// The statement for `function` (a routed async function): calls its helper with its arguments
    /// and returns what the module answered. `returning`: prepare inserts the next statement's `return`.
    static func statement(for function: FunctionCandidate, returning: Bool) -> String {
        let arguments = function.parameters.map { parameter in
            (parameter.label.map { "\($0): " } ?? "") + SwiftIdentifier.escaped(parameter.internalName)
        }.joined(separator: ", ")
        let name = returning ? returningBinding : binding
        let value = function.throwsEffect ? "try \(name).get()" : name
        return "if let \(name) = await \(helperName(of: function.baseName))(\(arguments)) { return \(value) };"
    }

    /// Whether a statement is a prologue, and whether it inserted the next statement's `return`.
    static func kind(of item: CodeBlockItemSyntax) -> (isPrologue: Bool, returning: Bool) {
        let returning = returning(raw: item.raw)
        return (returning != nil, returning ?? false)
    }

    /// `kind(of:)` on the raw tree `ContentHash` walks (a `codeBlockItem` node), visiting only its
    /// first tokens: nil when it is not a prologue, else whether it inserted the next `return`.
    static func returning(raw: RawSyntax) -> Bool? {
        guard raw.kind == .codeBlockItem else { return nil }
        var matched: [SyntaxText] = []
        guard matches(raw, matched: &matched), matched.count == marker.count else { return nil }
        return matched[2] == SyntaxText(marker[2][1])
    }

    /// Walks `raw`'s present tokens in order while they match `marker`; false at the first that does not.
    private static func matches(_ raw: RawSyntax, matched: inout [SyntaxText]) -> Bool {
        if let layout = raw.layoutView {
            for case let child? in layout.children {
                guard matches(child, matched: &matched) else { return false }
                if matched.count == marker.count { return true }
            }
            return true
        }
        guard let token = raw.tokenView, token.presence == .present else { return true }
        guard marker[matched.count].contains(where: { token.rawText == SyntaxText($0) }) else { return false }
        matched.append(token.rawText)
        return true
    }

    /// The prologue at the top of `body`, if prepare put one there.
    static func find(in body: CodeBlockSyntax) -> Found? {
        guard let first = body.statements.first, case let (true, returning) = kind(of: first) else { return nil }
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = first.endPositionBeforeTrailingTrivia.utf8Offset
        // The spaces between it and the previous token on its line (`{ if …`): the inserted `" "`.
        let isSpace = { (piece: TriviaPiece) -> Bool in if case .spaces = piece { return true } else { return false } }
        let spaces = first.leadingTrivia.pieces.reversed().prefix(while: isSpace)
        let before = first.leadingTrivia.pieces.count == spaces.count
            ? body.leftBrace.trailingTrivia.pieces.reversed().prefix(while: isSpace).reduce(0) { $0 + $1.sourceLength.utf8Length } : 0
        let spaceLength = spaces.reduce(0) { $0 + $1.sourceLength.utf8Length } + before
        var found = Found(range: start..<end, text: first.trimmedDescription, removalRange: (start - spaceLength)..<end)
        if returning, body.statements.count == 2, let returned = body.statements.last?.item.as(ReturnStmtSyntax.self), let expression = returned.expression {
            found.insertedReturn = returned.returnKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<expression.positionAfterSkippingLeadingTrivia.utf8Offset
        }
        return found
    }

    /// Where a routed function's `return ` goes: before the expression of a body that is a single
    /// expression (its implicit return), when the function returns a value and has no prologue yet.
    static func returnInsertion(in body: CodeBlockSyntax, returnsValue: Bool) -> Int? {
        guard returnsValue, body.statements.count == 1, let only = body.statements.first else { return nil }
        let isExpression = only.item.is(ExprSyntax.self) || only.item.as(ExpressionStmtSyntax.self) != nil
        guard isExpression, !kind(of: only).isPrologue else { return nil }
        return only.positionAfterSkippingLeadingTrivia.utf8Offset
    }
}
