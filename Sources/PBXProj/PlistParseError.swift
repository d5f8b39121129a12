/// Why bytes are not an OpenStep property list, with where it went wrong (byte offset, and the
/// 1-based line and column a text editor shows) and what to do about it.
package struct PlistParseError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Reason: Equatable, Sendable {
        case notUTF8
        case unterminatedString
        case unterminatedComment
        case invalidEscape(String)
        /// A container (opened at the error's offset) reaches the end of the file unclosed.
        case unclosed(container: String)
        case unexpected(found: String, expected: String)
        case nestingTooDeep(limit: Int)
        case trailingData
        case empty
        /// The root is not a dictionary with an `objects` dictionary.
        case notAProject
    }

    package var reason: Reason
    package var offset: Int
    package var line: Int
    package var column: Int

    package init(_ reason: Reason, offset: Int, in bytes: [UInt8]) {
        self.reason = reason
        self.offset = offset
        (line, column) = Self.position(of: offset, in: bytes)
    }

    /// 1-based line and column (in bytes) of `offset`.
    package static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    package var description: String {
        let place = "line \(line), column \(column) (byte \(offset))"
        switch reason {
        case .notUTF8:
            return "invalid UTF-8 at \(place): project.pbxproj files are UTF-8 text; restore the file from version control"
        case .unterminatedString:
            return "string opened at \(place) has no closing quote"
        case .unterminatedComment:
            return "comment opened at \(place) has no closing */"
        case let .invalidEscape(escape):
            return "unknown escape \\\(escape) in a string at \(place)"
        case let .unclosed(container):
            return "\(container) opened at \(place) is never closed (unbalanced brackets: the file is truncated or a merge conflict was resolved badly)"
        case let .unexpected(found, expected):
            return "expected \(expected) at \(place), found \(found) (a missing ';' or ',' or an unresolved merge conflict?)"
        case let .nestingTooDeep(limit):
            return "values nested deeper than \(limit) levels at \(place)"
        case .trailingData:
            return "unexpected text after the end of the property list at \(place)"
        case .empty:
            return "the file holds no property list (empty or only comments)"
        case .notAProject:
            return "the property list has no `objects` dictionary, so it is not a project.pbxproj (check the path)"
        }
    }
}
