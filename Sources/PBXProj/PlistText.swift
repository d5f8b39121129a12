/// A value to insert into a `project.pbxproj`, rendered exactly as Xcode writes it: tab indentation,
/// `ID /* comment */` annotations, strings quoted only where Xcode quotes them.
package indirect enum PlistText: Sendable, Equatable {
    /// A string; `comment` is the `/* ... */` annotation Xcode puts after object IDs.
    case string(String, comment: String? = nil)
    case array([PlistText])
    /// Entries in the order given (callers pass them in Xcode's order: `isa` first, then by key).
    case dictionary([(key: String, value: PlistText)])

    package static func == (lhs: PlistText, rhs: PlistText) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a, c), .string(b, d)): return a == b && c == d
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The text of this value when its line is indented by `indent` tabs. `singleLine` is Xcode's
    /// one-line form (used for `PBXBuildFile` and `PBXFileReference` objects).
    package func rendered(indent: Int, singleLine: Bool) -> String {
        switch self {
        case let .string(value, comment):
            return Self.quoted(value) + (comment.map { " /* \($0) */" } ?? "")
        case let .array(elements):
            if singleLine {
                return "(" + elements.map { $0.rendered(indent: indent, singleLine: true) + ", " }.joined() + ")"
            }
            let inner = String(repeating: "\t", count: indent + 1)
            return "(\n" + elements.map { inner + $0.rendered(indent: indent + 1, singleLine: false) + ",\n" }.joined()
                + String(repeating: "\t", count: indent) + ")"
        case let .dictionary(entries):
            if singleLine {
                return "{" + entries.map { Self.quoted($0.key) + " = " + $0.value.rendered(indent: indent, singleLine: true) + "; " }.joined() + "}"
            }
            let inner = String(repeating: "\t", count: indent + 1)
            return "{\n" + entries.map { inner + Self.entryText($0.key, $0.value, indent: indent + 1) + "\n" }.joined()
                + String(repeating: "\t", count: indent) + "}"
        }
    }

    /// `key = value;` for a multi-line dictionary whose entries are indented by `indent` tabs.
    package static func entryText(_ key: String, _ value: PlistText, indent: Int) -> String {
        quoted(key) + " = " + value.rendered(indent: indent, singleLine: false) + ";"
    }

    /// Xcode leaves a string bare when it is made only of letters, digits and `_$/:.` and holds
    /// neither `//` (a comment opener) nor `___` (a template placeholder); everything else is quoted.
    package static func quoted(_ value: String) -> String {
        let bare = !value.isEmpty && !value.contains("//") && !value.contains("___") && value.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_$/:.".utf8.contains(byte)
        }
        if bare { return value }
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
