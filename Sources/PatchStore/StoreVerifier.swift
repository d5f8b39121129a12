import Foundation
import PatchDiff
import PatchManifest

/// What `patchcli verify` checked and what it found worth a warning.
public struct VerifyReport: Codable, Sendable {
    public var rootVersion: Int
    public var timestampVersion: Int
    public var snapshotVersion: Int
    public var targetsVersion: Int
    public var targets: Int
    /// Channel name → its latest release counter.
    public var channels: [String: Int]
    public var modulesChecked: Int
    public var diffsChecked: Int
    public var moduleVerifier: String?
    /// Files no metadata needs (left by killed publishes); `verify --repair` removes them.
    public var leftovers: StoreLeftovers
    /// Files `--repair` removed (nil without `--repair`).
    public var removed: StoreLeftovers?
    public var warnings: [String]
}

extension ReleaseStore {
    /// Verifies the whole store as a client would and more: the root chain, every signature,
    /// threshold, version and expiry at `now`; every target's length and hash; every release record
    /// and channel head (counters, and every path resolvable in the same targets metadata); every
    /// module decompressing to its recorded SHA-256 and passing `moduleVerifier`; every diff
    /// reproducing its module. `previousTimestamp` (a `timestamp.json` seen earlier) turns an older
    /// store into a rollback error, and so does `trusted` (the versions this machine trusted before,
    /// raised to this store's once it verifies). The first failure is thrown, naming its file.
    public func verify(
        now: Date, trustedRoot: [UInt8]? = nil, previousTimestamp: [UInt8]? = nil, trusted: TrustedVersionsFile? = nil,
        moduleVerifier: (any ModuleVerifier)?
    ) throws(StoreError) -> VerifyReport {
        let state = try loadState(now: now, trustedRoot: trustedRoot)
        try trusted?.check(state, of: self)
        let timestampPath = StorePath.metadataFile("timestamp.json")
        if let previousTimestamp {
            let previous: TimestampMetadata
            do { previous = try SignedEnvelope.parse(previousTimestamp).decode(TimestampMetadata.self) } catch {
                throw .invalidMetadata(path: "previous timestamp", error)
            }
            guard state.timestamp.version >= previous.version else {
                throw .rollbackDetected(path: timestampPath, trusted: previous.version, found: state.timestamp.version)
            }
            if let trustedSnapshot = previous.snapshot?.version, let snapshot = state.timestamp.snapshot?.version, snapshot < trustedSnapshot {
                throw .rollbackDetected(path: StorePath.metadataFile("snapshot.json"), trusted: trustedSnapshot, found: snapshot)
            }
        }

        for path in state.targets.targets.keys.sorted() {
            _ = try targetBytes(path, in: state, limit: path.hasPrefix("modules/") || path.hasPrefix("diffs/") ? StoreLimits.moduleBytes : StoreLimits.recordBytes)
        }

        var channels: [String: Int] = [:]
        var modules: [String: ModuleArtifact] = [:]
        var diffs: [String: (DiffArtifact, ModuleArtifact)] = [:]
        let targetsPath = StorePath.metadataFile(TUFRole.targets.fileName(version: state.targets.version))
        for channel in channelNames(in: state) {
            let headPath = ReleasePaths.channelHead(channel)
            guard let head = try channelHead(channel, in: state) else { continue }
            let history = try history(channel, in: state)
            guard head.channel == channel else { throw .invalidRecord(path: headPath, detail: "names channel \(head.channel)") }
            guard head.releaseCounter == history.last?.releaseCounter else {
                throw .invalidRecord(path: headPath, detail: "release_counter \(head.releaseCounter) differs from the highest record \(history.last?.releaseCounter ?? 0)")
            }
            for record in history {
                let path = ReleasePaths.record(channel: channel, counter: record.releaseCounter)
                guard record.channel == channel else { throw .invalidRecord(path: path, detail: "names channel \(record.channel)") }
                guard state.targets.targets[record.module.path] != nil else { throw .missingFile(path: record.module.path, referencedBy: path) }
                modules[record.module.path] = record.module
                for diff in record.diffs {
                    guard state.targets.targets[diff.path] != nil else { throw .missingFile(path: diff.path, referencedBy: path) }
                    diffs[diff.path] = (diff, record.module)
                }
            }
            for record in head.current where history.first(where: { $0.releaseCounter == record.releaseCounter }) != record {
                throw .invalidRecord(path: headPath, detail: "current record for \(record.fingerprint) differs from \(ReleasePaths.record(channel: channel, counter: record.releaseCounter))")
            }
            channels[channel] = head.releaseCounter
        }

        var rawModules: [String: [UInt8]] = [:]
        for (path, module) in modules.sorted(by: { $0.key < $1.key }) {
            let raw = try moduleBytes(module, in: state)
            do { _ = try moduleVerifier?.verify(artifact: raw) } catch {
                throw .moduleRejected(verifier: moduleVerifier?.name ?? "", detail: "\(path): \(error)")
            }
            rawModules[module.sha256] = raw
        }
        for (path, (diff, target)) in diffs.sorted(by: { $0.key < $1.key }) {
            guard let old = rawModules[diff.fromSHA256] else {
                throw .missingFile(path: ReleasePaths.module(sha256: diff.fromSHA256), referencedBy: path)
            }
            let patch = try targetBytes(path, in: state, limit: StoreLimits.moduleBytes)
            let result: [UInt8]
            do { result = try BSPatch.apply(old: old, patch: patch) } catch {
                throw .hashMismatch(path: path, listedBy: targetsPath, detail: "does not apply to its base module: \(error)")
            }
            guard SHA256Hasher.hex(of: result) == target.sha256 else {
                throw .hashMismatch(path: path, listedBy: targetsPath, detail: "applied to its base it does not reproduce module \(target.sha256)")
            }
        }

        try trusted?.checkAndRecord(state, of: self)
        // Leftovers never fail a store that verifies; an uncommitted targets file that does not
        // parse only means they cannot be told apart (and `--repair` refuses to guess).
        var leftoverWarnings: [String] = []
        let leftovers: StoreLeftovers
        do { leftovers = try self.leftovers() } catch {
            leftovers = StoreLeftovers(unreferencedTargets: [], temporaries: [])
            leftoverWarnings.append("leftovers of interrupted publishes cannot be listed: \(error)")
        }
        return VerifyReport(
            rootVersion: state.root.version, timestampVersion: state.timestamp.version, snapshotVersion: state.snapshot.version,
            targetsVersion: state.targets.version, targets: state.targets.targets.count, channels: channels,
            modulesChecked: modules.count, diffsChecked: diffs.count, moduleVerifier: moduleVerifier?.name,
            leftovers: leftovers, removed: nil, warnings: warnings(state, leftovers: leftovers, now: now) + leftoverWarnings)
    }

    private func warnings(_ state: StoreState, leftovers: StoreLeftovers, now: Date) -> [String] {
        var warnings: [String] = []
        let margins: [(TUFRole, String, TimeInterval)] = [
            (.timestamp, state.timestamp.expires, 86_400), (.snapshot, state.snapshot.expires, 14 * 86_400),
            (.targets, state.targets.expires, 14 * 86_400), (.root, state.root.expires, 14 * 86_400),
        ]
        for (role, expires, margin) in margins {
            if let date = TUFTime.parse(expires), date.timeIntervalSince(now) < margin {
                warnings.append("\(role.rawValue) metadata expires soon (\(expires)); publish or refresh before then")
            }
        }
        for orphan in state.orphans {
            warnings.append("\(orphan): left by an interrupted publish; no timestamp references it (harmless, kept so its version number is never reused)")
        }
        for path in leftovers.unreferencedTargets {
            warnings.append("\(path): no targets metadata lists it (left by an interrupted publish or copied in); `patchcli verify --repair` removes it")
        }
        for path in leftovers.temporaries {
            warnings.append("\(path): temporary file of an interrupted publish (or one in progress); `patchcli verify --repair` removes it")
        }
        let online = [TUFRole.targets, .snapshot, .timestamp].flatMap { state.root.roles[$0.rawValue]?.keyids ?? [] }
        if Set(online).count < online.count {
            warnings.append("targets, snapshot and timestamp share a key; one leaked key then signs all three (allowed by TUF, but separate keys limit the damage)")
        }
        if let rootKeys = state.root.roles[TUFRole.root.rawValue]?.keyids, !Set(rootKeys).isDisjoint(with: online) {
            warnings.append("the root key also signs an online role; keep root keys offline and separate")
        }
        return warnings
    }
}
