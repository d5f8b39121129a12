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
}
