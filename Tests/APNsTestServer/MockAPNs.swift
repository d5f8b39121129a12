import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// A mock APNs for tests: a real HTTP/2 server over TLS (ALPN h2 only) on a loopback port, with the
/// committed test CA's certificate (`TestCertificates`). It checks what a provider sends as APNs
/// does — the ES256 provider token's signature (with the team key's public half), `kid`, `iss` and
/// `iat`; `apns-topic`, `apns-push-type: background`, `apns-priority: 5`; the payload's size and
/// `aps.content-available` — answers with APNs' status codes and `{"reason":…}` bodies, and records
/// every request. Scripted answers per device token play the error cases.
public final class MockAPNs: Sendable {
    public enum Reply: Sendable, Equatable {
        case ok
        /// An APNs error: its status, reason and (for 410) timestamp in milliseconds.
        case error(status: Int, reason: String, timestamp: Int64? = nil)
    }

    /// One request as received, with the status the mock answered.
    public struct Received: Sendable {
        public var token: String
        public var headers: [String: String]
        public var payload: [UInt8]
        public var providerToken: String?
        public var status: Int
        public var reason: String?
    }

    public let port: Int
    /// The base URL to send to (the certificate names 127.0.0.1 and localhost).
    public var endpoint: String { "https://127.0.0.1:\(port)" }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let ledger: Ledger

    /// `script`: the answers for a token, in order (then 200s). `expireProviderTokens`: the first
    /// that many distinct provider tokens are answered 403 ExpiredProviderToken, as APNs answers a
    /// token older than an hour.
    public init(teamID: String, keyID: String, publicKey: P256.Signing.PublicKey, topic: String,
                script: [String: [Reply]] = [:], expireProviderTokens: Int = 0) throws {
        let ledger = Ledger(script: script, expireProviderTokens: expireProviderTokens)
        self.ledger = ledger
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(TestCertificates.serverPEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(TestCertificates.serverKeyPEM.utf8), format: .pem)))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let responder = Responder(teamID: teamID, keyID: keyID, publicKey: publicKey, topic: topic)
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server, inboundStreamInitializer: { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([
                                HTTP2FramePayloadToHTTP1ServerCodec(), StreamHandler(respond: { head, body in ledger.answer(head, body, responder) }),
                            ])
                        }
                    }).map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// Every request so far, in arrival order.
    public var received: [Received] { ledger.state.withLock { $0.received } }

    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Writes the test CA's certificate to `directory` and returns its path (`--apns-ca`).
    public static func writeCA(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("mock-apns-ca.pem")
        try Data(TestCertificates.caPEM.utf8).write(to: url)
        return url.path
    }
}

/// What the mock has received and has still to play, shared by every stream's handler.
private final class Ledger: Sendable {
    struct State {
        var script: [String: [MockAPNs.Reply]]
        var expireProviderTokens: Int
        var expired: Set<String> = []
        var received: [MockAPNs.Received] = []
    }

    let state: Mutex<State>

    init(script: [String: [MockAPNs.Reply]], expireProviderTokens: Int) {
        state = Mutex(State(script: script, expireProviderTokens: expireProviderTokens))
    }

    /// The checks a request passes, in APNs' order, then the script's answer.
    func answer(_ head: HTTPRequestHead, _ body: [UInt8], _ responder: Responder) -> (Int, String?, Int64?) {
        let headers = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let path = head.uri.split(separator: "/").map(String.init)
        let token = path.count == 3 && path[0] == "3" && path[1] == "device" ? path[2] : ""
        let jwt = headers["authorization"].flatMap { $0.hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
        let checked = responder.check(method: head.method, token: token, headers: headers, jwt: jwt, body: body)
        return state.withLock { state in
            var reply: (Int, String?, Int64?) = checked ?? (200, nil, nil)
            if checked == nil, let jwt {
                if state.expired.contains(jwt) || state.expired.count < state.expireProviderTokens {
                    state.expired.insert(jwt)
                    reply = (403, "ExpiredProviderToken", nil)
                } else if var queue = state.script[token], !queue.isEmpty {
                    if case let .error(status, reason, timestamp) = queue.removeFirst() { reply = (status, reason, timestamp) }
                    state.script[token] = queue
                }
            }
            state.received.append(MockAPNs.Received(token: token, headers: headers, payload: body, providerToken: jwt, status: reply.0, reason: reply.1))
            return reply
        }
    }
}

/// APNs' request checks, each answered with APNs' status and reason.
private struct Responder: Sendable {
    var teamID: String
    var keyID: String
    var publicKey: P256.Signing.PublicKey
    var topic: String

    func check(method: HTTPMethod, token: String, headers: [String: String], jwt: String?, body: [UInt8]) -> (Int, String?, Int64?)? {
        guard method == .POST else { return (405, "MethodNotAllowed", nil) }
        guard !token.isEmpty else { return (404, "BadPath", nil) }
        guard let jwt else { return (403, "MissingProviderToken", nil) }
        if let problem = verify(jwt) { return (403, problem, nil) }
        guard let sentTopic = headers["apns-topic"] else { return (400, "MissingTopic", nil) }
        guard sentTopic == topic else { return (400, "TopicDisallowed", nil) }
        guard headers["apns-push-type"] == "background" else { return (400, "InvalidPushType", nil) }
        guard headers["apns-priority"] == "5" else { return (400, "BadPriority", nil) }
        guard token.count == 64, token.allSatisfy(\.isHexDigit) else { return (400, "BadDeviceToken", nil) }
        guard !body.isEmpty else { return (400, "PayloadEmpty", nil) }
        guard body.count <= 4096 else { return (413, "PayloadTooLarge", nil) }
        guard let payload = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let aps = payload["aps"] as? [String: Any], aps["content-available"] as? Int == 1
        else { return (400, "BadPayload", nil) }
        return nil
    }

    /// nil when the provider token is one APNs accepts; else APNs' reason.
    func verify(_ jwt: String) -> String? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = Self.json(parts[0]), let claims = Self.json(parts[1]),
              let signature = Self.base64URLDecode(parts[2])
        else { return "InvalidProviderToken" }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyID, claims["iss"] as? String == teamID,
              let issued = claims["iat"] as? Int
        else { return "InvalidProviderToken" }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
              publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "InvalidProviderToken" }
        guard abs(Date().timeIntervalSince1970 - Double(issued)) < 3600 else { return "ExpiredProviderToken" }
        return nil
    }

    static func json(_ part: String) -> [String: Any]? {
        base64URLDecode(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

/// One HTTP/2 stream, seen as HTTP/1 parts: collects the request, answers once it ends.
private final class StreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let respond: (HTTPRequestHead, [UInt8]) -> (Int, String?, Int64?)
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(respond: @escaping (HTTPRequestHead, [UInt8]) -> (Int, String?, Int64?)) { self.respond = respond }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(received): head = received
        case var .body(buffer): body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let (status, reason, timestamp) = respond(head, body)
            var json: [UInt8] = []
            if let reason {
                json = Array((timestamp.map { #"{"reason":"\#(reason)","timestamp":\#($0)}"# } ?? #"{"reason":"\#(reason)"}"#).utf8)
            }
            var headers = HTTPHeaders([("apns-id", UUID().uuidString), ("content-length", "\(json.count)")])
            if !json.isEmpty { headers.add(name: "content-type", value: "application/json") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: HTTPResponseStatus(statusCode: status), headers: headers))), promise: nil)
            if !json.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: json)))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

/// A team's APNs auth key as Apple issues it, for tests: the .p8 text (PKCS#8 PEM of a P-256 key)
/// and the ids that go with it.
public struct TestTeam: Sendable {
    public let teamID = "TEAM123456"
    public let keyID = "KEY1234567"
    public let topic = "com.example.demo"
    public let key = P256.Signing.PrivateKey()

    public init() {}

    public var p8: String { key.pemRepresentation }

    /// A credentials file (docs/triggers.md) in `directory` with its .p8 beside it; returns its path.
    public func writeCredentials(in directory: URL, environment: String = "sandbox") throws -> String {
        try Data(p8.utf8).write(to: directory.appendingPathComponent("AuthKey_\(keyID).p8"))
        let file = directory.appendingPathComponent("apns.json")
        try Data(#"{"team_id":"\#(teamID)","key_id":"\#(keyID)","key_file":"AuthKey_\#(keyID).p8","topic":"\#(topic)","environment":"\#(environment)"}"#.utf8).write(to: file)
        return file.path
    }
}

extension MockAPNs {
    public convenience init(team: TestTeam, script: [String: [Reply]] = [:], expireProviderTokens: Int = 0) throws {
        try self.init(teamID: team.teamID, keyID: team.keyID, publicKey: team.key.publicKey, topic: team.topic, script: script, expireProviderTokens: expireProviderTokens)
    }
}
