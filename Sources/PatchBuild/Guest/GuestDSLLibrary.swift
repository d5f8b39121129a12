import Foundation
import PatchManifest

/// The guest view DSL (Prelude.swift, the Foundation layer and templates/guest/ViewDSL*.swift) compiled once into the
/// library module `PatchGuestDSL`, kept in a cache every build on the machine shares: a build that
/// lowers views compiles only its program against it and links the library's bitcode.
///
/// Why: the DSL is thousands of lines, and compiling it with every program took more than half of a
/// one-view build (Examples/PatchShop's WishlistScreen: 5.2 s of swiftc CPU time in one module, 2.3 s
/// for the program against the library). Embedded Swift serializes the SIL of every function of a
/// module, so the program still specializes the DSL's generics for its views, and with
/// `-lto=llvm-full` wasm-ld optimizes program and library as one unit: the module comes out within
/// 0.2 % of the one-module build's size.
///
/// An entry is named by a hash of everything its bytes depend on (the compiler, the command line, the
/// template files), so a new patchcli or toolchain gets a new entry and never a stale one. It is
/// compiled in a fresh directory and renamed into place: concurrent builds never see half an entry,
/// and the loser of a race uses the winner's.
public enum GuestDSLLibrary {
    public static let moduleName = "PatchGuestDSL"
    static let moduleFile = moduleName + ".swiftmodule"
    static let objectFile = moduleName + ".o"
    /// Entries unused for this long are removed when a new one is written (a patchcli or toolchain
    /// upgrade, a template edit).
    static let unusedEntryLifetime: TimeInterval = 30 * 24 * 3600
    /// Changes whenever what an entry holds changes shape, so older entries are never read.
    static let layoutVersion = "1"

    /// `<user cache directory>/patchcli` (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches`
    /// on macOS): what `GuestBuildRequest.cacheDirectory` defaults to.
    public static var defaultCacheDirectory: String? {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.appendingPathComponent("patchcli").path
    }

    /// The directory holding the library built from `templates` for `commands`' toolchain, compiled
    /// now unless `cacheDirectory` has it. When the cache cannot be written, the library is compiled
    /// into `scratch` (the build's own work directory) and not kept.
    static func prepare(templates: String, commands: GuestCommands, cacheDirectory: String?, scratch: String) throws(GuestBuildError) -> String {
        let files = GuestTemplates.viewDSLLibraryFiles(in: templates)
        var contents: [(name: String, data: Data)] = []
        for name in ["Prelude.swift", "PatchGuestSupport.h"] + files {
            guard let data = FileManager.default.contents(atPath: (templates as NSString).appendingPathComponent(name)) else {
                throw .templatesMissing(searched: [templates], executable: Installation.current.executable)
            }
            contents.append((name, data))
        }
        let key = entryKey(commands: commands, files: files, contents: contents)
        let entries = [cacheDirectory.map { ($0 as NSString).appendingPathComponent("guest-dsl") }, (scratch as NSString).appendingPathComponent("guest-dsl")]
            .compactMap { $0 }.first { folder in
                (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil && FileManager.default.isWritableFile(atPath: folder)
            }
        guard let entries else { throw .outputUnwritable(path: scratch, reason: "cannot create a directory for the view DSL's library") }
        let entry = (entries as NSString).appendingPathComponent(key)
        if isComplete(entry) {
            // The modification date is the entry's last use, which eviction goes by.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: entry)
            return entry
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
        let step = "swiftc (view DSL)"
        let result: ProcessRunner.Result
        do {
            result = try ProcessRunner.run(commands.toolchain.swiftc, compile.viewDSLLibraryCompile(files: files), in: staging)
        } catch {
            throw .compileFailed(step: step, output: "could not start \(commands.toolchain.swiftc): \(error)")
        }
        guard result.status == 0 else { throw .compileFailed(step: step, output: result.standardError + result.standardOutput) }
        for (name, _) in contents { try? FileManager.default.removeItem(atPath: (staging as NSString).appendingPathComponent(name)) }
        do {
            try FileManager.default.moveItem(atPath: staging, toPath: entry)
        } catch {
            // Another build finished the same entry first.
            guard isComplete(entry) else { throw .outputUnwritable(path: entry, reason: String(describing: error)) }
        }
        removeUnused(in: entries, keeping: key)
        return entry
    }

    private static func isComplete(_ entry: String) -> Bool {
        [moduleFile, objectFile].allSatisfy { FileManager.default.fileExists(atPath: (entry as NSString).appendingPathComponent($0)) }
    }

    /// SHA-256 of the compiler's identity, the library's command line for the DSL's `files` (its work
    /// directory left out) and the name and bytes of every file it reads (`contents`).
    static func entryKey(commands: GuestCommands, files: [String], contents: [(name: String, data: Data)]) -> String {
        var hasher = SHA256Hasher()
        func add(_ text: String) { hasher.update(Array(text.utf8) + [0]) }
        add(layoutVersion)
        add(compilerIdentity(commands.toolchain))
        var placeless = commands
        placeless.workDirectory = ""
        for argument in placeless.viewDSLLibraryCompile(files: files) { add(argument) }
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
