import PatchManifest

/// An artifact unwrapped the way the SDK activates it (sdk-contract §0): the verified bytes, the
/// optional overlay chunk and the member modules.
public struct LoadedArtifact: Sendable {
    /// Layers peeled off, outermost first: "POVR", "PMOD", "wasm".
    public var layers: [String]
    /// Lowercase hex SHA-256 of the artifact (the thing the update response's `sha256` covers).
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

/// Detects an artifact's layers by magic (never by file name), checks its SHA-256 before parsing
/// anything, and splits it into modules.
public enum ArtifactLoader {
    static let wasmMagic: [UInt8] = [0x00, 0x61, 0x73, 0x6D]

    /// - Parameters:
    ///   - expectedSHA256: hex digest the artifact must have, checked before any parsing.
    ///   - hashSource: where the expected digest came from, for the mismatch message.
    public static func load(_ bytes: [UInt8], expectedSHA256: String?, hashSource: String = "--sha256") throws(RuntimeError) -> LoadedArtifact {
        let digest = SHA256Hasher.hex(of: bytes)
        if let expected = expectedSHA256 {
            let normalized = try normalizedDigest(expected, source: hashSource)
            guard normalized == digest else {
                throw .integrityMismatch(expected: normalized, actual: digest, source: hashSource)
            }
        }
        var layers: [String] = []
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
