// Guest prelude: compiled into every patch module next to the generated glue and the project code.
//
// Embedded Swift has no Foundation and no Codable, so the JSON the SDK's thunks send through
// `Patch.shared.callJSON` (JSONEncoder defaults, see docs of the function-patching convention) is
// read and written here. The reader keeps strings as UTF-8 bytes and compares keys bytewise, so a
// module whose functions only take numbers never links String's Unicode machinery; the writer
// formats numbers the way JSONEncoder does (integers without a fraction, Double through its
// shortest round-trip `description` with a trailing ".0" removed).
//
// Every name starts with `_Patch` so it cannot clash with the project's own declarations.

/// Why an input could not be decoded; travels back as `{"error": "..."}` so the thunk falls back to
/// the native implementation.
struct _PatchDecodeError: Error {
    let reason: StaticString
    /// The JSON key (or case name) the failure concerns, empty when it is the whole input.
    let key: StaticString

    init(_ reason: StaticString, key: StaticString = "") {
        self.reason = reason
        self.key = key
    }
}

/// A parsed JSON value. Strings and object keys stay UTF-8 bytes (see the file comment).
enum _PatchJSONValue {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in Int64.
    case integer(Int64)
    case double(Double)
    case string([UInt8])
    case array([_PatchJSONValue])
    case object([_PatchJSONMember])
}

struct _PatchJSONMember {
    let key: [UInt8]
    let value: _PatchJSONValue
}

func _patchBytesEqual(_ bytes: [UInt8], _ text: StaticString) -> Bool {
    guard bytes.count == text.utf8CodeUnitCount else { return false }
    let start = text.utf8Start
    for index in 0..<bytes.count where bytes[index] != start[index] {
        return false
    }
    return true
}

extension _PatchJSONValue {
    /// The member named `key` of an object; a missing key reads as null, which is what JSONEncoder
    /// means when it omits a nil Optional.
    func member(_ key: StaticString) throws(_PatchDecodeError) -> _PatchJSONValue {
        guard case .object(let members) = self else { throw _PatchDecodeError("expected a JSON object", key: key) }
        for member in members where _patchBytesEqual(member.key, key) {
            return member.value
        }
        return .null
    }

    /// Decodes member `key` as `Value`, naming the key in the error when the member is malformed.
    func decode<Value: _PatchJSONCodable>(_ key: StaticString, as type: Value.Type = Value.self) throws(_PatchDecodeError) -> Value {
        do throws(_PatchDecodeError) {
            return try Value(_patchJSON: member(key))
        } catch {
            throw error.key.utf8CodeUnitCount == 0 ? _PatchDecodeError(error.reason, key: key) : error
        }
    }

    func hasMember(_ key: StaticString) -> Bool {
        guard case .object(let members) = self else { return false }
        for member in members where _patchBytesEqual(member.key, key) {
            if case .null = member.value { return false }
            return true
        }
        return false
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Reader

/// A recursive-descent JSON parser over the input buffer. Nesting is capped so hostile input cannot
/// exhaust the guest's stack.
struct _PatchJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 256

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) throws(_PatchDecodeError) -> _PatchJSONValue {
        guard let pointer, length > 0 else { throw _PatchDecodeError("empty input, expected a JSON object") }
        var reader = _PatchJSONReader(UnsafeBufferPointer(start: pointer, count: Int(length)))
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { throw _PatchDecodeError("trailing characters after the JSON value") }
        return value
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    private mutating func expect(_ literal: StaticString) throws(_PatchDecodeError) {
        let start = literal.utf8Start
        for index in 0..<literal.utf8CodeUnitCount {
            guard position < bytes.count, bytes[position] == start[index] else { throw _PatchDecodeError("invalid JSON literal") }
            position += 1
        }
    }

    mutating func readValue() throws(_PatchDecodeError) -> _PatchJSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw _PatchDecodeError("unexpected end of JSON input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try readNumber()
        }
    }

    private mutating func enter() throws(_PatchDecodeError) {
        depth += 1
        guard depth <= _PatchJSONReader.maximumDepth else { throw _PatchDecodeError("JSON nested too deeply") }
    }

    private mutating func readObject() throws(_PatchDecodeError) -> _PatchJSONValue {
        try enter()
        position += 1
        var members: [_PatchJSONMember] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw _PatchDecodeError("expected an object key") }
            let key = try readString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw _PatchDecodeError("expected ':' after an object key") }
            position += 1
            members.append(_PatchJSONMember(key: key, value: try readValue()))
            skipWhitespace()
            guard position < bytes.count else { throw _PatchDecodeError("unterminated JSON object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "}") else { throw _PatchDecodeError("expected ',' or '}' in an object") }
            position += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func readArray() throws(_PatchDecodeError) -> _PatchJSONValue {
        try enter()
        position += 1
        var elements: [_PatchJSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try readValue())
            skipWhitespace()
            guard position < bytes.count else { throw _PatchDecodeError("unterminated JSON array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "]") else { throw _PatchDecodeError("expected ',' or ']' in an array") }
            position += 1
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func readHexQuad() throws(_PatchDecodeError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw _PatchDecodeError("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw _PatchDecodeError("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func readString() throws(_PatchDecodeError) -> [UInt8] {
        position += 1
        var output: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") { return output }
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw _PatchDecodeError("control character in a JSON string") }
                output.append(byte)
                continue
            }
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHexQuad()
                if scalar >= 0xD800, scalar < 0xDC00 {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                    else { throw _PatchDecodeError("unpaired UTF-16 surrogate in a \\u escape") }
                    position += 2
                    let low = try readHexQuad()
                    guard low >= 0xDC00, low < 0xE000 else { throw _PatchDecodeError("unpaired UTF-16 surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00, scalar < 0xE000 {
                    throw _PatchDecodeError("unpaired UTF-16 surrogate in a \\u escape")
                }
                _PatchJSONReader.appendUTF8(scalar, to: &output)
            default:
                throw _PatchDecodeError("invalid escape in a JSON string")
            }
        }
        throw _PatchDecodeError("unterminated JSON string")
    }

    private mutating func readDigits(into mantissa: inout UInt64, significant: inout Int, dropped: inout Int) -> Int {
        var count = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            let digit = UInt64(bytes[position] - UInt8(ascii: "0"))
            if significant < 19 {
                if significant > 0 || digit != 0 { significant += 1 }
                mantissa = mantissa * 10 + digit
            } else {
                dropped += 1
            }
            position += 1
            count += 1
        }
        return count
    }

    /// Numbers: integers that fit Int64 stay exact; everything else becomes a Double. Conversion is
    /// exact (correctly rounded) whenever the decimal mantissa fits in 53 bits and the power of ten
    /// is at most 22, which covers money, percentages and measurements; beyond that it may be off
    /// by an ulp.
    private mutating func readNumber() throws(_PatchDecodeError) -> _PatchJSONValue {
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var dropped = 0
        let integerDigits = readDigits(into: &mantissa, significant: &significant, dropped: &dropped)
        guard integerDigits > 0 else { throw _PatchDecodeError("invalid JSON value") }
        var exponent = dropped
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            isInteger = false
            var fractionDropped = 0
            let fractionDigits = readDigits(into: &mantissa, significant: &significant, dropped: &fractionDropped)
            guard fractionDigits > 0 else { throw _PatchDecodeError("invalid JSON number") }
            // Digits kept after the point scale the mantissa down; leading fraction zeros count too.
            exponent -= fractionDigits - fractionDropped
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            isInteger = false
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            var written = 0
            var digits = 0
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                if written < 100_000 { written = written * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                position += 1
                digits += 1
            }
            guard digits > 0 else { throw _PatchDecodeError("invalid JSON number exponent") }
            exponent += exponentNegative ? -written : written
        }
        if isInteger, dropped == 0 {
            if negative, mantissa <= UInt64(Int64.max) + 1 {
                return .integer(mantissa == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mantissa))
            }
            if !negative, mantissa <= UInt64(Int64.max) { return .integer(Int64(mantissa)) }
        }
        var value = Double(mantissa)
        if mantissa != 0 {
            if exponent > 0 {
                var remaining = min(exponent, 400)
                while remaining >= 22 { value *= 1e22; remaining -= 22 }
                value *= _PatchJSONReader.powerOfTen(remaining)
            } else if exponent < 0 {
                var remaining = min(-exponent, 400)
                while remaining >= 22 { value /= 1e22; remaining -= 22 }
                value /= _PatchJSONReader.powerOfTen(remaining)
            }
        }
        return .double(negative ? -value : value)
    }

    private static func powerOfTen(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

// MARK: - Writer

/// Builds the output JSON in a byte buffer and hands it to the host as a packed `(ptr << 32) | len`
/// allocated with `patch_malloc` (the host frees it, sdk-contract §2.3).
struct _PatchJSONWriter {
    var bytes: [UInt8] = []
    /// Set when a value has no JSON form (a non-finite Double, which JSONEncoder also refuses).
    var failure: StaticString? = nil

    mutating func append(_ text: StaticString) {
        let start = text.utf8Start
        for index in 0..<text.utf8CodeUnitCount { bytes.append(start[index]) }
    }

    mutating func writeNull() { append("null") }

    mutating func writeBool(_ value: Bool) { append(value ? "true" : "false") }

    mutating func writeInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        for digit in digits.reversed() { bytes.append(digit) }
    }

    mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            failure = "a Double result is not finite; JSON cannot represent it"
            writeNull()
            return
        }
        var text = Array(value.description.utf8)
        if text.count >= 2, text[text.count - 2] == UInt8(ascii: "."), text[text.count - 1] == UInt8(ascii: "0") {
            text.removeLast(2)
        }
        bytes.append(contentsOf: text)
    }

    mutating func writeString(_ utf8: some Sequence<UInt8>) {
        let hex: StaticString = "0123456789abcdef"
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                append("\\u00")
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func writeKey(_ key: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        append(key)
        append("\":")
    }

    mutating func writeError(_ error: _PatchDecodeError) {
        bytes.removeAll()
        append("{\"error\":\"")
        append(error.reason)
        if error.key.utf8CodeUnitCount > 0 {
            append(" (key '")
            append(error.key)
            append("')")
        }
        append("\"}")
    }

    /// Hands the bytes to the host. 0 is the SDK's "no value" and is only returned when the guest
    /// cannot allocate, in which case the host sees an empty result.
    mutating func packedResult() -> Int64 {
        if let failure {
            bytes.removeAll()
            append("{\"error\":\"")
            append(failure)
            append("\"}")
        }
        guard let raw = patch_malloc(Int32(truncatingIfNeeded: bytes.count)) else { return 0 }
        let destination = raw.assumingMemoryBound(to: UInt8.self)
        for index in 0..<bytes.count { destination[index] = bytes[index] }
        let address = UInt64(UInt(bitPattern: Int(bitPattern: raw)))
        return Int64(bitPattern: address << 32 | UInt64(bytes.count))
    }
}

// MARK: - Type mapping

/// A value the generated glue can read from and write to JSON, in JSONEncoder's shapes. Generated
/// extensions make the project's structs and enums conform.
protocol _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError)
    func _patchEncode(into writer: inout _PatchJSONWriter)
}

extension Int64: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        switch value {
        case .integer(let integer): self = integer
        case .double(let double):
            // JSON has one number type: an exactly integral value written as 12.0 or 1e3 is still
            // an integer, as JSONDecoder treats it.
            guard double.isFinite, double == double.rounded(.towardZero), double >= -9.223372036854775808e18, double < 9.223372036854775808e18
            else { throw _PatchDecodeError("expected an integer") }
            self = Int64(double)
        default: throw _PatchDecodeError("expected an integer")
        }
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeInteger(self) }
}

extension Int: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let wide = try Int64(_patchJSON: value)
        // Int is 32-bit inside the wasm32 guest but 64-bit on the device: values outside Int32's
        // range cannot be represented here, so they fail decoding and the native code runs instead.
        guard let narrowed = Int(exactly: wide) else { throw _PatchDecodeError("integer out of range for the wasm32 guest") }
        self = narrowed
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeInteger(Int64(self)) }
}

extension Int32: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let narrowed = Int32(exactly: try Int64(_patchJSON: value)) else { throw _PatchDecodeError("integer out of range for Int32") }
        self = narrowed
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeInteger(Int64(self)) }
}

extension Double: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        switch value {
        case .double(let double): self = double
        case .integer(let integer): self = Double(integer)
        default: throw _PatchDecodeError("expected a number")
        }
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeDouble(self) }
}

extension Bool: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard case .bool(let bool) = value else { throw _PatchDecodeError("expected a Bool") }
        self = bool
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeBool(self) }
}

extension String: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard case .string(let utf8) = value else { throw _PatchDecodeError("expected a String") }
        self = String(decoding: utf8, as: UTF8.self)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeString(self.utf8) }
}

extension Optional: _PatchJSONCodable where Wrapped: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        if case .null = value {
            self = .none
        } else {
            self = .some(try Wrapped(_patchJSON: value))
        }
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        switch self {
        case .none: writer.writeNull()
        case .some(let wrapped): wrapped._patchEncode(into: &writer)
        }
    }
}

extension Array: _PatchJSONCodable where Element: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard case .array(let elements) = value else { throw _PatchDecodeError("expected an array") }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements { result.append(try Element(_patchJSON: element)) }
        self = result
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        writer.bytes.append(UInt8(ascii: "["))
        var first = true
        for element in self {
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            element._patchEncode(into: &writer)
        }
        writer.bytes.append(UInt8(ascii: "]"))
    }
}

extension Dictionary: _PatchJSONCodable where Key == String, Value: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard case .object(let members) = value else { throw _PatchDecodeError("expected an object") }
        var result: [String: Value] = [:]
        for member in members {
            result[String(decoding: member.key, as: UTF8.self)] = try Value(_patchJSON: member.value)
        }
        self = result
    }
    /// Keys are written in UTF-8 byte order, so the same dictionary always serializes the same way.
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        var keys: [[UInt8]] = []
        for key in self.keys { keys.append(Array(key.utf8)) }
        keys.sort { left, right in left.lexicographicallyPrecedes(right) }
        writer.bytes.append(UInt8(ascii: "{"))
        var first = true
        for key in keys {
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            writer.writeString(key)
            writer.bytes.append(UInt8(ascii: ":"))
            let text = String(decoding: key, as: UTF8.self)
            if let value = self[text] { value._patchEncode(into: &writer) }
        }
        writer.bytes.append(UInt8(ascii: "}"))
    }
}

// MARK: - Export plumbing

/// Runs one export: parse the input object, let the generated body decode the arguments, call the
/// function and write `{"value": …}` (or `{}` for Void), or `{"error": …}` on a decode failure.
@inline(__always)
func _patchExport(
    _ input: UnsafePointer<UInt8>?, _ length: Int32,
    _ body: (_PatchJSONValue, inout _PatchJSONWriter) throws(_PatchDecodeError) -> Void
) -> Int64 {
    var writer = _PatchJSONWriter()
    do throws(_PatchDecodeError) {
        let arguments = try _PatchJSONReader.parse(input, length)
        guard case .object = arguments else { throw _PatchDecodeError("expected a JSON object of arguments") }
        try body(arguments, &writer)
    } catch {
        writer.writeError(error)
    }
    return writer.packedResult()
}

extension _PatchJSONWriter {
    mutating func writeValueEnvelope<Value: _PatchJSONCodable>(_ value: Value) {
        append("{\"value\":")
        value._patchEncode(into: &self)
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func writeVoidEnvelope() {
        append("{}")
    }
}
