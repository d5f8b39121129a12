import PatchManifest
import Testing

@Suite struct SHA256HasherTests {
    @Test func knownVectors() {
        #expect(SHA256Hasher.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Hasher.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hexCoversEveryByteValue() {
        let bytes = (0...255).map(UInt8.init)
        let hex = Hex.encode(bytes)
        #expect(hex.count == 512)
        #expect(hex.hasPrefix("000102030405060708090a0b0c0d0e0f10") && hex.hasSuffix("f9fafbfcfdfeff"))
        #expect(Hex.decode(hex) == bytes)
        #expect(Hex.encode([]) == "")
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256Hasher()
        var index = 0
        for size in [1, 63, 64, 65, 4096, 30_000] where index < bytes.count {
            let end = min(bytes.count, index + size)
            hasher.update(Array(bytes[index..<end]))
            index = end
        }
        hasher.update(Array(bytes[index...]))
        #expect(hasher.finalizeHex() == SHA256Hasher.hex(of: bytes))
    }
}
