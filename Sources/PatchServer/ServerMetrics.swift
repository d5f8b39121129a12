import Prometheus
import Synchronization

/// What `GET /metrics` exposes, in the Prometheus text exposition format (docs/serve.md,
/// "Metrics"): one registry per server, every series of a fixed label set created at start so it
/// is exposed (at 0) before anything happened.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let checks: [CheckOutcome: Counter]
    private let downloads: [DownloadKind: Counter]
    private let wastedDiffs: Counter
    private let bookkeepingFailures: Counter
    private let droppedLogLines: FollowingCounter
    private let eventsRejectedTotal: Counter
    private let eventsPending: Gauge
    private let eventWriteFailures: FollowingCounter
    private let eventQueueWaits: DurationHistogram
    private let events: [DeviceEventType: Counter]
    private let durations: [Route: DurationHistogram]
    /// `patchcli_serve_responses_total` by route and status, made on first use and kept here so a
    /// request costs one small dictionary lookup rather than the registry's name-and-labels one.
    private let responses = Mutex<[ResponseKey: Counter]>([:])

    private struct ResponseKey: Hashable {
        var route: Route
        var status: Int
    }

    /// How a check was answered, the `decision` label of `patchcli_serve_checks_total`.
    enum CheckOutcome: String, CaseIterable {
        case updateWithDiff = "update_diff", updateFull = "update_full", upToDate = "up_to_date", wrongAppKey = "wrong_app_key"
    }

    /// What an artifact download was, the `kind` label of `patchcli_serve_downloads_total`.
    enum DownloadKind: String, CaseIterable {
        case full, diff
    }

    /// The endpoint a request went to, the `route` label of the duration histogram and responses.
    enum Route: String, CaseIterable {
        case check, events, targets, metrics, other

        init(path: String) {
            self = switch path {
            case UpdateServer.checkPath: .check
            case UpdateServer.eventsPath: .events
            case UpdateServer.metricsPath: .metrics
            case _ where path.hasPrefix("/targets/"): .targets
            default: .other
            }
        }
    }

    /// From 0.5 ms (a check answered from the catalog) to 10 s (the request timeout's default).
    static let durationBuckets: [Duration] = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000].map { .microseconds($0 * 1000) }

    /// From 1 ms (a batch written at once) to 60 s (a database away and back).
    static let queueWaitBuckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000]
        .map { .microseconds($0 * 1000) }

    init() {
        let registry = registry
        func counter(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Counter {
            registry.makeCounter(descriptor: MetricNameDescriptor(metricName: name, helpText: help), labels: labels)
        }
        checks = Dictionary(uniqueKeysWithValues: CheckOutcome.allCases.map {
            ($0, counter("patchcli_serve_checks_total", "Update checks answered, by decision.", [("decision", $0.rawValue)]))
        })
        downloads = Dictionary(uniqueKeysWithValues: DownloadKind.allCases.map {
            ($0, counter("patchcli_serve_downloads_total", "Artifacts sent (GET), full modules and diffs.", [("kind", $0.rawValue)]))
        })
        wastedDiffs = counter(
            "patchcli_serve_wasted_diffs_total", "Diffs a device could not apply: it fetched the full module on the same connection next.")
        bookkeepingFailures = counter(
            "patchcli_serve_bookkeeping_failures_total",
            "Device slots or wasted diffs the event database could not read or write; the request was answered without them.")
        droppedLogLines = FollowingCounter(counter(
            "patchcli_serve_log_lines_dropped_total",
            "Request log lines dropped: the log's queue was full (its file or pipe too slow) or its file refused them (disk full)."))
        eventsRejectedTotal = counter(
            "patchcli_serve_events_rejected_total",
            "Writes answered 503 with Retry-After because the event store's queue was full (the device sends them again).")
        eventsPending = registry.makeGauge(
            name: "patchcli_serve_events_pending", labels: [],
            help: "Writes (events, slots, refused checks, wasted diffs) the event store holds in its queue, not yet in the database.")
        eventWriteFailures = FollowingCounter(counter(
            "patchcli_serve_event_write_failures_total",
            "Batches of queued writes the database did not take (it was away); they stay queued and are retried."))
        eventQueueWaits = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "patchcli_serve_event_queue_wait_seconds",
                helpText: "Time a queued write (event, slots, refused check, wasted diff) waited from its answer to its commit in the database."),
            labels: [], buckets: Self.queueWaitBuckets)
        events = Dictionary(uniqueKeysWithValues: DeviceEventType.allCases.map {
            ($0, counter("patchcli_serve_events_total", "Device events stored, by type.", [("event_type", $0.rawValue)]))
        })
        durations = Dictionary(uniqueKeysWithValues: Route.allCases.map {
            ($0, registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "patchcli_serve_request_duration_seconds", helpText: "Time from a request's head to its answer, by route."),
                labels: [("route", $0.rawValue)], buckets: Self.durationBuckets))
        })
    }

    /// A check answered with `response` (an update whose artifact has no served path is answered
    /// as no update, and counted so).
    func checked(_ decision: CheckDecision, answer response: UpdateCheckResponse) {
        let outcome: CheckOutcome = if case .wrongAppKey = decision { .wrongAppKey } else if !response.hasUpdate { .upToDate } else if response.diffURL != nil { .updateWithDiff } else { .updateFull }
        checks[outcome]?.increment()
    }

    func downloaded(_ kind: DownloadKind) { downloads[kind]?.increment() }

    func wastedDiff() { wastedDiffs.increment() }

    func bookkeepingFailed() { bookkeepingFailures.increment() }

    func eventsRejected() { eventsRejectedTotal.increment() }

    func stored(_ event: DeviceEventType) { events[event]?.increment() }

    func queueWaited(_ wait: Duration) { eventQueueWaits.record(wait) }

    /// One answered request: its duration, and its status in `patchcli_serve_responses_total`
    /// (a series per route and status seen).
    func answered(path: String, status: Int, after duration: Duration) {
        let route = Route(path: path)
        durations[route]?.record(duration)
        let key = ResponseKey(route: route, status: status)
        let counter = responses.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = registry.makeCounter(
                descriptor: MetricNameDescriptor(metricName: "patchcli_serve_responses_total", helpText: "Answers sent, by route and HTTP status."),
                labels: [("route", route.rawValue), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// Every series in the text exposition format (version 0.0.4), with the request log's dropped
    /// lines brought up to `droppedLogLines` (the log's own count; nil without a log) and the event
    /// store's queue and failed batches as it counts them.
    func exposition(droppedLogLines dropped: Int?, events: any EventStore) -> [UInt8] {
        if let dropped { droppedLogLines.follow(dropped) }
        eventWriteFailures.follow(events.failedWriteBatches)
        eventsPending.set(Double(events.pendingWrites))
        return registry.emitToBuffer()
    }
}

/// A counter that follows a total counted elsewhere (the request log's, the event store's): each
/// exposition adds what the total grew by since the last.
private final class FollowingCounter: Sendable {
    private let counter: Counter
    private let shown = Mutex(0)

    init(_ counter: Counter) { self.counter = counter }

    func follow(_ total: Int) {
        let increase = shown.withLock { shown in
            defer { shown = max(shown, total) }
            return total - shown
        }
        if increase > 0 { counter.increment(by: Int64(increase)) }
    }
}
