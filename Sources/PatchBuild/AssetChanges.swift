import Foundation
import PatchAssets
import PatchManifest

/// The app's assets against the baseline: what `build` ships in the artifact's resource overlay
/// (docs/assets.md "What ships").
public struct AssetChangeSet: Sendable {
    public struct Shipped: Sendable, Equatable, Codable {
        public enum Change: String, Sendable, Codable {
            /// Not in the baseline: a new override (the app's code may already ask for the name).
            case added
            case modified
        }

        public var id: String
        public var kind: AssetEntry.Kind
        public var change: Change
        public var file: String
        /// Its share of the PROV chunk, in bytes.
        public var bytes: Int
        public var summary: String
    }

    /// Every asset that differs from the baseline and rides the overlay, sorted by id. The overlay is
    /// cumulative: each artifact carries every change since the shipped build, as a device replaces
    /// the whole overlay with each module set (sdk-contract §7.8).
    public var shipped: [Shipped]
    /// The overlay of `shipped`.
    public var overlay: ResourceOverlay
    /// What changed but cannot ride PROV (plural variants, vector images, removed assets): it needs
    /// an app release.
    public var unshippable: [AssetIssue]
    /// Broken assets the baseline already had broken: not shipped, not blocking (docs/assets.md).
    public var unchangedInvalid: [AssetIssue] = []

    public var isEmpty: Bool { shipped.isEmpty }

    /// No asset changed.
    public static let none = AssetChangeSet(shipped: [], overlay: ResourceOverlay(), unshippable: [])
}

public enum AssetChanges {
    /// What `prepare` records: every asset, and every broken or unshippable one by the hash of its
    /// source, so `build` acts only on what changed since.
    public static func baselineRecords(root: String, config: ProjectConfig) -> [Baseline.Asset] {
        baselineRecords(of: inventory(root: root, config: config))
    }

    static func baselineRecords(of inventory: AssetInventory) -> [Baseline.Asset] {
        inventory.entries.map { Baseline.Asset(id: $0.id, contentHash: $0.contentHash, file: $0.file) }
            + (inventory.errors + inventory.unshippable).map { Baseline.Asset(id: $0.id, contentHash: $0.contentHash, file: $0.issue.file) }
    }

    static func inventory(root: String, config: ProjectConfig) -> AssetInventory {
        AssetReader.read(root: root, roots: AssetReader.roots(of: config), configFiles: config.assets?.configFiles ?? [])
    }

    /// The assets that differ from `baseline`. A broken asset that is new or changed since the
    /// baseline stops here, with its file, key and reason, before anything is written. A baseline
    /// without assets (written before patchcli recorded them, or of an app without asset sources)
    /// gives nothing to compare with: no asset ships, and a note says to run `prepare` at the next
    /// app release (shipping every asset as new would re-send the whole catalog).
    public static func detect(root: String, config: ProjectConfig, baseline: [Baseline.Asset]) throws(AssetBuildError) -> AssetChangeSet {
        let inventory = inventory(root: root, config: config)
        guard !baseline.isEmpty else {
            let found = inventory.entries.count + inventory.errors.count + inventory.unshippable.count
            guard found > 0 else { return .none }
            return AssetChangeSet(shipped: [], overlay: ResourceOverlay(), unshippable: [AssetIssue(
                file: ".patch/baseline.json",
                reason: "records no assets (written before patchcli recorded them): \(found) asset(s) found are not compared or shipped; run `patchcli prepare` for the next app release")])
        }
        let recorded = Dictionary(baseline.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let changedErrors = inventory.errors.filter { recorded[$0.id]?.contentHash != $0.contentHash }
        guard changedErrors.isEmpty else { throw .invalidAssets(changedErrors.map(\.issue)) }
        var shipped: [AssetChangeSet.Shipped] = []
        var entries: [AssetEntry] = []
        for entry in inventory.entries {
            let previous = recorded[entry.id]
            guard previous?.contentHash != entry.contentHash else { continue }
            entries.append(entry)
            shipped.append(.init(id: entry.id, kind: entry.kind, change: previous == nil ? .added : .modified, file: entry.file,
                                 bytes: entry.encodedBytes, summary: entry.summary))
        }
        // Only what changed: an app's unchanged plural strings are not news at every build.
        let changedUnshippable = inventory.unshippable.filter { recorded[$0.id]?.contentHash != $0.contentHash }.map(\.issue)
        let current = Set(inventory.entries.map(\.id) + inventory.unshippable.map(\.id) + inventory.errors.map(\.id))
        let removed = baseline.filter { !current.contains($0.id) }.map {
            AssetIssue(file: $0.file, key: $0.id, reason: "removed since the baseline: an overlay can only override, so the app keeps its bundled asset until an app release")
        }
        return AssetChangeSet(shipped: shipped, overlay: ResourceOverlay(entries: entries), unshippable: changedUnshippable + removed,
                              unchangedInvalid: inventory.errors.map(\.issue))
    }
}

public enum AssetBuildError: Error, Sendable, CustomStringConvertible {
    case invalidAssets([AssetIssue])

    public var description: String {
        switch self {
        case let .invalidAssets(issues):
            return "\(issues.count) asset(s) are invalid:\n" + issues.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}
