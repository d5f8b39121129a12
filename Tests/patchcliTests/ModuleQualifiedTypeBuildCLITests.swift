import Foundation
import Testing

/// Types written with their module end to end: `init` routes `Shelf`'s functions that take and return
/// `Kit.Category` (a mirror), `Kit.Tags` (an alias) and `Kit.Tag.Style` (a nested type), and the
/// computed property of a struct holding a `Kit.Category`; their changed bodies build into one guest
/// module, where Kit's types are the project's own, and `run` answers the JSON the native thunks send
/// (Tests/PatchBuildTests/Fixtures/RuntimeModuleQualified/calls.txt, ModuleQualifiedTypeRuntimeTests).
@Suite(.serialized) struct ModuleQualifiedTypeBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeModuleQualified").standardizedFileURL
    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(name: "Shelf", targets: [.target(name: "Kit"), .target(name: "Shelf", dependencies: ["Kit"])])
        """
    static let shelfFile = "Sources/Shelf/Shelf.swift"

    @Test func changedFunctionsOfModuleQualifiedTypesShipAndRunOnTheThunksJSON() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shelf")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Kit.swift"), encoding: .utf8), to: "Sources/Kit/Kit.swift", in: project)
            // The stand-in of a second `Category` is the runtime test's; here Kit's is the only one.
            let shelf = try String(contentsOf: Self.fixtures.appendingPathComponent("Shelf.swift"), encoding: .utf8)
            try ViewBuildCLITests.write(shelf.replacingOccurrences(of: "import Shadow\n", with: ""), to: Self.shelfFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.shelfFile), encoding: .utf8)
            #expect(prepared.contains("    static dynamic func next(after category: Kit.Category) -> Kit.Category {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.shelfFile, replacing: #"category.rawValue + "!""#, with: #"category.rawValue + "?""#)
            try ViewBuildCLITests.edit(project, Self.shelfFile, replacing: "category == .fish ? .bugs : .fish", with: "category == .fish ? .fish : .bugs")
            try ViewBuildCLITests.edit(project, Self.shelfFile, replacing: "tags.count + (style.bold", with: "tags.count * 2 + (style.bold")
            try ViewBuildCLITests.edit(project, Self.shelfFile, replacing: #""\(category.rawValue) \(done)""#, with: #""\(category.rawValue): \(done)""#)
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == [
                "Shelf:Progress.summary", "Shelf:Shelf.count(_:Kit.Tags,style:Kit.Tag.Style)", "Shelf:Shelf.label(for:Kit.Category)",
                "Shelf:Shelf.next(after:Kit.Category)",
            ], "\(changes)")
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8).split(separator: "\n")
            var outputs: [String] = []
            for call in calls {
                let parts = call.split(separator: " ", maxSplits: 1).map(String.init)
                let run = try CLI.run(["run", module, parts[0], "--input", parts[1], "--decode", "text", "--json"])
                #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
                outputs.append(run.result?["output"] as? String ?? "")
            }
            #expect(outputs == [#"{"value":"fish?"}"#, #"{"value":"fish"}"#, #"{"value":12}"#, #"{"value":"bugs: 3"}"#])
        }
    }
}
