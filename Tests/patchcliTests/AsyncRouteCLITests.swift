import Foundation
import Testing

/// A changed async function ships from `build`'s change detection (docs/async.md "The app side"):
/// `init` prepares the app (each async function gets its prologue, `AsyncPrologue`), the functions'
/// bodies change, `build` finds them routed (their kickoffs are in the shipped routing code) and
/// compiles them with the guest's async transform from the prepared sources, and `run` drives the
/// kickoffs on canned HTTP answers to the changed code's results.
@Suite(.serialized) struct AsyncRouteCLITests {
    @Test func aChangedAsyncFunctionOfAPreparedAppShipsFromBuild() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            let quotesFile = AsyncBuildCLITests.quotesFile
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: "1"),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: AsyncBuildCLITests.fixtures.appendingPathComponent("Quotes.swift"), encoding: .utf8),
                                        to: quotesFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(quotesFile), encoding: .utf8)
            #expect(prepared.contains("static func fetch(id: Int) async throws -> Quote { if let __patchAsync = await __patchAsync_fetch(id: id) { return try __patchAsync.get() };\n"), "\(prepared)")

            try ViewBuildCLITests.edit(project, quotesFile, replacing: "        let text = String(decoding: data, as: UTF8.self)\n",
                                       with: "        let text = String(decoding: data, as: UTF8.self).uppercased()\n")
            try ViewBuildCLITests.edit(project, quotesFile, replacing: "        return prefix + quote.text\n", with: "        return prefix + \": \" + quote.text\n")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Quotes.fetch(id:Int)", "Shop:Shelf.label(id:Int)"], "\(changes)")
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")
            let exports = try #require(build.result?["exports"] as? [[String: Any]], "\(build.stdout)")
            #expect(exports.compactMap { $0["symbol"] as? String }.sorted() == ["patch_start__pf_Quotes_fetch__id", "patch_start__pf_Shelf_label__id"], "\(exports)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let fixtures = AsyncBuildCLITests.fixtures.appendingPathComponent("fixtures.json").path
            func run(_ kickoff: String, _ input: String) throws -> String? {
                let result = try CLI.run(["run", module, kickoff, "--input", input, "--fixtures", fixtures, "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            // The JSON the app's helper sends (AsyncRoutingRuntimeTests pins it), answered as the helper decodes it.
            #expect(try run("patch_start__pf_Quotes_fetch__id", #"{"id":1}"#) == #"{"value":{"id":1,"text":"STAY HUNGRY"}}"#)
            #expect(try run("patch_start__pf_Shelf_label__id", #"{"id":2,"self":{"prefix":"Q"}}"#) == #"{"value":"Q: SHIP IT"}"#)
            #expect(try run("patch_start__pf_Quotes_fetch__id", #"{"id":3}"#) == #"{"thrown":{"type":"QuoteError","value":"{\"badStatus\":{\"code\":404}}"}}"#)
        }
    }

    static let storeFile = "Sources/Shop/QuoteStore.swift"
    static let store = """
        final class QuoteStore {
            var quotes: [String] = []
            var loads = 0

            func load(id: Int) async throws -> Int {
                loads += 1
                let quote = try await Quotes.fetch(id: id)
                quotes.append(quote.text)
                return quotes.count
            }
        }

        """

    /// A class's async method: the module's task gets the object's copy, and every outcome carries
    /// it back as the task left it, for the app's helper to write back what changed.
    @Test func aChangedAsyncMethodOfAClassShipsWithTheObjectAsTheTaskLeftIt() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: "1"),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: AsyncBuildCLITests.fixtures.appendingPathComponent("Quotes.swift"), encoding: .utf8),
                                        to: AsyncBuildCLITests.quotesFile, in: project)
            try ViewBuildCLITests.write(Self.store, to: Self.storeFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            try ViewBuildCLITests.edit(project, Self.storeFile, replacing: "        quotes.append(quote.text)\n", with: "        quotes.append(quote.text + \"!\")\n")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:QuoteStore.load(id:Int)"], "\(changes)")
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let fixtures = AsyncBuildCLITests.fixtures.appendingPathComponent("fixtures.json").path
            func run(_ input: String) throws -> String? {
                let result = try CLI.run(["run", module, "patch_start__pf_QuoteStore_load__id", "--input", input, "--fixtures", fixtures, "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            #expect(try run(#"{"id":1,"self":{"loads":0,"quotes":["a"]}}"#) == #"{"value":2,"self":{"quotes":["a","stay hungry!"],"loads":1}}"#)
            // A throw and a transport failure after the object changed: it comes back as they left it.
            #expect(try run(#"{"id":3,"self":{"loads":4,"quotes":[]}}"#) == #"{"thrown":{"type":"QuoteError","value":"{\"badStatus\":{\"code\":404}}"},"self":{"quotes":[],"loads":5}}"#)
            #expect(try run(#"{"id":9,"self":{"loads":0,"quotes":[]}}"#) == #"{"urlError":-1,"self":{"quotes":[],"loads":1}}"#)
        }
    }
}
