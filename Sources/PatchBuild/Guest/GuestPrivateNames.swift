import SwiftSyntax

/// File-private globals of the guest program under names of their own file.
///
/// Real apps declare `private let logger = Logger(…)` or a `fileprivate func helper()` in several
/// files; each file sees only its own. The guest program is one file, so when two files' closures meet
/// there the declarations collide. A `private`/`fileprivate` global whose name another included global
/// of a different file declares too is renamed `name__private_<hash of its file's path>`, and every
/// reference in its own file's copied code follows (code of other files cannot name it). Only the
/// identifier bytes change, so lines stay where they were; `restoringNames` turns compiler
/// messages back into the user's names.
struct GuestPrivateNames {
    /// The guest's name of each renamed global name, by file index.
    private(set) var renamed: [Int: [String: String]] = [:]

    static let marker = "__private_"

    init(index: GuestSourceIndex, included: Set<GuestUnit>) {
        var filesByName: [String: Set<Int>] = [:]
        var filePrivate: [(file: Int, name: String)] = []
        for case .global(let global) in included {
            let entry = index.globals[global]
            // A member of a foreign extension is a member in the guest too: it does not collide as a global.
            guard entry.foreignExtension == nil else { continue }
            for name in entry.names { filesByName[name, default: []].insert(entry.file) }
            if GuestPrivateNames.isFilePrivate(entry) { filePrivate += entry.names.map { (entry.file, $0) } }
        }
        for (file, name) in filePrivate where filesByName[name, default: []].count > 1 {
            renamed[file, default: [:]][name] = name + GuestPrivateNames.suffix(for: index.files[file].relativePath)
        }
    }

    /// Whether only its own file may name the global (`private` or `fileprivate` at file scope).
    static func isFilePrivate(_ entry: GuestGlobalEntry) -> Bool {
        entry.foreignExtension == nil && (entry.decl.asProtocol(WithModifiersSyntax.self)?.modifiers.isFileScoped ?? false)
    }

    /// `__private_` and the FNV-1a 32-bit hash of the path in hex: stable across builds and machines.
    static func suffix(for relativePath: String) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in relativePath.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return marker + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// A compiler message with the user's names: every `name__private_<8 hex digits>` loses its suffix.
    static func restoringNames(in message: String) -> String {
        guard message.contains(marker) else { return message }
        var result = ""
        var rest = Substring(message)
        while let range = rest.range(of: marker) {
            let digits = rest[range.upperBound...].prefix(8)
            let isSuffix = digits.count == 8 && digits.allSatisfy(\.isHexDigit)
            result += rest[..<range.lowerBound]
            if !isSuffix { result += marker }
            rest = isSuffix ? rest[digits.endIndex...] : rest[range.upperBound...]
        }
        return result + rest
    }

    /// The renames of the declaration `decl` of file `file`, as (utf8 range in the file, new text).
    /// `memberNames`: the members of the types `decl` sits in, which its bare names mean first (a
    /// struct's `logger` property shadows the file's `private let logger` in its methods).
    func edits(in decl: DeclSyntax, file: Int, memberNames: Set<String> = []) -> [(range: Range<Int>, replacement: String)] {
        guard let names = renamed[file]?.filter({ !memberNames.contains($0.key) }), !names.isEmpty else { return [] }
        let finder = ReferenceFinder(names: names)
        finder.walk(decl)
        return finder.edits
    }

    /// Every token that names one of `names` in the scope of the file: references that are not member
    /// accesses, type names, and the bindings that declare a name (the global itself, and locals or
    /// closure parameters shadowing it, renamed alike so each reference still finds its own binding).
    /// Members of types keep their names: code of other files reaches them as members.
    private final class ReferenceFinder: SyntaxVisitor {
        let names: [String: String]
        var edits: [(range: Range<Int>, replacement: String)] = []

        init(names: [String: String]) {
            self.names = names
            super.init(viewMode: .sourceAccurate)
        }

        private func rename(_ token: TokenSyntax, as replacement: ((String) -> String)? = nil) {
            guard case .identifier(let text) = token.tokenKind, let new = names[text] else { return }
            let range = token.positionAfterSkippingLeadingTrivia.utf8Offset..<token.endPositionBeforeTrailingTrivia.utf8Offset
            edits.append((range, replacement?(new) ?? new))
        }

        /// Whether the declaration `node` belongs to is a type's member (its name is the type's, not the file's).
        private func isTypeMember(_ node: some SyntaxProtocol) -> Bool {
            var current = Syntax(node).parent
            while let node = current {
                if node.is(MemberBlockItemSyntax.self) { return true }
                if node.is(CodeBlockItemSyntax.self) { return false }
                current = node.parent
            }
            return false
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id { return .visitChildren }
            if node.parent?.is(KeyPathPropertyComponentSyntax.self) == true { return .visitChildren }
            rename(node.baseName)
            return .visitChildren
        }

        override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
            rename(node.name)
            return .visitChildren
        }

        override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
            if !isTypeMember(node) { rename(node.identifier) }
            return .visitChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            if !isTypeMember(node) { rename(node.name) }
            return .visitChildren
        }

        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            if !isTypeMember(node) { rename(node.name) }
            return .visitChildren
        }

        override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
            if let second = node.secondName {
                rename(second)
            } else if node.parent?.parent?.parent?.is(SubscriptDeclSyntax.self) == true {
                // A subscript's single name is not a label.
                rename(node.firstName)
            } else {
                // The single name is the label too: keep it as the label, rename the parameter.
                rename(node.firstName) { "\(node.firstName.text) \($0)" }
            }
            return .visitChildren
        }

        override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
            rename(node.name)
            return .visitChildren
        }

        override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
            rename(node.secondName ?? node.firstName)
            return .visitChildren
        }

        override func visit(_ node: ClosureCaptureSyntax) -> SyntaxVisitorContinueKind {
            rename(node.name)
            return .visitChildren
        }
    }
}
