import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import PatchManifest
import PatchStore

/// How `patchcli serve` answers; everything has a default but the store and the database.
public struct ServerConfiguration: Sendable {
    /// Where devices reach this server (or the CDN/load balancer in front of it), e.g.
    /// `https://updates.example.com`: the base of `module_url` and `diff_url`. When nil, the
    /// request's Host header is used with plain http, right for a server reached directly.
    public var publicURL: String?
    /// Check and event bodies above this are refused with 400 before they are parsed.
    public var maxBodyBytes: Int
    /// A connection on which nothing is being read or answered for this long is closed (before its
    /// first request too). Hummingbird's idle timeout.
    public var idleTimeout: Duration
    /// A request must be sent in full within this long of its first byte (the first byte of its
    /// answer stops the clock), or the connection is closed: what cuts off clients that dribble.
    public var requestTimeout: Duration
    /// An answer whose bytes the client does not take for this long (no write to its socket
    /// completes) has its connection closed: what cuts off clients that never read. The whole of
    /// one artifact is one write, so this is also the longest one artifact may take to download.
    public var writeTimeout: Duration
    /// At most this many connections are open at once; a new one past it replaces the connection
    /// idle longest, or gets a 503 `{"error":"overloaded",…}` and is closed when every one is in
    /// the middle of a request.
    public var maxConnections: Int
    /// The time expiry is checked against; tests move it.
    public var clock: @Sendable () -> Date
    /// Where each answered request gets its line (docs/serve.md "Request log"); nil logs nothing.
    public var requestLog: RequestLog?
    /// Where `GET /metrics` listens when it has a listener of its own (`serve --metrics-port`), so
    /// it need not be reachable where devices are; the update port then answers it 404. Nil serves
    /// it on the update port.
    public var metricsAddress: ListenAddress?
    /// A device that has not checked for this long has its slots forgotten (`DeviceForgetting`).
    public var forgetDevicesAfter: Duration
    /// Events (and refused checks, wasted diffs) received longer ago than this are deleted by the
    /// hourly sweep (`serve --events-retention`); nil keeps them all.
    public var eventsRetention: Duration?
    /// Where artifact and diff URLs point (`serve --artifact-base-url`): a CDN or object storage
    /// holding a copy of the store, whose files keep the store's relative paths
    /// (`targets/<dir>/<sha256>.<name>`). Nil: `publicURL` (or the Host header), this server.
    public var artifactBaseURL: String?

    public static let defaultIdleTimeout: Duration = .seconds(30)
    public static let defaultRequestTimeout: Duration = .seconds(10)
    public static let defaultWriteTimeout: Duration = .seconds(60)
    public static let defaultMaxConnections = 4096
    public static let defaultForgetDevicesAfter = DeviceForgetting.defaultAfter

    public init(
        publicURL: String? = nil, maxBodyBytes: Int = 16 << 10, idleTimeout: Duration = defaultIdleTimeout,
        requestTimeout: Duration = defaultRequestTimeout, writeTimeout: Duration = defaultWriteTimeout, maxConnections: Int = defaultMaxConnections,
        requestLog: RequestLog? = nil, metricsAddress: ListenAddress? = nil, forgetDevicesAfter: Duration = defaultForgetDevicesAfter,
        eventsRetention: Duration? = nil, artifactBaseURL: String? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.writeTimeout = writeTimeout
        self.maxConnections = maxConnections
        self.requestLog = requestLog
        self.metricsAddress = metricsAddress
        self.forgetDevicesAfter = forgetDevicesAfter
        self.eventsRetention = eventsRetention
        self.artifactBaseURL = artifactBaseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.clock = clock
    }
}

/// A host and port to listen on (port 0 picks a free one).
public struct ListenAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

/// The SDK's update protocol (sdk-contract §7.2–7.4) over a signed release store:
///
/// - `POST /api/v1/modules/check`: the release a device should run (fingerprint, channel, cohort,
///   rollout bucket), with `diff_url` when the store holds a diff from the content the device's
///   SDK will patch (its previous slot when it has one: `DeviceSlots`).
/// - `POST /api/v1/events`: device telemetry, appended to the event database.
/// - `GET /targets/<dir>/<sha256>.<name>`: artifacts, diffs and records exactly as the store holds
///   them, only when the current verified metadata lists that file with that hash, re-checked
///   against it on every read; immutable, so cacheable forever. A full module fetched right after
///   a diff to it on the same connection is a diff the device could not apply (`DiffFallbacks`).
/// - `GET /metrics`: counters and request durations in the Prometheus text format (`ServerMetrics`),
///   on the update port, or on a listener of its own when `configuration.metricsAddress` is set.
///
/// Every answered request gets a line in the request log, when there is one (`RequestObserver`).
///
/// Stateless over the store (see `StoreWatcher`): instances behind a load balancer agree, on diffs
/// too when they share one event store (the devices' slots live there): one SQLite file on one
/// machine, or one PostgreSQL database for replicas on many (`EventStore`).
public struct UpdateServer: Sendable {
    public let watcher: StoreWatcher
    public let events: any EventStore
    public let configuration: ServerConfiguration
    let metrics = ServerMetrics()
    let diffFallbacks = DiffFallbacks()
    let deviceForgetting = DeviceForgetting()

    public static let checkPath = "/api/v1/modules/check"
    public static let eventsPath = "/api/v1/events"
    public static let metricsPath = "/metrics"

    public init(store: ReleaseStore, events: any EventStore, configuration: ServerConfiguration = ServerConfiguration()) {
        self.init(watcher: StoreWatcher(store: store), events: events, configuration: configuration)
    }

    /// A server over a watcher set up by the caller (trusted-versions record, log).
    public init(watcher: StoreWatcher, events: any EventStore, configuration: ServerConfiguration = ServerConfiguration()) {
        self.watcher = watcher
        self.events = events
        self.configuration = configuration
        events.observeQueueWaits { [metrics] in metrics.queueWaited($0) }
    }

    /// What one listener answers: the update port, or the metrics port of `serve --metrics-port`.
    enum Listener: Sendable {
        case updates, metrics
    }

    /// The routes of a listener, each with the methods it answers: anything else is a JSON 404 or
    /// 405. `GET /metrics` is the metrics listener's (run only with a `metricsAddress`), else the
    /// update port's.
    func allowedMethods(forPath path: String, on listener: Listener) -> [HTTPRequest.Method] {
        let metricsHere = listener == .metrics || configuration.metricsAddress == nil
        if path == Self.metricsPath { return metricsHere ? [.get, .head] : [] }
        guard listener == .updates else { return [] }
        if path == Self.checkPath || path == Self.eventsPath { return [.post] }
        if path.hasPrefix("/targets/") || path.hasPrefix("/metadata/") { return [.get, .head] }
        return []
    }

    /// The update port's routes: check, events, artifacts, and `GET /metrics` unless it has a
    /// listener of its own (`metricsRouter`).
    public func router() -> Router<ServerRequestContext> {
        // HEAD on an artifact answers GET's status and headers (after the same checks) without the body.
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestObserver(log: configuration.requestLog, metrics: metrics))
        router.add(middleware: UnroutedRequests { allowedMethods(forPath: $0, on: .updates) })
        router.post(RouterPath(Self.checkPath)) { request, context in
            await respond { () async throws -> Response in
                let check = try RequestProblem.decode(UpdateCheckRequest.self, from: try await jsonBody(of: request))
                try check.validate()
                context.notes.note(appKey: check.appKey, deviceID: check.deviceID)
                let now = configuration.clock()
                let (decision, catalog, slots) = try await decide(check, now: now)
                if case .wrongAppKey = decision {
                    try await events.recordWrongAppKey(check, receivedAt: TUFTime.format(now))
                }
                let response = try updateResponse(decision, in: catalog, request: request)
                metrics.checked(decision, answer: response)
                if let (known, observed) = slots, catalog.hasReleases(for: check) {
                    var left = observed
                    left.offered = response.hasUpdate ? response.version : nil
                    if left != known?.slots || DeviceForgetting.mustRecordSeen(known?.seenAt, now: now) {
                        await bestEffort { try await events.saveDeviceSlots(left, deviceID: check.deviceID, appKey: check.appKey, at: TUFTime.format(now)) }
                    }
                }
                return try Self.encoded(.ok, response)
            }
        }
        router.post(RouterPath(Self.eventsPath)) { request, context in
            await respond { () async throws -> Response in
                let event = try RequestProblem.decode(DeviceEvent.self, from: try await jsonBody(of: request))
                try event.validate()
                context.notes.note(appKey: event.appKey, deviceID: event.deviceID)
                try await events.record(event, receivedAt: TUFTime.format(configuration.clock()))
                metrics.stored(event.eventType)
                return Self.json(.accepted, #"{"stored":true}"#)
            }
        }
        router.get("/targets/**") { request, context in
            await respond { () async throws -> Response in
                try await artifact(context.parameters.getCatchAll().joined(separator: "/"), request: request, connection: context.connection)
            }
        }
        router.get("/metadata/:file") { request, context in
            await respond { () async throws -> Response in
                try metadataFile(context.parameters.require("file"))
            }
        }
        if configuration.metricsAddress == nil { addMetricsRoute(to: router) }
        return router
    }

    /// The metrics listener's routes (run with `configuration.metricsAddress`): `GET /metrics` only.
    /// Its requests are logged and timed like the update port's (route `metrics`).
    public func metricsRouter() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestObserver(log: configuration.requestLog, metrics: metrics))
        router.add(middleware: UnroutedRequests { allowedMethods(forPath: $0, on: .metrics) })
        addMetricsRoute(to: router)
        return router
    }

    private func addMetricsRoute(to router: Router<ServerRequestContext>) {
        router.get(RouterPath(Self.metricsPath)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition(droppedLogLines: configuration.requestLog?.droppedLines, events: events))))
        }
    }

    /// At most this many connections to the metrics listener at once: it answers a scraper or two.
    static let metricsConnections = 64

    /// The server on `host:port` (port 0 picks a free one); `onRunning` gets the bound port.
    /// Each connection gets the idle, request and write timeouts, and all of them share one registry
    /// that holds their number to `maxConnections` (see `ConnectionRegistry`).
    public func application(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: router(),
            server: .http1(configuration: http1Configuration(maxConnections: configuration.maxConnections)),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "patchcli"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }

    /// The metrics listener on `host:port` (`configuration.metricsAddress`), with the update port's
    /// timeouts and a registry of its own: a flood of devices cannot crowd out the scraper.
    public func metricsApplication(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: metricsRouter(),
            server: .http1(configuration: http1Configuration(maxConnections: Self.metricsConnections)),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "patchcli"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }

    private func http1Configuration(maxConnections: Int) -> HTTP1Channel.Configuration {
        // One registry for the listener: the handlers argument is evaluated for each connection.
        let registry = ConnectionRegistry(limit: maxConnections)
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuardInstaller(
                registry: registry, requestTimeout: TimeAmount(configuration.requestTimeout), writeTimeout: TimeAmount(configuration.writeTimeout))],
            idleTimeout: TimeAmount(configuration.idleTimeout))
    }

    // MARK: - Handlers

    private func jsonBody(of request: Request) async throws -> Data {
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("application/json") else {
            throw RequestProblem(reason: "Content-Type must be application/json, got \(contentType.isEmpty ? "none" : contentType.prefix(64))")
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > configuration.maxBodyBytes {
            throw RequestProblem(reason: "the body is larger than \(configuration.maxBodyBytes) bytes")
        }
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: configuration.maxBodyBytes) } catch {
            throw RequestProblem(reason: "the body is larger than \(configuration.maxBodyBytes) bytes")
        }
        return Data(buffer.readableBytesView)
    }

    /// The decision for a check, with a diff from the content the device's SDK will patch: its
    /// slots as its earlier checks left them (`known`, from the event database, with when it was
    /// last seen) and as this check shows them (`observed`). Devices without an id of their own,
    /// and checks refused for their app key, have no slots kept and get no diff.
    private func decide(_ check: UpdateCheckRequest, now: Date) async
        throws -> (CheckDecision, ReleaseCatalog, (known: (slots: DeviceSlots, seenAt: String)?, observed: DeviceSlots)?)
    {
        guard check.deviceID != DeviceSlots.unconfiguredDeviceID else {
            let (decision, catalog) = try watcher.decide(check, patchBase: nil, now: now)
            return (decision, catalog, nil)
        }
        // Without the device's history (the database busy or failing) the check is still answered,
        // with the full module only: a diff to a guessed base could be one the device cannot apply.
        guard let known = await bestEffort({ try await events.device(deviceID: check.deviceID, appKey: check.appKey) }) else {
            let (decision, catalog) = try watcher.decide(check, patchBase: nil, now: now)
            return (decision, catalog, nil)
        }
        let observed = DeviceSlots.observing(check.currentVersion, after: known?.slots)
        let (decision, catalog) = try watcher.decide(check, patchBase: observed.patchBase, now: now)
        if case .wrongAppKey = decision { return (decision, catalog, nil) }
        return (decision, catalog, (known, observed))
    }

    private func updateResponse(_ decision: CheckDecision, in catalog: ReleaseCatalog, request: Request) throws -> UpdateCheckResponse {
        guard case let .update(record, diff) = decision else { return .noUpdate }
        let base = try configuration.artifactBaseURL ?? baseURL(of: request)
        guard let modulePath = catalog.servedPath(ofTarget: record.module.path) else { return .noUpdate }
        let diffPath = diff.flatMap { catalog.servedPath(ofTarget: $0.path) }
        return UpdateCheckResponse(
            hasUpdate: true, version: record.version, moduleURL: "\(base)/\(modulePath)", diffURL: diffPath.map { "\(base)/\($0)" },
            sha256: record.module.sha256, size: record.module.length, diffSize: diffPath == nil ? nil : diff?.length,
            mandatory: record.mandatory, releaseNotes: record.notes)
    }

    private func baseURL(of request: Request) throws(RequestProblem) -> String {
        if let publicURL = configuration.publicURL { return publicURL }
        guard let authority = request.head.authority, !authority.isEmpty,
              authority.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "/") })
        else { throw RequestProblem(reason: "no usable Host header to build download URLs from (the server can be given --public-url)") }
        return "http://\(authority)"
    }

    private func artifact(_ relative: String, request: Request, connection: String?) async throws -> Response {
        let catalog = try watcher.catalog(now: configuration.clock())
        guard let (path, sha256) = catalog.target(servedAs: relative) else {
            return Self.json(.notFound, #"{"error":"not_found","reason":"no such file in the store's current metadata"}"#)
        }
        let etag = "\"\(sha256)\""
        var headers: HTTPFields = [
            .contentType: Self.contentType(of: path), .cacheControl: "public, max-age=31536000, immutable", .eTag: etag,
        ]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        let bytes = try watcher.servedBytes(ofTarget: path, in: catalog)
        headers[.contentLength] = String(bytes.count)
        if request.method == .get { await countDownload(of: path, in: catalog, connection: connection) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// How long a CDN or client may keep `timestamp.json`, the one metadata file a publish
    /// replaces: a new release reaches the edge within this long. Every other file is immutable.
    public static let timestampMaxAge = 60

    /// A TUF metadata file of the store (`N.root.json`, `N.targets.json`, `N.snapshot.json`,
    /// `timestamp.json`), so `serve` can be the origin of a CDN that mirrors the whole store
    /// (docs/serve.md "Deployment"). Clients verify their signatures; only those names are served.
    private func metadataFile(_ name: String) throws -> Response {
        let relative = "metadata/\(name)"
        let numbered = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid = relative == StorePath.timestamp || (numbered.count == 3 && numbered[2] == "json"
            && numbered[0].utf8.allSatisfy { (0x30...0x39).contains($0) } && !numbered[0].isEmpty && ["root", "targets", "snapshot"].contains(numbered[1]))
        guard valid, let bytes = FileManager.default.contents(atPath: watcher.store.base.appendingPathComponent(relative).path) else {
            return Self.json(.notFound, #"{"error":"not_found","reason":"no such metadata file in the store"}"#)
        }
        let cacheControl = relative == StorePath.timestamp ? "public, max-age=\(Self.timestampMaxAge)" : "public, max-age=31536000, immutable"
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: cacheControl, .contentLength: String(bytes.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Counts a module or diff sent, and a full module sent on the connection that fetched a diff to
    /// it shortly before as a wasted diff (metrics and the event database's `wasted_diffs`).
    private func countDownload(of path: String, in catalog: ReleaseCatalog, connection: String?) async {
        if let module = ReleasePaths.moduleContent(ofDiff: path) {
            metrics.downloaded(.diff)
            if let connection { diffFallbacks.servedDiff(path, to: module, connection: connection) }
        } else if let content = ReleasePaths.content(ofModule: path) {
            metrics.downloaded(.full)
            guard let connection, let diff = diffFallbacks.servedModule(sha256: content, connection: connection) else { return }
            metrics.wastedDiff()
            await bestEffort { try await events.recordWastedDiff(diffPath: diff, moduleVersion: catalog.newestVersion(ofContent: content), receivedAt: TUFTime.format(configuration.clock())) }
        }
    }

    /// Runs bookkeeping that must never fail the request it accompanies: a device's slots and the
    /// wasted-diff count are statistics and hints, while a failed check or download would make the
    /// SDK roll a device back (sdk-contract §7.7). A failure is counted in the metrics.
    @discardableResult
    private func bestEffort<Value>(_ work: () async throws -> Value) async -> Value? {
        do {
            return try await work()
        } catch {
            metrics.bookkeepingFailed()
            return nil
        }
    }

    /// Forgets the slots of devices not seen for `forgetDevicesAfter` and, once per store version,
    /// of devices running none of the store's releases (`DeviceForgetting`), and with
    /// `eventsRetention`, events older than it. Housekeeping: a failure is counted with the other
    /// bookkeeping failures and retried on the next sweep.
    @discardableResult
    public func forgetDevices() async -> ForgottenDevices {
        let now = configuration.clock()
        let catalog = try? watcher.catalog(now: now)
        var forgotten = await bestEffort { try await deviceForgetting.sweep(events, catalog: catalog, now: now, after: configuration.forgetDevicesAfter) } ?? ForgottenDevices()
        if let retention = configuration.eventsRetention {
            forgotten.events = await bestEffort { try await events.forgetEvents(receivedBefore: TUFTime.format(now.addingTimeInterval(-retention.inSeconds))) } ?? 0
        }
        return forgotten
    }

    /// Artifacts are served as the bytes devices hash: no Content-Encoding, even for `.br`, because
    /// the SDK decompresses brotli itself when the URL ends in `.br` (sdk-contract §7.4).
    static func contentType(of path: String) -> String {
        path.hasSuffix(".json") ? "application/json" : "application/octet-stream"
    }

    // MARK: - Responses

    /// Runs a handler, mapping failures onto statuses with a JSON reason: a bad request is 400,
    /// a store that does not verify (or has expired) is 503, anything else 500.
    private func respond(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let problem as RequestProblem {
            return Self.errorResponse(.badRequest, kind: "bad_request", reason: problem.reason)
        } catch let error as StoreError {
            return Self.errorResponse(.serviceUnavailable, kind: "store_unavailable", reason: error.description)
        } catch let busy as EventStoreBusy {
            // Back-pressure, never a silent drop: the device keeps the event and sends it again.
            metrics.eventsRejected()
            var response = Self.errorResponse(.serviceUnavailable, kind: "events_busy", reason: busy.description)
            response.headers[.retryAfter] = String(busy.retryAfterSeconds)
            return response
        } catch {
            return Self.errorResponse(.internalServerError, kind: "internal", reason: "\(error)")
        }
    }

    static func errorResponse(_ status: HTTPResponse.Status, kind: String, reason: String) -> Response {
        struct Body: Encodable { var error: String; var reason: String }
        // Two strings always encode; the fallback only keeps the signature non-throwing.
        return (try? encoded(status, Body(error: kind, reason: reason))) ?? json(status, #"{"error":"\#(kind)"}"#)
    }

    static func encoded(_ status: HTTPResponse.Status, _ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(status, String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Answers what no route takes with the JSON error every other answer uses (docs/serve.md,
/// "Errors"): 404 for an unknown path, 405 with `Allow` for a known path and another method.
/// The router signals both as `HTTPError(.notFound)`; the handlers never throw.
struct UnroutedRequests: RouterMiddleware {
    typealias Context = ServerRequestContext
    /// The methods the listener answers on a path (none: not one of its paths).
    let allowedMethods: @Sendable (String) -> [HTTPRequest.Method]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await unrouted(request, context: context, next: next)
        return request.method == .head ? response.createHeadResponse() : response
    }

    private func unrouted(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = allowedMethods(request.uri.path)
            guard !allowed.isEmpty else {
                return UpdateServer.errorResponse(.notFound, kind: "not_found", reason: "no such endpoint: \(request.uri.path.prefix(256))")
            }
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            var response = UpdateServer.errorResponse(
                .methodNotAllowed, kind: "method_not_allowed", reason: "\(request.uri.path.prefix(256)) answers \(names), not \(request.method.rawValue.prefix(32))")
            response.headers[.allow] = names
            return response
        }
    }
}

/// Why `patchcli serve` stopped.
public enum ServeError: Error, Sendable, CustomStringConvertible {
    /// `portOption` is the flag that chose the port: `--port`, or `--metrics-port` for the metrics listener.
    case cannotListen(host: String, port: Int, reason: String, portOption: String)

    public var description: String {
        switch self {
        case let .cannotListen(host, port, reason, portOption):
            return "cannot serve on \(host):\(port) (\(reason)); is another server using the port? choose another with \(portOption)"
        }
    }
}

extension UpdateServer {
    /// Serves until SIGINT or SIGTERM, after checking the store verifies now so a broken store
    /// fails at start rather than on the first device, and forgetting stale devices then and every
    /// hour (`forgetDevices`). With `configuration.metricsAddress`, the metrics listener runs
    /// beside the update port, bound before it (`onMetricsRunning` gets its port); if either
    /// cannot listen, both stop and the error names its address.
    public func run(
        host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void,
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        _ = try watcher.catalog(now: configuration.clock())
        await forgetDevices()
        let forgetting = Task {
            while true {
                do { try await Task.sleep(for: DeviceForgetting.interval) } catch { return }
                await forgetDevices()
            }
        }
        defer { forgetting.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The metrics listener binds first: a metrics port that cannot be bound stops serve
            // before any device is answered (and before the update port would have to be torn down).
            if let metricsAddress = configuration.metricsAddress {
                let (bound, binding) = AsyncStream<Void>.makeStream()
                group.addTask {
                    defer { binding.finish() }
                    try await Self.listening(host: metricsAddress.host, port: metricsAddress.port, portOption: "--metrics-port") {
                        try await metricsApplication(host: metricsAddress.host, port: metricsAddress.port) { port in
                            await onMetricsRunning(port)
                            binding.yield()
                        }.runService()
                    }
                }
                var listening = false
                for await _ in bound {
                    listening = true
                    break
                }
                guard listening else {
                    while try await group.next() != nil {}  // its failure
                    return
                }
            }
            group.addTask {
                try await Self.listening(host: host, port: port, portOption: "--port") {
                    try await application(host: host, port: port, onRunning: onRunning).runService()
                }
            }
            // The first failure leaves the body, which cancels (stops) the other listener.
            while try await group.next() != nil {}
        }
    }

    /// Runs a listener, its socket errors (the port in use) named by its address.
    private static func listening(host: String, port: Int, portOption: String, _ serve: () async throws -> Void) async throws {
        do {
            try await serve()
        } catch let error as IOError {
            throw ServeError.cannotListen(host: host, port: port, reason: error.description, portOption: portOption)
        }
    }
}
