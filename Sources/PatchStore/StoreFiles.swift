import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// File operations with the guarantees publishing relies on. Paths in errors are relative to the
/// store so messages read the same wherever the store lives.
struct StoreFiles: Sendable {
    let base: URL

    func url(_ relative: String) -> URL { base.appendingPathComponent(relative) }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: url(relative).path) }

    /// Reads a whole file, refusing anything over `limit` before reading it.
    func read(_ relative: String, limit: Int) throws(StoreError) -> [UInt8] {
        let path = url(relative).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw .unreadable(path: relative, reason: "no such file")
        }
        if let size = attributes[.size] as? Int, size > limit { throw .tooLarge(path: relative, limit: limit) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: relative, reason: String(cString: strerror(errno)))
        }
        guard data.count <= limit else { throw .tooLarge(path: relative, limit: limit) }
        return [UInt8](data)
    }

    func list(_ relativeDirectory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url(relativeDirectory).path)) ?? []
    }

    func makeDirectory(_ relative: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: url(relative), withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: relative, reason: error.localizedDescription)
        }
    }

    /// Writes a file that must never change once it exists: the bytes go to a temporary file that
    /// is synced, then hard-linked to the final name (which fails instead of replacing an existing
    /// file). An existing file with identical bytes is success (content-addressed dedupe); with other
    /// bytes it is an error.
    func createOnce(_ relative: String, _ bytes: [UInt8]) throws(StoreError) {
        let directory = (relative as NSString).deletingLastPathComponent
        try makeDirectory(directory)
        let temporary = try writeTemporary(for: relative, bytes)
        defer { unlink(url(temporary).path) }
        if link(url(temporary).path, url(relative).path) != 0 {
            let error = errno
            guard error == EEXIST else { throw .unwritable(path: relative, reason: String(cString: strerror(error))) }
            let existing = try read(relative, limit: bytes.count + 1)
            guard existing == bytes else { throw .existingFileDiffers(path: relative) }
        }
        try syncDirectory(directory)
    }

    /// Writes `bytes` to a synced temporary file next to `relative` and returns its relative path.
    func writeTemporary(for relative: String, _ bytes: [UInt8]) throws(StoreError) -> String {
        let directory = (relative as NSString).deletingLastPathComponent
        let name = ".\((relative as NSString).lastPathComponent).tmp-\(UUID().uuidString)"
        let temporary = directory.isEmpty ? name : "\(directory)/\(name)"
        let descriptor = open(url(temporary).path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: relative, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                unlink(url(temporary).path)
                throw .unwritable(path: relative, reason: reason)
            }
            written += count
        }
        guard fullSync(descriptor) else {
            let reason = String(cString: strerror(errno))
            unlink(url(temporary).path)
            throw .unwritable(path: relative, reason: reason)
        }
        return temporary
    }

    /// Atomically replaces `relative` with an already-synced temporary file, then syncs the directory
    /// so the rename itself survives power loss.
    func replace(_ relative: String, withTemporary temporary: String) throws(StoreError) {
        guard rename(url(temporary).path, url(relative).path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(url(temporary).path)
            throw .unwritable(path: relative, reason: reason)
        }
        try syncDirectory((relative as NSString).deletingLastPathComponent)
    }

    func syncDirectory(_ relative: String) throws(StoreError) {
        let descriptor = open(url(relative).path, O_RDONLY)
        guard descriptor >= 0 else { throw .unwritable(path: relative, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        _ = fsync(descriptor)
    }

    /// fsync, or on Darwin F_FULLFSYNC: plain fsync there does not order writes on the drive.
    private func fullSync(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }
}

/// The publisher lock: `flock` on `.patchcli/lock`. It is released by the kernel when the process
/// dies, so a killed publisher never leaves a stale lock, and a second publisher fails fast.
final class PublisherLock {
    private let descriptor: Int32

    init(files: StoreFiles) throws(StoreError) {
        let relative = ".patchcli/lock"
        try files.makeDirectory(".patchcli")
        descriptor = open(files.url(relative).path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: relative, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(descriptor)
            if error == EWOULDBLOCK { throw .lockHeld(path: relative) }
            throw .unwritable(path: relative, reason: String(cString: strerror(error)))
        }
        // Who holds it, for a person looking at a stuck publish; the lock itself is the flock.
        let owner = Array("pid \(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = owner.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
