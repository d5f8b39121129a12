import Foundation
import PatchManifest
import PatchStore
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Keeps the verified catalog of one store current without restarts: every request stats
/// `timestamp.json` (the only file a publish replaces, by rename) and the store is re-read and
/// re-verified only when that file changed or the catalog's metadata expired. The new catalog is
/// built outside the lock while requests keep being answered from the old one, then swapped in.
/// Nothing else is cached between requests, so any number of servers can share one store.
///
/// Like a TUF client, it never moves backwards: a timestamp that fails verification, or carries an
/// older version than the one already served (or than `trusted` recorded for this store, across
/// restarts), is refused and the previous catalog stays in service.
public final class StoreWatcher: Sendable {
    public let store: ReleaseStore
    /// The per-store record of the highest versions trusted, kept across restarts; nil keeps
    /// nothing beyond this process.
    public let trusted: TrustedVersionsFile?
    /// Where the watcher says what it refused or found unservable (the server log).
    let log: @Sendable (String) -> Void
    private let state = Mutex(Watched())

    private struct Watched: Sendable {
        var identity: FileIdentity?
        var catalog: ReleaseCatalog?
        /// Why the last re-read of a changed store was refused; reported until the store changes again.
        var refusal: StoreError?
        /// The `timestamp.json` identity a re-read is under way for (outside the lock).
        var reloading: FileIdentity??
    }

    /// What a rename of `timestamp.json` changes (a new inode, usually a new size and mtime), and
    /// what any write to a file changes: its ctime, which unlike the mtime cannot be set back.
    struct FileIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var changedSeconds: Int
        var changedNanoseconds: Int
    }

    public init(store: ReleaseStore, trusted: TrustedVersionsFile? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.trusted = trusted
        self.log = log
    }

    /// The catalog to answer from at `now`, re-reading the store if it changed. While one request
    /// re-reads, the others are answered from the catalog in service (if it has not expired).
    public func catalog(now: Date) throws(StoreError) -> ReleaseCatalog {
        let identity = Self.identity(of: store.base.appendingPathComponent(StorePath.timestamp).path)
        let served = try state.withLock { (watched: inout Watched) throws(StoreError) -> ReleaseCatalog? in
            let usable = watched.catalog.flatMap { now < $0.expires ? $0 : nil }
            if let usable, watched.identity == identity { return usable }
            if let refusal = watched.refusal, watched.identity == identity {
                if let usable { return usable }
                throw refusal
            }
            if let usable, watched.reloading == .some(identity) { return usable }
            watched.reloading = .some(identity)
            return nil
        }
        if let served { return served }

        let previous = state.withLock { $0.catalog }
        let outcome: Result<ReleaseCatalog, StoreError>
        do throws(StoreError) {
            let loaded = try store.loadState(now: now)
            try trusted?.checkAndRecord(loaded, of: store)
            outcome = .success(try ReleaseCatalog(store: store, state: loaded, previous: previous))
        } catch { outcome = .failure(error) }

        return try state.withLock { (watched: inout Watched) throws(StoreError) -> ReleaseCatalog in
            if watched.reloading == .some(identity) { watched.reloading = nil }
            var result = outcome
            if case let .success(fresh) = outcome, let inService = watched.catalog, fresh.timestampVersion < inService.timestampVersion {
                // A slower re-read of a file a publish has since replaced is no rollback.
                if Self.identity(of: store.base.appendingPathComponent(StorePath.timestamp).path) != identity, now < inService.expires { return inService }
                result = .failure(.rollbackDetected(path: StorePath.timestamp, trusted: inService.timestampVersion, found: fresh.timestampVersion))
            }
            switch result {
            case let .success(fresh):
                watched.identity = identity
                watched.catalog = fresh
                watched.refusal = nil
                for (path, reason) in fresh.unservable.sorted(by: { $0.key < $1.key }) {
                    log("store timestamp v\(fresh.timestampVersion): not offering \(path): \(reason); devices get the previous good release or the full artifact")
                }
                return fresh
            case let .failure(error):
                if watched.identity != identity || watched.refusal == nil {
                    log("store refused, \(watched.catalog.map { "still serving timestamp v\($0.timestampVersion)" } ?? "nothing to serve"): \(error)")
                }
                watched.identity = identity
                watched.refusal = error
                if let catalog = watched.catalog, now < catalog.expires { return catalog }
                throw error
            }
        }
    }

    /// The decision for one check, from the catalog in service (a diff from `patchBase`, see
    /// `ReleaseCatalog.decide`). Before an artifact is offered its
    /// file is `stat`ed: if it changed since its bytes were checked, it is checked again, and one
    /// that no longer matches the metadata is marked unservable and the decision made again, so a
    /// device is never offered a download that would fail.
    public func decide(_ request: UpdateCheckRequest, patchBase: String?, now: Date) throws(StoreError) -> (CheckDecision, ReleaseCatalog) {
        var catalog = try catalog(now: now)
        while true {
            let decision = catalog.decide(request, patchBase: patchBase)
            guard case let .update(record, diff) = decision else { return (decision, catalog) }
            let paths = [record.module.path] + (diff.map { [$0.path] } ?? [])
            var decideAgain = false
            for path in paths {
                guard let file = catalog.servedPath(ofTarget: path) else { continue }
                let identity = Self.identity(of: store.base.appendingPathComponent(file).path)
                guard identity != catalog.checkedFiles[file] else { continue }
                do throws(StoreError) {
                    _ = try store.targetBytes(path, in: catalog.state, limit: StoreLimits.moduleBytes)
                    catalog = update(catalog) { $0.marking(file: file, checkedAs: identity) }
                } catch let error where Self.isContentMismatch(error) {
                    catalog = markUnservable(path, reason: error.description, in: catalog)
                    decideAgain = true
                } catch {
                    // Could not read it now (descriptors, I/O): not evidence against the file.
                }
            }
            // Each round marks at least one more artifact unservable, so this ends.
            if !decideAgain { return (decision, catalog) }
        }
    }

    /// The bytes of a served target, checked against the catalog's metadata; an artifact whose
    /// bytes no longer match is marked unservable, so later checks stop offering it.
    public func servedBytes(ofTarget path: String, in catalog: ReleaseCatalog) throws(StoreError) -> [UInt8] {
        do { return try store.targetBytes(path, in: catalog.state, limit: StoreLimits.moduleBytes) } catch {
            if Self.isContentMismatch(error) { _ = markUnservable(path, reason: error.description, in: catalog) }
            throw error
        }
    }

    /// A file that is missing or whose length or hash differs from the metadata, as opposed to one
    /// that could not be read at the moment.
    static func isContentMismatch(_ error: StoreError) -> Bool {
        switch error {
        case .hashMismatch, .missingFile, .tooLarge: true
        default: false
        }
    }

    private func markUnservable(_ path: String, reason: String, in catalog: ReleaseCatalog) -> ReleaseCatalog {
        let known = catalog.unservable[path] != nil
        let updated = update(catalog) { $0.marking(path, unservable: reason) }
        if !known { log("store timestamp v\(catalog.timestampVersion): no longer offering \(path): \(reason); devices get the previous good release or the full artifact") }
        return updated
    }

    /// Applies `change` to the catalog in service when it is still the one `catalog` came from, and
    /// returns the changed catalog either way.
    private func update(_ catalog: ReleaseCatalog, _ change: (ReleaseCatalog) -> ReleaseCatalog) -> ReleaseCatalog {
        state.withLock { watched in
            if let inService = watched.catalog, inService.timestampVersion == catalog.timestampVersion {
                let changed = change(inService)
                watched.catalog = changed
                return changed
            }
            return change(catalog)
        }
    }

    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        let changed = info.st_ctimespec
        #else
        let modified = info.st_mtim
        let changed = info.st_ctim
        #endif
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec),
            changedSeconds: Int(changed.tv_sec), changedNanoseconds: Int(changed.tv_nsec))
    }
}
