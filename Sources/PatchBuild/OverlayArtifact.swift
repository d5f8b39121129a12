import Foundation
import PatchAssets
import PatchManifest

/// The artifact `build` writes when assets ship (docs/assets.md): `POVR[PROV, inner]` (sdk-contract
/// §0, §1.3), the inner module being the build's module.wasm, or, when no code changed, the smallest
/// module a device activates (`OverlayEnvelope.assetOnlyInnerModule`). It goes to `artifact/` in the
/// output directory with its own manifest.json (sha256, fingerprint and the module's probes, as
/// `release` and `run` read them next to any artifact).
public struct OverlayArtifact: Sendable, Codable, Equatable {
    public static let directory = "artifact"
    public static let fileName = "patch.povr"
    static let outputFiles = [directory + "/" + fileName, directory + "/manifest.json"]

    /// Relative to the output directory.
    public var file: String
    public var size: Int
    public var sha256: String
    public var overlayBytes: Int
    /// `module.wasm`, or `asset-only` for the 25-byte module of an artifact without code.
    public var inner: String
    public var innerBytes: Int

    /// artifact/manifest.json.
    struct Manifest: Codable {
        var baselineFingerprint: String
        var sha256: String
        var size: Int
        var file: String
        var inner: String
        var probes: [GuestProbe]
        var assets: [AssetChangeSet.Shipped]
        var unshippable: [AssetIssue]
    }

    static func write(assets: AssetChangeSet, module: GuestBuildResult?, outputDirectory: String, baselineFingerprint: String,
                      maxBytes: Int?) throws(ProjectBuildError) -> OverlayArtifact {
        let inner: [UInt8]
        if let module {
            let path = Preparer.join(outputDirectory, module.manifest.module.file)
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw .guest(.outputUnwritable(path: path, reason: "the module just written cannot be read back"))
            }
            inner = Array(bytes)
        } else {
            inner = OverlayEnvelope.assetOnlyInnerModule
        }
        let overlay: [UInt8]
        let bytes: [UInt8]
        do {
            overlay = try assets.overlay.encode()
            bytes = try OverlayEnvelope(overlay: overlay, inner: inner).encode()
        } catch {
            throw .guest(.outputUnwritable(path: Preparer.join(outputDirectory, directory), reason: "\(error)"))
        }
        if let maxBytes, bytes.count > maxBytes {
            try ProjectBuilder.removeEarlierOutputs(in: outputDirectory)
            throw .artifactTooLarge(ArtifactSizeReport(bytes: bytes.count, limit: maxBytes, moduleBytes: module == nil ? 0 : inner.count,
                                                       assets: assets.shipped.map { .init(id: $0.id, bytes: $0.bytes) }))
        }
        let sha256 = SHA256Hasher.hex(of: bytes)
        let artifact = OverlayArtifact(file: directory + "/" + fileName, size: bytes.count, sha256: sha256, overlayBytes: overlay.count,
                                       inner: module?.manifest.module.file ?? "asset-only", innerBytes: inner.count)
        let manifest = Manifest(baselineFingerprint: baselineFingerprint, sha256: sha256, size: bytes.count, file: fileName, inner: artifact.inner,
                                probes: module?.manifest.probes ?? [], assets: assets.shipped, unshippable: assets.unshippable)
        do {
            try GuestModuleBuilder.writeOutputs([(fileName, bytes), ("manifest.json", try GuestModuleBuilder.encode(manifest))],
                                                to: Preparer.join(outputDirectory, directory))
        } catch {
            throw .guest(error)
        }
        return artifact
    }
}

/// An artifact over `--max-artifact-bytes`, and what makes it up, largest first.
public struct ArtifactSizeReport: Sendable, Codable, Equatable, CustomStringConvertible {
    public struct Item: Sendable, Codable, Equatable {
        public var id: String
        public var bytes: Int

        public init(id: String, bytes: Int) {
            self.id = id
            self.bytes = bytes
        }
    }

    public var bytes: Int
    public var limit: Int
    /// The code module's bytes (0 for an asset-only artifact).
    public var moduleBytes: Int
    /// Each shipped asset's share of the overlay, largest first.
    public var assets: [Item]

    public init(bytes: Int, limit: Int, moduleBytes: Int, assets: [Item]) {
        self.bytes = bytes
        self.limit = limit
        self.moduleBytes = moduleBytes
        self.assets = assets.sorted { ($0.bytes, $1.id) > ($1.bytes, $0.id) }
    }

    public var description: String {
        let largest = assets.prefix(5).map { "\($0.id) \($0.bytes) B" }.joined(separator: ", ")
        return "the artifact is \(bytes) bytes, over the limit of \(limit) (--max-artifact-bytes): module \(moduleBytes) bytes"
            + (assets.isEmpty ? "" : "; largest assets: \(largest)")
    }
}
