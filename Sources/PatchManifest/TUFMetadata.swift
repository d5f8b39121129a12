import Foundation

/// The four top-level roles of The Update Framework 1.0 (no delegations in this profile).
public enum TUFRole: String, CaseIterable, Sendable, Codable {
    case root, targets, snapshot, timestamp

    /// File name of the role's metadata: `N.<role>.json` with consistent snapshots, except that
    /// `timestamp.json` is never versioned (it is the one mutable file, the commit point).
    public func fileName(version: Int) -> String {
        self == .timestamp ? "timestamp.json" : "\(version).\(rawValue).json"
    }
}

/// The `spec_version` this project writes; clients check only the major number.
public let tufSpecVersion = "1.0.31"

/// A public key as TUF lists it in root: `{"keytype","scheme","keyval":{"public"}}`.
public struct TUFKey: Codable, Hashable, Sendable {
    public struct Value: Codable, Hashable, Sendable {
        public var `public`: String
    }
    public var keytype: String
    public var scheme: String
    public var keyval: Value

    public init(keytype: String, scheme: String, publicValue: String) {
        self.keytype = keytype
        self.scheme = scheme
        self.keyval = Value(public: publicValue)
    }

    /// The keyid: hex SHA-256 of the key object's canonical JSON (TUF spec, "KEYID").
    public var keyid: String {
        // Encoding a struct of three strings cannot fail.
        let tree = (try? JSONValue(encoding: self)) ?? .null
        return SHA256Hasher.hex(of: CanonicalJSON.encode(tree))
    }
}

/// A role's entry in root: which keys may sign for it and how many must.
public struct RoleKeys: Codable, Hashable, Sendable {
    public var keyids: [String]
    public var threshold: Int

    public init(keyids: [String], threshold: Int) {
        self.keyids = keyids
        self.threshold = threshold
    }
}

/// Length and hashes of a metadata file, as snapshot lists targets and timestamp lists snapshot.
public struct MetaFileInfo: Codable, Hashable, Sendable {
    public var version: Int
    public var length: Int?
    public var hashes: [String: String]?

    public init(version: Int, length: Int? = nil, hashes: [String: String]? = nil) {
        self.version = version
        self.length = length
        self.hashes = hashes
    }
}

/// A target file as targets metadata describes it; `custom` is free-form (this project puts the
/// artifact kind there).
public struct TargetFileInfo: Codable, Hashable, Sendable {
    public var length: Int
    public var hashes: [String: String]
    public var custom: JSONValue?

    public init(length: Int, sha256: String, custom: JSONValue? = nil) {
        self.length = length
        self.hashes = ["sha256": sha256]
        self.custom = custom
    }
}

/// Fields every signed role shares.
public protocol TUFSigned: Codable, Sendable {
    static var role: TUFRole { get }
    var type: String { get }
    var specVersion: String { get }
    var version: Int { get set }
    var expires: String { get set }
}

public struct RootMetadata: TUFSigned, Hashable {
    public static let role = TUFRole.root
    public var type = "root"
    public var specVersion = tufSpecVersion
    public var version: Int
    public var expires: String
    public var consistentSnapshot = true
    public var keys: [String: TUFKey]
    public var roles: [String: RoleKeys]

    enum CodingKeys: String, CodingKey {
        case type = "_type", specVersion = "spec_version", version, expires
        case consistentSnapshot = "consistent_snapshot", keys, roles
    }

    public init(version: Int, expires: String, keys: [String: TUFKey], roles: [String: RoleKeys]) {
        self.version = version
        self.expires = expires
        self.keys = keys
        self.roles = roles
    }

    /// Root listing one key per role (threshold 1 each), the profile `patchcli keys` sets up.
    public init(version: Int, expires: String, roleKeys: [TUFRole: TUFKey]) {
        var keys: [String: TUFKey] = [:]
        var roles: [String: RoleKeys] = [:]
        for (role, key) in roleKeys {
            keys[key.keyid] = key
            roles[role.rawValue] = RoleKeys(keyids: [key.keyid], threshold: 1)
        }
        self.init(version: version, expires: expires, keys: keys, roles: roles)
    }

    /// The keys root delegates `role` to; empty when root does not list the role.
    public func keys(for role: TUFRole) -> [TUFKey] {
        (roles[role.rawValue]?.keyids ?? []).compactMap { keys[$0] }
    }
}

public struct TargetsMetadata: TUFSigned, Hashable {
    public static let role = TUFRole.targets
    public var type = "targets"
    public var specVersion = tufSpecVersion
    public var version: Int
    public var expires: String
    public var targets: [String: TargetFileInfo]

    enum CodingKeys: String, CodingKey {
        case type = "_type", specVersion = "spec_version", version, expires, targets
    }

    public init(version: Int, expires: String, targets: [String: TargetFileInfo]) {
        self.version = version
        self.expires = expires
        self.targets = targets
    }
}

public struct SnapshotMetadata: TUFSigned, Hashable {
    public static let role = TUFRole.snapshot
    public var type = "snapshot"
    public var specVersion = tufSpecVersion
    public var version: Int
    public var expires: String
    public var meta: [String: MetaFileInfo]

    enum CodingKeys: String, CodingKey {
        case type = "_type", specVersion = "spec_version", version, expires, meta
    }

    public init(version: Int, expires: String, targets: MetaFileInfo) {
        self.version = version
        self.expires = expires
        self.meta = ["targets.json": targets]
    }

    public var targets: MetaFileInfo? { meta["targets.json"] }
}

public struct TimestampMetadata: TUFSigned, Hashable {
    public static let role = TUFRole.timestamp
    public var type = "timestamp"
    public var specVersion = tufSpecVersion
    public var version: Int
    public var expires: String
    public var meta: [String: MetaFileInfo]

    enum CodingKeys: String, CodingKey {
        case type = "_type", specVersion = "spec_version", version, expires, meta
    }

    public init(version: Int, expires: String, snapshot: MetaFileInfo) {
        self.version = version
        self.expires = expires
        self.meta = ["snapshot.json": snapshot]
    }

    public var snapshot: MetaFileInfo? { meta["snapshot.json"] }
}

/// A signature in the envelope: which key, and the hex signature over canonical(`signed`).
public struct TUFSignature: Codable, Hashable, Sendable {
    public var keyid: String
    public var sig: String

    public init(keyid: String, sig: String) {
        self.keyid = keyid
        self.sig = sig
    }
}
