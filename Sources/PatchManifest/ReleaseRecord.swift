/// What a channel serves, as signed data: release records are TUF target files, so their hash and
/// length are covered by targets metadata and every path they name resolves in the same targets.
///
/// Field names are snake_case like the SDK's wire format (sdk-contract §7.2), which a server maps
/// them onto: `version`, `sha256` (over the raw artifact), `mandatory`, `release_notes` ← `notes`.

/// Why a user-supplied release field cannot be used.
public enum ReleaseFieldError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidChannel(String)
    case invalidCohort(String)
    case invalidFingerprint(String)
    case rolloutOutOfRange(Int)

    public var description: String {
        switch self {
        case let .invalidChannel(name):
            return "channel \"\(name)\" is not valid: use 1-64 characters a-z, 0-9, '.', '_' or '-', starting with a letter or digit"
        case let .invalidCohort(name):
            return "cohort \"\(name)\" is not valid: use 1-64 characters a-z, A-Z, 0-9, '.', '_' or '-'"
        case let .invalidFingerprint(value):
            return "fingerprint \"\(value.prefix(80))\" is not valid: use 1-256 printable ASCII characters without spaces"
        case let .rolloutOutOfRange(percent): return "rollout \(percent)% is outside 0...100"
        }
    }
}

/// The module artifact a release points at: the brotli stream devices download (`.br`), with the
/// SHA-256 and length of the RAW artifact they compare after decompressing (sdk-contract §7.4).
public struct ModuleArtifact: Codable, Hashable, Sendable {
    /// Target path of the `.br` file in targets metadata.
    public var path: String
    /// Lowercase hex SHA-256 of the raw (decompressed) artifact.
    public var sha256: String
    /// Length of the raw artifact, the brotli output-size hint (`size` on the wire).
    public var length: Int
    /// Length of the `.br` file.
    public var compressedLength: Int

    enum CodingKeys: String, CodingKey {
        case path, sha256, length, compressedLength = "compressed_length"
    }

    public init(path: String, sha256: String, length: Int, compressedLength: Int) {
        self.path = path
        self.sha256 = sha256
        self.length = length
        self.compressedLength = compressedLength
    }
}

/// A BSDIFF40 patch (not compressed further) from an earlier release's raw artifact to this one's.
public struct DiffArtifact: Codable, Hashable, Sendable {
    public var path: String
    public var fromSHA256: String
    /// The `version` devices report for the base content (its most recent release on this channel).
    public var fromVersion: String
    public var length: Int

    enum CodingKeys: String, CodingKey {
        case path, fromSHA256 = "from_sha256", fromVersion = "from_version", length
    }

    public init(path: String, fromSHA256: String, fromVersion: String, length: Int) {
        self.path = path
        self.fromSHA256 = fromSHA256
        self.fromVersion = fromVersion
        self.length = length
    }
}

/// How a record came to be; every change to a channel is a new record under a new counter.
public enum ReleaseAction: String, Codable, Sendable, CaseIterable {
    case publish, promote, rollout, rollback, disable
}

/// One release of one build fingerprint on one channel.
/// Where a release's module came from, read from git by `release` without being told: which commit a
/// rollback returns to. Absent when the module was not in a git work tree (and in older records).
public struct ReleaseSource: Codable, Hashable, Sendable {
    public var commit: String
    /// nil on a detached HEAD (a CI checkout of a tag or a commit).
    public var branch: String?
    /// Tracked files differed from `commit`: the module may hold code no commit has.
    public var dirty: Bool

    public init(commit: String, branch: String?, dirty: Bool) {
        self.commit = commit
        self.branch = branch
        self.dirty = dirty
    }

    /// `3f1c2a9b0d4e (main)`, `… (detached)`, with `, dirty` when it was.
    public var summary: String {
        "\(commit.prefix(12)) (\(branch ?? "detached"))\(dirty ? ", dirty" : "")"
    }
}

public struct ReleaseRecord: Codable, Hashable, Sendable {
    public var schema = 1
    public var channel: String
    /// Monotonic per channel, never reused (Uptane's release counter): devices and servers refuse
    /// a record whose counter is below one they have seen.
    public var releaseCounter: Int
    public var version: String
    public var fingerprint: String
    public var rolloutPercent: Int
    public var mandatory: Bool
    public var notes: String?
    public var cohort: String?
    /// Kill switch: a disabled record tells devices there is no update for this fingerprint.
    public var disabled: Bool
    public var module: ModuleArtifact
    public var diffs: [DiffArtifact]
    public var createdAt: String
    public var action: ReleaseAction
    /// For promote and rollback: the record whose content this one re-publishes.
    public var sourceChannel: String?
    public var sourceReleaseCounter: Int?
    /// The git commit the published module was built from; promote and rollback copy it with the content.
    public var source: ReleaseSource?
    /// The app the module is for (patch.json's `appKey`, which devices send as `app_key`): a server
    /// offers it only to checks carrying that key, so one store can serve several apps. nil in
    /// records written before patchcli recorded it, which any key may get.
    public var appKey: String?

    enum CodingKeys: String, CodingKey {
        case schema, channel, releaseCounter = "release_counter", version, fingerprint
        case rolloutPercent = "rollout_percent", mandatory, notes, cohort, disabled, module, diffs
        case createdAt = "created_at", action, sourceChannel = "source_channel"
        case sourceReleaseCounter = "source_release_counter", source, appKey = "app_key"
    }

    public init(
        channel: String, releaseCounter: Int, fingerprint: String, rolloutPercent: Int, mandatory: Bool,
        notes: String?, cohort: String?, disabled: Bool, module: ModuleArtifact, diffs: [DiffArtifact],
        createdAt: String, action: ReleaseAction, sourceChannel: String? = nil, sourceReleaseCounter: Int? = nil
    ) {
        self.channel = channel
        self.releaseCounter = releaseCounter
        self.version = ReleaseRecord.version(counter: releaseCounter, sha256: module.sha256)
        self.fingerprint = fingerprint
        self.rolloutPercent = rolloutPercent
        self.mandatory = mandatory
        self.notes = notes
        self.cohort = cohort
        self.disabled = disabled
        self.module = module
        self.diffs = diffs
        self.createdAt = createdAt
        self.action = action
        self.sourceChannel = sourceChannel
        self.sourceReleaseCounter = sourceReleaseCounter
    }

    /// The version string devices cache under and report back as `current_version`: the counter
    /// for people, plus a content prefix so the same bytes are recognisable across channels.
    public static func version(counter: Int, sha256: String) -> String {
        "\(counter)-\(sha256.prefix(12))"
    }

    /// The release counter a version string of `version(counter:sha256:)`'s form carries; nil for
    /// anything else (a device running its bundled code sends its own version string).
    public static func releaseCounter(ofVersion version: String) -> Int? {
        let parts = version.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, parts[1].count == 12, parts[1].allSatisfy(\.isHexDigit),
              parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let counter = Int(parts[0]), (1...maximumVersion).contains(counter) else { return nil }
        return counter
    }

    public static func validate(channel: String) throws(ReleaseFieldError) {
        let bytes = Array(channel.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first, isLowerAlphanumeric(first),
              bytes.allSatisfy({ isLowerAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }),
              !channel.contains("..")
        else { throw .invalidChannel(channel) }
    }

    public static func validate(cohort: String) throws(ReleaseFieldError) {
        let bytes = Array(cohort.utf8)
        guard (1...64).contains(bytes.count), bytes.allSatisfy({
            isLowerAlphanumeric($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }) else { throw .invalidCohort(cohort) }
    }

    public static func validate(fingerprint: String) throws(ReleaseFieldError) {
        let bytes = Array(fingerprint.utf8)
        guard (1...256).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .invalidFingerprint(fingerprint)
        }
    }

    public static func validate(rolloutPercent: Int) throws(ReleaseFieldError) {
        guard (0...100).contains(rolloutPercent) else { throw .rolloutOutOfRange(rolloutPercent) }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// A channel's current state, at one fixed target path: the latest counter and the current record
/// for each build fingerprint (several native builds are in the field at once).
public struct ChannelHead: Codable, Hashable, Sendable {
    public var schema = 1
    public var channel: String
    public var releaseCounter: Int
    /// One record per fingerprint, sorted by fingerprint.
    public var current: [ReleaseRecord]

    enum CodingKeys: String, CodingKey {
        case schema, channel, releaseCounter = "release_counter", current
    }

    public init(channel: String, releaseCounter: Int, current: [ReleaseRecord]) {
        self.channel = channel
        self.releaseCounter = releaseCounter
        self.current = current.sorted { $0.fingerprint < $1.fingerprint }
    }

    public func record(for fingerprint: String) -> ReleaseRecord? {
        current.first { $0.fingerprint == fingerprint }
    }
}

/// Target paths of the release store (inside `targets/`; consistent snapshots add the hash prefix
/// to the file name on disk).
public enum ReleasePaths {
    public static func module(sha256: String) -> String { "modules/\(sha256).wasm.br" }
    public static func diff(from: String, to: String) -> String { "diffs/\(to)/\(from).bsdiff" }
    /// The module content (`to`) a `diff(from:to:)` path leads to; nil for another path.
    public static func moduleContent(ofDiff path: String) -> String? {
        let components = path.split(separator: "/")
        guard components.count == 3, components[0] == "diffs", components[2].hasSuffix(".bsdiff") else { return nil }
        return String(components[1])
    }
    /// The content (`sha256`) of a `module(sha256:)` path; nil for another path.
    public static func content(ofModule path: String) -> String? {
        guard path.hasPrefix("modules/"), path.hasSuffix(".wasm.br") else { return nil }
        return String(path.dropFirst("modules/".count).dropLast(".wasm.br".count))
    }
    public static func channelHead(_ channel: String) -> String { "channels/\(channel)/release.json" }
    public static func record(channel: String, counter: Int) -> String { "channels/\(channel)/releases/\(counter).json" }

    /// The kind each target path holds, recorded in the target's `custom` so tools can tell them apart.
    public static func kind(of path: String) -> String {
        if path.hasPrefix("modules/") { return "module" }
        if path.hasPrefix("diffs/") { return "diff" }
        if path.hasSuffix("/release.json") { return "channel" }
        return "release"
    }
}
