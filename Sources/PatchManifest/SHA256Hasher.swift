import Crypto

/// SHA-256 as every stage of Patch uses it: lowercase hex, the form the update response's `sha256`
/// carries and devices compare against (sdk-contract §7.4).
public struct SHA256Hasher: Sendable {
    private var state = SHA256()

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        state.update(bufferPointer: bytes)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public func finalizeHex() -> String {
        // Read in place: copying the digest through its Sequence conformance cost more than hashing
        // a short declaration (prepare hashes tens of thousands of them).
        state.finalize().withUnsafeBytes { Hex.encode($0) }
    }

    /// The digest of a whole buffer in one call.
    public static func hex(of bytes: [UInt8]) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }
}
