import Foundation
import Testing

/// Parameters of a class type, end to end on a fixture modelled on Enchanted's completions: changed
/// bodies reading the `Completion` they receive build into the module, and `run` calls them with exactly
/// the JSON the native thunks send (Tests/PatchBuildTests/Fixtures/RuntimeObjectParameters/calls.txt,
/// which ObjectParameterRuntimeTests checks the compiled thunks send), so the native copy of the object
/// and the guest's agree. A body writing to the copy stays native, naming the write.
@Suite(.serialized) struct ObjectParameterBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeObjectParameters").standardizedFileURL
    static let completionsFile = "Sources/Shop/Completions.swift"

    static func initialized(in directory: URL) throws -> URL {
        let project = directory.appendingPathComponent("Shop")
        try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
        try ViewBuildCLITests.write(ClassMethodBuildCLITests.app.replacingOccurrences(of: #"Basket(items: [], currency: "EUR").total"#, with: #"Panel().send(nil)"#),
                                    to: "Sources/Shop/ShopApp.swift", in: project)
        try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Completions.swift"), encoding: .utf8),
                                    to: Self.completionsFile, in: project)
        let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
        #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
        return project
    }

    @Test func changedBodiesReadingTheParametersObjectShip() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.completionsFile, replacing: #"completion.instruction + ": " + selectedText"#,
                                       with: #"completion.instruction + " (" + String(completion.order) + "): " + selectedText"#)
            try ViewBuildCLITests.edit(project, Self.completionsFile, replacing: "        sent += 1\n", with: "        sent += 10\n")
            let changes = try ObjectReferenceBuildCLITests.changes(project)
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Panel.prompt(for:Completion,selectedText:String)", "Shop:Panel.send(_:Completion?)"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            func run(_ export: String, _ occurrence: Int = 0) throws -> String? {
                let input = try ObjectReferenceBuildCLITests.nativeCall(export, occurrence, fixtures: Self.fixtures)
                let result = try CLI.run(["run", module, export, "--input", input, "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            #expect(try run("_pf_Panel_prompt__for_selectedText") == #"{"value":"Fix the grammar (2): a text"}"#)
            // The panel's copy of its `last` completion travels as the receiver's reference does; the
            // parameter's copy is read, never returned.
            let last = #""last":{"name":"Fix","instruction":"Fix the grammar","order":2}"#
            let sent = try run("_pf_Panel_send___"), sentNothing = try run("_pf_Panel_send___", 1)
            #expect(sent == #"{"value":"2. Fix","self":{"sent":10,\#(last)}}"#, "\(sent ?? "nil")")
            #expect(sentNothing == #"{"value":"nothing","self":{"sent":15,\#(last)}}"#, "\(sentNothing ?? "nil")")
        }
    }

    @Test func aBodyWritingToTheParametersObjectStaysNative() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.completionsFile, replacing: "        sent += 1\n", with: "        sent += 1\n        completion?.order += 1\n")
            let send = try #require(try ObjectReferenceBuildCLITests.changes(project).first { $0["id"] as? String == "Shop:Panel.send(_:Completion?)" })
            #expect(send["status"] as? String == "native_only")
            #expect(send["reason"] as? String == "unsupported_language_feature")
            #expect(send["detail"] as? String == "writes `completion.order` through the parameter `completion`, an object of class Completion: the module changes a copy of that object, and the write would not reach the app's", "\(send)")
        }
    }
}
