/// A JSON document as a tree that keeps exactly what TUF signs: integers stay integers (no `Double`
/// round trip), unknown fields survive, and object keys are kept for canonical re-encoding.
///
/// Signatures in TUF cover the canonical form of the `signed` tree *as received*, so verification
/// works on this tree, never on a re-encoded Swift struct that would drop fields it does not know.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? { if case let .string(value) = self { value } else { nil } }
    public var integerValue: Int64? { if case let .integer(value) = self { value } else { nil } }
    public var boolValue: Bool? { if case let .bool(value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case let .array(value) = self { value } else { nil } }
    public var objectValue: [String: JSONValue]? { if case let .object(value) = self { value } else { nil } }
}

/// Why bytes are not a JSON document this project accepts, with the byte offset where it went wrong.
public enum JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case unexpectedEnd
    case unexpectedByte(offset: Int, found: UInt8, expected: String)
    case invalidString(offset: Int, detail: String)
    /// TUF's canonical JSON has no floating point; a fraction or exponent means the file is not TUF metadata.
    case nonIntegerNumber(offset: Int)
    case integerOutOfRange(offset: Int)
    case duplicateKey(offset: Int, key: String)
    case nestingTooDeep(offset: Int, limit: Int)
    case trailingData(offset: Int)

    public var description: String {
        switch self {
        case .unexpectedEnd: return "the JSON ends early (truncated file?)"
        case let .unexpectedByte(offset, found, expected):
            return "unexpected byte 0x\(String(found, radix: 16)) at offset \(offset), expected \(expected)"
        case let .invalidString(offset, detail): return "invalid string at offset \(offset): \(detail)"
        case let .nonIntegerNumber(offset):
            return "number with a fraction or exponent at offset \(offset): canonical JSON allows integers only"
        case let .integerOutOfRange(offset): return "integer at offset \(offset) does not fit in 64 bits"
        case let .duplicateKey(offset, key): return "object key \"\(key)\" appears twice (second at offset \(offset))"
        case let .nestingTooDeep(offset, limit): return "nesting deeper than \(limit) levels at offset \(offset)"
        case let .trailingData(offset): return "unexpected data after the JSON document at offset \(offset)"
        }
    }
}

extension JSONValue {
    /// Nesting limit: TUF metadata is 5 levels deep; 64 leaves room for custom fields and stops stack exhaustion.
    public static let maximumDepth = 64

    /// Parses one strict JSON document (RFC 8259, integers only, no duplicate keys).
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw .trailingData(offset: parser.offset) }
        return value
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    func peek() throws(JSONParseError) -> UInt8 {
        guard offset < bytes.count else { throw .unexpectedEnd }
        return bytes[offset]
    }

    mutating func expect(_ literal: String, value: JSONValue) throws(JSONParseError) -> JSONValue {
        for byte in literal.utf8 {
            let found = try peek()
            guard found == byte else { throw .unexpectedByte(offset: offset, found: found, expected: "\"\(literal)\"") }
            offset += 1
        }
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw .nestingTooDeep(offset: offset, limit: JSONValue.maximumDepth) }
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let other: throw .unexpectedByte(offset: offset, found: other, expected: "a JSON value")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        offset += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { offset += 1; return .object(members) }
        while true {
            skipWhitespace()
            let keyOffset = offset
            let found = try peek()
            guard found == UInt8(ascii: "\"") else { throw .unexpectedByte(offset: offset, found: found, expected: "an object key") }
            let key = try parseString()
            guard members[key] == nil else { throw .duplicateKey(offset: keyOffset, key: key) }
            skipWhitespace()
            let colon = try peek()
            guard colon == UInt8(ascii: ":") else { throw .unexpectedByte(offset: offset, found: colon, expected: "':'") }
            offset += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            let separator = try peek()
            offset += 1
            if separator == UInt8(ascii: "}") { return .object(members) }
            guard separator == UInt8(ascii: ",") else { throw .unexpectedByte(offset: offset - 1, found: separator, expected: "',' or '}'") }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { offset += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            let separator = try peek()
            offset += 1
            if separator == UInt8(ascii: "]") { return .array(elements) }
            guard separator == UInt8(ascii: ",") else { throw .unexpectedByte(offset: offset - 1, found: separator, expected: "',' or ']'") }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = offset
        var negative = false
        if bytes[offset] == UInt8(ascii: "-") { negative = true; offset += 1 }
        let digitsStart = offset
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        guard offset > digitsStart else {
            if offset < bytes.count { throw .unexpectedByte(offset: offset, found: bytes[offset], expected: "a digit") }
            throw .unexpectedEnd
        }
        if offset - digitsStart > 1, bytes[digitsStart] == UInt8(ascii: "0") {
            throw .unexpectedByte(offset: digitsStart, found: bytes[digitsStart], expected: "no leading zero")
        }
        if offset < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[offset]) {
            throw .nonIntegerNumber(offset: start)
        }
        var magnitude: Int64 = 0
        for byte in bytes[digitsStart..<offset] {
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min parses; positive values are negated back below.
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { throw .integerOutOfRange(offset: start) }
            magnitude = next
        }
        if negative { return .integer(magnitude) }
        guard magnitude != Int64.min else { throw .integerOutOfRange(offset: start) }
        return .integer(-magnitude)
    }

    mutating func parseString() throws(JSONParseError) -> String {
        let start = offset
        offset += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flushRaw() throws(JSONParseError) {
            guard !raw.isEmpty else { return }
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw .invalidString(offset: start, detail: "not valid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
            raw.removeAll(keepingCapacity: true)
        }
        while true {
            let byte = try peek()
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                try flushRaw()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flushRaw()
                let escape = try peek()
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape(stringStart: start))
                default: throw .invalidString(offset: offset - 1, detail: "unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case 0x00..<0x20:
                throw .invalidString(offset: offset - 1, detail: "unescaped control character")
            default:
                raw.append(byte)
            }
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try peek()
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidString(offset: offset, detail: "\\u needs four hex digits")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    mutating func parseUnicodeEscape(stringStart: Int) throws(JSONParseError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                throw .invalidString(offset: offset, detail: "high surrogate without its low surrogate")
            }
            offset += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw .invalidString(offset: offset, detail: "invalid surrogate pair") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw .invalidString(offset: offset, detail: "lone low surrogate") }
        return scalar
    }
}
