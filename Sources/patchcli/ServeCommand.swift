import ArgumentParser
import Foundation
import PatchBuild
import PatchEventsPostgres
import PatchManifest
import PatchNotify
import PatchServer
import PatchStore

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a release store to devices over the SDK's update protocol.",
        discussion: """
            POST /api/v1/modules/check answers the SDK's update check from the store's verified
            metadata (fingerprint, channel, cohort, rollout bucket; diff_url when a diff exists from
            the module the device's SDK will patch, its previous slot as its earlier checks show); POST /api/v1/events appends device events to the event store
            (`patchcli status` reports them); GET /targets/... serves the artifacts and GET /metadata/...
            the store's metadata (a CDN's origin). A new publish is served without a restart. --events
            is a SQLite file (one machine) or a postgres:// URL that any number of replicas share;
            --artifact-base-url points download URLs at a CDN holding the store. GET /metrics answers
            Prometheus counters, on the update port or, with --metrics-port, only on a listener of
            its own; each request gets one line in the request log (stderr, or --log-file). Runs
            until SIGINT or SIGTERM. Protocol, rollout buckets, log and metrics: docs/serve.md.
            --notify-on-publish sends a silent push over APNs for each new release
            (docs/triggers.md).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var trustOptions: TrustOptions
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one and prints it).") var port = 8080
    @Option(help: ArgumentHelp(
        "Serve GET /metrics on this port only (0 picks a free one and prints it), not on --port (default: on --port).",
        valueName: "PORT"))
    var metricsPort: Int?
    @Option(help: ArgumentHelp("Address the --metrics-port listener binds (default: --host's).", valueName: "HOST"))
    var metricsHost: String?
    @Option(name: [.customLong("events"), .customLong("events-db")], help: ArgumentHelp(
        "Where device events go: a SQLite file (created if missing), or postgres://USER@HOST:PORT/DATABASE shared by replicas (password in PGPASSWORD).",
        valueName: "PATH|URL"))
    var eventsDB = "patchcli-events.sqlite"
    @Option(help: ArgumentHelp(
        "With a postgres:// --events: writes held in memory for the database at most; past it events are answered 503 with Retry-After.",
        valueName: "N"))
    var eventsQueue = PostgresEventStore.defaultQueueCapacity
    @Option(help: ArgumentHelp(
        "Delete events (and refused checks, wasted diffs) older than this many days, e.g. 90d, in the hourly sweep (default: keep them).",
        valueName: "DAYS"))
    var eventsRetention: RetentionDays?
    @Option(help: ArgumentHelp(
        "Base URL of a CDN or object storage holding a copy of the store: module_url and diff_url point there, e.g. https://cdn.example.com/store/ (default: --public-url, this server).",
        valueName: "URL"))
    var artifactBaseURL: String?
    @Option(help: ArgumentHelp(
        "Base URL devices download artifacts from, e.g. https://updates.example.com (default: http:// and the request's Host header).",
        valueName: "URL"))
    var publicURL: String?
    @Option(help: ArgumentHelp("Close a connection after this long with no request in progress (before its first one too).", valueName: "SECONDS"))
    var idleTimeout = ServerConfiguration.defaultIdleTimeout.inSeconds
    @Option(help: ArgumentHelp(
        "Close a connection whose request is not sent in full within this long of its first byte (slow or stalled clients).",
        valueName: "SECONDS"))
    var requestTimeout = ServerConfiguration.defaultRequestTimeout.inSeconds
    @Option(help: ArgumentHelp(
        "Close a connection whose answer the client does not take for this long (a client that stops reading); one artifact must download within it.",
        valueName: "SECONDS"))
    var writeTimeout = ServerConfiguration.defaultWriteTimeout.inSeconds
    @Option(help: ArgumentHelp(
        "Connections open at once; past it a new one replaces the longest-idle one, or gets a JSON 503 (overloaded) and is closed if all are mid-request.",
        valueName: "N"))
    var maxConnections = ServerConfiguration.defaultMaxConnections
    @Option(help: ArgumentHelp(
        "The request log's format: logfmt (key=value pairs) or json (one object per line); one line per request, device ids and app keys hashed.",
        valueName: "FORMAT"))
    var logFormat = RequestLog.Format.logfmt
    @Option(help: ArgumentHelp("Append the request log to this file (created if missing) instead of stderr.", valueName: "PATH"))
    var logFile: String?
    @Option(help: ArgumentHelp(
        "Forget the diff bookkeeping (module slots) of a device that has not checked for this many days; it gets the full module on its next update.",
        valueName: "DAYS"))
    var forgetDevicesAfter = Int(ServerConfiguration.defaultForgetDevicesAfter.inSeconds / 86_400)
    @Flag(help: "Send a silent push over APNs to --device-tokens whenever a new release appears on a channel (needs APNs credentials).")
    var notifyOnPublish = false
    @Option(help: ArgumentHelp("With --notify-on-publish: how often the store is looked at for new releases.", valueName: "SECONDS"))
    var notifyInterval = 2.0
    @OptionGroup(title: "Notify on publish (docs/triggers.md)") var apns: APNsOptions
    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if !notifyOnPublish, let flag = [(apns.deviceTokens, "--device-tokens"), (apns.apnsCredentials, "--apns-credentials"), (apns.apnsEndpoint, "--apns-endpoint"), (apns.apnsCa, "--apns-ca")]
            .first(where: { $0.0 != nil })?.1 {
            throw ValidationError("\(flag) is an option of --notify-on-publish")
        }
        if !(notifyInterval > 0 && notifyInterval <= 3600) { throw ValidationError("--notify-interval is a number of seconds above 0 and at most 3600, got \(notifyInterval)") }
        for (flag, seconds) in [("--idle-timeout", idleTimeout), ("--request-timeout", requestTimeout), ("--write-timeout", writeTimeout)] where !(seconds > 0 && seconds <= 86_400) {
            throw ValidationError("\(flag) is a number of seconds above 0 and at most 86400 (one day), got \(seconds)")
        }
        if eventsQueue < 1 { throw ValidationError("--events-queue must be at least 1, got \(eventsQueue)") }
        if let artifactBaseURL, !(artifactBaseURL.hasPrefix("https://") || artifactBaseURL.hasPrefix("http://")) {
            throw ValidationError("--artifact-base-url must be an http:// or https:// URL, got \(artifactBaseURL)")
        }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1, got \(maxConnections)") }
        if !(1...36_500).contains(forgetDevicesAfter) { throw ValidationError("--forget-devices-after is a number of days from 1 to 36500, got \(forgetDevicesAfter)") }
        if metricsHost != nil, metricsPort == nil { throw ValidationError("--metrics-host needs --metrics-port (without it, /metrics is on --port)") }
        if let metricsPort, metricsPort != 0, metricsPort == port, (metricsHost ?? host) == host {
            throw ValidationError("--metrics-port must differ from --port (\(port)); leave it out to serve /metrics on --port")
        }
    }

    struct Report: Encodable {
        var store: String
        var eventsDb: String
        var host: String
        var port: Int?
        /// The metrics listener's port, with --metrics-port.
        var metricsPort: Int?
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("serve") {
            // Releases carry their own app keys: only an explicit file or the variables configure APNs here.
            let delivery = notifyOnPublish ? try apns.delivery(appKey: nil) : nil
            if notifyOnPublish, delivery == nil {
                throw NotifyError.credentialMissing(field: "credentials", searched: "--apns-credentials and the PATCHCLI_APNS_* variables")
            }
            let events = try await EventStoreOpening.open(eventsDB, create: true, queueCapacity: eventsQueue)
            let requestLog: RequestLog
            do { requestLog = try RequestLog(format: logFormat, path: logFile) } catch {
                await events.close()  // a PostgreSQL store's connections are closed, not dropped
                throw error
            }
            let watcher = StoreWatcher(store: storeOptions.releaseStore, trusted: trustOptions.file) { message in
                console.log(message)
            }
            let configuration = ServerConfiguration(
                publicURL: publicURL, idleTimeout: .seconds(idleTimeout), requestTimeout: .seconds(requestTimeout), writeTimeout: .seconds(writeTimeout), maxConnections: maxConnections,
                requestLog: requestLog, metricsAddress: metricsPort.map { ListenAddress(host: metricsHost ?? host, port: $0) },
                forgetDevicesAfter: .seconds(forgetDevicesAfter * 86_400), eventsRetention: eventsRetention?.duration,
                artifactBaseURL: artifactBaseURL)
            let server = UpdateServer(watcher: watcher, events: events, configuration: configuration)
            // Whatever ends the server (SIGTERM, SIGINT, a failure), the lines of the requests it
            // answered are written before serve exits.
            defer { requestLog.close() }
            let bound = BoundPort()
            let notifier = delivery.map { delivery in
                Task { await PublishNotifier(watcher: watcher, delivery: delivery, interval: .seconds(notifyInterval), log: { console.log($0) }).run() }
            }
            defer { notifier?.cancel() }
            let metricsBound = BoundPort()
            // Whatever ends the server, the events it queued are written before serve exits.
            do {
                try await serve(server, bound: bound, metricsBound: metricsBound, events: events, console: console)
            } catch {
                await close(events, console: console)
                throw error
            }
            await close(events, console: console)
            return Report(store: storeOptions.store, eventsDb: events.location, host: host, port: await bound.port, metricsPort: await metricsBound.port)
        }
    }

    private func serve(_ server: UpdateServer, bound: BoundPort, metricsBound: BoundPort, events: any EventStore, console: Console) async throws {
        try await server.run(host: host, port: port, onRunning: { port in
            await bound.set(port)
            console.line("serving \(storeOptions.store) on http://\(host):\(port) (events: \(events.location)); Ctrl-C stops")
            fflush(nil)  // a script waiting for this line reads stdout through a pipe
        }, onMetricsRunning: { port in
            await metricsBound.set(port)
            console.line("metrics on http://\(metricsHost ?? host):\(port)\(UpdateServer.metricsPath)")
            fflush(nil)
        })
    }

    /// Writes what the event store still queues (PostgreSQL), saying on stderr what it could not.
    private func close(_ events: any EventStore, console: Console) async {
        await events.close()
        if events.pendingWrites > 0 {
            console.log("\(events.pendingWrites) queued writes could not be stored in \(events.location) before exiting")
        }
    }
}

extension RequestLog.Format: ExpressibleByArgument {}

/// The port the server bound, for the report printed once it stops.
private actor BoundPort {
    var port: Int?
    func set(_ port: Int) { self.port = port }
}
