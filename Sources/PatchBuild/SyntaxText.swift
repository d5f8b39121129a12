import SwiftSyntax

extension SyntaxProtocol {
    /// The node's source text without the trivia around it: what `trimmedDescription` returns, read
    /// straight from the tokens. `trimmedDescription` first builds a detached copy with that trivia
    /// replaced, which was a third of `prepare`'s scan time.
    var trimmedText: String {
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = max(start, bytes.count - trailingTriviaLength.utf8Length)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
