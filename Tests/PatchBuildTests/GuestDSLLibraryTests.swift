import Foundation
@testable import PatchBuild
import Testing

/// The view DSL is compiled once into the library module `GuestLibrary.viewDSL` caches, and view builds
/// compile only their program against it: the cache is reused, keyed by what the library's bytes
/// depend on, and a module does not depend on where the cache is.
@Suite struct GuestDSLLibraryTests {
    static let view = """
        import SwiftUI

        struct Greeting: View {
            let name: String
            @State private var taps = 0
            var body: some View {
                Button("Hello, \\(name): \\(taps)") { taps += 1 }
                    .padding()
            }
        }

        """

    static func buildGreeting(cache: String, toolchain: Toolchain) throws -> Data {
        let sources = try GuestHarness.temporaryDirectory("dsl-library-sources")
        try Data(view.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Greeting.swift")))
        let output = try GuestHarness.temporaryDirectory("dsl-library-output")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: [], views: [GuestViewRequest(declarationID: "App:Greeting.body", typeName: "Greeting", path: ["Greeting"])],
            outputDirectory: output, toolchain: toolchain, cacheDirectory: cache))
        #expect(result.manifest.views?.map(\.export) == ["view_body__Greeting"], "\(result.manifest.unpatchable)")
        let program = try String(contentsOfFile: (output as NSString).appendingPathComponent("PatchGuest.swift"), encoding: .utf8)
        #expect(program.contains("@testable import PatchGuestDSL\n"))
        return try Data(contentsOf: URL(fileURLWithPath: (output as NSString).appendingPathComponent("module.wasm")))
    }

    /// The entries of `cache` and the inode of each one's object file.
    static func entries(_ cache: String) throws -> [String: Int] {
        let folder = (cache as NSString).appendingPathComponent("guest-dsl")
        var found: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let object = (folder as NSString).appendingPathComponent(name + "/PatchGuestDSL.o")
            #expect(FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name + "/PatchGuestDSL.swiftmodule")))
            found[name] = (try FileManager.default.attributesOfItem(atPath: object)[.systemFileNumber] as? NSNumber)?.intValue
        }
        return found
    }

    @Test func theDSLIsCompiledOnceAndEveryViewBuildReusesIt() throws {
        let toolchain = try Toolchain.discover()
        let cache = try GuestHarness.temporaryDirectory("dsl-library-cache")
        let first = try Self.buildGreeting(cache: cache, toolchain: toolchain)
        let entries = try Self.entries(cache)
        #expect(entries.count == 1 && !entries.keys.contains { $0.hasPrefix(".") }, "one entry, no staging directory left: \(entries)")

        // The second build links the same file: nothing was compiled again.
        let second = try Self.buildGreeting(cache: cache, toolchain: toolchain)
        #expect(try Self.entries(cache) == entries)
        #expect(second == first)

        // A library compiled in another cache gives the same module: no path of the cache is in it.
        let elsewhere = try GuestHarness.temporaryDirectory("dsl-library-cache-elsewhere")
        #expect(try Self.buildGreeting(cache: elsewhere, toolchain: toolchain) == first)
    }

    @Test func aCacheThatCannotBeWrittenStillBuilds() throws {
        let toolchain = try Toolchain.discover()
        let folder = try GuestHarness.temporaryDirectory("dsl-library-unwritable")
        // A file where the cache folder should be: nothing can be created under it.
        let notAFolder = (folder as NSString).appendingPathComponent("file")
        try Data().write(to: URL(fileURLWithPath: notAFolder))
        #expect(try !Self.buildGreeting(cache: notAFolder, toolchain: toolchain).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file"])
    }

    @Test func anEntryIsNamedByTheCompilerTheCommandAndEveryTemplateByte() throws {
        let toolchain = try Toolchain.discover()
        let commands = GuestCommands(toolchain: toolchain, workDirectory: "/one/place")
        let files = [("Prelude.swift", Data("let a = 1".utf8)), ("ViewDSL.swift", Data("struct V {}".utf8))]
        func key(_ commands: GuestCommands, _ contents: [(name: String, data: Data)]) -> String {
            GuestLibrary.viewDSL.entryKey(commands: commands, files: contents.map(\.name).filter { $0.hasPrefix("ViewDSL") }, contents: contents)
        }
        let original = key(commands, files)
        #expect(key(commands, files) == original)
        // Where the library is compiled is not part of its name.
        #expect(key(GuestCommands(toolchain: toolchain, workDirectory: "/another"), files) == original)
        #expect(key(commands, [files[0], ("ViewDSL.swift", Data("struct W {}".utf8))]) != original)
        #expect(key(commands, files + [("ViewDSL+Extra.swift", Data())]) != original)
        var otherCompiler = toolchain
        otherCompiler.binDirectory = "/elsewhere/usr/bin"
        #expect(key(GuestCommands(toolchain: otherCompiler, workDirectory: "/one/place"), files) != original)
    }
}
