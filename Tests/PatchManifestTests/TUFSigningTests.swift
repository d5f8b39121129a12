import Crypto
import Foundation
import Testing
@testable import PatchManifest
import PythonPeer

@Suite struct TUFSigningTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func root(_ keys: [TUFRole: TUFKey], threshold: Int = 1) -> RootMetadata {
        var root = RootMetadata(version: 1, expires: TUFTime.format(now.addingTimeInterval(86_400)), roleKeys: keys)
        root.roles["targets"]?.threshold = threshold
        return root
    }

    static func targets() -> TargetsMetadata {
        TargetsMetadata(version: 3, expires: TUFTime.format(now.addingTimeInterval(3600)), targets: [
            "modules/a.wasm.br": TargetFileInfo(length: 3, sha256: String(repeating: "ab", count: 32), custom: .object(["kind": .string("module")])),
        ])
    }

    @Test func signedMetadataVerifiesAndSurvivesItsOwnBytes() throws {
        let key = SigningKey.generate()
        let root = Self.root([.targets: key.publicKey])
        let envelope = try SignedEnvelope(signing: Self.targets(), with: [key])
        let reparsed = try SignedEnvelope.parse(envelope.bytes)
        #expect(reparsed == envelope)
        try reparsed.verifySignatures(for: .targets, trustedBy: root)
        #expect(try reparsed.decode(TargetsMetadata.self) == Self.targets())
    }

    @Test func flippedByteInSignedFailsTheThreshold() throws {
        let key = SigningKey.generate()
        let root = Self.root([.targets: key.publicKey])
        var envelope = try SignedEnvelope(signing: Self.targets(), with: [key])
        guard case var .object(members) = envelope.signed else { Issue.record("not an object"); return }
        members["version"] = .integer(4)
        envelope.signed = .object(members)
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 0, threshold: 1)) {
            try envelope.verifySignatures(for: .targets, trustedBy: root)
        }
    }

    /// Unknown fields are part of what was signed: verification over the received tree keeps them.
    @Test func unknownFieldsAreCoveredBySignatures() throws {
        let key = SigningKey.generate()
        let root = Self.root([.targets: key.publicKey])
        var tree = try JSONValue(encoding: Self.targets())
        guard case var .object(members) = tree else { return }
        members["x-vendor"] = .object(["note": .string("kept")])
        tree = .object(members)
        let signature = try key.sign(CanonicalJSON.encode(tree))
        let bytes = SignedEnvelope(signed: tree, signatures: [TUFSignature(keyid: key.keyid, sig: signature)]).bytes
        let parsed = try SignedEnvelope.parse(bytes)
        try parsed.verifySignatures(for: .targets, trustedBy: root)
        #expect(parsed.signed["x-vendor"]?["note"] == .string("kept"))
    }

    @Test func thresholdCountsEachKeyOnceAndIgnoresUnlistedKeys() throws {
        let first = SigningKey.generate(), second = SigningKey.generate(), outsider = SigningKey.generate()
        var root = Self.root([.targets: first.publicKey], threshold: 2)
        root.keys[second.keyid] = second.publicKey
        root.roles["targets"]?.keyids.append(second.keyid)
        let metadata = Self.targets()

        // The same keyid twice must not fake a threshold of 2 (tuf-conformance test_duplicate_sig_keyids).
        var duplicated = try SignedEnvelope(signing: metadata, with: [first])
        duplicated.signatures.append(duplicated.signatures[0])
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 1, threshold: 2)) {
            try duplicated.verifySignatures(for: .targets, trustedBy: root)
        }
        // A valid signature from a key root does not list is ignored.
        let withOutsider = try SignedEnvelope(signing: metadata, with: [first, outsider])
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 1, threshold: 2)) {
            try withOutsider.verifySignatures(for: .targets, trustedBy: root)
        }
        // One valid plus one garbage signature is below a threshold of 2; two valid plus garbage passes.
        var withGarbage = try SignedEnvelope(signing: metadata, with: [first])
        withGarbage.signatures.append(TUFSignature(keyid: second.keyid, sig: String(repeating: "00", count: 64)))
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 1, threshold: 2)) {
            try withGarbage.verifySignatures(for: .targets, trustedBy: root)
        }
        var bothPlusGarbage = try SignedEnvelope(signing: metadata, with: [first, second])
        bothPlusGarbage.signatures.append(TUFSignature(keyid: outsider.keyid, sig: "zz"))
        try bothPlusGarbage.verifySignatures(for: .targets, trustedBy: root)
    }

    /// The same public key listed under two keyids must not satisfy a threshold of 2 (test_duplicate_keys).
    @Test func sameKeyUnderTwoKeyidsCountsOnce() throws {
        let key = SigningKey.generate()
        var root = Self.root([.targets: key.publicKey], threshold: 2)
        root.keys["alias"] = key.publicKey
        root.roles["targets"]?.keyids.append("alias")
        var envelope = try SignedEnvelope(signing: Self.targets(), with: [key])
        envelope.signatures.append(TUFSignature(keyid: "alias", sig: envelope.signatures[0].sig))
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 1, threshold: 2)) {
            try envelope.verifySignatures(for: .targets, trustedBy: root)
        }
    }

    @Test func wrongTypeAndSpecVersionAreRejected() throws {
        let key = SigningKey.generate()
        let envelope = try SignedEnvelope(signing: Self.targets(), with: [key])
        #expect(throws: MetadataError.wrongType(expected: "timestamp", found: "targets")) {
            try envelope.decode(TimestampMetadata.self)
        }
        var future = Self.targets()
        future.type = "targets"
        var tree = try JSONValue(encoding: future)
        if case var .object(members) = tree { members["spec_version"] = .string("2.0.0"); tree = .object(members) }
        #expect(throws: MetadataError.unsupportedSpecVersion("2.0.0")) {
            try SignedEnvelope(signed: tree, signatures: []).decode(TargetsMetadata.self)
        }
    }

    @Test func expiryIsComparedWithTheReferenceTime() throws {
        let targets = Self.targets()
        try targets.checkNotExpired(at: Self.now)
        #expect(throws: MetadataError.expired(role: .targets, expires: targets.expires)) {
            try targets.checkNotExpired(at: Self.now.addingTimeInterval(3600))
        }
    }

    @Test func keyFilesHoldTheSeedAndRefuseOtherLengths() throws {
        let key = SigningKey.generate()
        let reloaded = try SigningKey(keyFileText: key.keyFileText)
        #expect(reloaded.keyid == key.keyid)
        #expect(throws: KeyError.wrongLength(found: 64)) { try SigningKey(keyFileText: Data(count: 64).base64EncodedString()) }
        #expect(throws: KeyError.notBase64) { try SigningKey(keyFileText: "not base64!") }
        #expect(KeyError.wrongLength(found: 64).description.contains("expanded"))
    }

    /// keyid = sha256(canonical key JSON): a fixed vector so a change in canonicalisation shows up.
    @Test func keyidIsTheHashOfTheCanonicalKey() throws {
        let key = TUFKey(keytype: "ed25519", scheme: "ed25519", publicValue: String(repeating: "0", count: 64))
        let canonical = #"{"keytype":"ed25519","keyval":{"public":"0000000000000000000000000000000000000000000000000000000000000000"},"scheme":"ed25519"}"#
        #expect(key.keyid == SHA256Hasher.hex(of: Array(canonical.utf8)))
    }

    /// python-tuf (securesystemslib) verifies what we sign, and computes the same keyid.
    @Test func pythonVerifiesOurSignature() throws {
        guard let python = try requirePythonModule("tuf") else { return }
        let key = SigningKey.generate()
        let envelope = try SignedEnvelope(signing: Self.targets(), with: [key])
        let keyJSON = String(decoding: CanonicalJSON.encode(try JSONValue(encoding: key.publicKey)), as: UTF8.self)
        let script = """
            import sys, json
            from tuf.api.metadata import Metadata, Key
            md = Metadata.from_bytes(sys.stdin.buffer.read())
            key = Key.from_dict("\(key.keyid)", json.loads('\(keyJSON)'))
            key.verify_signature(md.signatures["\(key.keyid)"], md.signed_bytes)
            print(md.signed.version)
            """
        let result = try runPython(python, arguments: ["-c", script], stdin: envelope.bytes)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "3")
    }
}

@Suite struct ReleaseRecordTests {
    /// Notes with newlines and quotes survive the file form and decode back (regression: decoding
    /// through the canonical form fed raw control characters to JSONDecoder).
    @Test func recordsWithControlCharactersRoundTrip() throws {
        let record = ReleaseRecord(
            channel: "production", releaseCounter: 7, fingerprint: "build-1", rolloutPercent: 25, mandatory: true,
            notes: "line 1\nline \"2\"\t", cohort: "beta", disabled: false,
            module: ModuleArtifact(path: ReleasePaths.module(sha256: String(repeating: "a", count: 64)), sha256: String(repeating: "a", count: 64), length: 10, compressedLength: 9),
            diffs: [], createdAt: "2026-01-01T00:00:00Z", action: .publish)
        let bytes = CanonicalJSON.serialize(try JSONValue(encoding: record))
        #expect(try JSONValue.parse(bytes).decode(ReleaseRecord.self) == record)
        #expect(record.version == "7-aaaaaaaaaaaa")
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""rollout_percent":25"#))
    }

    @Test func fieldValidationKeepsNamesPathSafe() {
        #expect(throws: ReleaseFieldError.invalidChannel("../x")) { try ReleaseRecord.validate(channel: "../x") }
        #expect(throws: ReleaseFieldError.invalidChannel("Prod")) { try ReleaseRecord.validate(channel: "Prod") }
        #expect(throws: ReleaseFieldError.rolloutOutOfRange(101)) { try ReleaseRecord.validate(rolloutPercent: 101) }
        #expect(throws: ReleaseFieldError.invalidFingerprint("a b")) { try ReleaseRecord.validate(fingerprint: "a b") }
        #expect(throws: Never.self) {
            try ReleaseRecord.validate(channel: "staging-2.eu_west")
            try ReleaseRecord.validate(cohort: "Beta_1")
        }
    }
}

@Suite struct ECDSAVerificationTests {
    /// ecdsa-sha2-nistp256 keys (PEM public key, hex DER signature, as securesystemslib writes them)
    /// count toward a threshold like ed25519 ones.
    @Test func p256SignaturesVerify() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = TUFKey(keytype: "ecdsa", scheme: "ecdsa-sha2-nistp256", publicValue: privateKey.publicKey.pemRepresentation)
        var root = RootMetadata(version: 1, expires: "2030-01-01T00:00:00Z", keys: [key.keyid: key], roles: ["targets": RoleKeys(keyids: [key.keyid], threshold: 1)])
        let signed = try JSONValue(encoding: TargetsMetadata(version: 1, expires: "2030-01-01T00:00:00Z", targets: [:]))
        let signature = try privateKey.signature(for: CanonicalJSON.encode(signed))
        let envelope = SignedEnvelope(signed: signed, signatures: [TUFSignature(keyid: key.keyid, sig: Hex.encode([UInt8](signature.derRepresentation)))])
        try envelope.verifySignatures(for: .targets, trustedBy: root)
        // A signature over other bytes does not count.
        let other = try privateKey.signature(for: Array("other".utf8))
        let forged = SignedEnvelope(signed: signed, signatures: [TUFSignature(keyid: key.keyid, sig: Hex.encode([UInt8](other.derRepresentation)))])
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 0, threshold: 1)) {
            try forged.verifySignatures(for: .targets, trustedBy: root)
        }
        root.roles["targets"]?.threshold = 2
        #expect(throws: MetadataError.thresholdNotMet(role: .targets, valid: 1, threshold: 2)) {
            try envelope.verifySignatures(for: .targets, trustedBy: root)
        }
    }
}
