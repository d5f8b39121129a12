import ArgumentParser
import Foundation
import PatchBuild
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
            the module the device's SDK will patch, its previous slot as its earlier checks show); POST /api/v1/events appends device events to the event database
            (`patchcli status` reports them); GET /targets/... serves the artifacts. A new publish is
            served without a restart, and several servers can share one store. GET /metrics answers
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
    @Option(name: .customLong("events-db"), help: "SQLite database device events are appended to (created if missing).")
    var eventsDB = "patchcli-events.sqlite"
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
            let events = try EventDatabase(path: eventsDB, create: true)
            let requestLog = try RequestLog(format: logFormat, path: logFile)
            let watcher = StoreWatcher(store: storeOptions.releaseStore, trusted: trustOptions.file) { message in
                console.log(message)
            }
            let configuration = ServerConfiguration(
                publicURL: publicURL, idleTimeout: .seconds(idleTimeout), requestTimeout: .seconds(requestTimeout), writeTimeout: .seconds(writeTimeout), maxConnections: maxConnections,
                requestLog: requestLog, metricsAddress: metricsPort.map { ListenAddress(host: metricsHost ?? host, port: $0) },
                forgetDevicesAfter: .seconds(forgetDevicesAfter * 86_400))
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
            try await server.run(host: host, port: port, onRunning: { port in
                await bound.set(port)
                console.line("serving \(storeOptions.store) on http://\(host):\(port) (events: \(eventsDB)); Ctrl-C stops")
                fflush(nil)  // a script waiting for this line reads stdout through a pipe
            }, onMetricsRunning: { port in
                await metricsBound.set(port)
                console.line("metrics on http://\(metricsHost ?? host):\(port)\(UpdateServer.metricsPath)")
                fflush(nil)
            })
            return Report(store: storeOptions.store, eventsDb: eventsDB, host: host, port: await bound.port, metricsPort: await metricsBound.port)
        }
    }
}

extension RequestLog.Format: ExpressibleByArgument {}

/// The port the server bound, for the report printed once it stops.
private actor BoundPort {
    var port: Int?
    func set(_ port: Int) { self.port = port }
}
