import Foundation
import Testing

/// `patchcli verify` against the store faults of issue 16: a rollback across runs, every tampered
/// file kind, and the leftovers of killed publishes (`--repair`).
@Suite struct VerifyCLITests {
    static func verify(_ directory: URL, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(["verify", "store", "--state-dir", "state", "--skip-modules", "--json"] + extra, in: directory)
    }

    /// A store with releases a.wasm and b.wasm: its timestamp.json, and that file's bytes after the
    /// first release (putting them back rolls the store back).
    static func storeOfTwoReleases(in directory: URL, extra: [String] = []) throws -> (timestamp: URL, afterFirst: Data) {
        try ReleaseCommandTests.prepare(directory)
        #expect(try ReleaseCommandTests.publish("a.wasm", in: directory, extra: extra).status == 0)
        let timestamp = directory.appendingPathComponent("store/metadata/timestamp.json")
        let afterFirst = try Data(contentsOf: timestamp)
        #expect(try ReleaseCommandTests.publish("b.wasm", in: directory, extra: extra).status == 0)
        return (timestamp, afterFirst)
    }

    @Test func aRolledBackStoreExits40OnTheNextRun() throws {
        try withScratchDirectory { directory in
            let (timestamp, old) = try Self.storeOfTwoReleases(in: directory)
            #expect(try Self.verify(directory).status == 0)
            try old.write(to: timestamp)

            let refused = try Self.verify(directory)
            #expect(refused.status == 40, "\(refused.stdout)")
            #expect(refused.error?["kind"] as? String == "store_rollback")
            let message = refused.error?["message"] as? String ?? ""
            #expect(message.contains("metadata/timestamp.json: timestamp version 2 is older than version 3"), "\(message)")
            #expect(message.contains("\(directory.path)/state/trusted/"), "the message names the record to delete: \(message)")
            // Another machine (another state folder) has no record and cannot tell.
            #expect(try Self.verify(directory, ["--state-dir", "elsewhere"]).status == 0)
        }
    }

    /// Publishing onto a rolled-back store would sign a timestamp below what clients trust: release
    /// and the channel commands refuse it as verify does, and write nothing.
    @Test func publishingOntoARolledBackStoreExits40() throws {
        try withScratchDirectory { directory in
            let state = ["--state-dir", "publisher-state"]
            let (timestamp, old) = try Self.storeOfTwoReleases(in: directory, extra: state)
            let records = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("publisher-state/trusted").path)
            #expect(records.filter { $0.hasSuffix(".json") }.count == 1, "the publishes recorded what they committed: \(records)")
            try old.write(to: timestamp)

            let refusals = [
                try ReleaseCommandTests.publish("c.wasm", in: directory, extra: state),
                try CLI.run(["release", "rollout", "50%", "--store", "store", "--key-dir", "keys", "--json"] + state, in: directory),
            ]
            let verified = try Self.verify(directory, state)
            for refused in refusals + [verified] {
                #expect(refused.status == 40, "\(refused.stdout)")
                #expect(refused.error?["kind"] as? String == "store_rollback")
                #expect(refused.error?["message"] as? String == verified.error?["message"] as? String, "the same message as verify")
                #expect((refused.error?["message"] as? String)?.contains("timestamp version 2 is older than version 3") == true, "\(refused.stdout)")
            }
            #expect(try Data(contentsOf: timestamp) == old, "nothing was committed")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("store/metadata/4.targets.json").path), "nothing was signed")
        }
    }

    @Test func everyTamperedFileKindExits40() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            #expect(try ReleaseCommandTests.publish("a.wasm", in: directory).status == 0)
            #expect(try ReleaseCommandTests.publish("b.wasm", in: directory).status == 0)
            let store = directory.appendingPathComponent("store")
            let targets = try FileManager.default.subpathsOfDirectory(atPath: store.appendingPathComponent("targets").path)
            let kinds: [(String, String?)] = [
                ("root", "metadata/1.root.json"), ("timestamp", "metadata/timestamp.json"), ("snapshot", "metadata/3.snapshot.json"),
                ("targets", "metadata/3.targets.json"), ("module", targets.first { $0.hasSuffix(".wasm.br") }.map { "targets/\($0)" }),
                ("diff", targets.first { $0.hasSuffix(".bsdiff") }.map { "targets/\($0)" }),
                // Record 1 (the current metadata lists every record; an earlier channel head it no longer lists).
                ("release", targets.first { $0.contains("/releases/") && $0.hasSuffix(".1.json") }.map { "targets/\($0)" }),
            ]
            for (kind, relative) in kinds {
                let file = store.appendingPathComponent(try #require(relative, "no \(kind) file"))
                let original = try Data(contentsOf: file)
                var bytes = [UInt8](original)
                let index = relative!.hasSuffix(".json") ? try #require(bytes.lastIndex(of: UInt8(ascii: "1"))) : bytes.count / 2
                bytes[index] = bytes[index] == UInt8(ascii: "1") ? UInt8(ascii: "7") : bytes[index] ^ 0x01
                try Data(bytes).write(to: file)
                let result = try Self.verify(directory)
                #expect(result.status == 40, "\(kind): \(result.stdout)")
                #expect(result.error?["kind"] as? String == "store_invalid", "\(kind)")
                #expect((result.error?["message"] as? String)?.contains(relative!) == true, "\(kind): \(result.stdout)")
                try original.write(to: file)
            }
            #expect(try Self.verify(directory).status == 0)
        }
    }

    @Test func leftoversOfKilledPublishesAreWarningsAndRepairRemovesThem() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            #expect(try ReleaseCommandTests.publish("a.wasm", in: directory).status == 0)
            let killed = try ReleaseCommandTests.publish("b.wasm", in: directory, environment: ["PATCHCLI_FAULT_AT": "target:1"])
            #expect(killed.status == 9 || killed.status == 137 || killed.status == -9, "expected SIGKILL, got \(killed.status)")
            let temporary = "targets/modules/.x.wasm.br.tmp-\(UUID().uuidString)"
            try Data([1, 2, 3]).write(to: directory.appendingPathComponent("store/\(temporary)"))

            let report = try Self.verify(directory)
            #expect(report.status == 0, "leftovers are warnings: \(report.stdout)")
            let leftovers = try #require(report.result?["leftovers"] as? [String: [String]])
            #expect(leftovers["temporaries"] == [temporary])
            #expect(leftovers["unreferenced_targets"]?.count == 1)
            #expect((report.result?["warnings"] as? [String])?.contains { $0.contains("verify --repair") } == true)

            let repaired = try Self.verify(directory, ["--repair"])
            #expect(repaired.status == 0, "\(repaired.stdout)")
            #expect((repaired.result?["removed"] as? [String: [String]]) == leftovers)
            let after = try Self.verify(directory)
            #expect((after.result?["leftovers"] as? [String: [String]]) == ["temporaries": [], "unreferenced_targets": []])
            #expect(try ReleaseCommandTests.publish("b.wasm", in: directory).status == 0)
        }
    }
}
