/// Names from the user's code as generated Swift writes them.
enum SwiftIdentifier {
    /// Keywords a declaration may be named after when written in backticks (`func move(to: Int, in: Region)`,
    /// `case \`default\``), which generated code must backtick too wherever it uses the name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "operator", "precedencegroup", "private", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil", "super",
        "throws", "true", "try", "self", "Self", "any", "some",
    ]

    /// `name` as an identifier: backticked when it is a keyword written bare.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }
}
