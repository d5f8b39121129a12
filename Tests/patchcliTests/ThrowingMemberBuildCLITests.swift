import Foundation
import Testing

/// Throwing functions end to end: a changed throwing function and mutating method build into the
/// module, and `run` on exactly the JSON the native thunks send
/// (Tests/PatchBuildTests/Fixtures/RuntimeThrows/calls.txt, checked by ThrowingMemberRuntimeTests)
/// returns the value, or the `{"thrown": …}` envelope those thunks rethrow.
@Suite(.serialized) struct ThrowingMemberBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeThrows").standardizedFileURL
    static let parserFile = "Sources/Shop/Parser.swift"

    /// The argument JSON of each call the native thunks sent, in order.
    static func nativeCalls(_ export: String) throws -> [String] {
        let calls = try String(contentsOf: fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        return calls.split(separator: "\n").filter { $0.hasPrefix(export + " ") }.map { String($0.dropFirst(export.count + 1)) }
    }

    @Test func aChangedThrowingFunctionShipsAndItsThrowComesBackAsTheThrownEnvelope() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: "Counter(count: 0).count"),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Parser.swift"), encoding: .utf8),
                                        to: Self.parserFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            try ViewBuildCLITests.edit(project, Self.parserFile, replacing: "        return text.count\n",
                                       with: "        if text.count > 2 { throw ParseError.tooLong(count: text.count) }\n        return text.count\n")
            try ViewBuildCLITests.edit(project, Self.parserFile, replacing: "        count += step\n", with: "        count += step * 10\n        if count > 20 { throw ParseError.empty }\n")
            try ViewBuildCLITests.edit(project, Self.parserFile, replacing: "        maximum = value\n", with: "        maximum = value * 2\n")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == ["Shop:Counter.advance(by:Int)", "Shop:Limit.init(text:String)", "Shop:Parser.length(of:String)"])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            func run(_ export: String, _ input: String) throws -> String? {
                let result = try CLI.run(["run", module, export, "--input", input, "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            let lengths = try Self.nativeCalls("_pf_Parser_length__of")
            #expect(try run("_pf_Parser_length__of", lengths[0]) == #"{"thrown":{"type":"ParseError","value":"{\"tooLong\":{\"count\":3}}"}}"#)
            #expect(try run("_pf_Parser_length__of", lengths[1]) == #"{"thrown":{"type":"ParseError","value":"{\"empty\":{}}"}}"#)
            #expect(try run("_pf_Parser_length__of", #"{"text":"ab"}"#) == #"{"value":2}"#)
            // The receiver as the throw left it travels with the thrown error.
            let advance = try #require(Self.nativeCalls("_pf_Counter_advance__by").first)
            #expect(try run("_pf_Counter_advance__by", advance) == #"{"thrown":{"type":"ParseError","value":"{\"empty\":{}}"},"self":{"count":21}}"#)
            #expect(try run("_pf_Counter_advance__by", #"{"self":{"count":0},"step":1}"#) == #"{"value":10,"self":{"count":10}}"#)
            // A throwing initializer: its new stored values, or what it threw.
            let limit = try #require(Self.nativeCalls("_pf_Limit_init__text").first)
            #expect(try run("_pf_Limit_init__text", limit) == #"{"value":{"maximum":14}}"#)
            #expect(try run("_pf_Limit_init__text", #"{"text":"seven"}"#) == #"{"thrown":{"type":"ParseError","value":"{\"empty\":{}}"}}"#)
        }
    }
}
