import Foundation
import Testing

/// End-to-end tests of `patchcli run`: the built binary, real guests compiled from C at test time,
/// exit codes and the --json envelope.
@Suite(.enabled(if: RunFixture.canCompile, "needs the Swift toolchain's clang (required under CI=true)"))
struct RunCommandTests {
    let fixture = try! RunFixture()

    @Test func scalarCallPrintsTheResult() throws {
        let result = try fixture.patchcli(["run", fixture.guest, "add", "2", "3"])
        #expect(result.status == 0)
        #expect(result.stdout == "5\n")
    }

    @Test func packedCallUnderJSONReportsOutputFuelAndMemory() throws {
        let result = try fixture.patchcli(["run", fixture.guest, "greet", "--input", "Ann", "--json"])
        #expect(result.status == 0)
        let envelope = try fixture.json(result.stdout)
        #expect(envelope["ok"] as? Bool == true)
        let body = try #require(envelope["result"] as? [String: Any])
        #expect(body["output"] as? String == "Hello, Ann")
        #expect(body["abi"] as? String == "packed")
        #expect((body["fuel_used"] as? Int ?? 0) > 0)
        #expect((body["memory_high_water_pages"] as? Int ?? 0) >= 1)
        #expect(body["time_ms"] != nil)
    }

    @Test(arguments: [
        ("boom", [String](), Int32(21), "trap_unreachable"),
        ("oob", [], 21, "trap_memory_out_of_bounds"),
        ("spin", ["1", "--fuel", "200000"], 22, "fuel_exhausted"),
        ("bomb", ["--max-memory-pages", "32"], 24, "memory_limit"),
        ("recurse", ["1"], 25, "stack_exhausted"),
        ("spin", ["1", "--no-fuel-limit", "--timeout", "0.5"], 23, "timeout"),
        ("nope", [], 28, "call_failed"),
        ("spin", ["1", "--input", "{}"], 2, "usage"),
    ])
    func failureModesHaveTheirExitCodes(export: String, extra: [String], status: Int32, kind: String) throws {
        let result = try fixture.patchcli(["run", fixture.guest, export] + extra + ["--json"])
        #expect(result.status == status, "stderr: \(result.stderr)")
        let error = try #require(try fixture.json(result.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == kind)
        #expect(error["exit_code"] as? Int == Int(status))
    }

    @Test func trapReportNamesTheExportAndBacktraceOnStderr() throws {
        let result = try fixture.patchcli(["run", fixture.guest, "boom"])
        #expect(result.status == 21)
        #expect(result.stderr.contains("unreachable in boom (module 0)"))
        #expect(result.stderr.contains("wasm backtrace:"))
    }

    @Test func parityRejectionAndMissingImportAreRefusedBeforeRunning() throws {
        let noMemory = try fixture.compile("__attribute__((export_name(\"f\"))) int f(void) { return 1; }", name: "nomem", flags: ["-Wl,--export-memory=heap"])
        let rejected = try fixture.patchcli(["run", noMemory, "f", "--json"])
        #expect(rejected.status == 20)
        #expect(rejected.stdout.contains("missing_memory_export"))
        let importing = try fixture.compile(
            "__attribute__((import_module(\"env\"), import_name(\"helper\"))) int helper(void);\n__attribute__((export_name(\"f\"))) int f(void) { return helper(); }",
            name: "imports", flags: ["-Wl,--allow-undefined"])
        let missing = try fixture.patchcli(["run", importing, "f"])
        #expect(missing.status == 26)
        #expect(missing.stderr.contains("env.helper"))
    }

    @Test func hashMismatchIsAVerificationFailure() throws {
        let result = try fixture.patchcli(["run", fixture.guest, "add", "1", "2", "--sha256", String(repeating: "0", count: 64)])
        #expect(result.status == 5)
    }

    @Test func smokeRunsManifestProbesAndWritesJUnit() throws {
        let directory = try fixture.directory("smoke")
        let module = directory.appendingPathComponent("module.wasm").path
        try FileManager.default.copyItem(atPath: fixture.guest, toPath: module)
        let probes = #"{"probes":[{"name":"adds","export":"add","args":[2,3],"expected":5},{"export":"greet","input":"Bo","expected":"Hello, Bo"},{"export":"boom","expect_trap":"unreachable"}]}"#
        try Data(probes.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        let junit = directory.appendingPathComponent("junit.xml").path
        let passing = try fixture.patchcli(["run", module, "--smoke", "--junit", junit])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("PASS  adds"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains(#"tests="3" failures="0""#))

        let failingProbes = directory.appendingPathComponent("failing.json")
        try Data(#"{"probes":[{"export":"add","args":[2,2],"expected":5}]}"#.utf8).write(to: failingProbes)
        let failing = try fixture.patchcli(["run", module, "--probes", failingProbes.path, "--junit", junit])
        #expect(failing.status == 27)
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("expected 5, got 4"))
    }

    /// What `build` writes when no patched function states a probe: zero probes pass, after the
    /// module activated (a module that cannot activate still fails).
    @Test func smokeWithNoProbesSucceedsOnceTheModuleActivates() throws {
        let directory = try fixture.directory("smoke-none")
        let module = directory.appendingPathComponent("module.wasm").path
        try FileManager.default.copyItem(atPath: fixture.guest, toPath: module)
        try Data(#"{"probes":[]}"#.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        let passing = try fixture.patchcli(["run", module, "--smoke"])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("no probes"))

        let broken = directory.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data([0, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 0xFF]).write(to: broken.appendingPathComponent("module.wasm"))
        try Data(#"{"probes":[]}"#.utf8).write(to: broken.appendingPathComponent("manifest.json"))
        let failing = try fixture.patchcli(["run", broken.appendingPathComponent("module.wasm").path, "--smoke"])
        #expect(failing.status != 0)
    }

    @Test func fallbackLadderNamesTheWinnerAndWhyEarlierRungsLost() throws {
        let directory = try fixture.directory("ladder")
        let broken = directory.appendingPathComponent("current.wasm")
        try Data([0, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 0xFF]).write(to: broken)
        let result = try fixture.patchcli(["run", "--fallback", broken.path, fixture.guest, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try fixture.json(result.stdout)["result"] as? [String: Any])
        #expect(report["winner"] as? String == "previous")
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.first?["outcome"] as? String == "failed")
        #expect((steps.first?["reason"] as? String)?.contains("malformed_module") == true)

        let none = try fixture.patchcli(["run", "--fallback", broken.path, broken.path])
        #expect(none.status == 29)
    }

    @Test func viewRendersAppliesEventsAndReRenders() throws {
        let guest = try fixture.viewGuest()
        let text = try fixture.patchcli(["run", guest, "--view", "Counter", "--inputs", #"{"title":"Taps"}"#,
                                         "--event", "increment", "--event", "setCount=4"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(#"event setCount (stepper): {"int":{"_0":4}} -> state {"count":4}"#))
        #expect(text.stdout.contains("\n  text(\"Taps: 4\") .font({style: title}) .bold\n"))
        #expect(text.stdout.contains(#"text("Many!") .foregroundColor(named("red")) .onTapGesture(#reset)"#))

        let json = try fixture.patchcli(["run", guest, "--view", "Counter", "--event", "increment", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let body = try #require(try fixture.json(json.stdout)["result"] as? [String: Any])
        let entry = try #require(body["entry"] as? [String: Any])
        #expect(entry["dispatch"] as? String == "dispatch__Counter")
        #expect(entry["thunk_safe"] as? Bool == true)
        let events = try #require(body["events"] as? [[String: Any]])
        #expect(events.map { $0["state"] as? String } == [#"{"count":1}"#])
        #expect(body["dispatchable"] as? [String] == ["setCount", "increment"])
        // The tree keeps the guest's own keys (actionID, _0), not the envelope's snake_case.
        let tree = try fixture.json(try #require(body["tree"] as? String))
        let vstack = try #require((tree["kind"] as? [String: Any])?["vstack"] as? [String: Any])
        let children = try #require(vstack["children"] as? [[String: Any]])
        let title = (children.first?["kind"] as? [String: Any])?["text"] as? [String: Any]
        #expect(title?["_0"] as? String == "Count: 1")
        #expect(((children[2]["kind"] as? [String: Any])?["button"] as? [String: Any])?["actionID"] as? String == "increment")
    }

    @Test(arguments: [
        (["--view", "Broken"], Int32(37), "view_invalid", "$.root.kind.vstack.children[0].kind: unknown node kind \"marquee\""),
        (["--view", "Nope"], 38, "view_unavailable", "views: Counter, Banner, Broken, Hidden, Sloppy"),
        (["--view", "Hidden"], 38, "view_unavailable", "thunkSafe false"),
        (["--view", "Banner", "--event", "tap"], 38, "view_unavailable", "no dispatch export"),
        (["--view", "Counter", "--event", "reset"], 38, "view_unavailable", "events: setCount, increment"),
        (["--view", "Counter", "--event", "setCount=many"], 2, "usage", "the stepper sends an integer"),
        (["--view", "Counter", "--inputs", "[1]"], 2, "usage", "expected a JSON object"),
        (["--view", "Counter", "--inputs", "{\"title\": \"Taps\",\n \"count\" 2}"], 2, "usage",
         "--inputs: not valid JSON at line 2, column 10 (byte 27): '2' where ':' should follow the key"),
        (["--event", "increment"], 2, "usage", "--inputs and --event need --view NAME"),
    ])
    func viewFailuresHaveTheirExitCodes(arguments: [String], status: Int32, kind: String, message: String) throws {
        let result = try fixture.patchcli(["run", try fixture.viewGuest()] + arguments + ["--json"])
        #expect(result.status == status, "\(result.stdout)")
        let error = try #require(try fixture.json(result.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == kind)
        #expect((error["message"] as? String)?.contains(message) == true, "\(error["message"] ?? "")")
    }
}

/// Builds the guests and runs the patchcli binary that sits next to the test bundle.
struct RunFixture {
    static let toolchainBin: URL? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory))
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("clang").path),
               FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("wasm-ld").path) {
                return candidate
            }
        }
        return nil
    }()

    static let canCompile = toolchainBin != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    struct Failure: Error, CustomStringConvertible { let description: String }

    let root: URL
    let binary: URL
    let guest: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-run-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("patchcli") }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure(description: "patchcli binary not found next to the test bundle (looked at \(candidates.map(\.path)))")
        }
        self.binary = binary
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PatchRuntimeTests/Fixtures/guest.c")
        guest = try Self.clang(source: source, output: root.appendingPathComponent("guest.wasm"), flags: [])
    }

    /// The view guest of the PatchRuntime tests (Counter, Banner, Broken, Hidden, Sloppy), compiled here.
    func viewGuest() throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PatchRuntimeTests/Fixtures/view_guest.c")
        return try Self.clang(source: source, output: root.appendingPathComponent("view.wasm"), flags: [])
    }

    func directory(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func compile(_ code: String, name: String, flags: [String]) throws -> String {
        let source = root.appendingPathComponent("\(name).c")
        try Data(code.utf8).write(to: source)
        return try Self.clang(source: source, output: root.appendingPathComponent("\(name).wasm"), flags: flags)
    }

    static func clang(source: URL, output: URL, flags: [String]) throws -> String {
        guard let bin = toolchainBin else { throw Failure(description: "clang/wasm-ld not found on PATH") }
        let result = try run(bin.appendingPathComponent("clang"), [
            "--target=wasm32", "-O1", "-nostdlib", "-Wl,--no-entry", "-Wl,--export-dynamic",
        ] + flags + ["-o", output.path, source.path])
        guard result.status == 0 else { throw Failure(description: "clang failed: \(result.stderr)") }
        return output.path
    }

    func patchcli(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Self.run(binary, arguments)
    }

    func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(text)")
        }
        return object
    }

    /// Runs a process with its output captured in files (pipes could fill up and block the child).
    static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-run-\(UUID().uuidString)")
        let outputURL = capture.appendingPathExtension("out"), errorURL = capture.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outputURL, encoding: .utf8),
                try String(contentsOf: errorURL, encoding: .utf8))
    }
}
