import Foundation
import PatchManifest

/// Size caps for everything read from a store (release-security notes §5.10, shared with the SDK):
/// nothing is read or decompressed past them, so a hostile store cannot exhaust memory.
public enum StoreLimits {
    public static let rootBytes = 64 << 10
    public static let timestampBytes = 16 << 10
    public static let snapshotBytes = 256 << 10
    public static let targetsBytes = 1 << 20
    public static let recordBytes = 64 << 10
    public static let moduleBytes = 16 << 20
    /// How many earlier contents of the same fingerprint get a diff to each new release.
    public static let diffBases = 3

    static func metadataBytes(_ role: TUFRole) -> Int {
        switch role {
        case .root: rootBytes
        case .timestamp: timestampBytes
        case .snapshot: snapshotBytes
        case .targets: targetsBytes
        }
    }
}

/// How long each role's signature stays valid after a publish (release-security notes §5.2).
public struct ExpiryPolicy: Sendable {
    public var root: TimeInterval = 365 * 86_400
    public var targets: TimeInterval = 90 * 86_400
    public var snapshot: TimeInterval = 30 * 86_400
    public var timestamp: TimeInterval = 7 * 86_400

    public init() {}

    func expires(_ role: TUFRole, from now: Date) -> String {
        let interval = switch role {
        case .root: root
        case .targets: targets
        case .snapshot: snapshot
        case .timestamp: timestamp
        }
        return TUFTime.format(now.addingTimeInterval(interval))
    }
}

/// The verified top-level metadata of a store: what clients are served right now.
public struct StoreState: Sendable {
    public var root: RootMetadata
    public var timestamp: TimestampMetadata
    /// The exact bytes of `timestamp.json`, compared again just before a commit replaces it.
    public var timestampBytes: [UInt8]
    public var snapshot: SnapshotMetadata
    public var targets: TargetsMetadata
    /// Highest version of each versioned role found on disk, orphans of interrupted publishes
    /// included: new versions go above them so no versioned name is ever written twice.
    public var highestVersionOnDisk: [TUFRole: Int]
    /// Versioned metadata files no timestamp references (left by an interrupted publish).
    public var orphans: [String]
}

/// Directory names inside a store (release-security notes §5.3).
public enum StorePath {
    static let metadata = "metadata"
    static let targets = "targets"

    static func metadataFile(_ name: String) -> String { "\(metadata)/\(name)" }

    /// `timestamp.json`, relative to the store: the only file a publish replaces, so a server
    /// watches it to notice a new release.
    public static let timestamp = metadataFile(TUFRole.timestamp.fileName(version: 0))

    /// The consistent-snapshot file of a target: `<dir>/<sha256>.<basename>` under `targets/`.
    public static func targetFile(_ targetPath: String, sha256: String) -> String {
        let directory = (targetPath as NSString).deletingLastPathComponent
        let name = "\(sha256).\((targetPath as NSString).lastPathComponent)"
        return directory.isEmpty ? "\(targets)/\(name)" : "\(targets)/\(directory)/\(name)"
    }
}

extension ReleaseStore {
    /// Reads and verifies the root chain and the current timestamp, snapshot and targets, exactly
    /// as a TUF client starting from `1.root.json` would (or from `trustedRoot`). With `now`, every
    /// role's expiry is checked too (publishing passes nil: it re-signs what has expired).
    public func loadState(now: Date?, trustedRoot: [UInt8]? = nil) throws(StoreError) -> StoreState {
        let firstRootPath = StorePath.metadataFile(TUFRole.root.fileName(version: 1))
        guard files.exists(firstRootPath) else { throw .notInitialized(store: base.path) }

        var root: RootMetadata
        if let trustedRoot {
            root = try decodeRoot(trustedRoot, path: "trusted root", expectedVersion: nil, previous: nil)
        } else {
            let bytes = try files.read(firstRootPath, limit: StoreLimits.rootBytes)
            root = try decodeRoot(bytes, path: firstRootPath, expectedVersion: 1, previous: nil)
        }
        while true {
            let path = StorePath.metadataFile(TUFRole.root.fileName(version: root.version + 1))
            guard files.exists(path) else { break }
            let bytes = try files.read(path, limit: StoreLimits.rootBytes)
            root = try decodeRoot(bytes, path: path, expectedVersion: root.version + 1, previous: root)
        }
        if let now { try check(root, at: now, path: StorePath.metadataFile(TUFRole.root.fileName(version: root.version))) }

        let timestampPath = StorePath.metadataFile(TUFRole.timestamp.fileName(version: 0))
        let timestampBytes = try files.read(timestampPath, limit: StoreLimits.timestampBytes)
        let timestamp = try decodeVerified(TimestampMetadata.self, timestampBytes, path: timestampPath, root: root)
        if let now { try check(timestamp, at: now, path: timestampPath) }
        guard let snapshotInfo = timestamp.snapshot else {
            throw .invalidMetadata(path: timestampPath, .malformed(field: "meta", detail: "does not list snapshot.json"))
        }

        let snapshotPath = StorePath.metadataFile(TUFRole.snapshot.fileName(version: snapshotInfo.version))
        let snapshot = try readListed(SnapshotMetadata.self, path: snapshotPath, info: snapshotInfo, listedBy: timestampPath, root: root)
        if let now { try check(snapshot, at: now, path: snapshotPath) }
        guard let targetsInfo = snapshot.targets else {
            throw .invalidMetadata(path: snapshotPath, .malformed(field: "meta", detail: "does not list targets.json"))
        }

        let targetsPath = StorePath.metadataFile(TUFRole.targets.fileName(version: targetsInfo.version))
        let targets = try readListed(TargetsMetadata.self, path: targetsPath, info: targetsInfo, listedBy: snapshotPath, root: root)
        if let now { try check(targets, at: now, path: targetsPath) }

        var highest: [TUFRole: Int] = [.root: root.version, .snapshot: snapshot.version, .targets: targets.version]
        var orphans: [String] = []
        for name in files.list(StorePath.metadata) {
            let parts = name.split(separator: ".")
            guard parts.count == 3, parts[2] == "json", let version = Int(parts[0]),
                  let role = TUFRole(rawValue: String(parts[1])), role == .snapshot || role == .targets else { continue }
            highest[role] = max(highest[role] ?? 0, version)
            let current = role == .snapshot ? snapshot.version : targets.version
            if version > current { orphans.append(StorePath.metadataFile(name)) }
        }
        return StoreState(
            root: root, timestamp: timestamp, timestampBytes: timestampBytes, snapshot: snapshot, targets: targets,
            highestVersionOnDisk: highest, orphans: orphans.sorted())
    }

    /// A root is trusted when a threshold of its own root keys signed it and, for N+1, also a
    /// threshold of root N's keys (TUF §5.3.4): neither the old nor the new keys alone suffice.
    private func decodeRoot(_ bytes: [UInt8], path: String, expectedVersion: Int?, previous: RootMetadata?) throws(StoreError) -> RootMetadata {
        let envelope: SignedEnvelope
        let root: RootMetadata
        do {
            envelope = try SignedEnvelope.parse(bytes)
            root = try envelope.decode(RootMetadata.self)
        } catch { throw .invalidMetadata(path: path, error) }
        if let expectedVersion, root.version != expectedVersion {
            throw .versionMismatch(path: path, expected: expectedVersion, found: root.version)
        }
        if let previous {
            do { try envelope.verifySignatures(for: .root, trustedBy: previous) } catch {
                throw .rootChainBroken(path: path, detail: "not signed by root version \(previous.version)'s keys: \(error)")
            }
        }
        do { try envelope.verifySignatures(for: .root, trustedBy: root) } catch { throw .invalidMetadata(path: path, error) }
        return root
    }

    private func decodeVerified<T: TUFSigned>(_ type: T.Type, _ bytes: [UInt8], path: String, root: RootMetadata) throws(StoreError) -> T {
        do {
            let envelope = try SignedEnvelope.parse(bytes)
            let metadata = try envelope.decode(type)
            try envelope.verifySignatures(for: T.role, trustedBy: root)
            return metadata
        } catch { throw .invalidMetadata(path: path, error) }
    }

    /// Reads a file the role above lists, checking the listed length and hash before parsing it
    /// (the mix-and-match defence) and its version against its name.
    private func readListed<T: TUFSigned>(_ type: T.Type, path: String, info: MetaFileInfo, listedBy: String, root: RootMetadata) throws(StoreError) -> T {
        guard files.exists(path) else { throw .missingFile(path: path, referencedBy: listedBy) }
        let limit = min(info.length ?? StoreLimits.metadataBytes(T.role), StoreLimits.metadataBytes(T.role))
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: limit) } catch let error {
            if case .tooLarge = error { throw .hashMismatch(path: path, listedBy: listedBy, detail: "longer than the listed \(limit) bytes") }
            throw error
        }
        if let length = info.length, bytes.count != length {
            throw .hashMismatch(path: path, listedBy: listedBy, detail: "is \(bytes.count) bytes, listed as \(length)")
        }
        if let hashes = info.hashes {
            guard let expected = hashes["sha256"] else {
                throw .hashMismatch(path: path, listedBy: listedBy, detail: "listed without a sha256 hash, the only algorithm checked")
            }
            let actual = SHA256Hasher.hex(of: bytes)
            guard actual == expected.lowercased() else {
                throw .hashMismatch(path: path, listedBy: listedBy, detail: "sha256 is \(actual), listed as \(expected)")
            }
        }
        let metadata = try decodeVerified(type, bytes, path: path, root: root)
        guard metadata.version == info.version else { throw .versionMismatch(path: path, expected: info.version, found: metadata.version) }
        return metadata
    }

    private func check(_ metadata: some TUFSigned, at now: Date, path: String) throws(StoreError) {
        do { try metadata.checkNotExpired(at: now) } catch { throw .invalidMetadata(path: path, error) }
    }
}
