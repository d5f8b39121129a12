/// Where `serve` keeps device events and devices' slots, and what `status` reads (docs/serve.md,
/// "Event stores"): the embedded SQLite file (`EventDatabase`, one machine) or PostgreSQL
/// (`PatchEventsPostgres`, any number of replicas). `serve --events` and `status --events` pick one
/// by the value's form: a path, or a `postgres://` URL.
///
/// Writes on the request path may be queued by the store: `record` is answered 202 once the store
/// holds the event (a queue counts), and a store that cannot take it now throws `EventStoreBusy`
/// (answered 503 with Retry-After), never dropping it silently.
public protocol EventStore: Sendable {
    /// What messages name: the file's path, or the URL without its password.
    var location: String { get }

    func record(_ event: DeviceEvent, receivedAt: String) async throws
    func recordWrongAppKey(_ check: UpdateCheckRequest, receivedAt: String) async throws
    func recordWastedDiff(diffPath: String, moduleVersion: String?, receivedAt: String) async throws
    /// A device's slots and when it was last seen, nil for a device never seen.
    func device(deviceID: String, appKey: String?) async throws -> (slots: DeviceSlots, seenAt: String)?
    func saveDeviceSlots(_ slots: DeviceSlots, deviceID: String, appKey: String?, at time: String) async throws
    /// Deletes the slots of devices last seen before `cutoff` (a TUF time); returns how many.
    func forgetDevices(seenBefore cutoff: String) async throws -> Int
    /// Deletes the slots of devices none of whose versions is in `versions`; returns how many.
    func forgetDevices(runningNoneOf versions: Set<String>) async throws -> Int
    /// Retention (`serve --events-retention`): deletes events, refused checks and wasted diffs
    /// received before `cutoff` (a TUF time); returns how many rows.
    func forgetEvents(receivedBefore cutoff: String) async throws -> Int
    /// What `status` reports, counted by the store's own queries (`AdoptionReport(counts:records:)`
    /// assembles the report, the same for every store).
    func adoptionCounts() async throws -> AdoptionCounts
    /// Writes the store holds but has not written yet (a queue's depth; 0 for a store that writes
    /// on the request path). `GET /metrics` shows it.
    var pendingWrites: Int { get }
    /// Batches of writes that failed and were kept for a retry (the database away). `GET /metrics`.
    var failedWriteBatches: Int { get }
    /// Has the store report how long each queued write waited, from `record` (the 202) to the
    /// commit that made it durable; `serve`'s metrics keep them as a histogram. A store that writes
    /// on the request path has no queue and never calls `observer`.
    func observeQueueWaits(_ observer: @escaping @Sendable (Duration) -> Void)
    /// Writes what is pending (within the store's own deadline) and releases the store; `serve`
    /// calls it when it stops.
    func close() async
}

extension EventStore {
    public var pendingWrites: Int { 0 }
    public var failedWriteBatches: Int { 0 }
    public func observeQueueWaits(_ observer: @escaping @Sendable (Duration) -> Void) {}
    public func close() async {}
}

/// A store that cannot take a write now (its queue is full): the request is answered 503 with
/// `Retry-After: retryAfterSeconds`, and the device sends it again later.
public struct EventStoreBusy: Error, Sendable, CustomStringConvertible {
    public var pending: Int
    public var retryAfterSeconds: Int

    public init(pending: Int, retryAfterSeconds: Int) {
        self.pending = pending
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "the event store's queue is full (\(pending) writes waiting); retry in \(retryAfterSeconds) s" }
}

/// What `status` reports, as a store counts it: the rows of its queries, before the report's
/// assembly (`AdoptionReport(counts:records:)`).
public struct AdoptionCounts: Sendable, Equatable {
    /// One module version's counts (nil version: events without one, e.g. failed checks).
    public struct Version: Sendable, Equatable {
        public var version: String?
        public var downloads: Int
        public var activations: Int
        public var errors: Int
        public var fallbacks: Int
        public var devicesActivated: Int

        public init(version: String?, downloads: Int, activations: Int, errors: Int, fallbacks: Int, devicesActivated: Int) {
            self.version = version
            self.downloads = downloads
            self.activations = activations
            self.errors = errors
            self.fallbacks = fallbacks
            self.devicesActivated = devicesActivated
        }
    }

    public var events: Int
    public var devices: Int
    public var versions: [Version]
    /// Devices whose latest activation or fallback names the version.
    public var devicesRunning: [String: Int]
    /// Each version's commonest error message (ties: the message first in byte order).
    public var commonestErrors: [String: String]
    /// Refused checks by app key (`(none)` for a check without one).
    public var wrongAppKeyChecks: [String: Int]
    /// Wasted diffs by version (`(unknown)` when no release had that content).
    public var wastedDiffs: [String: Int]

    public init(
        events: Int, devices: Int, versions: [Version], devicesRunning: [String: Int], commonestErrors: [String: String],
        wrongAppKeyChecks: [String: Int], wastedDiffs: [String: Int]
    ) {
        self.events = events
        self.devices = devices
        self.versions = versions
        self.devicesRunning = devicesRunning
        self.commonestErrors = commonestErrors
        self.wrongAppKeyChecks = wrongAppKeyChecks
        self.wastedDiffs = wastedDiffs
    }
}
