import Foundation
import PatchAssets
import PatchManifest

/// One `prepare` run over a project on disk: reads the config, sources, generated files and state,
/// and returns every file to write, so the caller can check, diff or apply them.
public struct PrepareSession: Sendable {
    public var plan: PreparePlan
    /// Sources, generated files and the baseline: what `--check` compares and `--dry-run` shows.
    public var updates: [PreparePlan.FileUpdate]
    /// The originals of the sources this run rewrites for the first time (or that changed since),
    /// saved under `.patch/originals/` for `--revert`.
    public var originals: [PreparePlan.FileUpdate]
    /// The rest of the `.patch/` bookkeeping: the state file and the scan cache.
    public var bookkeeping: [PreparePlan.FileUpdate]
    /// `.patch/baseline.json` as it is on disk (nil when absent).
    public var currentBaseline: [UInt8]?
    /// The files of the targets that `prepare` generated, or that hold a section it generated, as
    /// they are on disk, by path: what `--check` parses.
    public var generatedFiles: [String: [UInt8]]
    /// The project's patch.json and folder, for what is read from the project file on demand.
    public var config: ProjectConfig
    public var root: String
    /// The app's broken assets (docs/assets.md "Validation"): recorded in the baseline as they are,
    /// reported so they are fixed before a patch edits them.
    public var invalidAssets: [AssetIssue] = []

    /// Every change, in the order to make it: the saved originals before the sources they preserve
    /// (an interrupted run never leaves a rewritten file without its original), then sources and
    /// generated files, then the state and the cache, which describe the finished result.
    public var updatesInWriteOrder: [PreparePlan.FileUpdate] { originals + updates + bookkeeping }

    /// Whether this run creates or deletes a generated file: what a wired Xcode project must then
    /// list or forget (`AppWiring.registration`).
    public var createsOrDeletesGeneratedFiles: Bool {
        updates.contains { update in (update.before == nil) != (update.after == nil) && Preparer.isGenerated(update.after ?? update.before ?? []) }
    }

    /// The generated files the Xcode project does not compile in exactly the targets that need them
    /// (empty for a Swift package): reads the project file, so only `--check` and a `prepare` that
    /// would otherwise leave the project file alone ask.
    public func registrationMismatches() throws(ProjectError) -> [GeneratedFileRegistration] {
        try GeneratedFileRegistration.mismatches(config: config, root: root, generatedFileTargets: plan.generatedFileTargets)
    }

    public static func run(root: String) throws(ProjectError) -> PrepareSession {
        let config = try ProjectSources.loadConfig(root: root)
        let targets = try ProjectSources.targets(config: config, root: root)
        var existing: [String: [UInt8]?] = [:]
        func existingFile(_ path: String) -> [UInt8]? {
            if let cached = existing[path] { return cached }
            let bytes = (try? ProjectSources.readIfPresent(Preparer.join(root, path))) ?? nil
            existing[path] = bytes
            return bytes
        }
        let cacheBytes = try ProjectSources.readIfPresent(Preparer.join(root, ScanCache.path))
        let cache = cacheBytes.map(ScanCache.init(bytes:)) ?? ScanCache()
        let statePath = Preparer.join(root, PrepareState.path)
        let stateBytes = try ProjectSources.readIfPresent(statePath)
        let state = try stateBytes.map { bytes throws(ProjectError) in try PrepareState.decode(bytes, path: statePath) } ?? PrepareState()
        let assetInventory = AssetChanges.inventory(root: root, config: config)
        let plan = Preparer.plan(targets: targets, appTarget: config.appTarget, routing: RoutingSelection(config: config),
                                 cache: cache, previouslyGenerated: state.generatedFiles,
                                 previousInsertions: state.files.mapValues(\.insertions), assets: AssetChanges.baselineRecords(of: assetInventory),
                                 platforms: try ProjectPlatforms.detect(config: config, root: root), existingFile: existingFile)
        var updates = plan.updates
        let baselineBytes = plan.baselineBytes
        let currentBaseline = try ProjectSources.readIfPresent(Preparer.join(root, PrepareState.baselinePath))
        if currentBaseline != baselineBytes {
            updates.append(.init(path: PrepareState.baselinePath, before: currentBaseline, after: baselineBytes))
        }

        var currentFiles: [String: [UInt8]] = [:]
        var generatedFiles: [String: [UInt8]] = [:]
        for target in targets {
            for file in target.files {
                currentFiles[file.path] = file.bytes
                if Preparer.isGenerated(file.bytes) || GeneratedSection.split(file.bytes).hadSection { generatedFiles[file.path] = file.bytes }
            }
        }
        let (nextState, originals) = state.advanced(by: plan, currentFiles: currentFiles,
                                                    createdDirectories: directoriesToCreate(for: plan.updates, root: root))
        let originalUpdates: [PreparePlan.FileUpdate] = originals.sorted { $0.key < $1.key }.map { path, bytes in
            .init(path: PrepareState.originalPath(for: path), before: nil, after: bytes)
        }
        var bookkeeping: [PreparePlan.FileUpdate] = []
        if nextState != state || stateBytes == nil {
            bookkeeping.append(.init(path: PrepareState.path, before: stateBytes, after: nextState.encoded()))
        }
        // Written when it gained scans; dropping the scans of files that are gone alone is not worth
        // rewriting it (that happens with the next write).
        if cacheBytes == nil || !Set(plan.cache.scans.keys).isSubset(of: cache.scans.keys) {
            bookkeeping.append(.init(path: ScanCache.path, before: cacheBytes, after: plan.cache.encoded()))
        }
        return PrepareSession(plan: plan, updates: updates, originals: originalUpdates, bookkeeping: bookkeeping,
                              currentBaseline: currentBaseline, generatedFiles: generatedFiles, config: config, root: root,
                              invalidAssets: assetInventory.errors.map(\.issue))
    }

    /// The folders (relative to `root`) that writing `updates` creates, outermost first.
    static func directoriesToCreate(for updates: [PreparePlan.FileUpdate], root: String) -> [String] {
        var created = Set<String>()
        for update in updates where update.after != nil && update.before == nil {
            var folder = (update.path as NSString).deletingLastPathComponent
            while !folder.isEmpty, !created.contains(folder), !FileManager.default.fileExists(atPath: Preparer.join(root, folder)) {
                created.insert(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        return created.sorted()
    }

    /// What `prepare --revert` does: the file updates, then the folders to remove when empty.
    public struct Revert: Sendable {
        public var updates: [PreparePlan.FileUpdate] = []
        /// Folders prepare created, deepest first: each is removed once the updates leave it empty.
        public var directoriesToRemove: [String] = []
    }

    /// The revert of `prepare`: sources back to their originals (their modes are kept by the writer),
    /// generated files deleted, the folders prepare created removed, and the `.patch/` bookkeeping and
    /// cache removed (the baseline stays: it describes what was shipped).
    public static func revert(root: String) throws(ProjectError) -> Revert {
        let statePath = Preparer.join(root, PrepareState.path)
        guard let stateBytes = try ProjectSources.readIfPresent(statePath) else { return Revert() }
        let state = try PrepareState.decode(stateBytes, path: statePath)
        var updates = try state.revertUpdates { path throws(ProjectError) in try ProjectSources.readIfPresent(Preparer.join(root, path)) }
        for path in state.files.keys.sorted() {
            let original = PrepareState.originalPath(for: path)
            if let bytes = try ProjectSources.readIfPresent(Preparer.join(root, original)) {
                updates.append(.init(path: original, before: bytes, after: nil))
            }
        }
        updates.append(.init(path: PrepareState.path, before: stateBytes, after: nil))
        if let cacheBytes = try ProjectSources.readIfPresent(Preparer.join(root, ScanCache.path)) {
            updates.append(.init(path: ScanCache.path, before: cacheBytes, after: nil))
        }
        return Revert(updates: updates, directoriesToRemove: state.createdDirectories.sorted { $0.count > $1.count })
    }
}
