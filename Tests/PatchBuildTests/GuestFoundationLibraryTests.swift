import Foundation
@testable import PatchBuild
import Testing

/// Function modules compile against the cached `PatchGuestFoundation` library (`GuestLibrary.foundation`:
/// Prelude.swift and the Foundation layer) instead of compiling the layer with every program: a second
/// build reuses the entry, a damaged entry is compiled again, and concurrent builds share one entry.
@Suite struct GuestFoundationLibraryTests {
    /// The entries of `library`'s folder in `cache`, with the inode of each one's object file.
    static func entries(_ library: GuestLibrary, in cache: String) throws -> [String: Int] {
        let folder = (cache as NSString).appendingPathComponent(library.cacheFolder)
        var found: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let object = (folder as NSString).appendingPathComponent("\(name)/\(library.objectFile)")
            found[name] = (try? FileManager.default.attributesOfItem(atPath: object)[.systemFileNumber] as? NSNumber)?.intValue ?? -1
        }
        return found
    }

    @Test func aSecondFunctionBuildReusesTheCachedFoundationLibrary() throws {
        let toolchain = try Toolchain.discover()
        let cache = try GuestHarness.temporaryDirectory("foundation-library-cache")
        func build() throws -> (module: Data, output: String) {
            let output = try GuestHarness.temporaryDirectory("foundation-library-output")
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: GuestHarness.fixtureApp, exports: ["add(_:_:)"], outputDirectory: output, toolchain: toolchain, cacheDirectory: cache))
            #expect(result.manifest.exports.map(\.symbol) == ["_pf_add_____"], "\(result.manifest.unpatchable)")
            let program = try String(contentsOfFile: (output as NSString).appendingPathComponent(GuestProgram.fileName), encoding: .utf8)
            #expect(program.contains("@testable import PatchGuestFoundation\n"))
            return (try Data(contentsOf: URL(fileURLWithPath: (output as NSString).appendingPathComponent("module.wasm"))), output)
        }
        let first = try build()
        let entries = try Self.entries(.foundation, in: cache)
        #expect(entries.count == 1 && !entries.keys.contains { $0.hasPrefix(".") }, "one entry, no staging directory left: \(entries)")
        // A function module needs no view DSL: its library is not compiled.
        #expect(!FileManager.default.fileExists(atPath: (cache as NSString).appendingPathComponent(GuestLibrary.viewDSL.cacheFolder)))

        // The second build links the same file: nothing was compiled again, and the module is the same.
        let second = try build()
        #expect(try Self.entries(.foundation, in: cache) == entries)
        #expect(second.module == first.module)
        // The library's code is linked in and runs: the scalar export and the prelude's JSON glue.
        #expect(try GuestHarness.callScalars(module: second.output, [("patch_fns__add__", [40, 2])]) == ["42"])
    }

    /// A library small enough to compile in a second: the cache's behaviour does not depend on what
    /// the library holds.
    static func tinyTemplates() throws -> String {
        let templates = try GuestHarness.temporaryDirectory("tiny-templates")
        for (name, text) in [
            ("Prelude.swift", "func _preludeAnswer() -> Int { 42 }\n"),
            ("PatchGuestSupport.h", "#pragma once\n"),
            ("Foundation.swift", "public struct Date { public var seconds: Double }\n"),
        ] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: (templates as NSString).appendingPathComponent(name)))
        }
        return templates
    }

    @Test func aDamagedEntryIsCompiledAgain() throws {
        let toolchain = try Toolchain.discover()
        let templates = try Self.tinyTemplates()
        let cache = try GuestHarness.temporaryDirectory("foundation-library-damaged")
        let scratch = try GuestHarness.temporaryDirectory("foundation-library-scratch")
        let commands = GuestCommands(toolchain: toolchain, workDirectory: scratch)
        func prepare() throws -> GuestLibrary.Entry {
            try GuestLibrary.foundation.prepare(templates: templates, commands: commands, cacheDirectory: cache, scratch: scratch)
        }
        let entry = try prepare()
        let object = entry.objectPath
        let intact = try Data(contentsOf: URL(fileURLWithPath: object))
        #expect(try prepare() == entry)
        #expect(try Self.entries(.foundation, in: cache).count == 1)

        // A truncated object (a disk filled mid-copy, an edit by hand): same path, new bytes.
        try Data(intact.prefix(intact.count / 2)).write(to: URL(fileURLWithPath: object))
        #expect(try prepare() == entry)
        #expect(try Data(contentsOf: URL(fileURLWithPath: object)) == intact)

        // An entry without its checksums (an older patchcli's, or half removed) is not trusted either.
        let inode = try Self.entries(.foundation, in: cache)
        try FileManager.default.removeItem(atPath: (entry.directory as NSString).appendingPathComponent(GuestLibrary.checksumsFile))
        #expect(try prepare() == entry)
        #expect(FileManager.default.fileExists(atPath: (entry.directory as NSString).appendingPathComponent(GuestLibrary.checksumsFile)))
        let rebuilt = try Self.entries(.foundation, in: cache)
        #expect(rebuilt.keys == inode.keys && rebuilt != inode, "compiled again into the same entry: \(inode) then \(rebuilt)")
        #expect(!rebuilt.keys.contains { $0.hasPrefix(".") }, "no damaged or staging directory left: \(rebuilt)")
    }

    @Test func concurrentBuildsShareOneEntry() throws {
        let toolchain = try Toolchain.discover()
        let templates = try Self.tinyTemplates()
        let cache = try GuestHarness.temporaryDirectory("foundation-library-race")
        let lock = NSLock()
        nonisolated(unsafe) var directories: [String] = []
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let scratch = (try? GuestHarness.temporaryDirectory("foundation-library-race-scratch")) ?? ""
            let commands = GuestCommands(toolchain: toolchain, workDirectory: scratch)
            let entry = try? GuestLibrary.foundation.prepare(templates: templates, commands: commands, cacheDirectory: cache, scratch: scratch)
            lock.withLock { directories.append(entry?.directory ?? "failed") }
        }
        #expect(directories.count == 2 && Set(directories).count == 1 && directories[0].hasPrefix(cache), "\(directories)")
        let entries = try Self.entries(.foundation, in: cache)
        #expect(entries.count == 1 && !entries.keys.contains { $0.hasPrefix(".") }, "\(entries)")
    }

    @Test func theFlavorsAreNamedApartAndByTheFoundationLayersBytes() throws {
        let toolchain = try Toolchain.discover()
        let commands = GuestCommands(toolchain: toolchain, workDirectory: "/one/place")
        let contents = [("Prelude.swift", Data("let a = 1".utf8)), ("Foundation.swift", Data("struct Date {}".utf8))]
        func key(_ library: GuestLibrary, _ contents: [(name: String, data: Data)]) -> String {
            library.entryKey(commands: commands, files: contents.map(\.name).filter { $0.hasPrefix("Foundation") }, contents: contents)
        }
        // Same files, other flags (-D PATCH_VIEWS, the module name): another entry.
        #expect(key(.foundation, contents) != key(.viewDSL, contents))
        #expect(key(.foundation, [contents[0], ("Foundation.swift", Data("struct Date { }".utf8))]) != key(.foundation, contents))
        #expect(GuestLibrary.foundation.cacheFolder != GuestLibrary.viewDSL.cacheFolder)
    }
}
