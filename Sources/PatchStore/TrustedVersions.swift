import Foundation
import PatchManifest
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The highest metadata versions this machine has trusted for one store, as a TUF client keeps
/// them: a store whose metadata goes below any of them was rolled back (an old `timestamp.json`
/// put back, a stale copy restored) and is refused, even by a freshly started `serve` or `verify`.
public struct TrustedVersions: Codable, Sendable, Equatable {
    public var root: Int
    public var timestamp: Int
    public var snapshot: Int
    public var targets: Int
    /// Where the store was when these were last recorded, for a person reading the file.
    public var store: String

    public init(root: Int, timestamp: Int, snapshot: Int, targets: Int, store: String) {
        self.root = root
        self.timestamp = timestamp
        self.snapshot = snapshot
        self.targets = targets
        self.store = store
    }

    init(_ state: StoreState, store: String) {
        self.init(root: state.root.version, timestamp: state.timestamp.version, snapshot: state.snapshot.version, targets: state.targets.version, store: store)
    }

    /// The versions a publish just committed.
    init(_ receipt: PublishReceipt, store: String) {
        self.init(root: receipt.rootVersion, timestamp: receipt.timestampVersion, snapshot: receipt.snapshotVersion, targets: receipt.targetsVersion, store: store)
    }

    /// The role whose version `found` lowers, if any, with the trusted and the found version.
    func rollback(in found: TrustedVersions) -> (role: TUFRole, trusted: Int, found: Int)? {
        let pairs: [(TUFRole, Int, Int)] = [
            (.root, root, found.root), (.timestamp, timestamp, found.timestamp),
            (.snapshot, snapshot, found.snapshot), (.targets, targets, found.targets),
        ]
        return pairs.first { $0.2 < $0.1 }
    }

    func raised(to found: TrustedVersions) -> TrustedVersions {
        TrustedVersions(
            root: max(root, found.root), timestamp: max(timestamp, found.timestamp),
            snapshot: max(snapshot, found.snapshot), targets: max(targets, found.targets), store: found.store)
    }
}

/// Where `verify`, `serve` and every command that writes a store keep `TrustedVersions`: one JSON file per store in a state directory
/// outside every store (someone who can rewrite a store cannot lower them), named by the SHA-256 of
/// the store's `metadata/1.root.json`. That file is never replaced or deleted, so the name follows
/// the store through key rotations and moves, and a copy or mirror of the store shares its record.
public struct TrustedVersionsFile: Sendable {
    public let directory: URL
    private let files: StoreFiles

    /// The records live in `trusted/` under patchcli's state directory.
    public init(stateDirectory: String) {
        directory = URL(fileURLWithPath: stateDirectory).appendingPathComponent("trusted").standardizedFileURL
        files = StoreFiles(base: directory)
    }

    /// patchcli's state directory: `$PATCHCLI_STATE_DIR`, else `$XDG_STATE_HOME/patchcli`, else
    /// `~/.local/state/patchcli`.
    public static func defaultStateDirectory(environment: [String: String]) -> String {
        if let explicit = environment["PATCHCLI_STATE_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return "\(xdg)/patchcli" }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return "\(home)/.local/state/patchcli"
    }

    /// The record's file name for `store`.
    func name(for store: ReleaseStore) throws(StoreError) -> String {
        let firstRoot = try store.files.read(StorePath.metadataFile(TUFRole.root.fileName(version: 1)), limit: StoreLimits.rootBytes)
        return "\(SHA256Hasher.hex(of: firstRoot)).json"
    }

    /// The full path of the record for `store` (what error messages name).
    public func path(for store: ReleaseStore) throws(StoreError) -> String {
        files.url(try name(for: store)).path
    }

    /// What was recorded for `store`; nil when nothing was yet.
    public func load(for store: ReleaseStore) throws(StoreError) -> TrustedVersions? {
        let name = try name(for: store)
        guard files.exists(name) else { return nil }
        let bytes = try files.read(name, limit: 64 << 10)
        do { return try JSONDecoder().decode(TrustedVersions.self, from: Data(bytes)) } catch {
            throw .unreadable(path: files.url(name).path, reason: "not a trusted-versions record (\(error)); delete it to start trusting the store afresh")
        }
    }

    /// Refuses a `state` older than what was recorded for its store.
    public func check(_ state: StoreState, of store: ReleaseStore) throws(StoreError) {
        try check(TrustedVersions(state, store: store.base.path), of: store)
    }

    private func check(_ seen: TrustedVersions, of store: ReleaseStore) throws(StoreError) {
        guard let trusted = try load(for: store), let (role, recorded, found) = trusted.rollback(in: seen) else { return }
        throw .rollbackBelowTrusted(
            path: role == .timestamp ? StorePath.timestamp : StorePath.metadataFile(role.fileName(version: found)),
            role: role, trusted: recorded, found: found, record: try path(for: store))
    }

    /// Checks `state` and raises the record to it, under a lock so concurrent `verify`, `serve` and
    /// publishing processes never lower each other's record; the file is replaced atomically.
    public func checkAndRecord(_ state: StoreState, of store: ReleaseStore) throws(StoreError) {
        try checkAndRecord(TrustedVersions(state, store: store.base.path), of: store)
    }

    /// Raises the record to the versions a publish just committed (they are above the ones it
    /// checked before signing, so this only refuses if someone lowered the store meanwhile).
    func record(_ receipt: PublishReceipt, of store: ReleaseStore) throws(StoreError) {
        try checkAndRecord(TrustedVersions(receipt, store: store.base.path), of: store)
    }

    private func checkAndRecord(_ seen: TrustedVersions, of store: ReleaseStore) throws(StoreError) {
        let name = try name(for: store)
        try files.makeDirectory("")
        let lockPath = files.url("\(name).lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw .unwritable(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { flock(descriptor, LOCK_UN) }

        try check(seen, of: store)
        let current = try load(for: store)
        let raised = current?.raised(to: seen) ?? seen
        guard raised != current else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(raised)) + [0x0A] } catch {
            throw .unwritable(path: files.url(name).path, reason: "cannot encode the record: \(error)")
        }
        try files.replace(name, withTemporary: try files.writeTemporary(for: name, bytes))
    }
}
