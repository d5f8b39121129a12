import Foundation
import Testing

/// Issue 21's guest end to end (docs/async.md): async functions build into the module (`build
/// --export`; AsyncRouteCLITests goes through `prepare` and `build`), `run` drives each kickoff
/// with the async pump on canned HTTP answers, and every outcome (a value, a thrown error after a
/// non-2xx answer or an empty body, a transport failure) equals what the same code returns natively
/// (Swift concurrency on Linux, URLSession answered from the same fixtures:
/// Tests/PatchBuildTests/Fixtures/Async/Native.swift). What the guest cannot run is refused with the
/// construct named; a pump that cannot finish is a documented exit.
@Suite(.serialized) struct AsyncBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/Async").standardizedFileURL
    static let quotesFile = "Sources/Shop/Quotes.swift"

    /// Edits giving results the fixture as written would not: the module runs the code as edited.
    static let edits = [
        ("        return prefix + quote.text\n", "        return prefix + \": \" + quote.text\n"),
        ("        let text = String(decoding: data, as: UTF8.self)\n", "        let text = String(decoding: data, as: UTF8.self).uppercased()\n"),
        ("        return [a, b]\n", "        return [b, a]\n"),
        ("        return start - 1\n", "        return start - 2\n"),
        ("        return await spin(rounds: rounds + 1)\n", "        return await spin(rounds: rounds + 2)\n"),
        ("        return sum\n", "        return sum * 2\n"),
        ("        return try await a.text.count + b.text.count\n", "        return try await a.text.count - b.text.count\n"),
    ]

    /// (kickoff, input) in the order Native.swift prints its outcomes.
    static let cases = [
        ("patch_start__pf_Quotes_fetch__id", #"{"id":1}"#),
        // A non-2xx answer and an empty body: the function's own throws.
        ("patch_start__pf_Quotes_fetch__id", #"{"id":3}"#),
        ("patch_start__pf_Quotes_fetch__id", #"{"id":4}"#),
        // No fixture: a transport failure (status 0), URLError natively.
        ("patch_start__pf_Quotes_fetch__id", #"{"id":9}"#),
        // Sequential awaits of another patched function with a sleep between; then its throw passed on.
        ("patch_start__pf_Quotes_pair__first_second", #"{"first":1,"second":2}"#),
        ("patch_start__pf_Quotes_pair__first_second", #"{"first":1,"second":3}"#),
        // An instance method of a struct: the receiver travels as "self".
        ("patch_start__pf_Shelf_label__id", #"{"self":{"prefix":"Q"},"id":2}"#),
        ("patch_start__pf_Quotes_countdown__from", #"{"start":5}"#),
        // data(for:) with a method and a body, over http_request.
        ("patch_start__pf_Quotes_post__text", #"{"text":"new quote"}"#),
    ]

    @Test func asyncFunctionsBuildAndRunAsTheyDoNatively() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: "1"),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Quotes.swift"), encoding: .utf8), to: Self.quotesFile, in: project)
            for (old, new) in Self.edits { try ViewBuildCLITests.edit(project, Self.quotesFile, replacing: old, with: new) }

            // Quotes.total(ids:) and both(first:second:) (a loop, `async let`): AsyncFlowCLITests.
            let shipped = ["Quotes.fetch(id:)", "Quotes.post(text:)", "Quotes.pair(first:second:)", "Quotes.countdown(from:)", "Quotes.spin(rounds:)", "Shelf.label(id:)"]
            let build = try CLI.run(["build", "--project", project.path, "--sources", project.appendingPathComponent("Sources/Shop").path, "--json"]
                                    + shipped.flatMap { ["--export", $0] })
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let exports = try #require(build.result?["exports"] as? [[String: Any]], "\(build.stdout)")
            #expect(exports.compactMap { $0["symbol"] as? String }.sorted() == [
                "patch_start__pf_Quotes_countdown__from", "patch_start__pf_Quotes_fetch__id", "patch_start__pf_Quotes_pair__first_second", "patch_start__pf_Quotes_post__text",
                "patch_start__pf_Quotes_spin__rounds", "patch_start__pf_Shelf_label__id",
            ], "\(exports)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let fixtures = Self.fixtures.appendingPathComponent("fixtures.json").path
            var outcomes: [String] = []
            for (kickoff, input) in Self.cases {
                let run = try CLI.run(["run", module, kickoff, "--input", input, "--fixtures", fixtures, "--decode", "text", "--json"])
                #expect(run.status == 0, "\(kickoff) \(input): \(run.stdout)\(run.stderr)")
                #expect(run.result?["abi"] as? String == "async", "\(run.stdout)")
                outcomes.append(run.result?["output"] as? String ?? "")
            }
            let natively = try Self.runNatively([project.appendingPathComponent(Self.quotesFile).path, Self.fixturesFile("Native.swift")], fixtures: fixtures, in: directory)
            #expect(natively.count == outcomes.count, "\(natively)")
            for (module, native) in zip(outcomes, natively) {
                #expect(try Self.json(module) == Self.json(native), "module \(module) ≠ native \(native)")
            }
            #expect(outcomes[0] == #"{"value":{"id":1,"text":"STAY HUNGRY"}}"#)
            #expect(outcomes[3] == #"{"urlError":-1}"#)
            #expect(outcomes[8] == #"{"value":201}"#)

            // --trace: each suspension the host answered, in order.
            let traced = try CLI.run(["run", module, "patch_start__pf_Quotes_pair__first_second", "--input", #"{"first":1,"second":2}"#,
                                      "--fixtures", fixtures, "--trace"])
            #expect(traced.status == 0, "\(traced.stdout)\(traced.stderr)")
            let lines = traced.stdout.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("round ") } == [
                "round 2: resume GET https://api.example.com/quotes/1 (token 1): status 200, 11 bytes",
                "round 4: resume async_request (token 2) with 207",
                "round 6: resume GET https://api.example.com/quotes/2 (token 3): status 200, 7 bytes",
            ], "\(traced.stdout)")

            // A function that never finishes (it awaits itself forever) runs out of fuel, as any runaway guest.
            let spin = try CLI.run(["run", module, "patch_start__pf_Quotes_spin__rounds", "--input", #"{"rounds":0}"#, "--fuel", "20000000", "--json"])
            #expect(spin.status == 22, "\(spin.stdout)\(spin.stderr)")
            #expect(spin.error?["kind"] as? String == "fuel_exhausted", "\(spin.stdout)")
        }
    }

    /// A kickoff whose task waits on nothing the host owes: the pump's `stuck` error, exit 28 `async_stuck`.
    @Test(.enabled(if: HostileModule.wat2wasm != nil || HostileModule.isContinuousIntegration, "needs wabt's wat2wasm"))
    func aTaskThatNeverResumesIsReportedStuck() throws {
        try withScratchDirectory { directory in
            let stuck = HostileModule(
                name: "stuck", wat: """
                    (module (memory (export "memory") 1)
                      (func (export "patch_start_idle") (param i32 i32))
                      (func (export "patch_pump") (param i32) (result i32) (i32.const 0))
                      (func (export "patch_pending") (result i32) (i32.const 1))
                      (func (export "patch_done") (result i32) (i32.const 0))
                      (func (export "patch_result_packed") (result i64) (i64.const 0)))
                    """, export: "patch_start_idle", runStatus: 28, runKind: "async_stuck", proofNames: "")
            try stuck.write(to: directory.appendingPathComponent("stuck.wasm"))
            let run = try CLI.run(["run", "stuck.wasm", "patch_start_idle", "--json"], in: directory)
            #expect(run.status == 28, "\(run.stdout)\(run.stderr)")
            #expect(run.error?["kind"] as? String == "async_stuck", "\(run.stdout)")
            #expect(run.errorText.contains("stuck after 1 round(s)"), "\(run.errorText)")
        }
    }

    /// Compiles the project's changed files with a native runner (Native.swift, NativeFlow.swift) and
    /// NativeSupport.swift, and returns the outcome lines it prints.
    static func runNatively(_ sources: [String], fixtures: String, in directory: URL) throws -> [String] {
        let swiftc = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SWIFTC"] ?? "/usr/bin/env")
        let arguments = (swiftc.lastPathComponent == "env" ? ["swiftc"] : []) + ["-parse-as-library", "-swift-version", "5"]
            + sources + [fixturesFile("NativeSupport.swift"), "-o", directory.appendingPathComponent("native").path]
        let compile = try CLI.run(arguments, executable: swiftc)
        try #require(compile.status == 0, "native compile failed: \(compile.stderr)")
        let run = try CLI.run([fixtures], executable: directory.appendingPathComponent("native"))
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    static func fixturesFile(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Parsed, so key order and spacing do not matter.
    static func json(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary, "not a JSON object: \(text)")
    }
}
