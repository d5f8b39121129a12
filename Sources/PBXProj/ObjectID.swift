/// Object IDs for objects we add: 24 uppercase hex digits like Xcode's, derived from a seed string
/// so that the same edit on the same file always produces the same bytes (reviewable diffs,
/// reproducible tests, and an object we created can be recognised when it is removed again).
package enum ObjectID {
    /// The ID for `seed`, skipping IDs in `taken` (the first free one of `seed`, `seed#1`, ...).
    package static func derive(from seed: String, avoiding taken: Set<String>) -> String {
        var attempt = 0
        while true {
            let candidate = hex(attempt == 0 ? seed : "\(seed)#\(attempt)")
            if !taken.contains(candidate) { return candidate }
            attempt += 1
        }
    }

    /// 96 bits from two FNV-1a 64-bit hashes of the seed (with different offset bases). Not a
    /// cryptographic hash: IDs only need to be unique within one file, which `derive` checks.
    private static func hex(_ seed: String) -> String {
        func fnv1a(_ basis: UInt64) -> UInt64 {
            var hash = basis
            for byte in seed.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            return hash
        }
        let high = fnv1a(0xCBF2_9CE4_8422_2325), low = fnv1a(0x8422_2325_CBF2_9CE4)
        func padded(_ value: UInt64) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return padded(high) + padded(low).suffix(8)
    }
}
