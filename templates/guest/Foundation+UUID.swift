// Guest Foundation layer (see Foundation.swift): UUID. `UUID()` draws its 122 random bits from the
// standard library's SystemRandomNumberGenerator, which support.c's arc4random_buf serves from the
// host's `patch.secure_random_bytes` bridge (sdk-contract §3.6), so only a module that makes one
// imports it. JSON (JSONEncoder's default) and a view's inputs (§5.4) carry a UUID as its
// `uuidString`: upper-case hex in 8-4-4-4-12 groups.

struct UUID: Hashable, Comparable, CustomStringConvertible {
    /// The 16 bytes, big-endian: the first 8 and the last 8.
    private let high: UInt64
    private let low: UInt64

    /// A random (version 4, RFC 4122 variant) UUID.
    init() {
        var generator = SystemRandomNumberGenerator()
        high = generator.next() & ~0xF000 | 0x4000
        low = generator.next() & ~(0xC000 << 48) | 0x8000 << 48
    }

    /// nil unless `uuidString` is 32 hex digits (either case) in 8-4-4-4-12 groups.
    init?(uuidString: String) {
        var high: UInt64 = 0, low: UInt64 = 0
        var position = 0, digits = 0
        for byte in uuidString.utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = _patchHexValue(byte) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        guard position == 36 else { return nil }
        self.high = high
        self.low = low
    }

    var uuidString: String {
        var text = ""
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.unicodeScalars.append("-") }
            let word = index < 16 ? high : low
            text.unicodeScalars.append(_patchHexDigit(UInt8(truncatingIfNeeded: word >> UInt64((15 - index % 16) * 4)) & 0xF))
        }
        return text
    }

    var description: String { uuidString }

    /// Byte order, as Foundation compares UUIDs.
    static func < (lhs: UUID, rhs: UUID) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }
}

extension UUID: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let uuid = UUID(uuidString: try String(_patchJSON: value)) else { throw _PatchDecodeError("expected a UUID string") }
        self = uuid
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { uuidString._patchEncode(into: &writer) }
}
