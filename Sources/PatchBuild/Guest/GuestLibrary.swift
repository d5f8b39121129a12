import Foundation
import PatchManifest

/// The guest code every module shares, compiled once into a library module kept in a cache every
/// build on the machine shares: a build compiles only its program against it (`@testable import`,
/// as the glue uses the library's internal declarations) and links the library's bitcode.
///
/// Two flavors, one per kind of module:
/// - `foundation`: Prelude.swift and the Foundation layer (templates/guest/Foundation*.swift), the
///   library `PatchGuestFoundation` a function module compiles against;
/// - `viewDSL`: the same with the view DSL (templates/guest/ViewDSL*.swift) and `-D PATCH_VIEWS`
///   (the prelude's faster input reading), the library `PatchGuestDSL` a module lowering views
///   compiles against.
///
/// Why: compiling the layer with every program was most of a build. A one-function module's swiftc
/// (food-truck, docs/benchmarks.md) took 8.9 s of CPU with Prelude and the Foundation layer and 1.6 s
/// against the library; a one-view one 5.2 s with the DSL against 2.3 s. Embedded Swift
/// serializes the SIL of every function of a module, so the program still specializes the library's
/// generics, and with `-lto=llvm-full` wasm-ld optimizes program and library as one unit and
/// `--gc-sections` drops what no export reaches: the modules come out within 0.4 % of the one-module
/// build's size.
///
/// An entry is named by a hash of everything its bytes depend on (the compiler, the command line, the
/// template files), so a new patchcli or toolchain gets a new entry and never a stale one. It is
/// compiled in a fresh directory and renamed into place: concurrent builds never see half an entry,
/// and the loser of a race uses the winner's. Its `checksums` file, written last, holds the SHA-256 of
/// the module and the object: an entry whose files do not match (truncated, edited, half deleted by
/// hand) is set aside and compiled again.
public enum GuestLibrary: Sendable, Equatable {
    case foundation
    case viewDSL

    /// The library a program compiles against: the DSL's when it lowers views.
    init(lowersViews: Bool) {
        self = lowersViews ? .viewDSL : .foundation
    }

    public var moduleName: String {
        switch self {
        case .foundation: "PatchGuestFoundation"
        case .viewDSL: "PatchGuestDSL"
        }
    }

    var moduleFile: String { moduleName + ".swiftmodule" }
    var objectFile: String { moduleName + ".o" }
    /// `<cache directory>/<folder>/<entry key>`.
    var cacheFolder: String {
        switch self {
        case .foundation: "guest-foundation"
        case .viewDSL: "guest-dsl"
        }
    }

    /// What the library compiles besides Prelude.swift.
    func files(in templates: String) -> [String] {
        switch self {
        case .foundation: GuestTemplates.foundationFiles(in: templates)
        case .viewDSL: GuestTemplates.viewDSLLibraryFiles(in: templates)
        }
    }

    /// Conditions the library's sources are compiled with (`-D`).
    var conditions: [String] {
        switch self {
        case .foundation: []
        case .viewDSL: ["PATCH_VIEWS"]
        }
    }

    /// A prepared library: its flavor and the directory holding its module and object.
    public struct Entry: Sendable, Equatable {
        public var library: GuestLibrary
        public var directory: String

        public init(library: GuestLibrary, directory: String) {
            self.library = library
            self.directory = directory
        }

        var objectPath: String { (directory as NSString).appendingPathComponent(library.objectFile) }
    }

    /// Entries unused for this long are removed when a new one is written (a patchcli or toolchain
    /// upgrade, a template edit).
    static let unusedEntryLifetime: TimeInterval = 30 * 24 * 3600
    /// Changes whenever what an entry holds changes shape, so older entries are never read.
    static let layoutVersion = "2"
    /// The entry's last file: `<sha256> <name>` of the module and the object, one a line.
    static let checksumsFile = "checksums"

    /// `<user cache directory>/patchcli` (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches`
    /// on macOS): what `GuestBuildRequest.cacheDirectory` defaults to.
    public static var defaultCacheDirectory: String? {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.appendingPathComponent("patchcli").path
    }

    /// The library built from `templates` for `commands`' toolchain, compiled now unless
    /// `cacheDirectory` has an intact entry. When the cache cannot be written, the library is compiled
    /// into `scratch` (the build's own work directory) and not kept.
    func prepare(templates: String, commands: GuestCommands, cacheDirectory: String?, scratch: String) throws(GuestBuildError) -> Entry {
        let files = files(in: templates)
        var contents: [(name: String, data: Data)] = []
        for name in ["Prelude.swift", "PatchGuestSupport.h"] + files {
            guard let data = FileManager.default.contents(atPath: (templates as NSString).appendingPathComponent(name)) else {
                throw .templatesMissing(searched: [templates], executable: Installation.current.executable)
            }
            contents.append((name, data))
        }
        let key = entryKey(commands: commands, files: files, contents: contents)
        let entries = [cacheDirectory, scratch].compactMap { $0 }.map { ($0 as NSString).appendingPathComponent(cacheFolder) }.first { folder in
            (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil && FileManager.default.isWritableFile(atPath: folder)
        }
        guard let entries else { throw .outputUnwritable(path: scratch, reason: "cannot create a directory for the guest library \(moduleName)") }
        let entry = (entries as NSString).appendingPathComponent(key)
        if isIntact(entry) {
            // The modification date is the entry's last use, which eviction goes by.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: entry)
            return Entry(library: self, directory: entry)
        }

        let staging = (entries as NSString).appendingPathComponent(".\(key)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: staging) }
        do {
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
            for (name, data) in contents {
                try data.write(to: URL(fileURLWithPath: (staging as NSString).appendingPathComponent(name)))
            }
        } catch {
            throw .outputUnwritable(path: staging, reason: String(describing: error))
        }
        var compile = commands
        compile.workDirectory = staging
        let step = "swiftc (\(moduleName))"
        let result: ProcessRunner.Result
        do {
            result = try ProcessRunner.run(commands.toolchain.swiftc, compile.libraryCompile(self, files: files), in: staging)
        } catch {
            throw .compileFailed(step: step, output: "could not start \(commands.toolchain.swiftc): \(error)")
        }
        guard result.status == 0 else { throw .compileFailed(step: step, output: result.standardError + result.standardOutput) }
        for (name, _) in contents { try? FileManager.default.removeItem(atPath: (staging as NSString).appendingPathComponent(name)) }
        guard let checksums = checksums(of: staging) else { throw .compileFailed(step: step, output: "swiftc wrote no \(moduleFile) or \(objectFile)") }
        do {
            try Data(checksums.utf8).write(to: URL(fileURLWithPath: (staging as NSString).appendingPathComponent(Self.checksumsFile)))
        } catch {
            throw .outputUnwritable(path: staging, reason: String(describing: error))
        }
        if FileManager.default.fileExists(atPath: entry), !isIntact(entry) {
            // A damaged entry is moved aside first (a rename, so a build reading it meanwhile keeps its files).
            let damaged = (entries as NSString).appendingPathComponent(".\(key)-damaged-\(UUID().uuidString)")
            if (try? FileManager.default.moveItem(atPath: entry, toPath: damaged)) != nil { try? FileManager.default.removeItem(atPath: damaged) }
        }
        do {
            try FileManager.default.moveItem(atPath: staging, toPath: entry)
        } catch {
            // Another build finished the same entry first.
            guard isIntact(entry) else { throw .outputUnwritable(path: entry, reason: String(describing: error)) }
        }
        Self.removeUnused(in: entries, keeping: key)
        return Entry(library: self, directory: entry)
    }

    /// `<sha256> <name>` of the module and the object in `directory`, nil when one is missing.
    private func checksums(of directory: String) -> String? {
        var lines = ""
        for name in [moduleFile, objectFile] {
            guard let data = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(name)) else { return nil }
            lines += "\(SHA256Hasher.hex(of: Array(data))) \(name)\n"
        }
        return lines
    }

    /// Whether `entry` holds the module and the object its checksums file describes.
    private func isIntact(_ entry: String) -> Bool {
        guard let recorded = FileManager.default.contents(atPath: (entry as NSString).appendingPathComponent(Self.checksumsFile)) else { return false }
        return checksums(of: entry).map { Data($0.utf8) == recorded } ?? false
    }

    /// SHA-256 of the compiler's identity, the library's command line for `files` (its work directory
    /// left out) and the name and bytes of every file it reads (`contents`).
    func entryKey(commands: GuestCommands, files: [String], contents: [(name: String, data: Data)]) -> String {
        var hasher = SHA256Hasher()
        func add(_ text: String) { hasher.update(Array(text.utf8) + [0]) }
        add(Self.layoutVersion)
        add(Self.compilerIdentity(commands.toolchain))
        var placeless = commands
        placeless.workDirectory = ""
        for argument in placeless.libraryCompile(self, files: files) { add(argument) }
        for (name, data) in contents {
            add(name)
            add(String(data.count))
            hasher.update(Array(data))
        }
        return hasher.finalizeHex()
    }

    /// Path, size and modification date of the toolchain's `swift-frontend` (what compiles the
    /// library and holds the format of its `.swiftmodule`) and the embedded standard library's
    /// folder: a toolchain installed over another changes them. Reading them costs no process.
    static func compilerIdentity(_ toolchain: Toolchain) -> String {
        let frontend = URL(fileURLWithPath: (toolchain.binDirectory as NSString).appendingPathComponent("swift-frontend")).resolvingSymlinksInPath().path
        var parts = [frontend, toolchain.embeddedWasmLibrary, toolchain.swiftSDK?.embeddedLibrary ?? ""]
        for path in [frontend, toolchain.swiftc] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            parts.append("\((attributes?[.size] as? NSNumber)?.intValue ?? -1)")
            parts.append("\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1)")
        }
        return parts.joined(separator: "\n")
    }

    /// Removes the entries (and abandoned staging directories) of `entries` unused for
    /// `unusedEntryLifetime`.
    private static func removeUnused(in entries: String, keeping key: String) {
        let limit = Date().addingTimeInterval(-unusedEntryLifetime)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: entries)) ?? [] where name != key {
            let path = (entries as NSString).appendingPathComponent(name)
            guard let used = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date, used < limit else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
