import PatchBuild
import PatchManifest
import PatchStore

/// What an artifact to release is made of: with a POVR envelope, the overlay, the inner module and
/// each overlay entry's bytes (`release --dry-run`'s listing and `--max-artifact-bytes`' report;
/// docs/assets.md "Size").
struct ArtifactComposition: Encodable, Sendable {
    var bytes: Int
    var overlayBytes: Int?
    var innerBytes: Int?
    /// Largest first.
    var assets: [ResourceOverlay.EntrySize] = []

    init(_ artifact: [UInt8]) {
        bytes = artifact.count
        guard OverlayEnvelope.hasMagic(artifact), let envelope = try? OverlayEnvelope.decode(artifact) else { return }
        overlayBytes = envelope.overlay.count
        innerBytes = envelope.inner.count
        assets = (try? ResourceOverlay.decode(envelope.overlay))?.entrySizes ?? []
    }

    func sizeReport(limit: Int) -> ArtifactSizeReport {
        ArtifactSizeReport(bytes: bytes, limit: limit, moduleBytes: innerBytes ?? bytes, assets: assets.map { .init(id: $0.id, bytes: $0.bytes) })
    }

    /// Human lines; none for an artifact without an overlay.
    var lines: [String] {
        guard let overlayBytes, let innerBytes else { return [] }
        return ["artifact \(bytes) bytes: overlay \(overlayBytes) B (\(assets.count) asset(s)) + module \(innerBytes) B"]
            + assets.map { "  \($0.bytes) B  \($0.id)" }
    }
}
