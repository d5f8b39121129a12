import Foundation
import Testing

/// `patchcli keys`, `release` and `verify` end to end, as a user and CI run them.
@Suite struct ReleaseCommandTests {
    /// A wasm module exporting its memory, with a custom section of seeded bytes (`edits` flips a few).
    static func module(seed: UInt8, edits: Int = 0) -> [UInt8] {
        var payload = (0..<20_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) ^ seed }
        for index in 0..<edits { payload[500 + index * 333] ^= 0xFF }
        let custom: [UInt8] = [4] + Array("blob".utf8) + payload
        let size = custom.count
        let leb: [UInt8] = [UInt8(size & 0x7F) | 0x80, UInt8((size >> 7) & 0x7F) | 0x80, UInt8(size >> 14)]
        let exports: [UInt8] = [1, 6] + Array("memory".utf8) + [2, 0]
        return [0x00, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 0] + leb + custom + [5, 3, 1, 0, 1, 7, UInt8(exports.count)] + exports
    }

    /// Keys in `keys/`, an initialized store in `store/`, modules a.wasm, b.wasm, c.wasm.
    static func prepare(_ directory: URL) throws {
        let generate = try CLI.run(["keys", "generate", "--out", "keys", "--json"], in: directory)
        #expect(generate.status == 0, "\(generate.stderr)")
        let initialize = try CLI.run(["release", "init", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
        #expect(initialize.status == 0, "\(initialize.stdout)")
        for (name, edits) in [("a", 0), ("b", 3), ("c", 6)] {
            try Data(module(seed: 7, edits: edits)).write(to: directory.appendingPathComponent("\(name).wasm"))
        }
    }

    static func publish(_ module: String, in directory: URL, extra: [String] = [], environment: [String: String] = [:]) throws -> CLIResult {
        try CLI.run(["release", module, "--store", "store", "--key-dir", "keys", "--fingerprint", "fp-1", "--json"] + extra, in: directory, environment: environment)
    }

    @Test func keysAreWrittenOwnerOnlyAndReadFromFileStdinOrEnvironment() throws {
        try withScratchDirectory { directory in
            let generate = try CLI.run(["keys", "generate", "--out", "keys", "--role", "targets", "--json"], in: directory)
            #expect(generate.status == 0, "\(generate.stderr)")
            let keyPath = directory.appendingPathComponent("keys/targets.key").path
            let permissions = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
            let keyid = try #require(((generate.result?["keys"] as? [[String: Any]])?.first)?["keyid"] as? String)

            let fromFile = try CLI.run(["keys", "show", "keys/targets.key", "--json"], in: directory)
            let fromStdin = try CLI.run(["keys", "show", "-", "--json"], in: directory, stdin: try FileAccessBytes.read(keyPath))
            #expect((fromFile.result?["key"] as? [String: Any])?["keyid"] as? String == keyid)
            #expect((fromStdin.result?["key"] as? [String: Any])?["keyid"] as? String == keyid)

            // Never overwrites a key.
            let again = try CLI.run(["keys", "generate", "--out", "keys", "--role", "targets", "--json"], in: directory)
            #expect(again.status == 7)
            #expect((again.error?["message"] as? String)?.contains("never overwrites") == true)

            // An environment key overrides --key-dir: publishing with a foreign targets key is refused (43).
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("s"), withIntermediateDirectories: true)
            try Self.prepare(directory.appendingPathComponent("s"))
            let foreign = String(decoding: try FileAccessBytes.read(keyPath), as: UTF8.self)
            let refused = try Self.publish("a.wasm", in: directory.appendingPathComponent("s"), environment: ["PATCHCLI_KEY_TARGETS": foreign])
            #expect(refused.status == 43)
            #expect(refused.error?["kind"] as? String == "key_problem")
            let expanded = try Self.publish("a.wasm", in: directory.appendingPathComponent("s"), environment: ["PATCHCLI_KEY_TARGETS": Data(count: 64).base64EncodedString()])
            #expect(expanded.status == 43)
            #expect((expanded.error?["message"] as? String)?.contains("expanded") == true)
        }
    }

    @Test func publishListPromoteRolloutRollbackDisableAndVerify() throws {
        try withScratchDirectory { directory in
            try Self.prepare(directory)
            let first = try Self.publish("a.wasm", in: directory, extra: ["--channel", "staging", "--notes", "first\nline"])
            #expect(first.status == 0, "\(first.stdout)")
            let check = try #require(first.result?["module_check"] as? [String: Any])
            #expect(check["verifier"] as? String == "device-parity")

            let dryRun = try Self.publish("b.wasm", in: directory, extra: ["--channel", "staging", "--dry-run"])
            #expect(dryRun.status == 0)
            #expect((dryRun.result?["receipt"] as? [String: Any])?["dry_run"] as? Bool == true)

            let second = try Self.publish("b.wasm", in: directory, extra: ["--channel", "staging", "--rollout", "25%", "--mandatory", "--cohort", "beta"])
            #expect(second.status == 0, "\(second.stdout)")
            let record = try #require((second.result?["records"] as? [[String: Any]])?.first)
            #expect(record["release_counter"] as? Int == 2)
            #expect(record["rollout_percent"] as? Int == 25)
            #expect(record["mandatory"] as? Bool == true)
            #expect((record["diffs"] as? [Any])?.count == 1)

            let promote = try CLI.run(["release", "promote", "--from", "staging", "--to", "production", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
            #expect(promote.status == 0, "\(promote.stdout)")
            let rollout = try CLI.run(["release", "rollout", "40%", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
            #expect(rollout.status == 0, "\(rollout.stdout)")
            let hotfix = try Self.publish("c.wasm", in: directory)
            #expect(hotfix.status == 0)
            let rollback = try CLI.run(["release", "rollback", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
            #expect(rollback.status == 0, "\(rollback.stdout)")
            let disable = try CLI.run(["release", "disable", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
            #expect(disable.status == 0)

            let list = try CLI.run(["release", "list", "--store", "store", "--json"], in: directory)
            let channels = try #require(list.result?["channels"] as? [[String: Any]])
            #expect(channels.map { $0["channel"] as? String } == ["production", "staging"])
            let production = try #require(channels.first)
            #expect((production["history"] as? [[String: Any]])?.map { $0["action"] as? String } == ["promote", "rollout", "publish", "rollback", "disable"])

            let human = try CLI.run(["release", "list", "--store", "store"], in: directory)
            #expect(human.stdout.contains("DISABLED"))

            let verify = try CLI.run(["verify", "store", "--json"], in: directory)
            #expect(verify.status == 0, "\(verify.stdout)")
            #expect((verify.result?["channels"] as? [String: Int]) == ["production": 5, "staging": 2])
        }
    }

    @Test func failuresUseTheStoreExitCodes() throws {
        try withScratchDirectory { directory in
            let notInitialized = try CLI.run(["verify", "nowhere", "--json"], in: directory)
            #expect(notInitialized.status == 46)
            try Self.prepare(directory)
            #expect(try CLI.run(["release", "init", "--store", "store", "--key-dir", "keys", "--json"], in: directory).status == 46)

            try Data("not wasm".utf8).write(to: directory.appendingPathComponent("bad.wasm"))
            let rejected = try Self.publish("bad.wasm", in: directory)
            #expect(rejected.status == 44)
            #expect(rejected.error?["kind"] as? String == "module_rejected")
            #expect(try Self.publish("bad.wasm", in: directory, extra: ["--skip-verify"]).status == 0)
            #expect(try CLI.run(["verify", "store", "--skip-modules", "--json"], in: directory).status == 0)
            #expect(try CLI.run(["verify", "store", "--json"], in: directory).status == 44)

            let notFound = try CLI.run(["release", "rollback", "--channel", "beta", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
            #expect(notFound.status == 45)

            let expired = try CLI.run(["verify", "store", "--skip-modules", "--now", "2999-01-01T00:00:00Z", "--json"], in: directory)
            #expect(expired.status == 41)
            #expect(expired.error?["kind"] as? String == "metadata_expired")

            let missingKey = try CLI.run(["release", "a.wasm", "--store", "store", "--fingerprint", "f", "--json"], in: directory)
            #expect(missingKey.status == 43)
            #expect((missingKey.error?["message"] as? String)?.contains("PATCHCLI_KEY_TARGETS") == true)

            // A key directory without the role's key: the message names the folder that was given.
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("empty-keys"), withIntermediateDirectories: true)
            let notInKeyDir = try CLI.run(["release", "a.wasm", "--store", "store", "--key-dir", "empty-keys", "--fingerprint", "f", "--json"], in: directory)
            #expect(notInKeyDir.status == 43)
            #expect((notInKeyDir.error?["message"] as? String)?.contains("empty-keys holds no targets.key") == true, "\(notInKeyDir.stdout)")

            let badRollout = try CLI.run(["release", "a.wasm", "--store", "store", "--key-dir", "keys", "--fingerprint", "f", "--rollout", "150%", "--json"], in: directory)
            #expect(badRollout.status == 2)
            #expect((badRollout.error?["message"] as? String)?.contains("0-100%") == true, "\(badRollout.stdout)")
            // Help shows the default as a user types it.
            let help = try CLI.run(["release", "publish", "--help"], in: directory)
            #expect(help.stdout.contains("(default: 100%)"), "\(help.stdout)")
            #expect(!help.stdout.contains("RolloutPercent"))

            // A tampered timestamp: verify names the file and exits 40.
            let timestamp = directory.appendingPathComponent("store/metadata/timestamp.json")
            let text = try String(contentsOf: timestamp, encoding: .utf8).replacingOccurrences(of: "\"version\":", with: "\"version\":1")
            try text.write(to: timestamp, atomically: true, encoding: .utf8)
            let tampered = try CLI.run(["verify", "store", "--json"], in: directory)
            #expect(tampered.status == 40)
            #expect((tampered.error?["message"] as? String)?.contains("metadata/timestamp.json") == true)
        }
    }

    /// A module exporting `memory` and `answer: () -> i32`, whose body is `i32.const value`, or, when
    /// `valid` is false, `i64.const value`: a type error the structural check cannot see, and that
    /// only eager validation of every function (as on a device) catches, since nothing calls it.
    static func answerModule(_ value: UInt8, valid: Bool = true) -> [UInt8] {
        let exports: [UInt8] = [2, 6] + Array("memory".utf8) + [2, 0, 6] + Array("answer".utf8) + [0, 0]
        return [0x00, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7F, 3, 2, 1, 0, 5, 3, 1, 0, 1,
                7, UInt8(exports.count)] + exports + [10, 6, 1, 4, 0, valid ? 0x41 : 0x42, value, 0x0B]
    }

    @Test func releaseProvesTheModuleOnTheDeviceRuntimeFirst() throws {
        try withScratchDirectory { directory in
            try Self.prepare(directory)
            let build = directory.appendingPathComponent("build")
            try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
            let module = Self.answerModule(42)
            try Data(module).write(to: build.appendingPathComponent("module.wasm"))
            func writeManifest(expected: Int, sha256: String? = nil) throws {
                let hash = sha256.map { "\"sha256\": \"\($0)\", " } ?? ""
                try Data("{\(hash)\"baselineFingerprint\": \"fp-1\", \"probes\": [{\"name\": \"answers\", \"export\": \"answer\", \"expected\": \(expected)}]}".utf8)
                    .write(to: build.appendingPathComponent("manifest.json"))
            }

            // The build's manifest.json next to the module supplies the probes: a failing one
            // refuses the release, names the probe, and publishes nothing.
            try writeManifest(expected: 41)
            let refused = try Self.publish("build/module.wasm", in: directory)
            #expect(refused.status == 44)
            let message = refused.error?["message"] as? String ?? ""
            #expect(message.contains("answers") && message.contains("expected 41, got 42"), "\(message)")
            let listed = try CLI.run(["release", "list", "--store", "store", "--json"], in: directory)
            #expect((listed.result?["channels"] as? [Any])?.count == 0, "\(listed.stdout)")

            // A manifest written for other bytes is stale: exit 5 before anything runs.
            try writeManifest(expected: 42, sha256: String(repeating: "0", count: 64))
            #expect(try Self.publish("build/module.wasm", in: directory).status == 5)

            try writeManifest(expected: 42)
            let published = try Self.publish("build/module.wasm", in: directory)
            #expect(published.status == 0, "\(published.stdout)")
            let check = published.result?["module_check"] as? [String: Any]
            #expect(check?["verifier"] as? String == "device-parity")
            #expect((check?["checks"] as? [String])?.contains("probe answers: returned 42") == true, "\(String(describing: check))")

            // The next release replays the fallback rung: the module devices run now still activates.
            try Data(Self.answerModule(43)).write(to: build.appendingPathComponent("module.wasm"))
            let next = try Self.publish("build/module.wasm", in: directory)
            #expect(next.status == 44, "the stale manifest's probe expects 42 from a module answering 43")
            try writeManifest(expected: 43)
            let second = try Self.publish("build/module.wasm", in: directory)
            #expect(second.status == 0, "\(second.stdout)")
            let secondChecks = (second.result?["module_check"] as? [String: Any])?["checks"] as? [String] ?? []
            #expect(secondChecks.contains { $0.hasPrefix("fallback rung") }, "\(secondChecks)")

            // A function nothing calls but that does not validate passes the structural check and
            // is still refused, by release and by verify, as a device would refuse it.
            try Data(Self.answerModule(1, valid: false)).write(to: directory.appendingPathComponent("broken.wasm"))
            let broken = try Self.publish("broken.wasm", in: directory)
            #expect(broken.status == 44)
            #expect((broken.error?["message"] as? String)?.contains("device-parity") == true, "\(broken.stdout)")
            #expect(try Self.publish("broken.wasm", in: directory, extra: ["--skip-verify"]).status == 0)
            let verify = try CLI.run(["verify", "store", "--json"], in: directory)
            #expect(verify.status == 44, "\(verify.stdout)")

            // The fix for it publishes, with a warning that the fallback rung is broken, for the
            // fingerprint its manifest records; never for another one, and never for none.
            try Data(Self.answerModule(44)).write(to: build.appendingPathComponent("module.wasm"))
            try writeManifest(expected: 44)
            let keys = ["--store", "store", "--key-dir", "keys", "--json"]
            let otherBuild = try CLI.run(["release", "build/module.wasm", "--fingerprint", "fp-2"] + keys, in: directory)
            #expect(otherBuild.status == 44 && (otherBuild.error?["message"] as? String)?.contains("built for fingerprint fp-1") == true, "\(otherBuild.stdout)")
            #expect(try CLI.run(["release", "broken.wasm"] + keys, in: directory).status == 2)
            let fix = try CLI.run(["release", "build/module.wasm"] + keys, in: directory)
            #expect(fix.status == 0, "\(fix.stdout)")
            let warnings = (fix.result?["module_check"] as? [String: Any])?["warnings"] as? [String] ?? []
            #expect(warnings.count == 1 && warnings[0].contains("does not activate"), "\(warnings)")
        }
    }

    /// §6 H56: `kill -9` (SIGKILL, via PATCHCLI_FAULT_AT) after each step: the store still verifies
    /// and serves the previous release, and re-running the publish succeeds.
    @Test(arguments: ["target:1", "target:3", "targets-metadata", "snapshot", "before-timestamp", "timestamp-temp"])
    func killedPublisherLeavesTheStoreValid(step: String) throws {
        try withScratchDirectory { directory in
            try Self.prepare(directory)
            #expect(try Self.publish("a.wasm", in: directory).status == 0)
            let killed = try Self.publish("b.wasm", in: directory, environment: ["PATCHCLI_FAULT_AT": step])
            #expect(killed.status == 9 || killed.status == 137 || killed.status == -9, "expected SIGKILL, got \(killed.status)")
            let afterKill = try CLI.run(["verify", "store", "--json"], in: directory)
            #expect(afterKill.status == 0, "\(afterKill.stdout)")
            #expect((afterKill.result?["channels"] as? [String: Int]) == ["production": 1])
            let retry = try Self.publish("b.wasm", in: directory)
            #expect(retry.status == 0, "\(retry.stdout)")
            let final = try CLI.run(["verify", "store", "--json"], in: directory)
            #expect((final.result?["channels"] as? [String: Int]) == ["production": 2])
        }
    }

    /// §6 H59: several publisher processes at once: each either publishes or exits 42 (conflict);
    /// counters stay unique and the store verifies.
    @Test func concurrentPublisherProcessesConflictCleanly() throws {
        try withScratchDirectory { directory in
            try Self.prepare(directory)
            let results = ResultBox()
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let module = index % 2 == 0 ? "b.wasm" : "c.wasm"
                let status = (try? Self.publish(module, in: directory, extra: ["--notes", "publisher \(index)"]).status) ?? -1
                results.append(status)
            }
            let statuses = results.values
            #expect(statuses.allSatisfy { $0 == 0 || $0 == 42 }, "\(statuses)")
            let published = statuses.filter { $0 == 0 }.count
            #expect(published >= 1)
            let verify = try CLI.run(["verify", "store", "--json"], in: directory)
            #expect(verify.status == 0, "\(verify.stdout)")
            #expect((verify.result?["channels"] as? [String: Int]) == ["production": published])
        }
    }
}

enum FileAccessBytes {
    static func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
}

/// Exit statuses gathered from concurrent publisher processes.
final class ResultBox: @unchecked Sendable {
    // Guarded by `lock`: appended from concurrentPerform's threads, read after it returns.
    private let lock = NSLock()
    private var statuses: [Int32] = []
    func append(_ status: Int32) { lock.withLock { statuses.append(status) } }
    var values: [Int32] { lock.withLock { statuses } }
}
