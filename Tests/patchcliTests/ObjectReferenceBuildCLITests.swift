import Foundation
import Testing

/// Objects a class receiver references, end to end on a fixture modelled on Backyard Birds' `Bird` and
/// `BirdSpecies`: changed bodies reading the species through `bird.species` build into the module,
/// and `run` calls them with exactly the JSON the native thunks send (Tests/PatchBuildTests/Fixtures/
/// RuntimeObjects/calls.txt, which ObjectReferenceRuntimeTests checks the compiled thunks send), so the
/// native mirror's copy of the species and the guest's agree. A body writing to the copy, or reaching
/// past it (the species' own references: the cycle back to its birds), stays native, naming why.
@Suite(.serialized) struct ObjectReferenceBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeObjects").standardizedFileURL
    static let aviaryFile = "Sources/Shop/Aviary.swift"

    /// The argument JSON of the `occurrence`th call of `export` that a fixture's native thunks sent (its calls.txt).
    static func nativeCall(_ export: String, _ occurrence: Int = 0, fixtures: URL = fixtures) throws -> String {
        let calls = try String(contentsOf: fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        let lines = calls.split(separator: "\n").filter { $0.hasPrefix(export + " ") }
        #expect(lines.count > occurrence)
        return String(lines[occurrence].dropFirst(export.count + 1))
    }

    static func initialized(in directory: URL) throws -> URL {
        let project = directory.appendingPathComponent("Shop")
        try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
        try ViewBuildCLITests.write(ClassMethodBuildCLITests.app.replacingOccurrences(of: #"Basket(items: [], currency: "EUR").total"#, with: #"Bird(tag: "b", species: nil).speciesName"#),
                                    to: "Sources/Shop/ShopApp.swift", in: project)
        try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Aviary.swift"), encoding: .utf8),
                                    to: Self.aviaryFile, in: project)
        let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
        #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
        return project
    }

    static func changes(_ project: URL) throws -> [[String: Any]] {
        let build = try CLI.run(["build", "--project", project.path, "--json"])
        return try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)\(build.stderr)")
    }

    @Test func changedBodiesReadingTheReferencedObjectShip() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.aviaryFile, replacing: #"species?.id ?? "- Species name is missing. -""#,
                                       with: #"species.map { $0.id + " (" + String($0.parts.count) + ")" } ?? "- Species name is missing. -""#)
            try ViewBuildCLITests.edit(project, Self.aviaryFile, replacing: "        visits += times\n", with: "        visits += times * 10\n")
            let changes = try Self.changes(project)
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Bird.speciesName", "Shop:Bird.visit(times:Int)"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            func run(_ export: String, _ occurrence: Int = 0) throws -> String? {
                let result = try CLI.run(["run", module, export, "--input", Self.nativeCall(export, occurrence), "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            // The copy of the species comes back as it went (the module cannot change it); the thunk
            // writes back `visits` only.
            let species = #""species":{"id":"robin","naturalScale":1,"parts":[{"name":"wing"},{"name":"tail"}]}"#
            #expect(try run("_pf_Bird_speciesName__get") == #"{"value":"robin (2)","self":{"tag":"r1",\#(species),"visits":0}}"#)
            #expect(try run("_pf_Bird_speciesName__get", 1) == #"{"value":"- Species name is missing. -","self":{"tag":"s1","visits":0}}"#)
            #expect(try run("_pf_Bird_visit__times") == #"{"value":"r1 saw robin with 2 parts","self":{"tag":"r1",\#(species),"visits":20}}"#)
        }
    }

    @Test func aBodyWritingToTheReferencedObjectStaysNative() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.aviaryFile, replacing: "        visits += times\n", with: "        visits += times\n        species?.naturalScale += 1\n")
            let visit = try #require(try Self.changes(project).first { $0["id"] as? String == "Shop:Bird.visit(times:Int)" })
            #expect(visit["status"] as? String == "native_only")
            #expect(visit["reason"] as? String == "unsupported_language_feature")
            #expect(visit["detail"] as? String == "writes `species.naturalScale` through `species`, which references an object of class BirdSpecies: the module changes a copy of that object, and the write would not reach the app's", "\(visit)")
        }
    }

    @Test func aBodyReachingPastTheCopyIntoTheCycleStaysNative() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.aviaryFile, replacing: #"species?.id ?? "- Species name is missing. -""#,
                                       with: #"species?.mascot?.tag ?? "- Species name is missing. -""#)
            let name = try #require(try Self.changes(project).first { $0["id"] as? String == "Shop:Bird.speciesName" })
            #expect(name["status"] as? String == "native_only")
            #expect(name["detail"] as? String == "touches `mascot` (Sources/Shop/Aviary.swift:14), a stored property of class BirdSpecies that the copy of a referenced object the module receives leaves out (stored property `mascot` references class Bird from an object the receiver references: objects travel one level deep, so a cycle cannot) (in BirdSpecies.mascot, which it uses)", "\(name)")
        }
    }
}
