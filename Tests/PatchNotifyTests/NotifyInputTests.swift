import Crypto
import Foundation
import Testing
@testable import PatchNotify

@Suite struct SilentPushTests {
    @Test func payloadIsSmallSortedJSON() throws {
        let bytes = try SilentPush(app: "demo", channel: "production", version: "3-0123456789ab").payload()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"aps":{"content-available":1},"patch":{"app":"demo","channel":"production","version":"3-0123456789ab"}}"#)
        let noApp = try SilentPush(app: nil, channel: "beta", version: "1-ab").payload()
        #expect(String(decoding: noApp, as: UTF8.self) == #"{"aps":{"content-available":1},"patch":{"channel":"beta","version":"1-ab"}}"#)
    }

    @Test func payloadOverAPNsLimitIsRefused() {
        #expect(throws: NotifyError.payloadTooLarge(bytes: 4180)) {
            try SilentPush(app: "demo", channel: String(repeating: "c", count: 4096), version: "1-ab").payload()
        }
    }
}

@Suite struct ProviderTokenTests {
    static let key = P256.Signing.PrivateKey()
    static let credentials = APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", key: key, topic: "com.example.demo", environment: .production)

    static func decode(_ part: Substring) throws -> [String: Any] {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func jwtIsES256WithRawSignatureOverHeaderAndClaims() throws {
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let jwt = try ProviderToken.sign(Self.credentials, issuedAt: issued)
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3 && !jwt.contains("="))
        #expect(try Self.decode(parts[0]) as? [String: String] == ["alg": "ES256", "kid": "KEY1234567"])
        let claims = try Self.decode(parts[1])
        #expect(claims["iss"] as? String == "TEAM123456" && claims["iat"] as? Int == 1_800_000_000)
        var base64 = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let raw = try #require(Data(base64Encoded: base64))
        #expect(raw.count == 64, "r‖s, not DER")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(Self.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func tokenIsReusedUntilItsLifetimeThenReplaced() throws {
        let clock = Clock(Date(timeIntervalSince1970: 1_800_000_000))
        let provider = ProviderToken(credentials: Self.credentials, now: { clock.now })
        let first = try provider.current()
        clock.now += 49 * 60
        #expect(try provider.current() == first)
        clock.now += 60
        let second = try provider.current()
        #expect(second != first)
        // A rejected token is replaced once, however many requests saw it rejected.
        let replaced = try provider.replacing(second)
        #expect(replaced != second)
        #expect(try provider.replacing(second) == replaced)
        #expect(try provider.current() == replaced)
    }

    final class Clock: @unchecked Sendable {
        var now: Date
        init(_ now: Date) { self.now = now }
    }
}

@Suite struct CredentialsTests {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apns-credentials-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let p8 = P256.Signing.PrivateKey().pemRepresentation

    @Test func fileWithRelativeKeyAndEnvironmentOverrides() throws {
        _ = try Self.write("AuthKey_KEY1234567.p8", Self.p8)
        let file = try Self.write("apns.json", #"{"team_id":"TEAM123456","key_id":"KEY1234567","key_file":"AuthKey_KEY1234567.p8","topic":"com.example.demo","environment":"sandbox"}"#)
        let credentials = try APNsCredentials.load(file: file, environment: [:], home: "/nonexistent")
        #expect(credentials.teamID == "TEAM123456" && credentials.topic == "com.example.demo" && credentials.environment == .sandbox)
        #expect(credentials.environment.endpoint.absoluteString == "https://api.sandbox.push.apple.com")
        let overridden = try APNsCredentials.load(file: file, environment: ["PATCHCLI_APNS_TOPIC": "com.example.other", "PATCHCLI_APNS_ENVIRONMENT": "production"], home: "/nonexistent")
        #expect(overridden.topic == "com.example.other" && overridden.environment == .production)
    }

    @Test func environmentAloneWithTheKeyText() throws {
        let env = ["PATCHCLI_APNS_TEAM_ID": "TEAM123456", "PATCHCLI_APNS_KEY_ID": "KEY1234567", "PATCHCLI_APNS_KEY": Self.p8, "PATCHCLI_APNS_TOPIC": "com.example.demo"]
        #expect(APNsCredentials.isConfigured(file: nil, environment: env))
        #expect(!APNsCredentials.isConfigured(file: nil, environment: ["HOME": "/root"]))
        let credentials = try APNsCredentials.load(file: nil, environment: env, home: "/")
        #expect(credentials.environment == .production)
    }

    @Test func badInputNamesTheFieldAndWhere() throws {
        let base = ["PATCHCLI_APNS_TEAM_ID": "TEAM123456", "PATCHCLI_APNS_KEY_ID": "KEY1234567", "PATCHCLI_APNS_KEY": Self.p8, "PATCHCLI_APNS_TOPIC": "com.example.demo"]
        func failure(_ changes: [String: String?]) -> NotifyError? {
            var env = base
            for (name, value) in changes { env[name] = value }
            do throws(NotifyError) { _ = try APNsCredentials.load(file: nil, environment: env, home: "/"); return nil } catch { return error }
        }
        #expect(failure(["PATCHCLI_APNS_TOPIC": nil]) == .credentialMissing(field: "topic", searched: "the PATCHCLI_APNS_* variables"))
        guard case let .credentialInvalid(source, reason)? = failure(["PATCHCLI_APNS_KEY_ID": "KEY123"]) else { Issue.record("short key id accepted"); return }
        #expect(source == "PATCHCLI_APNS_KEY_ID" && reason.contains("10 upper-case letters and digits") && reason.contains("(6 characters)"))
        guard case let .credentialInvalid(keySource, keyReason)? = failure(["PATCHCLI_APNS_KEY": "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n"]) else { Issue.record("bad key accepted"); return }
        #expect(keySource == "PATCHCLI_APNS_KEY" && keyReason.contains("PKCS#8 P-256"))
        guard case .credentialInvalid(_, let otherCurve)? = failure(["PATCHCLI_APNS_KEY": Self.ed25519PEM]) else { Issue.record("a non-P-256 key accepted"); return }
        #expect(otherCurve.contains("not an APNs auth key"))
        guard case .credentialInvalid("PATCHCLI_APNS_ENVIRONMENT", _)? = failure(["PATCHCLI_APNS_ENVIRONMENT": "staging"]) else { Issue.record("bad environment accepted"); return }
    }

    @Test func malformedCredentialsFileSaysWhatIsExpected() throws {
        let file = try Self.write("broken.json", #"{"team_id": 12}"#)
        guard case let .credentialInvalid(source, reason)? = { () -> NotifyError? in
            do throws(NotifyError) { _ = try APNsCredentials.load(file: file, environment: [:], home: "/"); return nil } catch { return error }
        }() else { Issue.record("accepted"); return }
        #expect(source == file && reason.contains("team_id"))
    }

    /// A PKCS#8 key of another curve (Ed25519, `openssl genpkey -algorithm ed25519`), as a wrong
    /// file picked by mistake would be.
    static let ed25519PEM = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIN+Zhax7DgGoirVTJnnHaSqk5onNyiQBHmppccp+J2sJ\n-----END PRIVATE KEY-----\n"
}

@Suite struct DeviceTokenFileTests {
    @Test func oneHexTokenPerLineWithCommentsAndDuplicates() throws {
        let a = String(repeating: "ab", count: 32), b = String(repeating: "0F", count: 32)
        let tokens = try DeviceTokens.parse("# test devices\n\(a)\n\n  \(b)  \n\(a)\n", source: "tokens.txt")
        #expect(tokens == [a, b.lowercased()])
    }

    @Test func aTokenThatIsNotHexIsReportedWithItsLine() {
        #expect(throws: NotifyError.deviceTokenInvalid(source: "tokens.txt", line: 2, reason: #""\#(String(repeating: "a", count: 63))z" is not a hex device token ("z" is not a hex digit)"#)) {
            try DeviceTokens.parse(String(repeating: "a", count: 64) + "\n" + String(repeating: "a", count: 63) + "z\n", source: "tokens.txt")
        }
        #expect(throws: NotifyError.self) { try DeviceTokens.parse("abc\n", source: "t") }
    }
}
