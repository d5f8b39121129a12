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
/// re-verified only when that file changed or the catalog's metadata expired. Nothing else is
/// cached between requests, so any number of servers can share one store.
///
/// Like a TUF client, it never moves backwards: a timestamp that fails verification, or carries an
/// older version than the one already served, is refused and the previous catalog stays in service.
public final class StoreWatcher: Sendable {
    public let store: ReleaseStore
    private let state = Mutex(Watched())

    private struct Watched: Sendable {
        var identity: FileIdentity?
        var catalog: ReleaseCatalog?
        /// Why the last re-read of a changed store was refused; reported until the store changes again.
        var refusal: StoreError?
    }

    /// What a rename of `timestamp.json` changes: a new inode, usually a new size and mtime.
    struct FileIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
    }

    public init(store: ReleaseStore) {
        self.store = store
    }

    /// The catalog to answer from at `now`, re-reading the store if it changed.
    public func catalog(now: Date) throws(StoreError) -> ReleaseCatalog {
        let identity = Self.identity(of: store.base.appendingPathComponent(StorePath.timestamp).path)
        return try state.withLock { (watched: inout Watched) throws(StoreError) -> ReleaseCatalog in
            if let catalog = watched.catalog, watched.identity == identity, now < catalog.expires { return catalog }
            if let refusal = watched.refusal, watched.identity == identity {
                if let catalog = watched.catalog, now < catalog.expires { return catalog }
                throw refusal
            }
            watched.identity = identity
            do throws(StoreError) {
                let fresh = try ReleaseCatalog(store: store, state: store.loadState(now: now))
                if let served = watched.catalog, fresh.timestampVersion < served.timestampVersion {
                    throw .rollbackDetected(path: StorePath.timestamp, trusted: served.timestampVersion, found: fresh.timestampVersion)
                }
                watched.catalog = fresh
                watched.refusal = nil
                return fresh
            } catch {
                watched.refusal = error
                if let catalog = watched.catalog, now < catalog.expires { return catalog }
                throw error
            }
        }
    }

    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
    }
}
