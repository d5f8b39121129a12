import Foundation
import PatchManifest
import Testing
@testable import PatchStore

/// Issue 16: a rolled-back store is refused across restarts (the trusted-versions record), every
/// kind of store file tampered with is named by `verify`, and leftovers of killed publishes are
/// reported and removed without touching anything metadata references.
@Suite struct RollbackAndLeftoverTests {
    static func stateDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("patchstate-\(UUID().uuidString)").path
    }

    @Test func aRolledBackStoreIsRefusedByALaterVerifyOnlyThroughTheRecord() throws {
        let fixture = try AttackAndFaultTests.populated()
        let stateDirectory = Self.stateDirectory()
        defer { fixture.remove(); try? FileManager.default.removeItem(atPath: stateDirectory) }
        let old = try fixture.read("metadata/timestamp.json")
        try fixture.publish(sampleModule(seed: 13))
        let report = try fixture.store.verify(now: StoreFixture.now, trusted: TrustedVersionsFile(stateDirectory: stateDirectory), moduleVerifier: nil)
        #expect(report.timestampVersion == 4)
        try fixture.write(old, to: "metadata/timestamp.json")

        // A new process: a new store value and a new record value over the same folders.
        let restarted = ReleaseStore(directory: fixture.directory.path)
        let record = TrustedVersionsFile(stateDirectory: stateDirectory)
        let error = #expect(throws: StoreError.self) { try restarted.verify(now: StoreFixture.now, trusted: record, moduleVerifier: nil) }
        guard case let .rollbackBelowTrusted(path, role, trusted, found, recordPath)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == "metadata/timestamp.json" && role == .timestamp && trusted == 4 && found == 3)
        #expect(recordPath == (try record.path(for: restarted)))
        #expect(recordPath.hasPrefix(stateDirectory + "/trusted/"))
        #expect(String(describing: error!).contains("delete \(recordPath)"))
        // Without the record the old timestamp is validly signed and verifies: exactly defect 3.
        _ = try restarted.verify(now: StoreFixture.now, moduleVerifier: nil)
        // The record was not lowered by the refused verify; the newest metadata back verifies again.
        #expect(try record.load(for: restarted)?.timestamp == 4)
    }

    /// Publishing onto a rolled-back store would sign a timestamp below what clients trust: every
    /// store-writing operation checks the record first, and a committed one raises it.
    @Test func publishingOntoARolledBackStoreIsRefusedAndCommitsRaiseTheRecord() throws {
        let fixture = try StoreFixture()
        let stateDirectory = Self.stateDirectory()
        defer { fixture.remove(); try? FileManager.default.removeItem(atPath: stateDirectory) }
        let record = TrustedVersionsFile(stateDirectory: stateDirectory)
        let options = PublishOptions(now: StoreFixture.now, trusted: record)
        try fixture.publish(sampleModule(seed: 30), options: options)
        #expect(try record.load(for: fixture.store) == TrustedVersions(root: 1, timestamp: 2, snapshot: 2, targets: 2, store: fixture.store.base.path))
        let old = try fixture.read("metadata/timestamp.json")
        try fixture.publish(sampleModule(seed: 30, edits: 3), options: options)
        #expect(try record.load(for: fixture.store)?.timestamp == 3)
        let newest = try fixture.read("metadata/timestamp.json")
        try fixture.write(old, to: "metadata/timestamp.json")

        let operations: [(String, () throws -> Void)] = [
            ("publish", { try fixture.publish(sampleModule(seed: 31), options: options) }),
            ("rollout", { _ = try fixture.store.setRollout(channel: "production", fingerprint: nil, percent: 50, signers: fixture.signers, options: options) }),
            ("dry run", { _ = try fixture.store.disable(channel: "production", fingerprint: nil, signers: fixture.signers, options: PublishOptions(now: StoreFixture.now, dryRun: true, trusted: record)) }),
            ("key rotation", { _ = try fixture.store.rotateKey(role: .timestamp, newKey: SigningKey.generate().publicKey, signers: fixture.signers, options: options) }),
        ]
        for (name, operation) in operations {
            let error = #expect(throws: StoreError.self, "\(name)") { try operation() }
            guard case let .rollbackBelowTrusted(path, role, trusted, found, _)? = error else { Issue.record("\(name): \(String(describing: error))"); continue }
            #expect(path == "metadata/timestamp.json" && role == .timestamp && trusted == 3 && found == 2, "\(name)")
            #expect(try fixture.read("metadata/timestamp.json") == old, "\(name) committed nothing")
            #expect(!FileManager.default.fileExists(atPath: fixture.url("metadata/4.targets.json").path), "\(name) signed nothing")
        }
        // Without the record nothing can tell (what the record is for).
        #expect(throws: Never.self) { _ = try fixture.store.setRollout(channel: "production", fingerprint: nil, percent: 50, signers: fixture.signers, options: PublishOptions(now: StoreFixture.now, dryRun: true)) }

        try fixture.write(newest, to: "metadata/timestamp.json")
        let receipt = try fixture.store.setRollout(channel: "production", fingerprint: nil, percent: 50, signers: fixture.signers, options: options).receipt
        #expect(receipt.timestampVersion == 4)
        #expect(try record.load(for: fixture.store)?.timestamp == 4)
        #expect(try record.load(for: fixture.store)?.targets == receipt.targetsVersion)
    }

    @Test func theRecordOnlyRisesAndIsKeptPerStore() throws {
        let first = try StoreFixture()
        let second = try StoreFixture()
        let stateDirectory = Self.stateDirectory()
        defer { first.remove(); second.remove(); try? FileManager.default.removeItem(atPath: stateDirectory) }
        let record = TrustedVersionsFile(stateDirectory: stateDirectory)
        try first.publish(sampleModule(seed: 1))
        try first.publish(sampleModule(seed: 2))
        let state = try first.store.loadState(now: nil)
        try record.checkAndRecord(state, of: first.store)
        _ = try second.store.verify(now: StoreFixture.now, trusted: record, moduleVerifier: nil)
        #expect(try record.load(for: first.store) == TrustedVersions(root: 1, timestamp: 3, snapshot: 3, targets: 3, store: first.store.base.path))
        #expect(try record.load(for: second.store)?.timestamp == 1)
        // A moved store keeps its record: the name comes from 1.root.json, not the path.
        let moved = first.directory.deletingLastPathComponent().appendingPathComponent("moved-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: first.directory, to: moved)
        defer { try? FileManager.default.removeItem(at: moved) }
        #expect(try record.load(for: ReleaseStore(directory: moved.path))?.timestamp == 3)
    }

    // Defect 5 and §6: one byte changed in every kind of store file is named by verify.
    @Test(arguments: ["root", "timestamp", "snapshot", "targets", "module", "diff", "channel", "release"])
    func everyTamperedFileKindFailsVerification(kind: String) throws {
        let fixture = try AttackAndFaultTests.populated()
        defer { fixture.remove() }
        let state = try fixture.store.loadState(now: nil)
        let record = try #require(try fixture.store.list(channel: "production", now: nil).first?.current.first)
        let file: String = switch kind {
        case "root": "metadata/1.root.json"
        case "timestamp": "metadata/timestamp.json"
        case "snapshot": "metadata/\(state.snapshot.version).snapshot.json"
        case "targets": "metadata/\(state.targets.version).targets.json"
        case "module": try fixture.targetFile(record.module.path)
        case "diff": try fixture.targetFile(try #require(record.diffs.first).path)
        case "channel": try fixture.targetFile(ReleasePaths.channelHead("production"))
        default: try fixture.targetFile(ReleasePaths.record(channel: "production", counter: 1))
        }
        var bytes = try fixture.read(file)
        // A byte inside the signed part of JSON (a digit of a version or length), the middle of a binary.
        let index = file.hasSuffix(".json") ? try #require(bytes.firstIndex(of: UInt8(ascii: "1"))) : bytes.count / 2
        bytes[index] = bytes[index] == UInt8(ascii: "1") ? UInt8(ascii: "7") : bytes[index] ^ 0x01
        try fixture.write(bytes, to: file)
        let error = #expect(throws: StoreError.self) { _ = try fixture.verify() }
        #expect(error.map { "\($0)" }?.contains(file) == true, "\(String(describing: error))")
        switch error {
        case .invalidMetadata?, .hashMismatch?, .rootChainBroken?, .versionMismatch?: break
        default: Issue.record("\(kind): unexpected \(String(describing: error))")
        }
    }

    /// What killed publishes leave (a target written before its metadata, temporary files, an
    /// unfinished init folder) is reported and removed; everything any metadata version lists stays.
    @Test func repairRemovesLeftoversAndNothingElse() throws {
        let fixture = try AttackAndFaultTests.populated()
        defer { fixture.remove() }
        // Killed after its first target file: nothing lists that file.
        var killed = fixture.options
        killed.faultHook = { step throws(StoreError) in if step == .targetWritten(index: 1) { throw .injectedFault(step: "target:1") } }
        #expect(throws: StoreError.self) { try fixture.publish(sampleModule(seed: 20), options: killed) }
        // Killed before the commit: its targets are listed by an uncommitted targets file, so they stay.
        killed.faultHook = { step throws(StoreError) in if step == .beforeTimestampCommit { throw .injectedFault(step: "before-timestamp") } }
        #expect(throws: StoreError.self) { try fixture.publish(sampleModule(seed: 21), options: killed) }
        // What SIGKILL between a temporary write and its link leaves, and an unfinished init.
        let planted = [
            "metadata/.timestamp.json.tmp-\(UUID().uuidString)", "targets/modules/.x.wasm.br.tmp-\(UUID().uuidString)",
            ".patchcli/init-\(UUID().uuidString)/metadata/1.root.json",
        ]
        for path in planted {
            try FileManager.default.createDirectory(at: fixture.url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try fixture.write([1, 2, 3], to: path)
        }

        let found = try fixture.store.leftovers()
        #expect(found.temporaries == [planted[2].components(separatedBy: "/metadata/")[0], planted[0], planted[1]].sorted())
        #expect(found.unreferencedTargets.count == 1)
        let orphan = try #require(found.unreferencedTargets.first)
        #expect(orphan.hasPrefix("targets/"))
        let report = try fixture.verify()
        #expect(report.leftovers == found)
        #expect(report.warnings.contains { $0.hasPrefix("\(orphan): no targets metadata lists it") })

        let everyListed = try Self.filesListedByAnyTargetsMetadata(fixture)
        let removed = try fixture.store.removeLeftovers()
        #expect(removed == found)
        for path in removed.all { #expect(!FileManager.default.fileExists(atPath: fixture.url(path).path), "\(path)") }
        for path in everyListed { #expect(FileManager.default.fileExists(atPath: fixture.url(path).path), "\(path) was listed but removed") }
        #expect(try fixture.store.leftovers() == StoreLeftovers(unreferencedTargets: [], temporaries: []))
        #expect(try fixture.verify().channels == ["production": 2])
        // The next publish goes above the kept orphan metadata and succeeds.
        #expect(try fixture.publish(sampleModule(seed: 22)).records.first?.releaseCounter == 3)
    }

    @Test func repairWaitsForNoPublisher() throws {
        let fixture = try AttackAndFaultTests.populated()
        defer { fixture.remove() }
        let store = fixture.store
        let outcome = ConflictProbe()
        var options = fixture.options
        options.faultHook = { step throws(StoreError) in
            guard step == .beforeTimestampCommit else { return }
            do { _ = try store.removeLeftovers(); outcome.set("removed while a publish held the lock") } catch { outcome.set(String(describing: error)) }
        }
        try fixture.publish(sampleModule(seed: 23), options: options)
        #expect(outcome.value?.contains("another publisher holds the store lock") == true, "\(outcome.value ?? "not run")")
    }

    static func filesListedByAnyTargetsMetadata(_ fixture: StoreFixture) throws -> [String] {
        var files: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.url("metadata").path) where name.hasSuffix(".targets.json") {
            let targets = try SignedEnvelope.parse(try fixture.read("metadata/\(name)")).decode(TargetsMetadata.self)
            for (path, info) in targets.targets { files.append(StorePath.targetFile(path, sha256: info.hashes["sha256"]!)) }
        }
        return files
    }
}
