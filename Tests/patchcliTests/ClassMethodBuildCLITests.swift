import Foundation
import Testing

/// Class methods end to end: `init` routes a final class's method and computed property and an
/// ObservableObject-shaped class's `Void` method; changed bodies build into the module, and `run`
/// calls them with exactly the JSON the native thunks send (Tests/PatchBuildTests/Fixtures/
/// RuntimeClasses/calls.txt, which ClassMethodRuntimeTests checks the compiled thunks send), so the
/// native mirror of the object and the guest's copy of the class agree. A changed body touching a
/// stored property the mirror leaves out stays native, naming it.
@Suite(.serialized) struct ClassMethodBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeClasses").standardizedFileURL
    static let storeFile = "Sources/Shop/Store.swift"
    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            var body: some Scene {
                WindowGroup { Text("\\(Basket(items: [], currency: "EUR").total)") }
            }
        }

        """

    static func nativeCall(_ export: String) throws -> String {
        let calls = try String(contentsOf: fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        let line = try #require(calls.split(separator: "\n").first { $0.hasPrefix(export + " ") })
        return String(line.dropFirst(export.count + 1))
    }

    static func initialized(in directory: URL) throws -> URL {
        let project = directory.appendingPathComponent("Shop")
        try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
        try ViewBuildCLITests.write(Self.app, to: "Sources/Shop/ShopApp.swift", in: project)
        try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Store.swift"), encoding: .utf8),
                                    to: Self.storeFile, in: project)
        let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
        #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
        return project
    }

    @Test func changedClassMethodsShipAndReturnTheObjectsNewState() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.storeFile), encoding: .utf8)
            #expect(prepared.contains("    dynamic func add(_ item: Item) -> Int {") && prepared.contains("    dynamic func increment(by step: Int) {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.storeFile, replacing: "        items.append(item)\n",
                                       with: "        items.append(item)\n        discount += 1\n")
            try ViewBuildCLITests.edit(project, Self.storeFile, replacing: "        count += step\n", with: "        count += step * 10\n        title = \"ten\"\n")
            try ViewBuildCLITests.edit(project, Self.storeFile, replacing: "- discount }", with: "- discount * 2 }")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Basket.add(_:Item)", "Shop:Basket.total", "Shop:Counter.increment(by:Int)"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            func run(_ export: String) throws -> String? {
                let result = try CLI.run(["run", module, export, "--input", Self.nativeCall(export), "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            // The object's stored values after the call come back as "self" beside the value, as the
            // thunk's `__PatchResult` decodes them; the thunk writes back the ones that differ.
            #expect(try run("_pf_Basket_add___")
                == #"{"value":2,"self":{"items":[{"name":"tea","cents":300},{"name":"cake","cents":450}],"discount":1,"currency":"EUR"}}"#)
            #expect(try run("_pf_Basket_total__get") == #"{"value":1,"self":{"items":[{"name":"jam","cents":1}],"discount":0,"currency":"EUR"}}"#)
            #expect(try run("_pf_Counter_increment__by") == #"{"self":{"count":20,"title":"ten"}}"#)
        }
    }

    @Test func aChangedBodyTouchingAPropertyTheMirrorLeavesOutStaysNative() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.storeFile, replacing: "        items.append(item)\n",
                                       with: "        items.append(item)\n        owner = nil\n")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)\(build.stderr)")
            let add = try #require(changes.first { $0["id"] as? String == "Shop:Basket.add(_:Item)" })
            #expect(add["status"] as? String == "native_only")
            #expect(add["reason"] as? String == "unsupported_language_feature")
            #expect((add["detail"] as? String)?.hasPrefix("touches `owner` (Sources/Shop/Store.swift:25), a stored property of class Basket that the copy the module receives leaves out (stored property `owner` is `weak`") == true, "\(add)")
        }
    }
}
