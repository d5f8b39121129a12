import PatchManifest

/// Everything that can go wrong reading, verifying or publishing a release store. Each case names
/// the file (relative to the store) or the item concerned, and the message says how to fix it
/// where the user can.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case notInitialized(store: String)
    case alreadyInitialized(store: String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case tooLarge(path: String, limit: Int)
    case invalidMetadata(path: String, MetadataError)
    /// A versioned file whose content carries another version than its name.
    case versionMismatch(path: String, expected: Int, found: Int)
    /// A file whose length or hash differs from what the metadata above it lists.
    case hashMismatch(path: String, listedBy: String, detail: String)
    case missingFile(path: String, referencedBy: String)
    case invalidRecord(path: String, detail: String)
    /// Root N+1 is not signed by a threshold of root N's keys (or its own).
    case rootChainBroken(path: String, detail: String)
    /// A create-only file already exists with other bytes: never overwritten.
    case existingFileDiffers(path: String)
    /// The store serves older metadata than a client already trusted (a replay or rollback).
    case rollbackDetected(path: String, trusted: Int, found: Int)
    /// The store's metadata is older than what this machine already trusted for it (`record` is
    /// the `TrustedVersionsFile` record): a rolled-back store, refused across restarts.
    case rollbackBelowTrusted(path: String, role: TUFRole, trusted: Int, found: Int, record: String)
    case lockHeld(path: String)
    case concurrentCommit(path: String)
    case missingSigner(role: TUFRole, searchedDirectory: String?)
    case keyNotInRoot(role: TUFRole, keyid: String)
    case emptyChannel(channel: String)
    case unknownFingerprint(channel: String, fingerprint: String, known: [String])
    case ambiguousFingerprint(channel: String, known: [String])
    case nothingToRollBack(channel: String, fingerprint: String)
    case unknownReleaseCounter(channel: String, counter: Int)
    case moduleRejected(verifier: String, detail: String)
    case moduleTooLarge(bytes: Int, limit: Int)
    case releaseField(ReleaseFieldError)
    case artifactCodec(path: String, detail: String)
    /// Raised by a fault-injection hook (tests); the store is left as a killed publisher leaves it.
    case injectedFault(step: String)

    public var description: String {
        switch self {
        case let .notInitialized(store):
            return "\(store): no release store here (metadata/1.root.json is missing); create one with `patchcli release init --store \(store)`"
        case let .alreadyInitialized(store): return "\(store): already holds a release store (metadata/1.root.json exists)"
        case let .unreadable(path, reason): return "\(path): cannot be read (\(reason))"
        case let .unwritable(path, reason): return "\(path): cannot be written (\(reason))"
        case let .tooLarge(path, limit): return "\(path): larger than the \(limit)-byte limit for this file"
        case let .invalidMetadata(path, error): return "\(path): \(error)"
        case let .versionMismatch(path, expected, found): return "\(path): carries version \(found), its name says \(expected)"
        case let .hashMismatch(path, listedBy, detail): return "\(path): \(detail) (listed by \(listedBy))"
        case let .missingFile(path, referencedBy): return "\(path): missing, but \(referencedBy) references it"
        case let .invalidRecord(path, detail): return "\(path): \(detail)"
        case let .rootChainBroken(path, detail): return "\(path): \(detail)"
        case let .existingFileDiffers(path):
            return "\(path): already exists with different bytes; published files are never overwritten (the store may have been tampered with; run `patchcli verify`)"
        case let .rollbackDetected(path, trusted, found):
            return "\(path): version \(found) is older than the trusted version \(trusted) (rollback or replay of old metadata)"
        case let .rollbackBelowTrusted(path, role, trusted, found, record):
            return "\(path): \(role.rawValue) version \(found) is older than version \(trusted), which this machine already trusted for this store (recorded in \(record)): the store was rolled back or an old copy restored. Put the newest metadata back; if serving the older store is deliberate, delete \(record)"
        case let .lockHeld(path):
            return "\(path): another publisher holds the store lock; wait for it to finish and retry"
        case let .concurrentCommit(path):
            return "\(path): changed while this release was being prepared (another publisher committed first); retry"
        case let .missingSigner(role, directory):
            let searched = directory.map { " and \($0) holds no \(role.rawValue).key" } ?? ""
            return "no \(role.rawValue) key was given\(searched); pass it with --key \(role.rawValue)=PATH, --key-dir or PATCHCLI_KEY_\(role.rawValue.uppercased())"
        case let .keyNotInRoot(role, keyid):
            return "the \(role.rawValue) key \(keyid.prefix(16))… is not listed for \(role.rawValue) in the store's root; use the right key or rotate it in with `patchcli keys rotate`"
        case let .emptyChannel(channel): return "channel \(channel) has no releases"
        case let .unknownFingerprint(channel, fingerprint, known):
            return "channel \(channel) has no release for fingerprint \(fingerprint); it has: \(known.joined(separator: ", "))"
        case let .ambiguousFingerprint(channel, known):
            return "channel \(channel) serves several fingerprints (\(known.joined(separator: ", "))); choose one with --fingerprint"
        case let .nothingToRollBack(channel, fingerprint):
            return "channel \(channel) has no earlier content for fingerprint \(fingerprint) to roll back to"
        case let .unknownReleaseCounter(channel, counter): return "channel \(channel) has no release \(counter)"
        case let .moduleRejected(verifier, detail): return "module rejected by \(verifier) verification: \(detail)"
        case let .moduleTooLarge(bytes, limit): return "the module is \(bytes) bytes, over the \(limit)-byte limit"
        case let .releaseField(error): return error.description
        case let .artifactCodec(path, detail): return "\(path): \(detail)"
        case let .injectedFault(step): return "publishing aborted by fault injection after step \(step)"
        }
    }
}
