import APNsTestServer
import Crypto
import Foundation
import NIOCore
import Testing
@testable import PatchNotify

/// `APNsSender` against a real HTTP/2 server on loopback (`MockAPNs`) that checks the provider
/// token's ES256 signature with the team key's public half, the headers and the payload, and plays
/// APNs' error answers.
@Suite struct APNsSenderTests {
    static let key = P256.Signing.PrivateKey()
    static let credentials = APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", key: key, topic: "com.example.demo", environment: .sandbox)
    static let payload = try! SilentPush(app: "demo", channel: "production", version: "1-0123456789ab").payload()
    /// Retries in milliseconds, so the backoff tests stay fast; the delays are still random.
    static let quickRetry = RetryPolicy(base: 0.01, cap: 0.05, maximumRetries: 3)

    static func token(_ n: Int) -> String { String(format: "%064x", n) }

    @discardableResult
    static func withMock<T>(script: [String: [MockAPNs.Reply]] = [:], expireProviderTokens: Int = 0, topic: String = "com.example.demo",
                            _ body: (MockAPNs, APNsSender) async throws -> T) async throws -> T {
        let mock = try MockAPNs(teamID: credentials.teamID, keyID: credentials.keyID, publicKey: key.publicKey, topic: topic,
                                script: script, expireProviderTokens: expireProviderTokens)
        defer { mock.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sender = APNsSender(credentials: credentials, endpoint: URL(string: mock.endpoint), trustedCAFile: try MockAPNs.writeCA(in: folder), retry: quickRetry)
        return try await body(mock, sender)
    }

    @Test func sendsOnePushPerTokenWithOneProviderToken() async throws {
        try await Self.withMock { mock, sender in
            let tokens = (1...5).map(Self.token)
            let summary = try await sender.send(Self.payload, to: tokens, providerToken: ProviderToken(credentials: Self.credentials))
            #expect(summary == NotifySummary(sent: 5))
            let received = mock.received
            #expect(Set(received.map(\.token)) == Set(tokens))
            #expect(received.allSatisfy { $0.status == 200 && $0.payload == Self.payload })
            #expect(received.allSatisfy { $0.headers["apns-push-type"] == "background" && $0.headers["apns-priority"] == "5" && $0.headers["apns-topic"] == "com.example.demo" })
            // Signed once, reused by every request (APNs throttles token updates).
            #expect(Set(received.compactMap(\.providerToken)).count == 1)
        }
    }

    @Test func reportsInvalidTokensWithAPNsReasons() async throws {
        let script: [String: [MockAPNs.Reply]] = [
            Self.token(2): [.error(status: 410, reason: "Unregistered", timestamp: 1_790_000_000_000)],
            Self.token(3): [.error(status: 400, reason: "BadDeviceToken")],
        ]
        try await Self.withMock(script: script) { _, sender in
            let summary = try await sender.send(Self.payload, to: (1...3).map(Self.token), providerToken: ProviderToken(credentials: Self.credentials))
            #expect(summary.sent == 1)
            #expect(summary.invalid == [
                .init(token: Self.token(2), status: 410, reason: "Unregistered", timestamp: 1_790_000_000_000),
                .init(token: Self.token(3), status: 400, reason: "BadDeviceToken", timestamp: nil),
            ])
            #expect(summary.failed.isEmpty && summary.retried == 0)
        }
    }

    @Test func retriesTooManyRequestsAndUnavailableThenSends() async throws {
        let script: [String: [MockAPNs.Reply]] = [
            Self.token(1): [.error(status: 429, reason: "TooManyRequests")],
            Self.token(2): [.error(status: 503, reason: "ServiceUnavailable"), .error(status: 503, reason: "ServiceUnavailable")],
        ]
        try await Self.withMock(script: script) { mock, sender in
            let summary = try await sender.send(Self.payload, to: [Self.token(1), Self.token(2)], providerToken: ProviderToken(credentials: Self.credentials))
            #expect(summary == NotifySummary(sent: 2, retried: 3))
            #expect(mock.received.map(\.status).sorted() == [200, 200, 429, 503, 503])
        }
    }

    @Test func retriesAreBoundedThenReportedAsFailed() async throws {
        let busy = Array(repeating: MockAPNs.Reply.error(status: 429, reason: "TooManyRequests"), count: 10)
        try await Self.withMock(script: [Self.token(1): busy, Self.token(2): [.error(status: 413, reason: "PayloadTooLarge")]]) { mock, sender in
            let summary = try await sender.send(Self.payload, to: [Self.token(1), Self.token(2)], providerToken: ProviderToken(credentials: Self.credentials))
            #expect(summary.sent == 0)
            #expect(summary.failed == [
                .init(token: Self.token(1), status: 429, reason: "TooManyRequests"),
                .init(token: Self.token(2), status: 413, reason: "PayloadTooLarge"),
            ])
            // 413 is not retried: the same payload gets the same answer.
            #expect(summary.retried == Self.quickRetry.maximumRetries)
            #expect(mock.received.count == Self.quickRetry.maximumRetries + 2)
        }
    }

    @Test func expiredProviderTokenIsReplacedOnceForAllRequests() async throws {
        try await Self.withMock(expireProviderTokens: 1) { mock, sender in
            let summary = try await sender.send(Self.payload, to: (1...4).map(Self.token), providerToken: ProviderToken(credentials: Self.credentials))
            #expect(summary == NotifySummary(sent: 4))
            let tokens = mock.received.compactMap(\.providerToken)
            #expect(Set(tokens).count == 2, "one rejected token, one replacement shared by every request")
            #expect(mock.received.filter { $0.status == 200 }.count == 4)
        }
    }

    @Test func refusedCredentialsAfterOneRefreshAreACredentialsError() async throws {
        try await Self.withMock(expireProviderTokens: 100) { mock, sender in
            await #expect(throws: NotifyError.credentialsRejected(status: 403, reason: "ExpiredProviderToken")) {
                try await sender.send(Self.payload, to: [Self.token(1)], providerToken: ProviderToken(credentials: Self.credentials))
            }
            #expect(mock.received.count == 2)
        }
    }

    @Test func aKeyAPNsDoesNotKnowIsRefused() async throws {
        try await Self.withMock { mock, sender in
            var wrong = sender
            wrong.credentials.key = P256.Signing.PrivateKey()
            await #expect(throws: NotifyError.credentialsRejected(status: 403, reason: "InvalidProviderToken")) {
                try await wrong.send(Self.payload, to: [Self.token(1)], providerToken: ProviderToken(credentials: wrong.credentials))
            }
            #expect(mock.received.map(\.reason) == ["InvalidProviderToken", "InvalidProviderToken"])
        }
    }

    @Test func aTopicTheKeyMayNotSendToIsACredentialsError() async throws {
        try await Self.withMock(topic: "com.example.other") { _, sender in
            await #expect(throws: NotifyError.credentialsRejected(status: 400, reason: "TopicDisallowed")) {
                try await sender.send(Self.payload, to: [Self.token(1)], providerToken: ProviderToken(credentials: Self.credentials))
            }
        }
    }

    @Test func anUntrustedServerIsNeverSentTo() async throws {
        try await Self.withMock { mock, sender in
            var untrusting = sender
            untrusting.trustedCAFile = nil
            untrusting.retry = RetryPolicy(base: 0.01, cap: 0.01, maximumRetries: 1)
            untrusting.connectTimeout = .milliseconds(500)
            let summary = try await untrusting.send(Self.payload, to: [Self.token(1)], providerToken: ProviderToken(credentials: Self.credentials))
            #expect(summary.sent == 0 && summary.failed.count == 1 && summary.failed[0].status == nil)
            #expect(mock.received.isEmpty)
        }
    }
}
