import Foundation
import Testing

/// Setters end to end: a changed setter ships its property's getter and setter, and `run` on exactly
/// the JSON the native thunk sends (Tests/PatchBuildTests/Fixtures/RuntimeSetters/calls.txt, checked
/// by SetterRuntimeTests) returns the new `self` that thunk writes back.
@Suite(.serialized) struct SetterBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeSetters").standardizedFileURL
    static let file = "Sources/Shop/Thermostat.swift"

    @Test func aChangedSetterShipsWithItsGetterAndRunsOnTheThunksJSON() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: #"Thermostat(tenths: 0, room: "").degrees"#),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Thermostat.swift"), encoding: .utf8), to: Self.file, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.file), encoding: .utf8)
            #expect(prepared.contains("    dynamic var degrees: Int {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.file, replacing: "set { tenths = newValue * 10 }", with: "set { tenths = newValue * 10 + 5 }")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Thermostat.degrees"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
            let export = "_pf_Thermostat_degrees__set"
            let input = try #require(calls.split(separator: "\n").first { $0.hasPrefix(export + " ") }).dropFirst(export.count + 1)
            let set = try CLI.run(["run", module, export, "--input", String(input), "--decode", "text", "--json"])
            #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
            #expect(set.result?["output"] as? String == #"{"self":{"tenths":305,"room":"hall"}}"#)
            let get = try CLI.run(["run", module, "_pf_Thermostat_degrees__get", "--input", #"{"self":{"tenths":305,"room":"hall"}}"#, "--decode", "text", "--json"])
            #expect(get.status == 0, "\(get.stdout)\(get.stderr)")
            #expect(get.result?["output"] as? String == #"{"value":30}"#)
        }
    }
}
