import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// What one notification run did (docs/triggers.md "Errors"): `sent` APNs accepted; `invalid`
/// tokens APNs says no longer reach a device (drop them); `failed` deliveries that still failed
/// after the retries; `retried` how many requests were sent again (429, 5xx, a lost connection).
public struct NotifySummary: Codable, Equatable, Sendable {
    public struct InvalidToken: Codable, Equatable, Sendable {
        public var token: String
        public var status: Int
        /// APNs' reason: BadDeviceToken, Unregistered, DeviceTokenNotForTopic.
        public var reason: String
        /// For 410 Unregistered: when APNs learnt the token stopped being valid (milliseconds since
        /// 1970), so a token registered again after it can be kept.
        public var timestamp: Int64?
    }

    public struct Failure: Codable, Equatable, Sendable {
        public var token: String
        /// The HTTP status, or nil when no response came (connection, TLS, timeout).
        public var status: Int?
        public var reason: String
    }

    public var sent: Int = 0
    public var invalid: [InvalidToken] = []
    public var failed: [Failure] = []
    public var retried: Int = 0

    public init(sent: Int = 0, invalid: [InvalidToken] = [], failed: [Failure] = [], retried: Int = 0) {
        self.sent = sent
        self.invalid = invalid
        self.failed = failed
        self.retried = retried
    }
}

/// Exponential backoff with full jitter for 429 and 5xx: the n-th retry waits a random time in
/// 0…min(cap, base·2ⁿ), at most `maximumRetries` times per device.
public struct RetryPolicy: Sendable {
    public var base: TimeInterval
    public var cap: TimeInterval
    public var maximumRetries: Int

    public static let standard = RetryPolicy(base: 1, cap: 30, maximumRetries: 5)

    public init(base: TimeInterval, cap: TimeInterval, maximumRetries: Int) {
        self.base = base
        self.cap = cap
        self.maximumRetries = maximumRetries
    }

    func delay(retry: Int) -> TimeInterval {
        Double.random(in: 0...min(cap, base * pow(2, Double(retry))))
    }
}

/// Sends one payload to many device tokens over one HTTP/2 connection to APNs
/// (`POST /3/device/<token>`, `apns-push-type: background`, `apns-priority: 5`), with APNs'
/// documented error handling: invalid tokens reported, 429 and 5xx retried with backoff, a refused
/// provider token replaced once and then a credentials error.
public struct APNsSender: Sendable {
    public var credentials: APNsCredentials
    /// The APNs base URL: the credentials' environment, or a mock/proxy (`--apns-endpoint`).
    public var endpoint: URL
    /// PEM file of the CA certificates to trust instead of the system's (a mock APNs in tests).
    public var trustedCAFile: String?
    public var retry: RetryPolicy
    /// Requests in flight at once: streams multiplexed on the one connection.
    public var concurrency: Int
    public var requestTimeout: TimeAmount = .seconds(30)
    /// How long a connection may take to open, TLS included. The client keeps trying within it, so
    /// a server whose certificate is not trusted costs this long per attempt.
    public var connectTimeout: TimeAmount = .seconds(10)

    public init(credentials: APNsCredentials, endpoint: URL? = nil, trustedCAFile: String? = nil, retry: RetryPolicy = .standard, concurrency: Int = 16) {
        self.credentials = credentials
        self.endpoint = endpoint ?? credentials.environment.endpoint
        self.trustedCAFile = trustedCAFile
        self.retry = retry
        self.concurrency = max(1, concurrency)
    }

    /// Sends `payload` to every token. Throws only for what stops every delivery (credentials APNs
    /// refuses, an unusable endpoint); per-device outcomes are in the summary.
    public func send(_ payload: [UInt8], to tokens: [String], providerToken: ProviderToken) async throws(NotifyError) -> NotifySummary {
        guard payload.count <= SilentPush.maximumPayloadBytes else { throw .payloadTooLarge(bytes: payload.count) }
        guard endpoint.scheme == "https", endpoint.host != nil else {
            throw .endpointInvalid("the APNs endpoint must be an https:// URL, got \(endpoint.absoluteString)")
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustedCAFile {
            guard FileManager.default.isReadableFile(atPath: trustedCAFile) else { throw .endpointInvalid("the CA file \(trustedCAFile) cannot be read") }
            tls.trustRoots = .file(trustedCAFile)
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: connectTimeout, read: requestTimeout))
        // ALPN offers h2 (and http/1.1, which `post` refuses: APNs speaks HTTP/2 only).
        configuration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)

        let outcome: Result<NotifySummary, NotifyError>
        do throws(NotifyError) {
            outcome = .success(try await deliverAll(payload, tokens: tokens, client: client, providerToken: providerToken))
        } catch {
            outcome = .failure(error)
        }
        try? await client.shutdown()
        return try outcome.get()
    }

    private func deliverAll(_ payload: [UInt8], tokens: [String], client: HTTPClient, providerToken: ProviderToken) async throws(NotifyError) -> NotifySummary {
        let results: [Delivery]
        do {
            results = try await withThrowingTaskGroup(of: Delivery.self) { group in
                var collected: [Delivery] = []
                var pending = tokens.makeIterator()
                func startNext() -> Bool {
                    guard let token = pending.next() else { return false }
                    group.addTask { try await self.deliver(payload, to: token, client: client, providerToken: providerToken) }
                    return true
                }
                for _ in 0..<concurrency where !startNext() { break }
                while let delivery = try await group.next() {
                    collected.append(delivery)
                    _ = startNext()
                }
                return collected
            }
        } catch {
            // `deliver` throws nothing else; the group's closure only erases the type.
            guard let error = error as? NotifyError else { preconditionFailure("unexpected \(error)") }
            throw error
        }
        var summary = NotifySummary()
        for delivery in results {
            summary.retried += delivery.retries
            switch delivery.outcome {
            case .sent: summary.sent += 1
            case let .invalid(token): summary.invalid.append(token)
            case let .failed(failure): summary.failed.append(failure)
            }
        }
        summary.invalid.sort { $0.token < $1.token }
        summary.failed.sort { $0.token < $1.token }
        return summary
    }

    struct Delivery: Sendable {
        enum Outcome: Sendable {
            case sent
            case invalid(NotifySummary.InvalidToken)
            case failed(NotifySummary.Failure)
        }
        var outcome: Outcome
        var retries: Int
    }

    /// One device: send, and act on APNs' answer (its documented status codes and reasons).
    func deliver(_ payload: [UInt8], to token: String, client: HTTPClient, providerToken: ProviderToken) async throws(NotifyError) -> Delivery {
        var retries = 0
        var replacedProviderToken = false
        var jwt = try providerToken.current()
        while true {
            let answer: Answer
            do {
                answer = try await post(payload, to: token, jwt: jwt, client: client)
            } catch {
                guard retries < retry.maximumRetries, !(error is HTTP2Required), await pause(before: retries) else {
                    return Delivery(outcome: .failed(.init(token: token, status: nil, reason: Self.describe(error))), retries: retries)
                }
                retries += 1
                continue
            }
            switch (answer.status, answer.reason) {
            case (200, _):
                return Delivery(outcome: .sent, retries: retries)
            case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"), (410, _):
                return Delivery(outcome: .invalid(.init(token: token, status: answer.status, reason: answer.reason ?? "Unregistered", timestamp: answer.timestamp)), retries: retries)
            case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"):
                guard !replacedProviderToken else { throw .credentialsRejected(status: 403, reason: answer.reason ?? "") }
                jwt = try providerToken.replacing(jwt)
                replacedProviderToken = true
            case (403, let reason):
                throw .credentialsRejected(status: 403, reason: reason ?? "Forbidden")
            case (400, let reason?) where Self.credentialReasons.contains(reason):
                throw .credentialsRejected(status: 400, reason: reason)
            case (429, _), (500...599, _):
                guard retries < retry.maximumRetries, await pause(before: retries) else {
                    return Delivery(outcome: .failed(.init(token: token, status: answer.status, reason: answer.reason ?? "HTTP \(answer.status)")), retries: retries)
                }
                retries += 1
            default:
                // 413 PayloadTooLarge, other 400s (a request patchcli built wrong), 404, 405: sending
                // again would get the same answer.
                return Delivery(outcome: .failed(.init(token: token, status: answer.status, reason: answer.reason ?? "HTTP \(answer.status)")), retries: retries)
            }
        }
    }

    /// Waits the backoff before retry number `retries` + 1; false when the run was cancelled (another
    /// device's credentials error stopped it), so the device is reported as not sent.
    private func pause(before retries: Int) async -> Bool {
        do { try await Task.sleep(for: .seconds(retry.delay(retry: retries))) } catch { return false }
        return !Task.isCancelled
    }

    /// 400 reasons about the team's configuration rather than one device: every push would fail.
    static let credentialReasons: Set<String> = ["BadTopic", "MissingTopic", "TopicDisallowed", "MissingProviderToken", "BadCertificateEnvironment"]

    struct Answer {
        var status: Int
        var reason: String?
        var timestamp: Int64?
    }

    private struct ErrorBody: Decodable {
        var reason: String?
        var timestamp: Int64?
    }

    func post(_ payload: [UInt8], to token: String, jwt: String, client: HTTPClient) async throws -> Answer {
        var request = HTTPClientRequest(url: endpoint.appendingPathComponent("3/device/\(token)").absoluteString)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: credentials.topic)
        request.headers.add(name: "apns-push-type", value: "background")
        // Background pushes must be priority 5: APNs refuses 10 for them.
        request.headers.add(name: "apns-priority", value: "5")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(payload)
        let response = try await client.execute(request, timeout: requestTimeout)
        let body = try await response.body.collect(upTo: 64 << 10)
        guard response.version.major == 2 else { throw HTTP2Required(version: "\(response.version)") }
        guard response.status.code != 200 else { return Answer(status: 200) }
        let error = try? JSONDecoder().decode(ErrorBody.self, from: Data(Array(buffer: body)))
        return Answer(status: Int(response.status.code), reason: error?.reason, timestamp: error?.timestamp)
    }

    struct HTTP2Required: Error, CustomStringConvertible {
        var version: String
        var description: String { "the endpoint answered over \(version); APNs speaks HTTP/2 only" }
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? HTTP2Required { return error.description }
        return String(describing: error)
    }
}
