// Guest Foundation layer (see Foundation.swift): Data, a collection of bytes whose slices share
// their parent's indices (as Foundation's do: `data[2...].startIndex` is 2), with base64 and the
// String conversions real code uses. JSON (JSONEncoder's default) carries Data as a base64 string.

struct Data: Hashable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    private var bytes: [UInt8]
    /// The index of `bytes[0]`: 0, or where a slice began in the Data it was cut from.
    private var offset: Int

    init() {
        bytes = []
        offset = 0
    }

    init<Bytes: Sequence>(_ elements: Bytes) where Bytes.Element == UInt8 {
        bytes = Array(elements)
        offset = 0
    }

    init(repeating byte: UInt8, count: Int) {
        bytes = [UInt8](repeating: byte, count: count)
        offset = 0
    }

    init(count: Int) { self.init(repeating: 0, count: count) }

    init(capacity: Int) { self.init() }

    private init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var startIndex: Int { offset }
    var endIndex: Int { offset + bytes.count }
    var count: Int { bytes.count }

    subscript(position: Int) -> UInt8 {
        get { bytes[position - offset] }
        set { bytes[position - offset] = newValue }
    }

    subscript(bounds: Range<Int>) -> Data {
        get { Data(bytes: Array(bytes[(bounds.lowerBound - offset)..<(bounds.upperBound - offset)]), offset: bounds.lowerBound) }
        set { replaceSubrange(bounds, with: newValue) }
    }

    mutating func replaceSubrange<Replacement: Collection>(_ subrange: Range<Int>, with replacement: Replacement) where Replacement.Element == UInt8 {
        bytes.replaceSubrange((subrange.lowerBound - offset)..<(subrange.upperBound - offset), with: replacement)
    }

    mutating func append(_ other: Data) { bytes.append(contentsOf: other.bytes) }

    /// Equal bytes, wherever each starts (Foundation compares contents, not indices).
    static func == (lhs: Data, rhs: Data) -> Bool { lhs.bytes == rhs.bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    // MARK: Base64 (RFC 4648, padded, as Foundation writes and requires it)

    func base64EncodedString() -> String {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let table = UnsafeBufferPointer(start: alphabet.utf8Start, count: 64)
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let chunk = UInt32(bytes[index]) << 16 | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0) | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
            text.append(table[Int(chunk >> 18 & 63)])
            text.append(table[Int(chunk >> 12 & 63)])
            text.append(remaining > 1 ? table[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            text.append(remaining > 2 ? table[Int(chunk & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// nil unless `base64String` is padded base64 without whitespace or other characters.
    init?(base64Encoded base64String: String) {
        let text = Array(base64String.utf8)
        guard text.count % 4 == 0 else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            var chunk: UInt32 = 0
            var padding = 0
            for position in index..<(index + 4) {
                let byte = text[position]
                let value: UInt8
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
                case UInt8(ascii: "+"): value = 62
                case UInt8(ascii: "/"): value = 63
                case UInt8(ascii: "=") where index + 4 == text.count && position >= index + 2:
                    padding += 1
                    value = 0
                default: return nil
                }
                // Nothing but padding may follow padding.
                guard padding == 0 || byte == UInt8(ascii: "=") else { return nil }
                chunk = chunk << 6 | UInt32(value)
            }
            decoded.append(UInt8(truncatingIfNeeded: chunk >> 16))
            if padding < 2 { decoded.append(UInt8(truncatingIfNeeded: chunk >> 8)) }
            if padding < 1 { decoded.append(UInt8(truncatingIfNeeded: chunk)) }
            index += 4
        }
        self.init(decoded)
    }
}

extension Data: _PatchJSONCodable {
    /// JSONEncoder writes Data as a base64 string.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let data = Data(base64Encoded: try String(_patchJSON: value)) else { throw _PatchDecodeError("expected a base64 string for Data") }
        self = data
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { base64EncodedString()._patchEncode(into: &writer) }
}

// MARK: - String ⇄ Data

extension String {
    /// The text encodings the guest converts: UTF-8 and ASCII (the others are native-only).
    struct Encoding: Hashable {
        let rawValue: UInt
        static let ascii = Encoding(rawValue: 1)
        static let utf8 = Encoding(rawValue: 4)
    }

    /// nil when `data` is not valid in `encoding`.
    init?(data: Data, encoding: Encoding) {
        if encoding == .ascii, data.contains(where: { $0 >= 0x80 }) { return nil }
        guard let text = String(validating: data, as: UTF8.self) else { return nil }
        self = text
    }

    /// nil when the string has a character `encoding` cannot represent.
    func data(using encoding: Encoding, allowLossyConversion: Bool = false) -> Data? {
        if encoding == .ascii, utf8.contains(where: { $0 >= 0x80 }) {
            guard allowLossyConversion else { return nil }
            return Data(unicodeScalars.map { $0.isASCII ? UInt8(truncatingIfNeeded: $0.value) : UInt8(ascii: "?") })
        }
        return Data(utf8)
    }
}
