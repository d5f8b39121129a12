import Foundation
import Testing

/// Instance methods end to end: `init` routes a struct's methods and computed property, a changed
/// method body, getter and mutating method build into the module, and `run` calls them with exactly the JSON the native thunks
/// send (Tests/PatchBuildTests/Fixtures/RuntimeMethods/calls.txt, which InstanceMethodRuntimeTests
/// checks the compiled thunks send), so the native mirror of `self` and the guest's codec agree.
@Suite(.serialized) struct InstanceMethodBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeMethods").standardizedFileURL
    static let cartFile = "Sources/Shop/Cart.swift"
    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            var body: some Scene {
                WindowGroup { Text("\\(Cart(items: [], currency: "EUR").total())") }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Shop",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Shop")]
        )

        """

    /// The argument JSON the native thunk sends for `export`, as recorded in calls.txt.
    static func nativeCall(_ export: String) throws -> String {
        let calls = try String(contentsOf: fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        let line = try #require(calls.split(separator: "\n").first { $0.hasPrefix(export + " ") })
        return String(line.dropFirst(export.count + 1))
    }

    @Test func aChangedMethodAndMutatingMethodShipAndRunOnTheThunksJSON() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Cart.swift"), encoding: .utf8),
                                        to: Self.cartFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.cartFile), encoding: .utf8)
            #expect(prepared.contains("    dynamic func total() -> Int {") && prepared.contains("    mutating dynamic func add(item: Item) -> Int {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.cartFile, replacing: "items.reduce(0) { $0 + $1.cents } - discount",
                                       with: "items.reduce(0) { $0 + $1.cents * 2 } - discount")
            try ViewBuildCLITests.edit(project, Self.cartFile, replacing: "        items.count\n", with: "        items.count * 10\n")
            try ViewBuildCLITests.edit(project, Self.cartFile, replacing: "        items.append(item)\n",
                                       with: "        items.append(item)\n        discount += 1\n")
            try ViewBuildCLITests.edit(project, Self.cartFile, replacing: #"baseURL = "https://example.com/" + name"#,
                                       with: #"baseURL = "https://api.example.com/" + name"#)
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Cart.add(item:Item)", "Shop:Cart.itemCount", "Shop:Cart.total()", "Shop:Endpoint.init(name:String)"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let total = try CLI.run(["run", module, "_pf_Cart_total__", "--input", Self.nativeCall("_pf_Cart_total__"), "--decode", "text", "--json"])
            #expect(total.status == 0, "\(total.stdout)\(total.stderr)")
            #expect(total.result?["output"] as? String == #"{"value":600}"#)
            // An initializer's module returns the stored values its changed body sets.
            let endpoint = try CLI.run(["run", module, "_pf_Endpoint_init__name", "--input", Self.nativeCall("_pf_Endpoint_init__name"), "--decode", "text", "--json"])
            #expect(endpoint.status == 0, "\(endpoint.stdout)\(endpoint.stderr)")
            #expect(endpoint.result?["output"] as? String == #"{"value":{"baseURL":"https://api.example.com/cart","retries":3,"name":"cart"}}"#)
            let itemCount = try CLI.run(["run", module, "_pf_Cart_itemCount__get", "--input", Self.nativeCall("_pf_Cart_itemCount__get"), "--decode", "text", "--json"])
            #expect(itemCount.status == 0, "\(itemCount.stdout)\(itemCount.stderr)")
            #expect(itemCount.result?["output"] as? String == #"{"value":10}"#)
            // The mutating method's result and the new receiver, as the thunk's `__PatchResult` decodes them.
            let add = try CLI.run(["run", module, "_pf_Cart_add__item", "--input", Self.nativeCall("_pf_Cart_add__item"), "--decode", "text", "--json"])
            #expect(add.status == 0, "\(add.stdout)\(add.stderr)")
            #expect(add.result?["output"] as? String
                == #"{"value":2,"self":{"items":[{"name":"tea","cents":300},{"name":"cake","cents":450}],"discount":1,"currency":"EUR","note":""}}"#)
        }
    }
}

/// Failable initializers end to end: `init` routes them, a changed body builds, and `run` answers
/// the thunk's JSON (Tests/PatchBuildTests/Fixtures/RuntimeFailableInit/calls.txt) with the value
/// or with `{"value":null}` for nil, which the thunk turns into a nil (InstanceMethodRuntimeTests).
@Suite(.serialized) struct FailableInitializerBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeFailableInit").standardizedFileURL
    static let slugFile = "Sources/Shop/Slug.swift"

    @Test func aChangedFailableInitializerAnswersItsValueOrNull() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: #"Slug(title: "a")?.text ?? """#),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Slug.swift"), encoding: .utf8), to: Self.slugFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.slugFile), encoding: .utf8)
            #expect(prepared.contains("    dynamic init?(title: String) {") && prepared.contains("    dynamic init?(code: Int) {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.slugFile, replacing: "guard !title.isEmpty else", with: "guard title.count > 1 else")
            try ViewBuildCLITests.edit(project, Self.slugFile, replacing: "        case 1: self = .pro\n", with: "        case 2: self = .pro\n")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Slug.init(title:String)", "Shop:Tier.init(code:Int)"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            func call(_ export: String, _ input: String) throws -> String? {
                let run = try CLI.run(["run", module, export, "--input", input, "--decode", "text", "--json"])
                #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
                return run.result?["output"] as? String
            }
            let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8).split(separator: "\n")
            #expect(calls.first == #"_pf_Slug_init__title {"title":"Hello World"}"# && calls.dropFirst().first == #"_pf_Tier_init__code {"code":1}"#)
            #expect(try call("_pf_Slug_init__title", #"{"title":"Hello World"}"#) == #"{"value":{"text":"slug:Hello World","source":"Hello World"}}"#)
            #expect(try call("_pf_Slug_init__title", #"{"title":"A"}"#) == #"{"value":null}"#)
            #expect(try call("_pf_Tier_init__code", #"{"code":1}"#) == #"{"value":null}"#)
            #expect(try call("_pf_Tier_init__code", #"{"code":2}"#) == #"{"value":"pro"}"#)
        }
    }
}
