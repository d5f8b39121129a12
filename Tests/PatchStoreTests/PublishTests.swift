import Foundation
import PatchDiff
import PatchManifest
import Testing
@testable import PatchStore

@Suite struct PublishTests {
    @Test func publishWritesSignedContentAddressedReleaseThatVerifies() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let first = sampleModule(seed: 1), second = sampleModule(seed: 1, edits: 3)
        let outcome1 = try fixture.publish(first)
        let outcome2 = try fixture.publish(second, rollout: 25)

        let record = try #require(outcome2.records.first)
        #expect(outcome1.records.first?.releaseCounter == 1)
        #expect(record.releaseCounter == 2)
        #expect(record.rolloutPercent == 25)
        #expect(record.module.sha256 == SHA256Hasher.hex(of: second))
        #expect(record.module.length == second.count)
        #expect(record.module.path.hasSuffix(".wasm.br"))
        #expect(record.version == "2-\(record.module.sha256.prefix(12))")

        // The .br decompresses to the raw artifact whose SHA-256 the record carries (sdk-contract §7.4).
        let compressed = try fixture.read(try fixture.targetFile(record.module.path))
        #expect(compressed.count == record.module.compressedLength)
        #expect(try CodecKind.brotli.decompress(compressed, maxOutputBytes: 1 << 20) == second)

        // A BSDIFF40 diff from the first release exists, is smaller than the .br, and reproduces the module.
        let diff = try #require(record.diffs.first)
        #expect(diff.fromSHA256 == SHA256Hasher.hex(of: first))
        #expect(diff.fromVersion == outcome1.records.first?.version)
        #expect(diff.length < record.module.compressedLength)
        let patch = try fixture.read(try fixture.targetFile(diff.path))
        #expect(patch.prefix(8) == Array("BSDIFF40".utf8)[...])
        #expect(try BSPatch.apply(old: first, patch: patch) == second)

        let report = try fixture.verify()
        #expect(report.timestampVersion == 3)
        #expect(report.channels == ["production": 2])
        #expect(report.modulesChecked == 2)
        #expect(report.diffsChecked == 1)

        // Every versioned metadata name appears once; timestamp.json is the only unversioned file.
        let metadata = try FileManager.default.contentsOfDirectory(atPath: fixture.url("metadata").path).sorted()
        #expect(metadata == ["1.root.json", "1.snapshot.json", "1.targets.json", "2.snapshot.json", "2.targets.json", "3.snapshot.json", "3.targets.json", "timestamp.json"])
    }

    @Test func dryRunPlansEverythingAndWritesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let before = try fixture.read("metadata/timestamp.json")
        var options = fixture.options
        options.dryRun = true
        let outcome = try fixture.publish(sampleModule(seed: 2), options: options)
        #expect(outcome.receipt.dryRun)
        #expect(outcome.receipt.files.contains { $0.path.hasPrefix("targets/modules/") && $0.bytes > 0 })
        #expect(outcome.receipt.files.last?.path == "metadata/timestamp.json")
        #expect(try fixture.read("metadata/timestamp.json") == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.url("metadata/2.targets.json").path))
        #expect(try fixture.currentCounter() == nil)
    }

    @Test func channelOperationsAlwaysMoveTheCounterForward() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let (a, b, hotfix) = (sampleModule(seed: 3), sampleModule(seed: 3, edits: 2), sampleModule(seed: 3, edits: 5))
        try fixture.publish(a, channel: "staging")
        let promoted = try fixture.store.promote(from: "staging", to: "production", fingerprint: nil, rolloutPercent: nil, signers: fixture.signers, options: fixture.options)
        let stagingRecord = try #require(try fixture.store.list(channel: "staging", now: nil).first?.current.first)
        // Promotion publishes the very same module target: same bytes, same path.
        #expect(promoted.records.first?.module == stagingRecord.module)
        #expect(promoted.records.first?.action == .promote)
        #expect(promoted.records.first?.sourceChannel == "staging")

        try fixture.publish(b, rollout: 10)
        let widened = try fixture.store.setRollout(channel: "production", fingerprint: nil, percent: 50, signers: fixture.signers, options: fixture.options)
        #expect(widened.records.first?.rolloutPercent == 50)
        #expect(widened.records.first?.module.sha256 == SHA256Hasher.hex(of: b))

        // A hotfix supersedes the partial rollout in progress.
        let fix = try fixture.publish(hotfix, rollout: 100)
        #expect(fix.records.first?.releaseCounter == 4)

        // Rollback publishes the previous content (b) under a new counter, to everyone.
        let rolledBack = try fixture.store.rollback(channel: "production", fingerprint: nil, toCounter: nil, signers: fixture.signers, options: fixture.options)
        let rollbackRecord = try #require(rolledBack.records.first)
        #expect(rollbackRecord.releaseCounter == 5)
        #expect(rollbackRecord.module.sha256 == SHA256Hasher.hex(of: b))
        #expect(rollbackRecord.rolloutPercent == 100)
        #expect(rollbackRecord.sourceReleaseCounter == 3)

        let disabled = try fixture.store.disable(channel: "production", fingerprint: nil, signers: fixture.signers, options: fixture.options)
        #expect(disabled.records.first?.disabled == true)
        #expect(disabled.records.first?.releaseCounter == 6)

        let listing = try #require(try fixture.store.list(channel: "production", now: nil).first)
        #expect(listing.history.map(\.releaseCounter) == [1, 2, 3, 4, 5, 6])
        #expect(listing.history.map(\.action) == [.promote, .publish, .rollout, .publish, .rollback, .disable])
        #expect(listing.current.count == 1)
        #expect(listing.current.first?.disabled == true)
        #expect(try fixture.verify().channels == ["production": 6, "staging": 1])
    }

    @Test func fingerprintsHaveTheirOwnCurrentReleaseAndDiffs() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.publish(sampleModule(seed: 4), fingerprint: "build-A")
        let other = try fixture.publish(sampleModule(seed: 4, edits: 1), fingerprint: "build-B")
        // No diff across fingerprints: a device of build-B never ran build-A's module.
        #expect(other.records.first?.diffs.isEmpty == true)
        let listing = try #require(try fixture.store.list(channel: "production", now: nil).first)
        #expect(listing.current.map(\.fingerprint) == ["build-A", "build-B"])
        #expect(throws: StoreError.self) {
            try fixture.store.disable(channel: "production", fingerprint: nil, signers: fixture.signers, options: fixture.options)
        }
        let disabled = try fixture.store.disable(channel: "production", fingerprint: "build-A", signers: fixture.signers, options: fixture.options)
        #expect(disabled.records.first?.fingerprint == "build-A")
        #expect(try fixture.store.list(channel: "production", now: nil).first?.current.first { $0.fingerprint == "build-B" }?.disabled == false)
    }

    @Test func rollbackWithoutEarlierContentAndUnknownChannelsAreClearErrors() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.publish(sampleModule(seed: 5))
        do {
            _ = try fixture.store.rollback(channel: "production", fingerprint: nil, toCounter: nil, signers: fixture.signers, options: fixture.options)
            Issue.record("rollback with one release succeeded")
        } catch {
            #expect(String(describing: error).contains("no earlier content"))
        }
        do {
            _ = try fixture.store.promote(from: "beta", to: "production", fingerprint: nil, rolloutPercent: nil, signers: fixture.signers, options: fixture.options)
            Issue.record("promote from an empty channel succeeded")
        } catch {
            #expect(String(describing: error).contains("channel beta has no releases"))
        }
        #expect(throws: StoreError.self) { try fixture.publish(sampleModule(seed: 5), channel: "../etc") }
    }

    @Test func moduleVerificationRefusesWhatDevicesCannotLoad() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let verifier = StructuralModuleVerifier()
        let module = sampleModule(seed: 6)
        #expect(try verifier.verify(artifact: module).layout == "wasm")

        func pmod(_ modules: [[UInt8]]) -> [UInt8] {
            var out = Array("PMOD".utf8) + [1, UInt8(modules.count), 0, 0]
            for module in modules { out += withUnsafeBytes(of: UInt32(module.count).littleEndian, Array.init) + module }
            return out
        }
        #expect(try verifier.verify(artifact: pmod([module, module])).layout == "PMOD(2)")
        func povr(_ overlay: [UInt8], _ inner: [UInt8]) -> [UInt8] {
            Array("POVR".utf8) + [1, 0, 0, 0] + withUnsafeBytes(of: UInt32(overlay.count).littleEndian, Array.init) + overlay
                + withUnsafeBytes(of: UInt32(inner.count).littleEndian, Array.init) + inner
        }
        // An empty PROV chunk: no colors, locales or images.
        let overlay = Array("PROV".utf8) + [1, 0, 0, 0] + [UInt8](repeating: 0, count: 12)
        #expect(try verifier.verify(artifact: povr(overlay, pmod([module]))).layout == "POVR/PMOD(1)")
        // One color announced, none there: the SDK would drop the whole overlay.
        let truncated = Array("PROV".utf8) + [1, 0, 0, 0] + [1, 0, 0, 0] + [UInt8](repeating: 0, count: 8)

        let noMemory = Array(module.dropLast(12))
        let cases: [([UInt8], String)] = [
            (Array("hello world".utf8), "missing the \\0asm magic"),
            ([0, 0x61, 0x73, 0x6D, 2, 0, 0, 0], "version is not 1"),
            (noMemory, "does not export"),
            (Array(module.prefix(200)), "truncated"),
            (pmod([module, Array(module.prefix(10))]).dropLast(5).map { $0 }, "runs past the end"),
            (module + [5, 3, 1, 0, 1], "out of order or repeated"),
            (povr(truncated, module), "PROV overlay chunk does not decode"),
            (povr(Array("PRO?".utf8) + overlay.dropFirst(4), module), "PROV overlay chunk does not decode"),
        ]
        for (artifact, fragment) in cases {
            do {
                _ = try verifier.verify(artifact: artifact)
                Issue.record("accepted: \(fragment)")
            } catch {
                #expect(String(describing: error).contains(fragment), "\(error)")
            }
        }
        // Publishing refuses before anything is written.
        let before = try fixture.read("metadata/timestamp.json")
        #expect(throws: StoreError.self) { try fixture.publish(noMemory) }
        #expect(try fixture.read("metadata/timestamp.json") == before)
        // --skip-verify publishes it anyway.
        _ = try fixture.store.publish(module: noMemory, request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: fixture.signers, options: fixture.options)
    }

    @Test func signingKeysMustBeTheOnesRootLists() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let before = try fixture.read("metadata/timestamp.json")
        var signers = fixture.signers
        signers.keys[.targets] = [SigningKey.generate()]
        let error = #expect(throws: StoreError.self) {
            try fixture.store.publish(module: sampleModule(seed: 7), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: signers, options: fixture.options)
        }
        guard case .keyNotInRoot(role: .targets, _) = error else { Issue.record("\(String(describing: error))"); return }
        signers.keys[.targets] = nil
        #expect(throws: StoreError.self) {
            try fixture.store.publish(module: sampleModule(seed: 7), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: signers, options: fixture.options)
        }
        #expect(try fixture.read("metadata/timestamp.json") == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.url("targets/modules").path))
    }

    @Test func keyRotationChainsRootsAndKeepsTheStoreValid() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.publish(sampleModule(seed: 8))
        let newTimestamp = SigningKey.generate(), newRoot = SigningKey.generate()
        var signers = fixture.signers
        signers.keys[.timestamp] = [newTimestamp, fixture.keys[.timestamp]!]
        let first = try fixture.store.rotateKey(role: .timestamp, newKey: newTimestamp.publicKey, signers: signers, options: fixture.options)
        #expect(first.rootVersion == 2)
        // Dual-signed: the new timestamp verifies under root 1's key and root 2's key.
        let timestamp = try SignedEnvelope.parse(try fixture.read("metadata/timestamp.json"))
        #expect(timestamp.signatures.count == 2)

        signers.keys[.timestamp] = [newTimestamp]
        signers.keys[.root] = [newRoot, fixture.keys[.root]!]
        #expect(try fixture.store.rotateKey(role: .root, newKey: newRoot.publicKey, signers: signers, options: fixture.options).rootVersion == 3)
        let state = try fixture.store.loadState(now: StoreFixture.now)
        #expect(state.root.version == 3)
        #expect(state.root.roles["root"]?.keyids == [newRoot.keyid])
        #expect(state.root.keys[fixture.keys[.root]!.keyid] == nil)
        #expect(try fixture.verify().rootVersion == 3)

        // A root signed only by the new key (not the old root's) breaks the chain: refused on read.
        var forged = state.root
        forged.version = 4
        try fixture.write(try SignedEnvelope(signing: forged, with: [SigningKey.generate()]).bytes, to: "metadata/4.root.json")
        #expect(throws: StoreError.self) { try fixture.verify() }
    }
}
