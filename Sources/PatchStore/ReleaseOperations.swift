import Foundation
import PatchDiff
import PatchManifest

/// What a channel-changing command asks for.
public struct PublishRequest: Sendable {
    public var channel: String
    public var fingerprint: String
    public var rolloutPercent: Int
    public var mandatory: Bool
    public var notes: String?
    public var cohort: String?
    public var source: ReleaseSource?
    public var appKey: String?

    public init(channel: String = "production", fingerprint: String, rolloutPercent: Int = 100, mandatory: Bool = false, notes: String? = nil, cohort: String? = nil,
                source: ReleaseSource? = nil, appKey: String? = nil) {
        self.channel = channel
        self.fingerprint = fingerprint
        self.rolloutPercent = rolloutPercent
        self.mandatory = mandatory
        self.notes = notes
        self.cohort = cohort
        self.source = source
        self.appKey = appKey
    }
}

/// The records a command created and the files it wrote.
public struct ReleaseOutcome: Codable, Sendable {
    public var records: [ReleaseRecord]
    public var receipt: PublishReceipt
    public var moduleCheck: ModuleCheckReport?
}

/// A channel as `release list` shows it: the current record per fingerprint and the full history.
public struct ChannelListing: Codable, Sendable {
    public var channel: String
    public var releaseCounter: Int
    public var current: [ReleaseRecord]
    public var history: [ReleaseRecord]
}

extension ReleaseStore {
    /// Publishes a module: verify (unless `verifier` is nil, i.e. `--skip-verify`), compress with
    /// brotli quality 11, hash the raw bytes, diff against earlier contents of the same fingerprint,
    /// then commit a new record under the channel's next counter. Always allowed, so a hotfix
    /// supersedes a partial rollout in progress.
    public func publish(module: [UInt8], request: PublishRequest, verifier: (any ModuleVerifier)?, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> ReleaseOutcome {
        try validate(request)
        guard module.count <= StoreLimits.moduleBytes else { throw .moduleTooLarge(bytes: module.count, limit: StoreLimits.moduleBytes) }
        let check = try verifier?.verify(artifact: module)
        let sha256 = SHA256Hasher.hex(of: module)
        let compressed: [UInt8]
        do { compressed = try CodecKind.brotli.compress(module, level: 11) } catch {
            throw .artifactCodec(path: ReleasePaths.module(sha256: sha256), detail: "brotli compression failed: \(error)")
        }
        let artifact = ModuleArtifact(path: ReleasePaths.module(sha256: sha256), sha256: sha256, length: module.count, compressedLength: compressed.count)
        var records: [ReleaseRecord] = []
        let (_, receipt) = try transact(signers: signers, options: options) { state throws(StoreError) in
            var change = StoreChange()
            change.targetFiles[artifact.path] = compressed
            let record = try nextRecord(
                in: state, channel: request.channel, fingerprint: request.fingerprint, module: artifact, raw: module,
                change: &change, options: options, action: .publish
            ) { record in
                record.rolloutPercent = request.rolloutPercent
                record.mandatory = request.mandatory
                record.notes = request.notes
                record.cohort = request.cohort
                record.source = request.source
                record.appKey = request.appKey
            }
            records = [record]
            return change
        }
        return ReleaseOutcome(records: records, receipt: receipt, moduleCheck: check)
    }

    /// Republishes the current records of `from` on `to` (one fingerprint or all): the same module
    /// target, byte for byte, under `to`'s next counters.
    public func promote(from: String, to: String, fingerprint: String?, rolloutPercent: Int?, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> ReleaseOutcome {
        do {
            try ReleaseRecord.validate(channel: from)
            try ReleaseRecord.validate(channel: to)
            if let rolloutPercent { try ReleaseRecord.validate(rolloutPercent: rolloutPercent) }
        } catch { throw .releaseField(error) }
        var records: [ReleaseRecord] = []
        let (_, receipt) = try transact(signers: signers, options: options) { state throws(StoreError) in
            guard let head = try channelHead(from, in: state) else { throw .emptyChannel(channel: from) }
            var sources = head.current.filter { !$0.disabled }
            if let fingerprint { sources = [try currentRecord(in: head, fingerprint: fingerprint)] }
            guard !sources.isEmpty else { throw .emptyChannel(channel: from) }
            var change = StoreChange()
            for source in sources {
                let raw = try moduleBytes(source.module, in: state)
                let record = try nextRecord(
                    in: state, channel: to, fingerprint: source.fingerprint, module: source.module, raw: raw,
                    change: &change, options: options, action: .promote
                ) { record in
                    record.rolloutPercent = rolloutPercent ?? 100
                    record.mandatory = source.mandatory
                    record.notes = source.notes
                    record.cohort = source.cohort
                    record.source = source.source
                    record.appKey = source.appKey
                    record.sourceChannel = source.channel
                    record.sourceReleaseCounter = source.releaseCounter
                }
                records.append(record)
            }
            return change
        }
        return ReleaseOutcome(records: records, receipt: receipt, moduleCheck: nil)
    }

    /// Changes the rollout percentage of the current release (and lifts a disable).
    public func setRollout(channel: String, fingerprint: String?, percent: Int, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> ReleaseOutcome {
        do { try ReleaseRecord.validate(rolloutPercent: percent) } catch { throw .releaseField(error) }
        return try amendCurrent(channel: channel, fingerprint: fingerprint, action: .rollout, signers: signers, options: options) { record in
            record.rolloutPercent = percent
            record.disabled = false
        }
    }

    /// The kill switch: a new record telling devices of this fingerprint there is no update.
    public func disable(channel: String, fingerprint: String?, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> ReleaseOutcome {
        try amendCurrent(channel: channel, fingerprint: fingerprint, action: .disable, signers: signers, options: options) { record in
            record.disabled = true
        }
    }

    /// Rolls forward to earlier content: the module of release `toCounter` (default: the most recent
    /// earlier release of this fingerprint with different content) under a new, higher counter, at
    /// 100% rollout. Counters never go down, so devices' anti-rollback checks keep working.
    public func rollback(channel: String, fingerprint: String?, toCounter: Int?, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> ReleaseOutcome {
        var records: [ReleaseRecord] = []
        let (_, receipt) = try transact(signers: signers, options: options) { state throws(StoreError) in
            guard let head = try channelHead(channel, in: state) else { throw .emptyChannel(channel: channel) }
            let current = try resolveCurrent(in: head, fingerprint: fingerprint)
            let history = try self.history(channel, in: state)
            let target: ReleaseRecord
            if let toCounter {
                guard let chosen = history.first(where: { $0.releaseCounter == toCounter && $0.fingerprint == current.fingerprint }) else {
                    throw .unknownReleaseCounter(channel: channel, counter: toCounter)
                }
                target = chosen
            } else {
                guard let previous = history.last(where: { $0.fingerprint == current.fingerprint && $0.module.sha256 != current.module.sha256 }) else {
                    throw .nothingToRollBack(channel: channel, fingerprint: current.fingerprint)
                }
                target = previous
            }
            var change = StoreChange()
            let raw = try moduleBytes(target.module, in: state)
            let record = try nextRecord(
                in: state, channel: channel, fingerprint: current.fingerprint, module: target.module, raw: raw,
                change: &change, options: options, action: .rollback
            ) { record in
                record.rolloutPercent = 100
                record.mandatory = target.mandatory
                record.notes = target.notes
                record.cohort = target.cohort
                record.source = target.source
                record.appKey = target.appKey
                record.sourceChannel = channel
                record.sourceReleaseCounter = target.releaseCounter
            }
            records = [record]
            return change
        }
        return ReleaseOutcome(records: records, receipt: receipt, moduleCheck: nil)
    }

    /// Every channel (or one), verified through the current metadata.
    public func list(channel: String?, now: Date?) throws(StoreError) -> [ChannelListing] {
        let state = try loadState(now: now)
        let channels = channel.map { [$0] } ?? channelNames(in: state)
        var listings: [ChannelListing] = []
        for name in channels {
            guard let head = try channelHead(name, in: state) else {
                if channel != nil { throw .emptyChannel(channel: name) }
                continue
            }
            listings.append(ChannelListing(channel: name, releaseCounter: head.releaseCounter, current: head.current, history: try history(name, in: state)))
        }
        return listings
    }

    /// The raw module devices of `fingerprint` on `channel` are offered now, verified through the
    /// current metadata; nil when the channel has no release for that fingerprint yet.
    public func currentModule(channel: String, fingerprint: String, now: Date?) throws(StoreError) -> [UInt8]? {
        let state = try loadState(now: now)
        guard let record = try channelHead(channel, in: state)?.record(for: fingerprint) else { return nil }
        return try moduleBytes(record.module, in: state)
    }

    // MARK: - Shared steps

    private func validate(_ request: PublishRequest) throws(StoreError) {
        do {
            try ReleaseRecord.validate(channel: request.channel)
            try ReleaseRecord.validate(fingerprint: request.fingerprint)
            try ReleaseRecord.validate(rolloutPercent: request.rolloutPercent)
            if let cohort = request.cohort { try ReleaseRecord.validate(cohort: cohort) }
        } catch { throw .releaseField(error) }
    }

    /// A new record for the current content with one change (rollout, disable).
    private func amendCurrent(channel: String, fingerprint: String?, action: ReleaseAction, signers: RoleSigners, options: PublishOptions, _ amend: @escaping (inout ReleaseRecord) -> Void) throws(StoreError) -> ReleaseOutcome {
        do { try ReleaseRecord.validate(channel: channel) } catch { throw .releaseField(error) }
        var records: [ReleaseRecord] = []
        let (_, receipt) = try transact(signers: signers, options: options) { state throws(StoreError) in
            guard let head = try channelHead(channel, in: state) else { throw .emptyChannel(channel: channel) }
            let current = try resolveCurrent(in: head, fingerprint: fingerprint)
            var change = StoreChange()
            let counter = head.releaseCounter + 1
            var record = current
            record.releaseCounter = counter
            record.version = ReleaseRecord.version(counter: counter, sha256: current.module.sha256)
            record.createdAt = TUFTime.format(options.now)
            record.action = action
            record.sourceChannel = nil
            record.sourceReleaseCounter = nil
            amend(&record)
            try stage(record, head: head, in: &change)
            records = [record]
            return change
        }
        return ReleaseOutcome(records: records, receipt: receipt, moduleCheck: nil)
    }

    /// Builds the channel's next record for `module` (diffs included) and stages it with the head.
    private func nextRecord(
        in state: StoreState, channel: String, fingerprint: String, module: ModuleArtifact, raw: [UInt8],
        change: inout StoreChange, options: PublishOptions, action: ReleaseAction, _ configure: (inout ReleaseRecord) -> Void
    ) throws(StoreError) -> ReleaseRecord {
        let existingHead = try channelHead(channel, in: state)
        // Promoting several fingerprints stages several records in one transaction: build on the staged head.
        var head = existingHead ?? ChannelHead(channel: channel, releaseCounter: 0, current: [])
        if let staged = change.targetFiles[ReleasePaths.channelHead(channel)] {
            head = try decodeRecordFile(ChannelHead.self, staged, path: ReleasePaths.channelHead(channel))
        }
        let counter = head.releaseCounter + 1
        let diffs = try makeDiffs(channel: channel, fingerprint: fingerprint, to: module, raw: raw, in: state, change: &change)
        var record = ReleaseRecord(
            channel: channel, releaseCounter: counter, fingerprint: fingerprint, rolloutPercent: 100, mandatory: false,
            notes: nil, cohort: nil, disabled: false, module: module, diffs: diffs, createdAt: TUFTime.format(options.now), action: action)
        configure(&record)
        try stage(record, head: head, in: &change)
        return record
    }

    private func stage(_ record: ReleaseRecord, head: ChannelHead, in change: inout StoreChange) throws(StoreError) {
        let current = head.current.filter { $0.fingerprint != record.fingerprint } + [record]
        let newHead = ChannelHead(channel: record.channel, releaseCounter: record.releaseCounter, current: current)
        change.targetFiles[ReleasePaths.record(channel: record.channel, counter: record.releaseCounter)] = try encodeRecordFile(record)
        change.targetFiles[ReleasePaths.channelHead(record.channel)] = try encodeRecordFile(newHead)
    }

    /// BSDIFF40 patches to `module` from the last few distinct contents this fingerprint had on the
    /// channel, kept only when smaller than the full `.br` download.
    private func makeDiffs(channel: String, fingerprint: String, to module: ModuleArtifact, raw: [UInt8], in state: StoreState, change: inout StoreChange) throws(StoreError) -> [DiffArtifact] {
        var bases: [ReleaseRecord] = []
        for record in try history(channel, in: state).reversed()
        where record.fingerprint == fingerprint && record.module.sha256 != module.sha256 && !bases.contains(where: { $0.module.sha256 == record.module.sha256 }) {
            bases.append(record)
            if bases.count == StoreLimits.diffBases { break }
        }
        var diffs: [DiffArtifact] = []
        for base in bases {
            let path = ReleasePaths.diff(from: base.module.sha256, to: module.sha256)
            if let existing = state.targets.targets[path] ?? change.targetFiles[path].map({ TargetFileInfo(length: $0.count, sha256: "") }) {
                diffs.append(DiffArtifact(path: path, fromSHA256: base.module.sha256, fromVersion: base.version, length: existing.length))
                continue
            }
            let old = try moduleBytes(base.module, in: state)
            let patch: [UInt8]
            do { patch = try BSDiff.makePatch(old: old, new: raw) } catch {
                throw .artifactCodec(path: path, detail: "creating the BSDIFF40 patch failed: \(error)")
            }
            guard patch.count < module.compressedLength else { continue }
            change.targetFiles[path] = patch
            diffs.append(DiffArtifact(path: path, fromSHA256: base.module.sha256, fromVersion: base.version, length: patch.count))
        }
        return diffs
    }

    private func resolveCurrent(in head: ChannelHead, fingerprint: String?) throws(StoreError) -> ReleaseRecord {
        if let fingerprint { return try currentRecord(in: head, fingerprint: fingerprint) }
        guard head.current.count == 1, let only = head.current.first else {
            throw .ambiguousFingerprint(channel: head.channel, known: head.current.map(\.fingerprint))
        }
        return only
    }

    private func currentRecord(in head: ChannelHead, fingerprint: String) throws(StoreError) -> ReleaseRecord {
        guard let record = head.record(for: fingerprint) else {
            throw .unknownFingerprint(channel: head.channel, fingerprint: fingerprint, known: head.current.map(\.fingerprint))
        }
        return record
    }

    // MARK: - Reading targets through the metadata

    public func channelNames(in state: StoreState) -> [String] {
        state.targets.targets.keys.compactMap { path -> String? in
            let parts = path.split(separator: "/")
            guard parts.count == 3, parts[0] == "channels", parts[2] == "release.json" else { return nil }
            return String(parts[1])
        }.sorted()
    }

    public func channelHead(_ channel: String, in state: StoreState) throws(StoreError) -> ChannelHead? {
        let path = ReleasePaths.channelHead(channel)
        guard state.targets.targets[path] != nil else { return nil }
        return try decodeRecordFile(ChannelHead.self, try targetBytes(path, in: state, limit: StoreLimits.recordBytes), path: path)
    }

    /// Every record of a channel, in counter order.
    public func history(_ channel: String, in state: StoreState) throws(StoreError) -> [ReleaseRecord] {
        let prefix = "channels/\(channel)/releases/"
        var records: [ReleaseRecord] = []
        for path in state.targets.targets.keys where path.hasPrefix(prefix) {
            records.append(try decodeRecordFile(ReleaseRecord.self, try targetBytes(path, in: state, limit: StoreLimits.recordBytes), path: path))
        }
        return records.sorted { $0.releaseCounter < $1.releaseCounter }
    }

    /// A target's bytes, checked against the length and sha256 targets metadata lists.
    public func targetBytes(_ path: String, in state: StoreState, limit: Int) throws(StoreError) -> [UInt8] {
        guard let info = state.targets.targets[path] else {
            throw .missingFile(path: path, referencedBy: "metadata/\(state.targets.version).targets.json (not listed)")
        }
        guard let sha256 = info.hashes["sha256"] else {
            throw .hashMismatch(path: path, listedBy: "targets metadata", detail: "listed without a sha256 hash")
        }
        let file = StorePath.targetFile(path, sha256: sha256)
        let listedBy = "metadata/\(state.targets.version).targets.json"
        guard files.exists(file) else { throw .missingFile(path: file, referencedBy: listedBy) }
        guard info.length <= limit else { throw .tooLarge(path: file, limit: limit) }
        let bytes: [UInt8]
        do { bytes = try files.read(file, limit: info.length) } catch let error {
            if case .tooLarge = error { throw .hashMismatch(path: file, listedBy: listedBy, detail: "longer than the listed \(info.length) bytes") }
            throw error
        }
        guard bytes.count == info.length else { throw .hashMismatch(path: file, listedBy: listedBy, detail: "is \(bytes.count) bytes, listed as \(info.length)") }
        let actual = SHA256Hasher.hex(of: bytes)
        guard actual == sha256 else { throw .hashMismatch(path: file, listedBy: listedBy, detail: "sha256 is \(actual), listed as \(sha256)") }
        return bytes
    }

    /// The raw artifact of a module target: the `.br` decompressed (capped at the recorded length)
    /// and checked against the record's SHA-256, as a device checks it.
    func moduleBytes(_ module: ModuleArtifact, in state: StoreState) throws(StoreError) -> [UInt8] {
        let compressed = try targetBytes(module.path, in: state, limit: StoreLimits.moduleBytes)
        let raw: [UInt8]
        do { raw = try CodecKind.brotli.decompress(compressed, maxOutputBytes: max(0, min(module.length, StoreLimits.moduleBytes))) } catch {
            throw .artifactCodec(path: module.path, detail: "brotli stream does not decompress to the recorded \(module.length) bytes: \(error)")
        }
        let actual = SHA256Hasher.hex(of: raw)
        guard raw.count == module.length, actual == module.sha256 else {
            throw .hashMismatch(path: module.path, listedBy: "its release record", detail: "decompresses to \(raw.count) bytes with sha256 \(actual), recorded \(module.length) bytes with \(module.sha256)")
        }
        return raw
    }

    func decodeRecordFile<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], path: String) throws(StoreError) -> T {
        let value: T
        do {
            value = try JSONValue.parse(bytes).decode(type)
        } catch {
            throw .invalidRecord(path: path, detail: "not a valid \(type) document: \(error)")
        }
        // Counters and lengths come from files: bound them before any arithmetic or allocation uses them.
        let records: [ReleaseRecord]
        switch value {
        case let head as ChannelHead:
            guard (0...maximumVersion).contains(head.releaseCounter) else { throw .invalidRecord(path: path, detail: "release_counter \(head.releaseCounter) is out of range") }
            records = head.current
        case let record as ReleaseRecord: records = [record]
        default: records = []
        }
        for record in records {
            guard (1...maximumVersion).contains(record.releaseCounter) else { throw .invalidRecord(path: path, detail: "release_counter \(record.releaseCounter) is out of range") }
            guard (0...StoreLimits.moduleBytes).contains(record.module.length) else {
                throw .invalidRecord(path: path, detail: "module length \(record.module.length) is outside 0...\(StoreLimits.moduleBytes)")
            }
        }
        return value
    }

    func encodeRecordFile(_ value: some Encodable) throws(StoreError) -> [UInt8] {
        do { return CanonicalJSON.serialize(try JSONValue(encoding: value)) } catch {
            throw .invalidRecord(path: "(new record)", detail: "cannot be encoded: \(error)")
        }
    }
}
