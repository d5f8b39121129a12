import Foundation
import PatchManifest

/// A signed release store on a file system: TUF metadata under `metadata/`, consistent-snapshot
/// target files under `targets/`, the publisher lock under `.patchcli/` (docs/release.md).
public struct ReleaseStore: Sendable {
    public let base: URL
    let files: StoreFiles

    public init(directory: String) {
        base = URL(fileURLWithPath: directory).standardizedFileURL
        files = StoreFiles(base: base)
    }
}

/// The private keys a publish signs with, by role. More than one key per role is allowed: during a
/// rotation snapshot and timestamp are signed with the old and the new key so clients accept them
/// before and after they see the new root.
public struct RoleSigners: Sendable {
    public var keys: [TUFRole: [SigningKey]]
    /// The key directory the keys were looked for in, so a missing key's message names the folder
    /// the user gave (or the project's) rather than only listing the ways to pass one.
    public var searchedDirectory: String?

    public init(_ keys: [TUFRole: [SigningKey]] = [:], searchedDirectory: String? = nil) {
        self.keys = keys
        self.searchedDirectory = searchedDirectory
    }

    public func keys(for role: TUFRole) -> [SigningKey] { keys[role] ?? [] }
}

/// The points a publish passes, in order. A fault-injection hook sees each one; tests abort or kill
/// the publisher there to prove the store stays valid and keeps serving the previous release.
public enum PublishStep: Sendable, Equatable, CustomStringConvertible {
    case targetWritten(index: Int)
    case targetsMetadataWritten
    case snapshotWritten
    case rootWritten
    case beforeTimestampCommit
    case timestampTemporaryWritten

    /// The name `PATCHCLI_FAULT_AT` takes (`target:N` counts target files from 1).
    public var description: String {
        switch self {
        case let .targetWritten(index): "target:\(index)"
        case .targetsMetadataWritten: "targets-metadata"
        case .snapshotWritten: "snapshot"
        case .rootWritten: "root"
        case .beforeTimestampCommit: "before-timestamp"
        case .timestampTemporaryWritten: "timestamp-temp"
        }
    }
}

public struct PublishOptions: Sendable {
    public var now: Date
    public var expiry: ExpiryPolicy
    /// Plan and sign everything, write nothing (`--dry-run`).
    public var dryRun: Bool
    /// The versions this machine trusted for the store: a publish onto a store lowered below them
    /// (an old `timestamp.json` put back) is refused before anything is signed, as `verify` refuses
    /// it, and a committed publish raises them. Nil: no record (library callers that keep none).
    public var trusted: TrustedVersionsFile?
    public var faultHook: (@Sendable (PublishStep) throws(StoreError) -> Void)?

    public init(now: Date = Date(), expiry: ExpiryPolicy = ExpiryPolicy(), dryRun: Bool = false, trusted: TrustedVersionsFile? = nil,
                faultHook: (@Sendable (PublishStep) throws(StoreError) -> Void)? = nil) {
        self.now = now
        self.expiry = expiry
        self.dryRun = dryRun
        self.trusted = trusted
        self.faultHook = faultHook
    }
}

/// A file a publish writes (or would write, under `--dry-run`).
public struct PlannedFile: Codable, Sendable, Equatable {
    public var path: String
    public var bytes: Int
}

/// What a publish committed: the new metadata versions and every file written, in order.
public struct PublishReceipt: Codable, Sendable {
    public var dryRun: Bool
    public var files: [PlannedFile]
    public var rootVersion: Int
    public var targetsVersion: Int
    public var snapshotVersion: Int
    public var timestampVersion: Int
}

/// What one transaction adds: target files by target path (new paths or new content for a fixed
/// path such as a channel head) and, for a key rotation, the next root.
struct StoreChange {
    var targetFiles: [String: [UInt8]] = [:]
    var newRoot: RootMetadata?
}

extension ReleaseStore {
    /// Creates an empty store: root, targets, snapshot and timestamp version 1. Everything is built
    /// in a private directory and renamed into place as `metadata/` in one step, so an interrupted
    /// init leaves no store rather than half of one.
    public func initialize(roleKeys: [TUFRole: TUFKey], signers: RoleSigners, options: PublishOptions) throws(StoreError) -> PublishReceipt {
        if files.exists(StorePath.metadataFile(TUFRole.root.fileName(version: 1))) { throw .alreadyInitialized(store: base.path) }
        let root = RootMetadata(version: 1, expires: options.expiry.expires(.root, from: options.now), roleKeys: roleKeys)
        let rootEnvelope = try sign(root, with: signers, trustedBy: root, path: "metadata/1.root.json")
        let signed = try signTopLevel(
            targets: TargetsMetadata(version: 1, expires: options.expiry.expires(.targets, from: options.now), targets: [:]),
            snapshotVersion: 1, timestampVersion: 1, root: root, signers: signers, options: options)
        let planned: [(String, [UInt8])] = [
            ("1.root.json", rootEnvelope.bytes), ("1.targets.json", signed.targets),
            ("1.snapshot.json", signed.snapshot), ("timestamp.json", signed.timestamp),
        ]
        let receipt = PublishReceipt(
            dryRun: options.dryRun, files: planned.map { PlannedFile(path: StorePath.metadataFile($0.0), bytes: $0.1.count) },
            rootVersion: 1, targetsVersion: 1, snapshotVersion: 1, timestampVersion: 1)
        if options.dryRun { return receipt }

        let lock = try PublisherLock(files: files)
        defer { withExtendedLifetime(lock) {} }
        let staging = ".patchcli/init-\(UUID().uuidString)"
        try files.makeDirectory("\(staging)/metadata")
        defer { try? FileManager.default.removeItem(at: files.url(staging)) }
        for (name, bytes) in planned { try files.createOnce("\(staging)/metadata/\(name)", bytes) }
        try files.makeDirectory(StorePath.targets)
        guard rename(files.url("\(staging)/metadata").path, files.url(StorePath.metadata).path) == 0 else {
            let reason = String(cString: strerror(errno))
            if files.exists(StorePath.metadataFile(TUFRole.root.fileName(version: 1))) { throw .alreadyInitialized(store: base.path) }
            throw .unwritable(path: StorePath.metadata, reason: reason)
        }
        try files.syncDirectory("")
        try options.trusted?.record(receipt, of: self)
        return receipt
    }

    /// Runs one publish: under the lock, reads and verifies the current state, asks `change` what
    /// to add, signs new targets, snapshot (and root) and timestamp, writes every immutable file
    /// create-only, and commits by atomically replacing `timestamp.json`. Until that rename, clients
    /// see the previous release; after it, the new one; never a mix.
    ///
    /// `alsoAccepting` lists further keys that may sign (the next root of a key rotation), so new
    /// files can carry the new key's signature before root lists it.
    func transact(
        signers: RoleSigners, options: PublishOptions, alsoAccepting proposedRoot: RootMetadata? = nil,
        _ change: (StoreState) throws(StoreError) -> StoreChange
    ) throws(StoreError) -> (state: StoreState, receipt: PublishReceipt) {
        let lock: PublisherLock? = options.dryRun ? nil : try PublisherLock(files: files)
        defer { withExtendedLifetime(lock) {} }
        let state = try loadState(now: nil)
        // Signing on top of rolled-back metadata would publish versions below what clients trust.
        try options.trusted?.check(state, of: self)
        let delta = try change(state)

        let root = delta.newRoot ?? state.root
        var targetMap = state.targets.targets
        var targetWrites: [(String, [UInt8])] = []
        for (path, bytes) in delta.targetFiles.sorted(by: { $0.key < $1.key }) {
            let sha256 = SHA256Hasher.hex(of: bytes)
            targetMap[path] = TargetFileInfo(length: bytes.count, sha256: sha256, custom: .object(["kind": .string(ReleasePaths.kind(of: path))]))
            targetWrites.append((StorePath.targetFile(path, sha256: sha256), bytes))
        }
        // Above every version on disk, orphans included: a versioned name never gets two contents.
        let targetsVersion = max(state.highestVersionOnDisk[.targets] ?? 0, state.targets.version) + 1
        let snapshotVersion = max(state.highestVersionOnDisk[.snapshot] ?? 0, state.snapshot.version) + 1
        let targets = TargetsMetadata(version: targetsVersion, expires: options.expiry.expires(.targets, from: options.now), targets: targetMap)
        let signed = try signTopLevel(
            targets: targets, snapshotVersion: snapshotVersion, timestampVersion: state.timestamp.version + 1,
            root: root, signers: signers, options: options, previousRoot: delta.newRoot == nil ? proposedRoot : state.root)

        var metadataWrites: [(String, [UInt8])] = [
            (StorePath.metadataFile(TUFRole.targets.fileName(version: targetsVersion)), signed.targets),
            (StorePath.metadataFile(TUFRole.snapshot.fileName(version: snapshotVersion)), signed.snapshot),
        ]
        if let newRoot = delta.newRoot {
            let path = StorePath.metadataFile(TUFRole.root.fileName(version: newRoot.version))
            let envelope = try sign(newRoot, with: signers, trustedBy: newRoot, path: path, alsoTrustedBy: state.root)
            do { try envelope.verifySignatures(for: .root, trustedBy: state.root) } catch {
                throw .rootChainBroken(path: path, detail: "the new root must also be signed by the current root keys: \(error)")
            }
            metadataWrites.append((path, envelope.bytes))
        }
        let timestampPath = StorePath.metadataFile(TUFRole.timestamp.fileName(version: 0))
        let planned = (targetWrites + metadataWrites + [(timestampPath, signed.timestamp)]).map { PlannedFile(path: $0.0, bytes: $0.1.count) }
        let receipt = PublishReceipt(
            dryRun: options.dryRun, files: planned, rootVersion: root.version, targetsVersion: targetsVersion,
            snapshotVersion: snapshotVersion, timestampVersion: state.timestamp.version + 1)
        if options.dryRun { return (state, receipt) }

        func hook(_ step: PublishStep) throws(StoreError) {
            if let faultHook = options.faultHook { try faultHook(step) }
        }
        for (index, (path, bytes)) in targetWrites.enumerated() {
            try files.createOnce(path, bytes)
            try hook(.targetWritten(index: index + 1))
        }
        try files.createOnce(metadataWrites[0].0, metadataWrites[0].1)
        try hook(.targetsMetadataWritten)
        try files.createOnce(metadataWrites[1].0, metadataWrites[1].1)
        try hook(.snapshotWritten)
        if metadataWrites.count > 2 {
            try files.createOnce(metadataWrites[2].0, metadataWrites[2].1)
            try hook(.rootWritten)
        }
        try hook(.beforeTimestampCommit)
        // The lock serialises patchcli publishers; this compare also catches anything else that
        // replaced timestamp.json since it was read (a publisher on another host sharing the store).
        guard (try? files.read(timestampPath, limit: StoreLimits.timestampBytes)) == state.timestampBytes else {
            throw .concurrentCommit(path: timestampPath)
        }
        let temporary = try files.writeTemporary(for: timestampPath, signed.timestamp)
        do { try hook(.timestampTemporaryWritten) } catch {
            unlink(files.url(temporary).path)
            throw error
        }
        try files.replace(timestampPath, withTemporary: temporary)
        try options.trusted?.record(receipt, of: self)
        return (state, receipt)
    }

    /// Signs targets, the snapshot listing it and the timestamp listing that snapshot, checking
    /// each against `root` so a wrong or missing key is refused before anything is written.
    private func signTopLevel(
        targets: TargetsMetadata, snapshotVersion: Int, timestampVersion: Int, root: RootMetadata,
        signers: RoleSigners, options: PublishOptions, previousRoot: RootMetadata? = nil
    ) throws(StoreError) -> (targets: [UInt8], snapshot: [UInt8], timestamp: [UInt8]) {
        let targetsPath = StorePath.metadataFile(TUFRole.targets.fileName(version: targets.version))
        let targetsBytes = try sign(targets, with: signers, trustedBy: root, path: targetsPath, alsoTrustedBy: previousRoot).bytes
        guard targetsBytes.count <= StoreLimits.targetsBytes else { throw .tooLarge(path: targetsPath, limit: StoreLimits.targetsBytes) }
        let snapshot = SnapshotMetadata(
            version: snapshotVersion, expires: options.expiry.expires(.snapshot, from: options.now),
            targets: MetaFileInfo(version: targets.version, length: targetsBytes.count, hashes: ["sha256": SHA256Hasher.hex(of: targetsBytes)]))
        let snapshotBytes = try sign(snapshot, with: signers, trustedBy: root, path: StorePath.metadataFile(TUFRole.snapshot.fileName(version: snapshotVersion)), alsoTrustedBy: previousRoot).bytes
        let timestamp = TimestampMetadata(
            version: timestampVersion, expires: options.expiry.expires(.timestamp, from: options.now),
            snapshot: MetaFileInfo(version: snapshotVersion, length: snapshotBytes.count, hashes: ["sha256": SHA256Hasher.hex(of: snapshotBytes)]))
        let timestampBytes = try sign(timestamp, with: signers, trustedBy: root, path: StorePath.metadataFile("timestamp.json"), alsoTrustedBy: previousRoot).bytes
        return (targetsBytes, snapshotBytes, timestampBytes)
    }

    /// Signs with every key given for the role; keys the role does not list in `root` (or, during a
    /// rotation, in the previous root) are refused, and the threshold must be met.
    private func sign<T: TUFSigned>(_ metadata: T, with signers: RoleSigners, trustedBy root: RootMetadata, path: String, alsoTrustedBy previous: RootMetadata? = nil) throws(StoreError) -> SignedEnvelope {
        let keys = signers.keys(for: T.role)
        guard !keys.isEmpty else { throw .missingSigner(role: T.role, searchedDirectory: signers.searchedDirectory) }
        let listed = Set((root.roles[T.role.rawValue]?.keyids ?? []) + (previous?.roles[T.role.rawValue]?.keyids ?? []))
        for key in keys where !listed.contains(key.keyid) { throw .keyNotInRoot(role: T.role, keyid: key.keyid) }
        let envelope: SignedEnvelope
        do { envelope = try SignedEnvelope(signing: metadata, with: keys) } catch {
            throw .invalidMetadata(path: path, .malformed(field: "signatures", detail: "signing failed: \(error)"))
        }
        do { try envelope.verifySignatures(for: T.role, trustedBy: root) } catch { throw .invalidMetadata(path: path, error) }
        return envelope
    }
}
