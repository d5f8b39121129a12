/// Swift source spellings of values that generated code embeds.
package enum SwiftLiteral {
    /// A string literal for `text`: quotes, backslashes and newlines escaped, everything else verbatim.
    package static func string(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
