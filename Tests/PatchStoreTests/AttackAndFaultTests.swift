import Foundation
import PatchManifest
import Testing
@testable import PatchStore

/// The attack and fault checklist of release-security notes §6 that applies to the store itself.
@Suite struct AttackAndFaultTests {
    /// A store with two releases on production, so "the previous release" is observable.
    static func populated() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.publish(sampleModule(seed: 10))
        try fixture.publish(sampleModule(seed: 10, edits: 4))
        return fixture
    }

    static func expectVerifyFails(_ fixture: StoreFixture, mentioning fragment: String, now: Date = StoreFixture.now, previousTimestamp: [UInt8]? = nil) {
        do {
            _ = try fixture.verify(now: now, previousTimestamp: previousTimestamp)
            Issue.record("verify passed; expected a failure mentioning \(fragment)")
        } catch {
            #expect(String(describing: error).contains(fragment), "\(error)")
        }
    }

    // §6 E32: module bytes changed on the server.
    @Test func tamperedArtifactIsNamed() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let record = try #require(try fixture.store.list(channel: "production", now: nil).first?.current.first)
        let file = try fixture.targetFile(record.module.path)
        var bytes = try fixture.read(file)
        bytes[bytes.count / 2] ^= 0x01
        try fixture.write(bytes, to: file)
        Self.expectVerifyFails(fixture, mentioning: file)
    }

    @Test func tamperedReleaseRecordIsNamed() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let file = try fixture.targetFile(ReleasePaths.channelHead("production"))
        let text = String(decoding: try fixture.read(file), as: UTF8.self).replacingOccurrences(of: "\"rollout_percent\":100", with: "\"rollout_percent\":99")
        try fixture.write(Array(text.utf8), to: file)
        Self.expectVerifyFails(fixture, mentioning: "\(file): is 790 bytes, listed as 791")
        // Same length, different bytes: the hash catches it.
        try fixture.write(Array(text.replacingOccurrences(of: "\"rollout_percent\":99", with: "\"rollout_percent\":10").utf8) + [0x20], to: file)
        Self.expectVerifyFails(fixture, mentioning: "\(file): sha256 is")
    }

    // §6 A1: one byte flipped in `signed` of timestamp / a bad signature.
    @Test func badTimestampSignatureIsRefused() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        var envelope = try SignedEnvelope.parse(try fixture.read("metadata/timestamp.json"))
        guard case var .object(members) = envelope.signed else { return }
        members["expires"] = .string("2099-01-01T00:00:00Z")
        envelope.signed = .object(members)
        try fixture.write(envelope.bytes, to: "metadata/timestamp.json")
        Self.expectVerifyFails(fixture, mentioning: "metadata/timestamp.json: 0 valid signature(s)")
        // Publishing on top of a store that does not verify is refused too.
        #expect(throws: StoreError.self) { try fixture.publish(sampleModule(seed: 11)) }
    }

    // §6 D27/D28: mix-and-match: a snapshot listing targets that are not the ones served.
    @Test func mixAndMatchOfTargetsVersionsIsRefused() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        // Serve the older targets bytes under the name the snapshot lists.
        try fixture.write(try fixture.read("metadata/2.targets.json"), to: "metadata/3.targets.json")
        Self.expectVerifyFails(fixture, mentioning: "metadata/3.targets.json")
    }

    @Test func missingReferencedSnapshotIsNamed() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        try FileManager.default.removeItem(at: fixture.url("metadata/3.snapshot.json"))
        Self.expectVerifyFails(fixture, mentioning: "metadata/3.snapshot.json: missing, but metadata/timestamp.json references it")
    }

    // §6 B13/B18: expired metadata.
    @Test func expiredTimestampFailsVerification() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let report = try fixture.verify(now: StoreFixture.now.addingTimeInterval(7 * 86_400 - 3600))
        #expect(report.warnings.contains { $0.contains("timestamp metadata expires soon") })
        let expired = #expect(throws: StoreError.self) {
            try fixture.store.verify(now: StoreFixture.now.addingTimeInterval(7 * 86_400 + 1), moduleVerifier: nil)
        }
        guard case .invalidMetadata("metadata/timestamp.json", .expired(role: .timestamp, _)) = expired else { Issue.record("\(String(describing: expired))"); return }
        // Publishing re-signs and so refreshes an expired store.
        var later = fixture.options
        later.now = StoreFixture.now.addingTimeInterval(30 * 86_400)
        try fixture.publish(sampleModule(seed: 12), options: later)
        _ = try fixture.verify(now: later.now)
    }

    // §6 C19: rollback to an older timestamp (replayed metadata).
    @Test func replayedOlderTimestampIsARollback() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let old = try fixture.read("metadata/timestamp.json")
        try fixture.publish(sampleModule(seed: 13))
        let seen = try fixture.read("metadata/timestamp.json")
        _ = try fixture.verify(previousTimestamp: seen)
        try fixture.write(old, to: "metadata/timestamp.json")
        // The old timestamp is validly signed, so only the comparison with what was seen catches it.
        _ = try fixture.verify()
        Self.expectVerifyFails(fixture, mentioning: "older than the trusted version 4", previousTimestamp: seen)
    }

    // §6 H56/H57: a publisher killed after each step leaves the previous release served and the
    // store valid; the next publish goes above the orphans and succeeds.
    @Test(arguments: ["target:1", "target:2", "target:3", "target:4", "targets-metadata", "snapshot", "before-timestamp", "timestamp-temp"])
    func abortedPublishLeavesThePreviousReleaseServed(step: String) throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let timestampBefore = try fixture.read("metadata/timestamp.json")
        var options = fixture.options
        options.faultHook = { reached throws(StoreError) in
            if reached.description == step { throw .injectedFault(step: step) }
        }
        let aborted = #expect(throws: StoreError.self) {
            try fixture.store.publish(module: sampleModule(seed: 10, edits: 9), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: fixture.signers, options: options)
        }
        guard case .injectedFault = aborted else { Issue.record("the fault at \(step) was not reached: \(String(describing: aborted))"); return }
        #expect(try fixture.read("metadata/timestamp.json") == timestampBefore)
        #expect(try fixture.currentCounter() == 2)
        let afterCrash = try fixture.verify()
        #expect(afterCrash.channels == ["production": 2])
        if step == "snapshot" || step == "before-timestamp" || step == "timestamp-temp" {
            #expect(afterCrash.warnings.contains { $0.contains("interrupted publish") })
        }

        let retried = try fixture.publish(sampleModule(seed: 10, edits: 9))
        #expect(retried.records.first?.releaseCounter == 3)
        let after = try fixture.verify()
        #expect(after.channels == ["production": 3])
        // No versioned name was reused: the retry went above any orphan.
        if step == "targets-metadata" || step == "snapshot" || step == "before-timestamp" || step == "timestamp-temp" {
            #expect(after.targetsVersion == 5)
        }
    }

    // §6 H63: killed after writing root N+1 (which rotates the timestamp key) but before the
    // final commit: the timestamp served was dual-signed in phase 1, so it is valid under both roots.
    @Test func killedKeyRotationAfterTheRootWriteKeepsTheStoreValid() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let newTimestamp = SigningKey.generate()
        var signers = fixture.signers
        signers.keys[.timestamp] = [newTimestamp, fixture.keys[.timestamp]!]
        var options = fixture.options
        options.faultHook = { step throws(StoreError) in if step == .rootWritten { throw .injectedFault(step: "root") } }
        #expect(throws: StoreError.self) {
            try fixture.store.rotateKey(role: .timestamp, newKey: newTimestamp.publicKey, signers: signers, options: options)
        }
        #expect(FileManager.default.fileExists(atPath: fixture.url("metadata/2.root.json").path))
        let served = try SignedEnvelope.parse(try fixture.read("metadata/timestamp.json"))
        #expect(Set(served.signatures.map(\.keyid)) == [newTimestamp.keyid, fixture.keys[.timestamp]!.keyid])
        let report = try fixture.verify()
        #expect(report.rootVersion == 2)
        #expect(report.channels == ["production": 2])
        // Publishing with the new key completes the rotation.
        signers.keys[.timestamp] = [newTimestamp]
        _ = try fixture.store.publish(module: sampleModule(seed: 14), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: signers, options: fixture.options)
        #expect(try fixture.verify().channels == ["production": 3])
    }

    // §6 H59: two publishers at once: the second fails fast with a conflict and can retry.
    @Test func secondPublisherGetsALockConflict() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let competitor = ReleaseStore(directory: fixture.directory.path)
        let signers = fixture.signers
        let result = ConflictProbe()
        var options = fixture.options
        options.faultHook = { step throws(StoreError) in
            guard step == .beforeTimestampCommit else { return }
            do {
                _ = try competitor.publish(module: sampleModule(seed: 15), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: signers, options: PublishOptions(now: StoreFixture.now))
                result.set("competitor published while the lock was held")
            } catch {
                result.set(String(describing: error))
            }
        }
        let winner = try fixture.publish(sampleModule(seed: 16), options: options)
        #expect(result.value?.contains("another publisher holds the store lock") == true, "\(result.value ?? "no attempt")")
        #expect(winner.records.first?.releaseCounter == 3)
        let retry = try fixture.publish(sampleModule(seed: 15))
        #expect(retry.records.first?.releaseCounter == 4)
        #expect(try fixture.verify().channels == ["production": 4])
    }

    /// A commit whose timestamp.json changed underneath it (a writer that bypassed the lock) is a conflict.
    @Test func timestampReplacedUnderneathIsAConflict() throws {
        let fixture = try Self.populated()
        defer { fixture.remove() }
        let stale = try fixture.read("metadata/timestamp.json")
        var options = fixture.options
        let directory = fixture.directory
        options.faultHook = { step throws(StoreError) in
            guard step == .beforeTimestampCommit else { return }
            // Another host's publisher committed: timestamp.json now has other bytes.
            try? Data(stale + [0x20]).write(to: directory.appendingPathComponent("metadata/timestamp.json"))
        }
        let conflict = #expect(throws: StoreError.self) {
            try fixture.store.publish(module: sampleModule(seed: 17), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: fixture.signers, options: options)
        }
        guard case .concurrentCommit = conflict else { Issue.record("\(String(describing: conflict))"); return }
    }

    // §6 H62: a content-addressed file that exists with other bytes is never overwritten.
    @Test func existingFileWithOtherBytesIsNotOverwritten() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let module = sampleModule(seed: 18)
        var dry = fixture.options
        dry.dryRun = true
        let plan = try fixture.publish(module, options: dry)
        let moduleFile = try #require(plan.receipt.files.first { $0.path.hasPrefix("targets/modules/") }).path
        try FileManager.default.createDirectory(at: fixture.url("targets/modules"), withIntermediateDirectories: true)
        try fixture.write(Array("planted".utf8), to: moduleFile)
        do {
            try fixture.publish(module)
            Issue.record("overwrote a planted file")
        } catch {
            #expect(String(describing: error).contains("already exists with different bytes"))
        }
        #expect(try fixture.read(moduleFile) == Array("planted".utf8))
        #expect(try fixture.currentCounter() == nil)
    }
}

/// Carries the competitor's outcome out of the @Sendable fault hook.
final class ConflictProbe: @unchecked Sendable {
    // Guarded by `lock`; written once from the hook, read after the publish returns.
    private let lock = NSLock()
    private var stored: String?
    func set(_ text: String) { lock.withLock { stored = text } }
    var value: String? { lock.withLock { stored } }
}

@Suite struct HostileStoreTests {
    /// A validly signed timestamp whose version is Int.max: refused as out of range, never a crash
    /// on "version + 1".
    @Test func hugeVersionsAreRefusedNotOverflowed() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var envelope = try SignedEnvelope.parse(try fixture.read("metadata/timestamp.json"))
        var timestamp = try envelope.decode(TimestampMetadata.self)
        timestamp.version = Int.max
        envelope = try SignedEnvelope(signing: timestamp, with: [fixture.keys[.timestamp]!])
        try fixture.write(envelope.bytes, to: "metadata/timestamp.json")
        #expect(throws: StoreError.self) { try fixture.publish(sampleModule(seed: 30)) }
        #expect(throws: StoreError.self) { try fixture.verify() }
    }
}
