import Foundation
import PatchAssets
import Testing

/// Every subcommand's `--json` envelope, on success and on failure, checked against the one schema
/// docs/cli-envelope.schema.json publishes: one object on stdout and nothing else there, the command
/// named as its runs name it, a one-line message, a hint on every failure, its exit code the
/// process's, and ratios and times with at most 3 decimals.
@Suite(.serialized, .enabled(if: RunFixture.canCompile, "builds a patch: needs the Swift toolchain (required under CI=true)"))
struct EnvelopeSchemaCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schema = JSONSchemaSubset(root: try! SchemaJSON.parse(
        String(contentsOf: repository.appendingPathComponent("docs/cli-envelope.schema.json"), encoding: .utf8)))

    /// The envelope names of every subcommand, as the sources report them (`console.perform("…")`),
    /// so a subcommand added later without a case here fails the test.
    static func subcommands() throws -> Set<String> {
        let sources = repository.appendingPathComponent("Sources/patchcli")
        var names: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /perform\("([a-z ]+)"\)/) { names.insert(String(match.output.1)) }
        }
        return names
    }

    /// Which subcommands were seen succeeding and failing.
    final class Coverage {
        var succeeded: Set<String> = []
        var failed: Set<String> = []
    }

    /// Checks one run's envelope; `succeeds` says whether the run should have exited 0.
    static func expectEnvelope(_ result: CLIResult, command: String, succeeds: Bool, _ coverage: Coverage,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let label = "\(command) (\(succeeds ? "success" : "failure"), exit \(result.status))"
        #expect((result.status == 0) == succeeds, "\(label): \(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
        guard result.stdout.hasSuffix("\n"), result.stdout.dropLast().firstIndex(of: "\n") == nil else {
            Issue.record("\(label): stdout is not one line: \(result.stdout)", sourceLocation: sourceLocation)
            return
        }
        let envelope: SchemaJSON
        do {
            envelope = try SchemaJSON.parse(result.stdout)
        } catch {
            Issue.record("\(label): stdout is not JSON (\(error)): \(result.stdout)", sourceLocation: sourceLocation)
            return
        }
        let problems = schema.errors(envelope) + overPreciseNumbers(in: envelope)
        #expect(problems.isEmpty, "\(label): \(problems.joined(separator: "; "))\n\(result.stdout)", sourceLocation: sourceLocation)
        guard case let .object(members) = envelope else { return }
        #expect(members["command"] == .string(command), "\(label): \(result.stdout)", sourceLocation: sourceLocation)
        if case let .object(error)? = members["error"] {
            #expect(error["exit_code"] == .number(String(result.status)), "\(label): \(result.stdout)", sourceLocation: sourceLocation)
        }
        if succeeds { coverage.succeeded.insert(command) } else { coverage.failed.insert(command) }
    }

    /// The schema's rule for numbers (its `value` description): at most 3 decimals, checked on the
    /// number's text as printed.
    static func overPreciseNumbers(in value: SchemaJSON, at path: String = "$") -> [String] {
        switch value {
        case let .number(text):
            let decimals = text.split(separator: ".", maxSplits: 1).dropFirst().first.map { $0.prefix { $0.isNumber }.count } ?? 0
            return decimals > 3 ? ["\(path): \(text) has more than 3 decimals"] : []
        case let .array(items):
            return items.enumerated().flatMap { overPreciseNumbers(in: $1, at: "\(path)[\($0)]") }
        case let .object(members):
            return members.sorted { $0.key < $1.key }.flatMap { overPreciseNumbers(in: $1, at: "\(path).\($0)") }
        default:
            return []
        }
    }

    /// `serve --json` until it listens, then SIGTERM: its envelope comes when it stops.
    static func serveUntilListening(in directory: URL) throws -> CLIResult {
        let server = Process()
        server.executableURL = CLI.binary
        server.arguments = ["serve", "--store", "store", "--port", "0", "--events-db", "events.sqlite", "--json"]
        server.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        server.standardOutput = output
        server.standardError = errors
        try server.run()
        var logged = ""
        let deadline = Date().addingTimeInterval(30)
        while !logged.contains("listening"), Date() < deadline, server.isRunning {
            logged += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        }
        server.terminate()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        server.waitUntilExit()
        return CLIResult(status: server.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: logged)
    }

    @Test func everySubcommandsSuccessAndFailureEnvelopesMatchTheSchema() throws {
        let coverage = Coverage()
        try withScratchDirectory { directory in
            func check(_ arguments: [String], _ command: String, succeeds: Bool, in folder: URL? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
                let result = try CLI.run(arguments + ["--json"], in: folder ?? directory)
                Self.expectEnvelope(result, command: command, succeeds: succeeds, coverage, sourceLocation: sourceLocation)
            }
            let empty = directory.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            for (name, edits) in [("a", 0), ("b", 3)] {
                try Data(ReleaseCommandTests.module(seed: 7, edits: edits)).write(to: directory.appendingPathComponent("\(name).wasm"))
            }
            try Data("not wasm".utf8).write(to: directory.appendingPathComponent("junk.bin"))

            // Keys and the release store.
            try check(["keys", "generate", "--out", "keys"], "keys generate", succeeds: true)
            try check(["keys", "generate", "--out", "keys"], "keys generate", succeeds: false)
            try check(["keys", "generate", "--out", "keys2", "--role", "targets"], "keys generate", succeeds: true)
            try check(["keys", "show", "keys/targets.key"], "keys show", succeeds: true)
            try check(["keys", "show", "missing.key"], "keys show", succeeds: false)
            try check(["release", "init", "--store", "store", "--key-dir", "keys"], "release init", succeeds: true)
            try check(["release", "init", "--store", "store", "--key-dir", "keys"], "release init", succeeds: false)
            let publish = ["--store", "store", "--key-dir", "keys", "--fingerprint", "fp-1"]
            try check(["release", "a.wasm"] + publish, "release", succeeds: true)
            try check(["release", "publish", "b.wasm"] + publish, "release", succeeds: true)
            try check(["release", "junk.bin"] + publish, "release", succeeds: false)
            try check(["release", "list", "--store", "store"], "release list", succeeds: true)
            try check(["release", "list", "--store", "empty"], "release list", succeeds: false)
            let signed = ["--store", "store", "--key-dir", "keys"]
            try check(["release", "rollout", "50%"] + signed, "release rollout", succeeds: true)
            try check(["release", "rollout", "150%"] + signed, "release rollout", succeeds: false)
            try check(["release", "promote", "--from", "production", "--to", "staging"] + signed, "release promote", succeeds: true)
            try check(["release", "promote", "--from", "beta", "--to", "staging"] + signed, "release promote", succeeds: false)
            try check(["release", "rollback"] + signed, "release rollback", succeeds: true)
            try check(["release", "rollback", "--channel", "beta"] + signed, "release rollback", succeeds: false)
            try check(["release", "disable", "--channel", "staging"] + signed, "release disable", succeeds: true)
            try check(["release", "disable", "--channel", "beta"] + signed, "release disable", succeeds: false)
            try check(["keys", "rotate", "--role", "targets", "--new-key", "keys2/targets.key"] + signed, "keys rotate", succeeds: true)
            try check(["keys", "rotate", "--role", "targets", "--new-key", "keys2/targets.key", "--store", "empty", "--key-dir", "keys"],
                      "keys rotate", succeeds: false)
            try check(["verify", "store"], "verify", succeeds: true)
            try check(["verify", "empty"], "verify", succeeds: false)

            // serve and status.
            Self.expectEnvelope(try Self.serveUntilListening(in: directory), command: "serve", succeeds: true, coverage)
            try check(["serve", "--store", "empty", "--port", "0", "--events-db", "other.sqlite"], "serve", succeeds: false)
            try check(["status", "--events-db", "events.sqlite", "--store", "store"], "status", succeeds: true)
            try check(["status", "--events-db", "nowhere.sqlite"], "status", succeeds: false)

            // Artifacts: diff, codecs, run.
            try check(["diff", "a.wasm", "b.wasm", "-o", "ab.patch"], "diff", succeeds: true)
            try check(["diff", "missing.wasm", "b.wasm", "-o", "x.patch"], "diff", succeeds: false)
            try check(["diff", "apply", "a.wasm", "ab.patch", "-o", "b2.wasm"], "diff apply", succeeds: true)
            try check(["diff", "apply", "a.wasm", "a.wasm", "-o", "x.wasm"], "diff apply", succeeds: false)
            try check(["diff", "compress", "a.wasm", "-o", "a.wasm.br"], "diff compress", succeeds: true)
            try check(["diff", "compress", "missing.wasm", "-o", "x.br"], "diff compress", succeeds: false)
            try check(["diff", "decompress", "a.wasm.br", "-o", "a2.wasm"], "diff decompress", succeeds: true)
            try check(["diff", "decompress", "junk.bin", "--codec", "brotli", "-o", "x.wasm"], "diff decompress", succeeds: false)
            try check(["run", "a.wasm"], "run", succeeds: true)
            try check(["run", "a.wasm", "nope"], "run", succeeds: false)

            // A project: doctor, init, prepare, build, audit.
            try check(["doctor"], "doctor", succeeds: true, in: empty)
            try check(["doctor", "--project", "nowhere"], "doctor", succeeds: false)
            let project = directory.appendingPathComponent("PatchShop")
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("Examples/PatchShop"), to: project)
            try check(["init", "--project", project.path, "--key-dir", "shop-keys"], "init", succeeds: true)
            try check(["init", "--project", empty.path, "--key-dir", "shop-keys"], "init", succeeds: false)
            try check(["prepare", "--project", project.path], "prepare", succeeds: true)
            try check(["prepare", "--project", empty.path], "prepare", succeeds: false)
            try check(["build", "--project", project.path], "build", succeeds: false)
            try BuildCLITests.edit(project, BuildCLITests.shippingFile,
                                   replacing: "case .domestic: return subtotal.cents >= 5_000", with: "case .domestic: return subtotal.cents >= 3_000")
            try check(["build", "--project", project.path], "build", succeeds: true)
            let shop = try AuditCLITests.shop(in: directory)
            try check(["audit", "--history", "1", "--project", shop.path], "audit", succeeds: true)
            try check(["audit", "--history", "1", "--project", empty.path], "audit", succeeds: false)

            // A usage error naming no subcommand.
            try check(["bogus"], "patchcli", succeeds: false)
        }
        let subcommands = try Self.subcommands()
        #expect(subcommands.count >= 20, "\(subcommands)")
        #expect(subcommands.subtracting(coverage.succeeded).isEmpty, "no success envelope checked for \(subcommands.subtracting(coverage.succeeded).sorted())")
        #expect(subcommands.subtracting(coverage.failed).isEmpty, "no failure envelope checked for \(subcommands.subtracting(coverage.failed).sorted())")
    }

    /// The validator is only as good as what it rejects: the schema's rules, one broken envelope each.
    @Test(arguments: [
        (#"{"command":"diff","ok":true,"result":{"ratio_to_brotli":0.1066}}"#, "$.result.ratio_to_brotli: 0.1066 has more than 3 decimals"),
        (#"{"command":"diff","ok":true}"#, "missing result"),
        (#"{"command":"diff","error":{"exit_code":4,"kind":"malformed_patch","message":"bad"},"ok":false}"#, "missing hint"),
        (#"{"command":"diff","error":{"exit_code":4,"hint":"h","kind":"malformed_patch","message":"bad\nlist"},"ok":false}"#, "does not match"),
        (#"{"command":"diff","error":{"exit_code":4,"hint":"h","kind":"Bad Kind","message":"bad"},"ok":false}"#, "does not match"),
        (#"{"command":"diff","error":{"exit_code":0,"hint":"h","kind":"k","message":"bad"},"ok":false}"#, "out of minimum"),
        (#"{"command":"diff","ok":true,"result":{},"warnings":[]}"#, "unexpected key warnings"),
        (#"{"command":"diff","ok":"yes","result":{}}"#, "expected true"),
    ])
    func theValidatorRejectsWhatTheSchemaForbids(envelope: String, complaint: String) throws {
        let parsed = try SchemaJSON.parse(envelope)
        let problems = Self.schema.errors(parsed) + Self.overPreciseNumbers(in: parsed)
        #expect(problems.contains { $0.contains(complaint) }, "\(problems)")
    }
}
