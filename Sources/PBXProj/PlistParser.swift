/// Parses the OpenStep property-list format Xcode writes `project.pbxproj` in: `{ key = value; }`,
/// `( a, b, )`, quoted strings with backslash escapes, bare strings, `/* */` and `//` comments.
/// Every node keeps its byte range, so the file can be edited by splicing (`PBXProjDocument`).
package struct PlistParser {
    /// Real projects nest 6 levels deep; the limit only stops a hostile file from exhausting the stack.
    package static let maximumDepth = 128

    private let bytes: [UInt8]
    private var position = 0
    private(set) var comments: [PlistComment] = []

    /// Parses a whole file: one value, optionally surrounded by comments and white space.
    package static func parse(_ bytes: [UInt8]) throws(PlistParseError) -> (root: PlistNode, comments: [PlistComment]) {
        if let invalid = firstInvalidUTF8(bytes) {
            throw PlistParseError(.notUTF8, offset: invalid, in: bytes)
        }
        var parser = PlistParser(bytes: bytes)
        try parser.skipTrivia()
        guard parser.position < bytes.count else { throw PlistParseError(.empty, offset: 0, in: bytes) }
        let root = try parser.parseValue(depth: 0)
        try parser.skipTrivia()
        guard parser.position == bytes.count else {
            throw PlistParseError(.trailingData, offset: parser.position, in: bytes)
        }
        return (root, parser.comments)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ reason: PlistParseError.Reason, at offset: Int? = nil) -> PlistParseError {
        PlistParseError(reason, offset: offset ?? position, in: bytes)
    }

    private mutating func parseValue(depth: Int) throws(PlistParseError) -> PlistNode {
        guard depth < Self.maximumDepth else { throw error(.nestingTooDeep(limit: Self.maximumDepth)) }
        guard position < bytes.count else { throw error(.unexpected(found: "the end of the file", expected: "a value")) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseDictionary(depth: depth)
        case UInt8(ascii: "("): return try parseArray(depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return try parseQuotedString()
        default: return try parseBareString()
        }
    }

    private mutating func parseDictionary(depth: Int) throws(PlistParseError) -> PlistNode {
        let start = position
        position += 1
        var entries: [PlistEntry] = []
        while true {
            try skipTrivia()
            guard position < bytes.count else { throw error(.unclosed(container: "dictionary '{'"), at: start) }
            if bytes[position] == UInt8(ascii: "}") { break }
            let key = try parseKey()
            try skipTrivia()
            try expect("=", after: "the key \"\(key.string ?? "")\"")
            try skipTrivia()
            let value = try parseValue(depth: depth + 1)
            try skipTrivia()
            guard position < bytes.count else { throw error(.unclosed(container: "dictionary '{'"), at: start) }
            try expect(";", after: "the value of \"\(key.string ?? "")\"")
            entries.append(PlistEntry(key: key.string ?? "", keyRange: key.range, value: value, extent: key.range.lowerBound..<position))
        }
        position += 1
        return PlistNode(range: start..<position, kind: .dictionary(entries), extent: start..<position)
    }

    private mutating func parseKey() throws(PlistParseError) -> PlistNode {
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return try parseQuotedString()
        case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ")"):
            throw error(.unexpected(found: describe(bytes[position]), expected: "a key or '}'"))
        default: return try parseBareString()
        }
    }

    private mutating func parseArray(depth: Int) throws(PlistParseError) -> PlistNode {
        let start = position
        position += 1
        var elements: [PlistNode] = []
        while true {
            try skipTrivia()
            guard position < bytes.count else { throw error(.unclosed(container: "array '('"), at: start) }
            if bytes[position] == UInt8(ascii: ")") { break }
            var element = try parseValue(depth: depth + 1)
            try skipTrivia()
            guard position < bytes.count else { throw error(.unclosed(container: "array '('"), at: start) }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                element.extent = element.range.lowerBound..<position
                elements.append(element)
            } else if bytes[position] == UInt8(ascii: ")") {
                elements.append(element)
            } else {
                throw error(.unexpected(found: describe(bytes[position]), expected: "',' or ')' after an array element"))
            }
        }
        position += 1
        return PlistNode(range: start..<position, kind: .array(elements), extent: start..<position)
    }

    private mutating func parseQuotedString() throws(PlistParseError) -> PlistNode {
        let start = position
        let quote = bytes[position]
        position += 1
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error(.unterminatedString, at: start) }
            let byte = bytes[position]
            if byte == quote { break }
            if byte != UInt8(ascii: "\\") {
                text.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { throw error(.unterminatedString, at: start) }
            try appendEscape(to: &text)
        }
        position += 1
        return PlistNode(range: start..<position, kind: .string(String(decoding: text, as: UTF8.self)), extent: start..<position)
    }

    /// Decodes the escape after a backslash (`position` is on the byte after it): the C escapes,
    /// `\UXXXX` (a UTF-16 unit, as NeXT wrote them) and octal `\NNN`.
    private mutating func appendEscape(to text: inout [UInt8]) throws(PlistParseError) {
        let byte = bytes[position]
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "a"): 0x07,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "v"): 0x0B,
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "'"): 0x27, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "\n"): 0x0A,
        ]
        if let decoded = simple[byte] {
            text.append(decoded)
            position += 1
            return
        }
        if byte == UInt8(ascii: "U") || byte == UInt8(ascii: "u") {
            let digits = bytes[(position + 1)..<min(position + 5, bytes.count)]
            guard digits.count == 4, let unit = UInt32(String(decoding: digits, as: UTF8.self), radix: 16),
                  let scalar = Unicode.Scalar(unit)
            else { throw error(.invalidEscape("U" + String(decoding: digits, as: UTF8.self)), at: position - 1) }
            text.append(contentsOf: Array(String(Character(scalar)).utf8))
            position += 5
            return
        }
        if (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) {
            var value = 0
            var count = 0
            while count < 3, position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[position]) {
                value = value * 8 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
                count += 1
            }
            guard value < 256 else { throw error(.invalidEscape("octal \(value)"), at: position - count - 1) }
            text.append(UInt8(value))
            return
        }
        throw error(.invalidEscape(String(decoding: [byte], as: UTF8.self)), at: position - 1)
    }

    private mutating func parseBareString() throws(PlistParseError) -> PlistNode {
        let start = position
        while position < bytes.count, Self.isBareStringByte(bytes[position]) {
            position += 1
        }
        guard position > start else {
            throw error(.unexpected(found: describe(bytes[position]), expected: "a value"))
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        return PlistNode(range: start..<position, kind: .string(text), extent: start..<position)
    }

    /// Bytes a bare (unquoted) string may hold: anything but white space, the format's punctuation
    /// and quotes. Non-ASCII bytes are allowed (Xcode quotes them, but hand-edited files exist).
    private static func isBareStringByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "="),
             UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            return false
        default:
            return byte >= 0x20
        }
    }

    private mutating func expect(_ character: Character, after context: String) throws(PlistParseError) {
        guard position < bytes.count, bytes[position] == character.asciiValue! else {
            let found = position < bytes.count ? describe(bytes[position]) : "the end of the file"
            throw error(.unexpected(found: found, expected: "'\(character)' after \(context)"))
        }
        position += 1
    }

    /// Skips white space and comments, recording the comments.
    private mutating func skipTrivia() throws(PlistParseError) {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                let start = position
                position += 2
                while position + 1 < bytes.count, !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/")) {
                    position += 1
                }
                guard position + 1 < bytes.count else { throw error(.unterminatedComment, at: start) }
                position += 2
                record(comment: (start + 2)..<(position - 2), range: start..<position)
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n") {
                    position += 1
                }
                record(comment: (start + 2)..<position, range: start..<position)
            } else {
                return
            }
        }
    }

    private mutating func record(comment text: Range<Int>, range: Range<Int>) {
        var lower = text.lowerBound, upper = text.upperBound
        while lower < upper, bytes[lower] == UInt8(ascii: " ") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") { upper -= 1 }
        comments.append(PlistComment(text: String(decoding: bytes[lower..<upper], as: UTF8.self), range: range))
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil.
    package static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            let minimum: UInt32
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2; minimum = 0x80
            case 0xE0...0xEF: length = 3; minimum = 0x800
            case 0xF0...0xF4: length = 4; minimum = 0x10000
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for continuation in bytes[(index + 1)..<(index + length)] {
                guard continuation & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return index }
            index += length
        }
        return nil
    }
}
