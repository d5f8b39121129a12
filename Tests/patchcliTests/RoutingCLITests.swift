import Foundation
import Testing

/// `prepare` under patch.json's `routing`, through the CLI: the config's errors and the skip report.
@Suite struct RoutingCLITests {
    /// A one-target package with `functions` (Swift declarations inside `enum Logic`) and patch.json
    /// holding `configExtra` (`, "routing": …`).
    private func makeProject(in directory: URL, functions: [String], configExtra: String) throws -> URL {
        let project = directory.appendingPathComponent("Shop")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Sources/Shop"), withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"Shop\", targets: [.executableTarget(name: \"Shop\")])\n".utf8)
            .write(to: project.appendingPathComponent("Package.swift"))
        let source = "enum Logic {\n" + functions.map { "    \($0)\n" }.joined() + "}\n"
        try Data(source.utf8).write(to: project.appendingPathComponent("Sources/Shop/Logic.swift"))
        let config = """
            {"version": 1, "appKey": "shop", "apiBaseURL": "https://example.invalid", "channel": "production",
             "project": {"kind": "swiftpm", "path": "Package.swift"}, "targets": [{"name": "Shop", "sourceRoots": ["Sources/Shop"]}],
             "appTarget": "Shop", "signing": {"keyDirectory": "\(directory.path)/keys", "publicKeyFile": "Sources/Shop/Patch/Key.swift"}\(configExtra)}
            """
        try Data(config.utf8).write(to: project.appendingPathComponent("patch.json"))
        return project
    }

    /// 24 functions that never return and 3 instance methods of an enum without cases (its
    /// receiver cannot travel): `routing: all` reports 27 skips, which
    /// the human output counts by kind of reason, `--verbose` and `--json` list one by one.
    @Test func manySkipsAreCountedByReasonUnlessVerbose() throws {
        try withScratchDirectory { directory in
            let functions = (0..<24).map { "static func log\($0)(_ line: String) -> Never { fatalError(line) }" }
                + (0..<3).map { "func format\($0)(_ value: Int) -> String { \"\\(value)\" }" }
                + ["static func price(_ cents: Int) -> Int { cents }", "// @native\n    static func hot(_ cents: Int) -> Int { cents }"]
            let project = try makeProject(in: directory, functions: functions, configExtra: #", "routing": "all""#)
            let json = try CLI.run(["prepare", "--project", project.path, "--dry-run", "--json"])
            #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
            #expect((json.result?["skipped"] as? [[String: Any]])?.count == 27)
            #expect(json.result?["functions"] as? Int == 1)
            #expect(json.result?["routing"] as? String == "all")

            let human = try CLI.run(["prepare", "--project", project.path])
            #expect(human.status == 0, "\(human.stderr)")
            let lines = human.stdout.components(separatedBy: "\n")
            let header = try #require(lines.firstIndex { $0.hasPrefix("skipped 27 declaration(s), by reason") })
            #expect(lines[header + 1].hasPrefix("  24  the function never returns"), "\(human.stdout)")
            #expect(lines[header + 1].hasSuffix("(e.g. Logic.log0(_:), Sources/Shop/Logic.swift:2)"), "\(human.stdout)")
            #expect(lines[header + 2].hasPrefix("   3  the receiver (`self`): `Logic` (Sources/Shop/Logic.swift:1) is not Codable and has no cases"), "\(human.stdout)")
            #expect(!human.stdout.contains("hot"), "`// @native` is neither routed nor reported")
            #expect(human.stdout.contains("routed 0 view(s) and 1 function(s) in 1 file(s) (routing: all); fingerprint "), "\(human.stdout)")

            let verbose = try CLI.run(["prepare", "--project", project.path, "--verbose"])
            #expect(verbose.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("skipped Logic.") }.count == 27, "\(verbose.stdout)")
        }
    }

    /// A few skips are listed one by one, as before `routing: all`; `marked` routes only the marked.
    @Test func fewSkipsAreListedAndMarkedRoutesOnlyMarked() throws {
        try withScratchDirectory { directory in
            let functions = ["// @patchable\n    static func log(_ line: String) -> Never { fatalError(line) }", "static func price(_ cents: Int) -> Int { cents }"]
            let project = try makeProject(in: directory, functions: functions, configExtra: #", "routing": "marked""#)
            let human = try CLI.run(["prepare", "--project", project.path])
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("skipped Logic.log(_:) (Sources/Shop/Logic.swift:3): the function never returns"), "\(human.stdout)")
            #expect(human.stdout.contains("routed 0 view(s) and 0 function(s) in 1 file(s) (routing: marked)"), "\(human.stdout)")
        }
    }

    /// `// @native` added to a routed function: the next prepare takes out the `dynamic` it inserted
    /// (the state of the earlier run says which), and the thunk file goes.
    @Test func nativeAddedLaterTakesTheInsertedDynamicBackOut() throws {
        try withScratchDirectory { directory in
            let project = try makeProject(in: directory, functions: ["static func price(_ cents: Int) -> Int { cents }"],
                                          configExtra: #", "routing": "all""#)
            #expect(try CLI.run(["prepare", "--project", project.path]).status == 0)
            let file = project.appendingPathComponent("Sources/Shop/Logic.swift")
            let prepared = try String(contentsOf: file, encoding: .utf8)
            #expect(prepared.contains("static dynamic func price"))
            try Data(prepared.replacingOccurrences(of: "    static dynamic func price", with: "    // @native: hot\n    static dynamic func price").utf8).write(to: file)
            let again = try CLI.run(["prepare", "--project", project.path, "--json"])
            #expect(again.status == 0, "\(again.stdout)")
            #expect(again.result?["functions"] as? Int == 0)
            #expect(try String(contentsOf: file, encoding: .utf8) == "enum Logic {\n    // @native: hot\n    static func price(_ cents: Int) -> Int { cents }\n}\n")
            #expect(try CLI.run(["prepare", "--project", project.path, "--check"]).status == 0)
        }
    }

    @Test func anUnknownRoutingValueIsAMalformedConfig() throws {
        try withScratchDirectory { directory in
            let project = try makeProject(in: directory, functions: [], configExtra: #", "routing": "everything""#)
            let result = try CLI.run(["prepare", "--project", project.path, "--json"])
            #expect(result.status == 4)
            #expect(result.error?["kind"] as? String == "malformed_config")
            let message = try #require(result.error?["message"] as? String)
            #expect(message.hasSuffix(#"patch.json: field "routing" is "everything"; use "all" (prepare routes every function it can) or "marked" (only functions marked `// @patchable` or listed in "patchableFunctions")"#), "\(message)")

            let glob = try makeProject(in: directory.appendingPathComponent("glob"), functions: [], configExtra: #", "routingExclude": ["/Sources/**"]"#)
            let globResult = try CLI.run(["prepare", "--project", glob.path, "--json"])
            #expect(globResult.status == 4)
            #expect((globResult.error?["message"] as? String)?.contains(#"field "routingExclude[0]" "/Sources/**" is absolute"#) == true, "\(globResult.stdout)")
        }
    }
}
