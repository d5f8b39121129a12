import Foundation
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Why an input could not be read or an output could not be written, with the path it concerns.
enum FileAccessError: Error, CustomStringConvertible {
    case notFound(path: String)
    case isDirectory(path: String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    /// Refusing to write over an input of the same command, which would destroy it on failure.
    case outputIsInput(path: String)

    var description: String {
        switch self {
        case let .notFound(path): return "\(path): no such file"
        case let .isDirectory(path): return "\(path): is a directory, expected a file"
        case let .unreadable(path, reason): return "\(path): cannot be read (\(reason))"
        case let .unwritable(path, reason): return "\(path): cannot be written (\(reason))"
        case let .outputIsInput(path): return "\(path): the output would overwrite an input of the same command"
        }
    }
}

enum FileAccess {
    static func read(_ path: String) throws(FileAccessError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .notFound(path: path) }
        guard !isDirectory.boolValue else { throw .isDirectory(path: path) }
        // Straight into the array with read(2): going through Data (mapped or not) and copying
        // would hold every input twice at the peak, which for a 60 MB module is what `diff apply`'s
        // memory would be made of.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        // A regular file is read into an array one byte longer than the file: the spare byte takes
        // the read that finds the end, so the array never grows (doubling the peak) just to learn
        // that nothing follows. Pipes and devices report size 0, and a file may grow while read: the
        // array then grows as it fills.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: max(bytes.count, 64 << 10)) }
            let count = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Writes through a temporary file in the destination's directory and renames it into place, so
    /// the destination holds either its old content or the complete new one, never a prefix.
    /// `permissions` (e.g. 0o600 for a private key) apply from the temporary file's creation on, so
    /// the content is never readable by others, not even briefly.
    static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int? = nil) throws(FileAccessError) {
        try stage(bytes, at: path, permissions: permissions).commit()
    }

    /// The first half of `writeAtomically`: the bytes written and flushed to a temporary file that
    /// `commit()` renames into place, and that disappears if the writer is dropped uncommitted.
    /// Staging every file of a multi-file change before committing any makes a failure while
    /// writing (a full disk, a path that cannot be created) leave all of them as they were.
    static func stage(_ bytes: [UInt8], at path: String, permissions: Int? = nil) throws(FileAccessError) -> AtomicFileWriter {
        let writer = try AtomicFileWriter(path: path, permissions: permissions)
        try writer.write(bytes)
        try writer.finishWriting()
        return writer
    }

    /// Guards commands whose output path must differ from every input path.
    static func requireDistinct(output: String, inputs: [String]) throws(FileAccessError) {
        let resolvedOutput = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        for input in inputs where URL(fileURLWithPath: input).standardizedFileURL.resolvingSymlinksInPath().path == resolvedOutput {
            throw .outputIsInput(path: output)
        }
    }

    /// The user's home folder: `$HOME` first, as shells and CI set it; the account's otherwise.
    static var homeDirectory: String {
        ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
    }

    static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix = underlying, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }
}

/// A file written in pieces that appears at its path only once complete (temp file + rename); an
/// uncommitted writer removes its temporary file, so a failed command leaves nothing half-written.
final class AtomicFileWriter {
    let path: String
    private let temporaryPath: String
    private let handle: FileHandle
    private var closed = false
    private var committed = false

    /// Whether `finishWriting` flushes the file to the disk before closing it.
    private let flushesBeforeCommit: Bool

    /// `flushBeforeCommit` false skips the flush (the file still appears whole or not at all): for
    /// outputs that can be made again from their inputs, where a flush of tens of MB would cost more
    /// than producing them (`diff`, `diff apply`).
    init(path: String, permissions: Int? = nil, flushBeforeCommit: Bool = true) throws(FileAccessError) {
        self.flushesBeforeCommit = flushBeforeCommit
        let destination = URL(fileURLWithPath: path)
        self.path = path
        self.temporaryPath = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).tmp-\(UUID().uuidString)").path
        let attributes: [FileAttributeKey: Any]? = permissions.map { [.posixPermissions: $0] }
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil, attributes: attributes),
              let handle = FileHandle(forWritingAtPath: temporaryPath)
        else {
            throw .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        self.handle = handle
    }

    func write(_ bytes: some Collection<UInt8>) throws(FileAccessError) {
        do {
            try handle.write(contentsOf: Data(bytes))
        } catch {
            throw .unwritable(path: path, reason: FileAccess.reason(error))
        }
    }

    /// Flushes (unless the writer was made not to) and closes the temporary file; `commit` then only
    /// renames it. Called by `commit` when not called before.
    func finishWriting() throws(FileAccessError) {
        guard !closed else { return }
        do {
            if flushesBeforeCommit { try handle.synchronize() }
            try handle.close()
        } catch {
            throw .unwritable(path: path, reason: FileAccess.reason(error))
        }
        closed = true
    }

    func commit() throws(FileAccessError) {
        try finishWriting()
        guard rename(temporaryPath, path) == 0 else {
            throw .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        committed = true
    }

    deinit {
        guard !committed else { return }
        if !closed { try? handle.close() }
        unlink(temporaryPath)
    }
}
