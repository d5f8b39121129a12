import Foundation
import PatchManifest
import PatchStore

/// What a check can be answered from: every channel's releases, read once from a verified store
/// state (signatures, hashes and expiry checked by `ReleaseStore.loadState`), indexed for lookups.
public struct ReleaseCatalog: Sendable {
    /// channel → fingerprint → the contents a device may be offered, newest first (see `generations`).
    let offers: [String: [String: [ReleaseRecord]]]
    /// Every version any record ever had → its module's SHA-256, to recognise what a device runs.
    let contentByVersion: [String: String]
    /// The verified metadata the catalog was read from; served files are checked against it.
    public let state: StoreState
    /// Target path → length and hashes of the served file, as targets metadata lists it.
    var targets: [String: TargetFileInfo] { state.targets.targets }
    public let timestampVersion: Int
    /// The earliest expiry of the four roles: past it, nothing from this state may be served.
    public let expires: Date

    /// How far back a device outside newer rollouts can be offered older content.
    static let maximumGenerations = 8

    public init(store: ReleaseStore, state: StoreState) throws(StoreError) {
        var offers: [String: [String: [ReleaseRecord]]] = [:]
        var contentByVersion: [String: String] = [:]
        for channel in store.channelNames(in: state) {
            guard let head = try store.channelHead(channel, in: state) else { continue }
            let history = try store.history(channel, in: state)
            for record in history { contentByVersion[record.version] = record.module.sha256 }
            var byFingerprint: [String: [ReleaseRecord]] = [:]
            for current in head.current {
                byFingerprint[current.fingerprint] = Self.generations(current: current, history: history)
            }
            offers[channel] = byFingerprint
        }
        self.offers = offers
        self.contentByVersion = contentByVersion
        self.state = state
        timestampVersion = state.timestamp.version
        let expiries = [state.root.expires, state.timestamp.expires, state.snapshot.expires, state.targets.expires]
        expires = expiries.compactMap(TUFTime.parse).min() ?? .distantPast
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
    /// bucket make it eligible for, unless it already runs that content.
    public func decide(_ request: UpdateCheckRequest) -> CheckDecision {
        guard let candidates = offers[request.channel]?[request.fingerprint] else { return .upToDate }
        guard let chosen = candidates.first(where: { record in
            (record.cohort == nil || record.cohort == request.cohort) && RolloutBucket.includes(record, deviceID: request.deviceID)
        }) else { return .upToDate }
        let runningContent = contentByVersion[request.currentVersion]
        if request.currentVersion == chosen.version || runningContent == chosen.module.sha256 { return .upToDate }
        let diff = runningContent.flatMap { content in chosen.diffs.first { $0.fromSHA256 == content } }
        return .update(chosen, diff: diff)
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
    /// The release to install and, when the store holds one from the device's current content, a diff.
    case update(ReleaseRecord, diff: DiffArtifact?)
}
