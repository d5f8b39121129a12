import Foundation
import PatchManifest
import PatchStore

/// What a check can be answered from: every channel's releases, read once from a verified store
/// state (signatures, hashes and expiry checked by `ReleaseStore.loadState`), indexed for lookups.
public struct ReleaseCatalog: Sendable {
    /// What one fingerprint on one channel can be offered.
    struct Offer: Sendable {
        /// The channel head's record for the fingerprint: the publisher's latest decision.
        var current: ReleaseRecord
        /// The contents a device may be offered, newest first (see `generations`).
        var candidates: [ReleaseRecord]
    }

    /// channel → fingerprint → its offer.
    let offers: [String: [String: Offer]]
    /// Every version any record ever had → its module's SHA-256 and the channels that gave it, to
    /// recognise what a device runs.
    let versions: [String: (content: String, channels: Set<String>)]
    /// Artifacts (module `.br` and diff target paths) whose file does not match the length and
    /// SHA-256 targets metadata lists, with why: never offered (`decide` falls back).
    public private(set) var unservable: [String: String]
    /// Served file (`targets/<dir>/<sha256>.<name>`) → its identity when its bytes were checked:
    /// a changed identity means the file was rewritten and is checked again before it is offered.
    /// The names are content-addressed, so a later catalog reuses what an earlier one checked.
    var checkedFiles: [String: StoreWatcher.FileIdentity]
    /// The verified metadata the catalog was read from; served files are checked against it.
    public let state: StoreState
    /// Target path → length and hashes of the served file, as targets metadata lists it.
    var targets: [String: TargetFileInfo] { state.targets.targets }
    public let timestampVersion: Int
    /// The earliest expiry of the four roles: past it, nothing from this state may be served.
    public let expires: Date

    /// Each channel head's current record per fingerprint (channels and fingerprints sorted): what
    /// `serve --notify-on-publish` compares to find a new release.
    public var currentRecords: [ReleaseRecord] {
        offers.keys.sorted().flatMap { channel in offers[channel, default: [:]].sorted { $0.key < $1.key }.map(\.value.current) }
    }

    /// How far back a device outside newer rollouts can be offered older content.
    static let maximumGenerations = 8

    /// Reads every channel and checks every artifact it could offer against the length and SHA-256
    /// the metadata lists (the store's verified `state`); the artifacts that fail are `unservable`.
    /// Files `previous` checked whose identity has not changed since are not read again.
    public init(store: ReleaseStore, state: StoreState, previous: ReleaseCatalog? = nil) throws(StoreError) {
        var offers: [String: [String: Offer]] = [:]
        var versions: [String: (content: String, channels: Set<String>)] = [:]
        for channel in store.channelNames(in: state) {
            guard let head = try store.channelHead(channel, in: state) else { continue }
            let history = try store.history(channel, in: state)
            for record in history { versions[record.version, default: (record.module.sha256, [])].channels.insert(channel) }
            var byFingerprint: [String: Offer] = [:]
            for current in head.current {
                byFingerprint[current.fingerprint] = Offer(current: current, candidates: Self.generations(current: current, history: history))
            }
            offers[channel] = byFingerprint
        }
        self.offers = offers
        self.versions = versions
        self.state = state
        timestampVersion = state.timestamp.version
        let expiries = [state.root.expires, state.timestamp.expires, state.snapshot.expires, state.targets.expires]
        expires = expiries.compactMap(TUFTime.parse).min() ?? .distantPast

        var unservable: [String: String] = [:]
        var checkedFiles: [String: StoreWatcher.FileIdentity] = [:]
        let artifacts = Set(offers.values.flatMap(\.values).flatMap(\.candidates).flatMap { [$0.module.path] + $0.diffs.map(\.path) })
        for path in artifacts.sorted() {
            guard let file = state.targets.targets[path]?.hashes["sha256"].map({ StorePath.targetFile(path, sha256: $0) }) else {
                unservable[path] = "not listed in the targets metadata"
                continue
            }
            let identity = StoreWatcher.identity(of: store.base.appendingPathComponent(file).path)
            if let identity, previous?.checkedFiles[file] == identity {
                checkedFiles[file] = identity
                continue
            }
            do {
                _ = try store.targetBytes(path, in: state, limit: StoreLimits.moduleBytes)
                checkedFiles[file] = identity
            } catch { unservable[path] = error.description }
        }
        self.unservable = unservable
        self.checkedFiles = checkedFiles
    }

    /// This catalog with one more artifact found unservable (its file changed after it was checked).
    func marking(_ path: String, unservable reason: String) -> ReleaseCatalog {
        var copy = self
        copy.unservable[path] = reason
        if let file = servedPath(ofTarget: path) { copy.checkedFiles[file] = nil }
        return copy
    }

    /// This catalog with a served file's identity refreshed after its bytes checked out again.
    func marking(file: String, checkedAs identity: StoreWatcher.FileIdentity?) -> ReleaseCatalog {
        var copy = self
        copy.checkedFiles[file] = identity
        return copy
    }

    /// The contents of one fingerprint a device may be offered, newest first: the channel head's
    /// record, then for each earlier content the last record it had before newer content replaced
    /// it. A device outside a partial rollout gets the newest earlier content whose own rollout and
    /// cohort include it, which is what it was served before. A disabled head (the kill switch)
    /// offers nothing; an earlier content that was disabled when it was replaced is skipped.
    static func generations(current: ReleaseRecord, history: [ReleaseRecord]) -> [ReleaseRecord] {
        if current.disabled { return [] }
        var result = [current]
        var seen: Set<String> = [current.module.sha256]
        for record in history.reversed() where record.fingerprint == current.fingerprint && record.releaseCounter < current.releaseCounter {
            guard !seen.contains(record.module.sha256) else { continue }
            seen.insert(record.module.sha256)
            if !record.disabled { result.append(record) }
            if result.count == maximumGenerations { break }
        }
        return result
    }

    /// What a device should get: the newest content its fingerprint, channel, cohort and rollout
    /// bucket make it eligible for, unless it already runs that content. An eligible content whose
    /// artifact is unservable is skipped for the next eligible one (the previous good release), and
    /// a diff that is unservable is left out (the full artifact is offered). Content older than the
    /// device's own release on this channel is offered only when the channel's record for the
    /// fingerprint is newer than the device's (a rollback, or a rollout lowered, decided after it):
    /// a store that went back in time never walks devices back with it.
    ///
    /// The diff offered is one from `patchBase`, the version whose bytes the device's SDK patches
    /// (`DeviceSlots.patchBase`: its previous slot when it has one); nil offers none.
    public func decide(_ request: UpdateCheckRequest, patchBase: String?) -> CheckDecision {
        guard let offer = offers[request.channel]?[request.fingerprint] else { return .upToDate }
        // Another app's release (or a check without a key) gets nothing; the server counts it.
        if let appKey = offer.current.appKey, request.appKey != appKey { return .wrongAppKey(expected: appKey) }
        let running = versions[request.currentVersion]
        // A version another channel gave says nothing about this channel's counters.
        let runningCounter = running.map { $0.channels.contains(request.channel) } ?? true
            ? ReleaseRecord.releaseCounter(ofVersion: request.currentVersion) : nil
        for record in offer.candidates
        where (record.cohort == nil || record.cohort == request.cohort) && RolloutBucket.includes(record, deviceID: request.deviceID) {
            if request.currentVersion == record.version || running?.content == record.module.sha256 { return .upToDate }
            if unservable[record.module.path] != nil { continue }
            if let runningCounter, record.releaseCounter < runningCounter, offer.current.releaseCounter <= runningCounter { return .upToDate }
            let diff = patchBase.flatMap { versions[$0] }.flatMap { base in
                record.diffs.first { $0.fromSHA256 == base.content && unservable[$0.path] == nil }
            }
            return .update(record, diff: diff)
        }
        return .upToDate
    }

    /// The channel has releases for the check's build fingerprint: only such a device's slots are
    /// worth keeping (a check for a build the store never served would only grow the table).
    func hasReleases(for request: UpdateCheckRequest) -> Bool {
        offers[request.channel]?[request.fingerprint] != nil
    }

    /// The version of the newest release with that module content (the one devices are offered).
    func newestVersion(ofContent sha256: String) -> String? {
        versions.filter { $0.value.content == sha256 }.keys.max {
            (ReleaseRecord.releaseCounter(ofVersion: $0) ?? 0, $0) < (ReleaseRecord.releaseCounter(ofVersion: $1) ?? 0, $1)
        }
    }

    /// The served file name (consistent snapshot) of a target the current metadata lists.
    func servedPath(ofTarget path: String) -> String? {
        guard let sha256 = targets[path]?.hashes["sha256"] else { return nil }
        return StorePath.targetFile(path, sha256: sha256)
    }

    /// The target path and listed hash behind a served file name `<dir>/<sha256>.<name>`, if the
    /// current metadata lists exactly that file. Anything else (unlisted, other hash, `..`) is nil.
    func target(servedAs relative: String) -> (path: String, sha256: String)? {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = components.last, !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              let dot = last.firstIndex(of: ".") else { return nil }
        let sha256 = String(last[..<dot])
        let name = last[last.index(after: dot)...]
        let path = (components.dropLast().map(String.init) + [String(name)]).joined(separator: "/")
        guard sha256.count == 64, targets[path]?.hashes["sha256"] == sha256 else { return nil }
        return (path, sha256)
    }
}

/// The outcome of one check.
public enum CheckDecision: Sendable, Equatable {
    case upToDate
    /// The release to install and, when the store holds one from the content the device patches, a diff.
    case update(ReleaseRecord, diff: DiffArtifact?)
    /// The fingerprint's release is for another app key than the check's: no update.
    case wrongAppKey(expected: String)
}
