import SwiftSyntax

extension SyntaxProtocol {
    /// The node's source text without the trivia around it: what `trimmedDescription` returns, read
    /// straight from the tokens. `trimmedDescription` first builds a detached copy with that trivia
    /// replaced, which was a third of `prepare`'s scan time.
    var trimmedText: String {
        String(decoding: trimmedBytes, as: UTF8.self)
    }

    /// `trimmedText` without any whitespace (`[String : Int]` reads `[String:Int]`): how type names
    /// are compared, so that formatting never matters. Swift separates code only with ASCII
    /// whitespace, so bytes are tested (a `Character.isWhitespace` test looks up Unicode properties).
    var textWithoutWhitespace: String {
        String(decoding: trimmedBytes.filter { byte in
            byte != UInt8(ascii: " ") && !(UInt8(ascii: "\t")...UInt8(ascii: "\r")).contains(byte)
        }, as: UTF8.self)
    }

    /// The bytes of `trimmedText`.
    var trimmedBytes: ArraySlice<UInt8> {
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = max(start, bytes.count - trailingTriviaLength.utf8Length)
        return bytes[start..<end]
    }
}

extension DeclModifierListSyntax {
    /// Whether the modifiers make the declaration `private` or `fileprivate` (also `private(set)`):
    /// only code of its own file may name it.
    var isFileScoped: Bool {
        contains { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }
    }
}
