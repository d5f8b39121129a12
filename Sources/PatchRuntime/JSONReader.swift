/// What `JSONReader` builds a document of: `BridgeJSON` for the JSON bridges, `MessagePackValue` for
/// `run`'s inputs and outputs and the view host.
protocol JSONReadable {
    static var jsonNull: Self { get }
    static func json(_ flag: Bool) -> Self
    static func json(_ integer: Int64) -> Self
    static func json(_ number: Double) -> Self
    static func json(_ text: String) -> Self
    static func json(_ elements: [Self]) -> Self
    /// An object's members in document order, duplicate keys included (the first one wins).
    static func json(members: [(key: String, value: Self)]) -> Self
}

/// Reads JSON text in one pass over its bytes.
///
/// It accepts exactly what Foundation's `JSONDecoder` accepted when `BridgeJSON` decoded itself by
/// trying each type in turn (`JSONReaderTests` holds the two side by side): top-level fragments,
/// a leading UTF-8 byte-order mark, a trailing comma in an array or an object, the first of duplicate
/// keys, integral numbers written with a fraction or an exponent read as integers, and nesting up to
/// 512 levels. It exists because that decoder, asked to guess, threw and caught an error for every
/// wrong guess and built its coding path each time: most of the host's time validating a view tree.
struct JSONReader<Value: JSONReadable> {
    /// Arrays and objects nested deeper than this are refused, as `JSONDecoder` refuses them.
    static var depthLimit: Int { 512 }

    /// What is wrong, and the byte offset where it was found.
    private struct Malformed: Error {
        let problem: String
        let offset: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The document in `text`, or nil when it is not JSON.
    static func parse(_ text: [UInt8]) -> Value? {
        // Callers that only test for JSON (output decoding tries every output) skip locating the error.
        try? document(of: text).get()
    }

    /// The document in `text`, or where and why it is not JSON.
    static func read(_ text: [UInt8]) throws(JSONSyntaxError) -> Value {
        switch document(of: text) {
        case let .success(value): return value
        case let .failure(malformed): throw JSONSyntaxError(text, offset: malformed.offset, problem: malformed.problem)
        }
    }

    private static func document(of text: [UInt8]) -> Result<Value, Malformed> {
        text.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            do throws(Malformed) { return .success(try reader.document()) } catch { return .failure(error) }
        }
    }

    private mutating func document() throws(Malformed) -> Value {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard offset == bytes.count else { throw malformed("more text after the JSON value: \(found)") }
        return value
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(Malformed) -> Value {
        skipWhitespace()
        guard offset < bytes.count else { throw malformed("the text ends where a value should be") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .json(try string())
        case UInt8(ascii: "t"): try literal("true"); return .json(true)
        case UInt8(ascii: "f"): try literal("false"); return .json(false)
        case UInt8(ascii: "n"): try literal("null"); return .jsonNull
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw malformed("\(found) where a value should be (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func object(depth: Int) throws(Malformed) -> Value {
        guard depth <= Self.depthLimit else { throw malformed("arrays and objects nested deeper than \(Self.depthLimit) levels") }
        offset += 1
        var members: [(key: String, value: Value)] = []
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw malformed("the text ends inside an object") }
            // Reached first, or after a comma: a trailing comma is accepted, as the decoder accepts it.
            if bytes[offset] == UInt8(ascii: "}") { offset += 1; return .json(members: members) }
            guard bytes[offset] == UInt8(ascii: "\"") else { throw malformed("\(found) where a key in double quotes or '}' should be") }
            let key = try string()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw malformed("\(found) where ':' should follow the key") }
            offset += 1
            members.append((key, try value(depth: depth)))
            guard try endsMember(closer: UInt8(ascii: "}")) == false else { return .json(members: members) }
        }
    }

    private mutating func array(depth: Int) throws(Malformed) -> Value {
        guard depth <= Self.depthLimit else { throw malformed("arrays and objects nested deeper than \(Self.depthLimit) levels") }
        offset += 1
        var elements: [Value] = []
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw malformed("the text ends inside an array") }
            if bytes[offset] == UInt8(ascii: "]") { offset += 1; return .json(elements) }
            elements.append(try value(depth: depth))
            guard try endsMember(closer: UInt8(ascii: "]")) == false else { return .json(elements) }
        }
    }

    /// After a member: true past the container's closer, false past a comma.
    private mutating func endsMember(closer: UInt8) throws(Malformed) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw malformed(closer == UInt8(ascii: "}") ? "the text ends inside an object" : "the text ends inside an array") }
        let byte = bytes[offset]
        offset += 1
        if byte == closer { return true }
        guard byte == UInt8(ascii: ",") else { throw malformed("\(Self.describe(byte)) where ',' or '\(Character(Unicode.Scalar(closer)))' should be", at: offset - 1) }
        return false
    }

    private mutating func literal(_ word: StaticString) throws(Malformed) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw malformed("expected `\(word)`") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] { throw malformed("expected `\(word)`") }
        offset += count
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
            default: return
            }
        }
    }

    // MARK: Strings

    /// The string starting at the opening quote under `offset`; leaves `offset` past the closing one.
    private mutating func string() throws(Malformed) -> String {
        offset += 1
        let start = offset
        var bytesOr: UInt8 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                defer { offset += 1 }
                let utf8 = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                // ASCII needs no validation, and `String(validating:)` is far slower than decoding.
                return bytesOr < 0x80 ? String(decoding: utf8, as: UTF8.self) : try text(of: utf8, startingAt: start)
            case UInt8(ascii: "\\"):
                var unescaped = Array(bytes[start..<offset])
                return try escapedString(continuing: &unescaped, startingAt: start)
            case 0..<0x20: throw malformed(Self.controlCharacter(byte))
            default:
                bytesOr |= byte
                offset += 1
            }
        }
        throw malformed("the string starting at byte \(start - 1) is not closed", at: start - 1)
    }

    /// The rest of a string from its first backslash, appended to the bytes before it.
    private mutating func escapedString(continuing unescaped: inout [UInt8], startingAt start: Int) throws(Malformed) -> String {
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return try unescaped.withUnsafeBufferPointer { buffer throws(Malformed) in try text(of: buffer, startingAt: start) }
            case 0..<0x20: throw malformed(Self.controlCharacter(byte), at: offset - 1)
            case UInt8(ascii: "\\"): try unescape(into: &unescaped)
            default: unescaped.append(byte)
            }
        }
        throw malformed("the string starting at byte \(start - 1) is not closed", at: start - 1)
    }

    /// One escape after its backslash.
    private mutating func unescape(into unescaped: inout [UInt8]) throws(Malformed) {
        let escapeStart = offset - 1
        guard offset < bytes.count else { throw malformed("the text ends inside an escape") }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            var code = UInt32(try hexQuad())
            if (0xD800..<0xDC00).contains(code) {
                // A high surrogate must be followed by an escaped low one; alone it is refused.
                guard bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else { throw malformed("a lone UTF-16 surrogate (\\u\(Self.hex(code))): a high surrogate must be followed by an escaped low one", at: escapeStart) }
                offset += 2
                let low = UInt32(try hexQuad())
                guard (0xDC00..<0xE000).contains(low) else { throw malformed("a lone UTF-16 surrogate (\\u\(Self.hex(code))): \\u\(Self.hex(low)) is not a low surrogate", at: escapeStart) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw malformed("a lone UTF-16 surrogate (\\u\(Self.hex(code)))", at: escapeStart) }
            UTF8.encode(scalar) { unescaped.append($0) }
        default: throw malformed("unknown escape \\\(Character(Unicode.Scalar(escape))) (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: offset - 2)
        }
    }

    private mutating func hexQuad() throws(Malformed) -> UInt16 {
        guard bytes.count - offset >= 4 else { throw malformed("expected four hex digits after \\u") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            offset += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("expected four hex digits after \\u, found \(Self.describe(byte))", at: offset - 1)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private func text(of utf8: UnsafeBufferPointer<UInt8>, startingAt start: Int) throws(Malformed) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw malformed("the string starting at byte \(start - 1) is not valid UTF-8", at: start - 1) }
        return text
    }

    // MARK: Numbers

    /// A number in JSON's grammar, read as `JSONDecoder` reads it into an `Int64` first and a `Double`
    /// when that fails: a plain integer that fits is exact; any other number is a double, unless that
    /// double is a whole `Int64`. Below 2^53 the double is then the value (`1.0`, `1e2`,
    /// `1.0000000000000001` and `1e-400` are integers); from 2^53 up the decoder reads the text again
    /// as a decimal and keeps its whole part, from -(2^63 - 1) up. A value beyond a double's range is
    /// refused.
    private mutating func number() throws(Malformed) -> Value {
        let start = offset
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        // The integer part, accumulated toward the sign so that Int64.min fits.
        var integer: Int64 = 0
        var fitsInteger = true
        let integerDigits = offset
        while offset < bytes.count, case let digit = bytes[offset] &- UInt8(ascii: "0"), digit < 10 {
            if fitsInteger {
                let (scaled, overflowA) = integer.multipliedReportingOverflow(by: 10)
                let (next, overflowB) = negative ? scaled.subtractingReportingOverflow(Int64(digit)) : scaled.addingReportingOverflow(Int64(digit))
                if overflowA || overflowB { fitsInteger = false } else { integer = next }
            }
            offset += 1
        }
        let integerEnd = offset
        guard integerEnd > integerDigits, !(integerEnd - integerDigits > 1 && bytes[integerDigits] == UInt8(ascii: "0")) else { throw malformed(integerEnd == integerDigits ? "expected a digit" : "a number cannot start with 0 followed by more digits", at: integerDigits) }
        var fractionEnd = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            try digits()
            fractionEnd = offset
        }
        var exponent = 0
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            let negativeExponent = offset < bytes.count && bytes[offset] == UInt8(ascii: "-")
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || negativeExponent { offset += 1 }
            let exponentDigits = offset
            try digits()
            // Saturates: a double is zero or infinite long before the exponent could overflow.
            for index in exponentDigits..<offset { exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 100_000) }
            if negativeExponent { exponent = -exponent }
        }
        if fitsInteger && offset == integerEnd { return .json(integer) }
        let lexeme = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let double = Double(lexeme), double.isFinite else { throw malformed("\(lexeme) is beyond the range of a Double", at: start) }
        guard let whole = Int64(exactly: double) else { return .json(double) }
        if double.magnitude < 0x1p53 { return .json(whole) }
        // The decimal's whole part: the significant digits left of the point once the exponent moves it.
        let significant = Array(bytes[integerDigits..<integerEnd]) + bytes[min(integerEnd + 1, fractionEnd)..<fractionEnd]
        let pointAt = (integerEnd - integerDigits) + exponent
        var magnitude: UInt64 = 0
        for index in 0..<max(pointAt, 0) {
            let digit = index < significant.count ? UInt64(significant[index] - UInt8(ascii: "0")) : 0
            let (scaled, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = scaled.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return .json(double) }
            magnitude = next
        }
        guard magnitude <= UInt64(Int64.max) else { return .json(double) }
        return .json(negative ? -Int64(magnitude) : Int64(magnitude))
    }

    /// One or more decimal digits.
    private mutating func digits() throws(Malformed) {
        let start = offset
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        guard offset > start else { throw malformed("expected a digit") }
    }
    // MARK: Errors

    private func malformed(_ problem: String, at position: Int? = nil) -> Malformed {
        Malformed(problem: problem, offset: position ?? offset)
    }

    /// The byte under `offset`, for a message.
    private var found: String {
        offset < bytes.count ? Self.describe(bytes[offset]) : "the end of the text"
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(UInt16(byte), digits: 2))"
    }

    private static func controlCharacter(_ byte: UInt8) -> String {
        "a raw control character (U+\(hex(UInt16(byte)))) in a string: JSON needs it escaped (\\n, \\t, \\u\(hex(UInt16(byte))))"
    }

    private static func hex(_ value: some BinaryInteger, digits: Int = 4) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Where and why a text is not JSON: the byte offset, its line and column (both from 1), and the problem.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let line: Int
    public let column: Int
    public let problem: String

    init(_ text: [UInt8], offset: Int, problem: String) {
        let before = text.prefix(offset)
        self.offset = offset
        self.line = before.count { $0 == UInt8(ascii: "\n") } + 1
        self.column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        self.problem = problem
    }

    public var description: String { "line \(line), column \(column) (byte \(offset)): \(problem)" }
}
