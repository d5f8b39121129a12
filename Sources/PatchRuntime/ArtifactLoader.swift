import PatchDiff
import PatchManifest

/// An artifact unwrapped the way the SDK activates it (sdk-contract §0): the verified bytes, the
/// optional overlay chunk and the member modules.
public struct LoadedArtifact: Sendable {
    /// Layers peeled off, outermost first: "brotli" or "zstd" (a compressed download), "POVR",
    /// "PMOD", "wasm".
    public var layers: [String]
    /// Lowercase hex SHA-256 of the artifact, decompressed (what the update response's `sha256`
    /// covers: devices hash after decompressing, sdk-contract §7.4).
    public var sha256: String
    /// The `PROV` overlay chunk of a POVR envelope, verbatim.
    public var overlay: [UInt8]?
    /// Module 0 is the primary; a plain `.wasm` is a one-module artifact.
    public var modules: [[UInt8]]

    public init(layers: [String], sha256: String, overlay: [UInt8]?, modules: [[UInt8]]) {
        self.layers = layers
        self.sha256 = sha256
        self.overlay = overlay
        self.modules = modules
    }
}

/// Detects an artifact's layers by magic (never by file name), decompresses a brotli or zstd
/// download, checks its SHA-256 before parsing anything, and splits it into modules.
public enum ArtifactLoader {
    static let wasmMagic: [UInt8] = [0x00, 0x61, 0x73, 0x6D]
    /// The SDK's brotli output cap (sdk-contract §1.4); zstd gets the same.
    public static let maxDecompressedBytes = 512 << 20

    /// - Parameters:
    ///   - expectedSHA256: hex digest the artifact must have, checked before any parsing.
    ///   - hashSource: where the expected digest came from, for the mismatch message.
    ///   - maxDecompressedBytes: the most a compressed download may expand to.
    public static func load(_ download: [UInt8], expectedSHA256: String?, hashSource: String = "--sha256",
                            maxDecompressedBytes: Int = maxDecompressedBytes) throws(RuntimeError) -> LoadedArtifact {
        var layers: [String] = []
        let bytes = try decompressed(download, limit: maxDecompressedBytes, layers: &layers)
        let digest = SHA256Hasher.hex(of: bytes)
        if let expected = expectedSHA256 {
            let normalized = try normalizedDigest(expected, source: hashSource)
            guard normalized == digest else {
                throw .integrityMismatch(expected: normalized, actual: digest, source: hashSource)
            }
        }
        var overlay: [UInt8]?
        var inner = bytes
        if OverlayEnvelope.hasMagic(inner) {
            let envelope: OverlayEnvelope
            do { envelope = try OverlayEnvelope.decode(inner) } catch { throw .malformedContainer(error) }
            layers.append("POVR")
            overlay = envelope.overlay
            inner = envelope.inner
        }
        let modules: [[UInt8]]
        if ModuleContainer.hasMagic(inner) {
            do { modules = try ModuleContainer.decode(inner).modules } catch { throw .malformedContainer(error) }
            layers.append("PMOD")
        } else if inner.starts(with: wasmMagic) {
            modules = [inner]
        } else {
            throw .unrecognizedArtifact(firstBytes: hexPrefix(inner))
        }
        layers.append("wasm")
        return LoadedArtifact(layers: layers, sha256: digest, overlay: overlay, modules: modules)
    }

    /// The artifact inside a compressed download, or `bytes` themselves. zstd is detected by its
    /// magic number; brotli has none, so bytes that start with no known magic are tried as brotli and
    /// taken as such only when they decode to an artifact that does.
    static func decompressed(_ bytes: [UInt8], limit: Int, layers: inout [String]) throws(RuntimeError) -> [UInt8] {
        guard !startsWithArtifactMagic(bytes) else { return bytes }
        let codec: CodecKind = CodecKind.detect(bytes) == .zstd ? .zstd : .brotli
        let raw: [UInt8]
        do {
            raw = try codec.decompress(bytes, maxOutputBytes: limit)
        } catch {
            // Bytes that are no brotli stream at all are an unknown artifact (the caller names them);
            // a zstd stream that fails, or any stream that grows past the cap, is a broken download.
            let overCap = if case .outputLimitExceeded = error { true } else { false }
            guard codec == .zstd || overCap else { return bytes }
            throw .compressedArtifact(codec: codec.rawValue, detail: "\(error)")
        }
        guard startsWithArtifactMagic(raw) else {
            if codec == .brotli { return bytes }
            throw .compressedArtifact(codec: codec.rawValue, detail: "decompressed to \(raw.count) bytes that start with no module magic (\(hexPrefix(raw)))")
        }
        layers.append(codec.rawValue)
        return raw
    }

    static func startsWithArtifactMagic(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: wasmMagic) || OverlayEnvelope.hasMagic(bytes) || ModuleContainer.hasMagic(bytes)
    }

    /// A digest as the contract writes it: 64 hex digits, compared case-insensitively.
    public static func normalizedDigest(_ text: String, source: String) throws(RuntimeError) -> String {
        let lowered = text.lowercased()
        guard lowered.utf8.count == 64, lowered.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .invalidSHA256(value: text, source: source)
        }
        return lowered
    }

    static func hexPrefix(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        let shown = bytes.prefix(8).map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 0xF)])" }.joined(separator: " ")
        return shown.isEmpty ? "empty file" : shown
    }
}
