import Foundation
import Logging
import PatchServer
import PostgresNIO
import Synchronization

/// The event store of `serve` replicas (docs/serve.md, "Event stores"): one PostgreSQL database
/// shared by any number of `serve` processes, read by `status`.
///
/// Writes never wait for the database on the request path: they go into a bounded queue
/// (`WriteQueue`) that one connection drains in batches of `batchSize`, each batch in one
/// transaction. A write is answered once it is queued; a full queue refuses it with
/// `EventStoreBusy` (503 + Retry-After). While the database is away, batches are kept and retried,
/// so nothing answered 202 is lost while the process runs (a process killed with writes queued
/// loses them: `close` drains the queue on SIGTERM/SIGINT, `GET /metrics` shows its depth).
///
/// Reads on the check path (a device's slots) have `readDeadline`: past it, or with the database
/// away, the check is answered without them (the full module, no diff). `status`'s queries and
/// the sweeps read without a deadline.
///
/// The schema is migrated on open, under an advisory lock so replicas starting together migrate
/// once; its version is the one row of `schema_version`.
public final class PostgresEventStore: EventStore {
    public let url: PostgresURL
    public var location: String { url.description }
    let queue: WriteQueue
    /// Connections for reads: the check path's slot reads take them in turn (one connection runs
    /// one query at a time), `status` and the sweeps use the first.
    private let reads: [ConnectionSlot]
    private let nextRead = Atomic<Int>(0)
    static let readConnections = 4
    private let writer: Task<Void, Never>

    public static let defaultQueueCapacity = 10_000
    static let batchSize = 500
    /// Rows deleted per statement by the sweeps, so no statement holds locks for long.
    static let sweepBatch = 1000
    static let readDeadline: Duration = .milliseconds(500)
    /// What a refused write's Retry-After says: a few batches' time, enough for a database that
    /// restarts to come back.
    static let retryAfterSeconds = 5
    /// The advisory lock key replicas migrate under (any constant: "patchcli" in ASCII).
    static let migrationLock: Int64 = 0x7061_7463_6863_6C69

    /// Statements taking the schema from version `index` to `index + 1`; every one idempotent.
    /// The indexes are the ones `status` (`adoptionCounts`) and the sweeps use: by version and
    /// type, each device's events in id order (its latest activation or fallback), by time
    /// (retention), slots by last seen (forgetting devices).
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE IF NOT EXISTS events (
                id BIGSERIAL PRIMARY KEY,
                received_at TEXT NOT NULL,
                event_type TEXT NOT NULL,
                device_id TEXT NOT NULL,
                module_version TEXT,
                error_message BYTEA,
                app_id TEXT, app_key TEXT, os_version TEXT, device_model TEXT, app_version TEXT,
                duration_ms BIGINT
            )
            """,
            "CREATE INDEX IF NOT EXISTS events_by_version ON events (module_version, event_type)",
            "CREATE INDEX IF NOT EXISTS events_by_device ON events (device_id, id) WHERE event_type IN ('activation', 'fallback')",
            "CREATE INDEX IF NOT EXISTS events_by_time ON events (received_at)",
            """
            CREATE TABLE IF NOT EXISTS wrong_app_key_checks (
                id BIGSERIAL PRIMARY KEY,
                received_at TEXT NOT NULL,
                device_id TEXT NOT NULL,
                app_key TEXT,
                fingerprint TEXT NOT NULL,
                channel TEXT NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS wrong_app_key_checks_by_time ON wrong_app_key_checks (received_at)",
            """
            CREATE TABLE IF NOT EXISTS device_slots (
                app_key TEXT NOT NULL,
                device_id TEXT NOT NULL,
                current_version TEXT,
                previous_version TEXT,
                previous_known BOOLEAN NOT NULL,
                offered_version TEXT,
                updated_at TEXT NOT NULL,
                PRIMARY KEY (app_key, device_id)
            )
            """,
            "CREATE INDEX IF NOT EXISTS device_slots_by_seen ON device_slots (updated_at)",
            """
            CREATE TABLE IF NOT EXISTS wasted_diffs (
                id BIGSERIAL PRIMARY KEY,
                received_at TEXT NOT NULL,
                module_version TEXT,
                diff_path TEXT NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS wasted_diffs_by_time ON wasted_diffs (received_at)",
        ],
    ]
    public static var schemaVersion: Int { migrations.count }

    /// Connects, migrates the schema and starts the writer. Errors (the URL's server refusing,
    /// authentication, no such database, a newer schema) are thrown here, at start.
    public init(url: PostgresURL, queueCapacity: Int = defaultQueueCapacity) async throws(PostgresEventStoreError) {
        self.url = url
        let logger = Logger(label: "patchcli.events") { _ in SwiftLogNoOpLogHandler() }
        let connection: PostgresConnection
        do {
            connection = try await Self.connect(url, logger: logger)
        } catch {
            throw .unreachable(url: url.description, reason: Self.reason(error))
        }
        do {
            try await Self.migrate(connection, url: url, logger: logger)
        } catch {
            try? await connection.close()
            // The refusal of a newer schema is thrown inside the migration's transaction.
            if let refusal = ((error as? PostgresTransactionError)?.closureError ?? error) as? PostgresEventStoreError { throw refusal }
            throw .unreachable(url: url.description, reason: Self.reason(error))
        }
        reads = [ConnectionSlot(url: url, logger: logger, connection: connection)]
            + (1..<Self.readConnections).map { _ in ConnectionSlot(url: url, logger: logger, connection: nil) }
        let queue = WriteQueue(capacity: queueCapacity)
        self.queue = queue
        let writes = ConnectionSlot(url: url, logger: logger, connection: nil)
        writer = Task { await queue.drain(into: writes) }
    }

    static func connect(_ url: PostgresURL, logger: Logger) async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: url.configuration(), id: connectionIDs.add(1, ordering: .relaxed).newValue, logger: logger)
    }

    private static let connectionIDs = Atomic<Int>(0)

    private static func migrate(_ connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", logger: logger)
            var version = 0
            for try await (stored,) in try await connection.query("SELECT version FROM schema_version", logger: logger).decode((Int,).self) {
                version = stored
            }
            if version > schemaVersion { throw PostgresEventStoreError.newerSchema(url: url.description, version: version, known: schemaVersion) }
            guard version < schemaVersion else { return }
            for step in migrations[version...] {
                for statement in step { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            }
            try await connection.query("DELETE FROM schema_version", logger: logger)
            try await connection.query("INSERT INTO schema_version (version) VALUES (\(schemaVersion))", logger: logger)
        }
    }

    /// What went wrong, in words: PostgresNIO's own description of an error is deliberately
    /// generic, the server's message and the socket's error are inside it.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PostgresEventStoreError { return error.description }
        if let transaction = error as? PostgresTransactionError {
            return reason(transaction.beginError ?? transaction.closureError ?? transaction.commitError ?? transaction.rollbackError ?? error)
        }
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return String(describing: underlying) }
        return String(describing: error.code)
    }

    // MARK: - Writes (queued)

    public func record(_ event: DeviceEvent, receivedAt: String) async throws {
        try queue.enqueue(.event(event, receivedAt: receivedAt))
    }

    public func recordWrongAppKey(_ check: UpdateCheckRequest, receivedAt: String) async throws {
        try queue.enqueue(.wrongAppKey(check, receivedAt: receivedAt))
    }

    public func recordWastedDiff(diffPath: String, moduleVersion: String?, receivedAt: String) async throws {
        try queue.enqueue(.wastedDiff(diffPath: diffPath, moduleVersion: moduleVersion, receivedAt: receivedAt))
    }

    public func saveDeviceSlots(_ slots: DeviceSlots, deviceID: String, appKey: String?, at time: String) async throws {
        try queue.enqueue(.slots(slots, deviceID: deviceID, appKey: appKey ?? "", at: time))
    }

    public var pendingWrites: Int { queue.depth }
    public var failedWriteBatches: Int { queue.failedBatches }
    public func observeQueueWaits(_ observer: @escaping @Sendable (Duration) -> Void) { queue.observeWaits(observer) }

    /// Drains the queue (for at most `deadline`; what is left is counted in `pendingWrites`) and
    /// closes the connections.
    public func close() async {
        await close(deadline: .seconds(10))
    }

    func close(deadline: Duration) async {
        queue.finish()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [writer] in await writer.value }
            group.addTask {
                try? await Task.sleep(for: deadline)
            }
            await group.next()
            // Past the deadline the writer stops retrying (its batch stays counted in
            // `pendingWrites`) and closes its connection; the group then waits for it.
            writer.cancel()
            group.cancelAll()
        }
        for slot in reads { await slot.close() }
    }

    // MARK: - Reads

    public func device(deviceID: String, appKey: String?) async throws -> (slots: DeviceSlots, seenAt: String)? {
        let slot = reads[nextRead.add(1, ordering: .relaxed).oldValue % reads.count]
        return try await slot.withDeadline(Self.readDeadline) { connection, logger in
            let rows = try await connection.query("""
                SELECT current_version, previous_version, previous_known, offered_version, updated_at FROM device_slots
                WHERE app_key = \(appKey ?? "") AND device_id = \(deviceID)
                """, logger: logger)
            for try await (current, previous, known, offered, seenAt) in rows.decode((String?, String?, Bool, String?, String).self) {
                let slots = DeviceSlots(
                    current: current, previous: known ? previous.map(DeviceSlots.Previous.version) ?? .empty : .unknown, offered: offered)
                return (slots, seenAt)
            }
            return nil
        }
    }

    public func forgetDevices(seenBefore cutoff: String) async throws -> Int {
        try await deleteInBatches { """
            WITH gone AS (DELETE FROM device_slots WHERE (app_key, device_id) IN
                (SELECT app_key, device_id FROM device_slots WHERE updated_at < \(cutoff) LIMIT \(Self.sweepBatch)) RETURNING 1)
            SELECT count(*) FROM gone
            """ }
    }

    /// Walks the table in key order (the primary key's index), a batch of keys at a time, deleting
    /// the batch's devices none of whose versions is live: every row is read once, however many
    /// are deleted (a repeated "delete the first 1000 that match" would rescan the kept ones).
    public func forgetDevices(runningNoneOf versions: Set<String>) async throws -> Int {
        let live = Array(versions)
        var total = 0
        var after: (appKey: String, deviceID: String)? = nil
        while true {
            let (deleted, last) = try await reads[0].use { connection, logger in
                var result: (Int, (String, String)?) = (0, nil)
                for try await (deleted, appKey, deviceID) in try await connection.query("""
                    WITH batch AS (
                        SELECT app_key, device_id FROM device_slots
                        WHERE \(after == nil) OR (app_key, device_id) > (\(after?.appKey ?? ""), \(after?.deviceID ?? ""))
                        ORDER BY app_key, device_id LIMIT \(Self.sweepBatch)),
                    gone AS (
                        DELETE FROM device_slots slots USING batch
                        WHERE slots.app_key = batch.app_key AND slots.device_id = batch.device_id
                          AND NOT (COALESCE(current_version = ANY(\(live)), false) OR COALESCE(previous_version = ANY(\(live)), false)
                                   OR COALESCE(offered_version = ANY(\(live)), false))
                        RETURNING 1),
                    last AS (SELECT app_key, device_id FROM batch ORDER BY app_key DESC, device_id DESC LIMIT 1)
                    SELECT (SELECT count(*) FROM gone), last.app_key, last.device_id FROM (SELECT 1) one LEFT JOIN last ON true
                    """, logger: logger).decode((Int, String?, String?).self) {
                    result = (deleted, appKey.flatMap { key in deviceID.map { (key, $0) } })
                }
                return result
            }
            total += deleted
            guard let last else { return total }
            after = (last.0, last.1)
        }
    }

    public func forgetEvents(receivedBefore cutoff: String) async throws -> Int {
        var total = 0
        for table in ["events", "wrong_app_key_checks", "wasted_diffs"] {
            total += try await deleteInBatches { PostgresQuery(unsafeSQL: """
                WITH gone AS (DELETE FROM \(table) WHERE id IN (SELECT id FROM \(table) WHERE received_at < $1 LIMIT \(Self.sweepBatch)) RETURNING 1)
                SELECT count(*) FROM gone
                """, binds: Self.binds(cutoff)) }
        }
        return total
    }

    private static func binds(_ text: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(text)
        return binds
    }

    /// Runs a `WITH gone AS (DELETE … LIMIT sweepBatch) SELECT count(*)` statement until it deletes
    /// less than a batch; returns the rows deleted.
    private func deleteInBatches(_ statement: () -> PostgresQuery) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await reads[0].use { connection, logger in
                var count = 0
                for try await (deleted,) in try await connection.query(statement(), logger: logger).decode((Int,).self) { count = deleted }
                return count
            }
            total += deleted
            if deleted < Self.sweepBatch { return total }
        }
    }

    /// `status`'s counts; a failure is `unreachable`, with the server's reason.
    public func adoptionCounts() async throws -> AdoptionCounts {
        do {
            return try await counts()
        } catch {
            throw PostgresEventStoreError.unreachable(url: url.description, reason: Self.reason(error))
        }
    }

    private func counts() async throws -> AdoptionCounts {
        try await reads[0].use { connection, logger in
            var events = 0, devices = 0
            for try await (count, distinct) in try await connection.query(
                "SELECT COUNT(*), COUNT(DISTINCT device_id) FROM events", logger: logger).decode((Int, Int).self) {
                (events, devices) = (count, distinct)
            }
            var versions: [AdoptionCounts.Version] = []
            for try await (version, downloads, activations, errors, fallbacks, activated) in try await connection.query("""
                SELECT module_version, COUNT(*) FILTER (WHERE event_type = 'download'), COUNT(*) FILTER (WHERE event_type = 'activation'),
                       COUNT(*) FILTER (WHERE event_type = 'error'), COUNT(*) FILTER (WHERE event_type = 'fallback'),
                       COUNT(DISTINCT device_id) FILTER (WHERE event_type = 'activation')
                FROM events GROUP BY module_version
                """, logger: logger).decode((String?, Int, Int, Int, Int, Int).self) {
                versions.append(AdoptionCounts.Version(
                    version: version, downloads: downloads, activations: activations, errors: errors, fallbacks: fallbacks, devicesActivated: activated))
            }
            // Each device's latest activation or fallback: the highest id, the order rows were written.
            var running: [String: Int] = [:]
            for try await (version, count) in try await connection.query("""
                SELECT module_version, COUNT(*) FROM (
                    SELECT DISTINCT ON (device_id) device_id, module_version FROM events
                    WHERE event_type IN ('activation', 'fallback') ORDER BY device_id, id DESC) latest
                WHERE module_version IS NOT NULL GROUP BY module_version
                """, logger: logger).decode((String, Int).self) {
                running[version] = count
            }
            // Ties go to the message first in byte order (BYTEA compares bytes), as SQLite's BINARY.
            var commonest: [String: String] = [:]
            for try await (version, message) in try await connection.query("""
                SELECT DISTINCT ON (module_version) module_version, error_message FROM (
                    SELECT module_version, error_message, COUNT(*) AS n FROM events
                    WHERE event_type = 'error' AND module_version IS NOT NULL AND error_message IS NOT NULL
                    GROUP BY module_version, error_message) counted
                ORDER BY module_version, n DESC, error_message
                """, logger: logger).decode((String, Data).self) {
                commonest[version] = String(decoding: message, as: UTF8.self)
            }
            var wrongAppKeyChecks: [String: Int] = [:]
            for try await (key, count) in try await connection.query(
                "SELECT COALESCE(app_key, '(none)'), COUNT(*) FROM wrong_app_key_checks GROUP BY 1", logger: logger).decode((String, Int).self) {
                wrongAppKeyChecks[key] = count
            }
            var wastedDiffs: [String: Int] = [:]
            for try await (version, count) in try await connection.query(
                "SELECT COALESCE(module_version, '(unknown)'), COUNT(*) FROM wasted_diffs GROUP BY 1", logger: logger).decode((String, Int).self) {
                wastedDiffs[version] = count
            }
            return AdoptionCounts(
                events: events, devices: devices, versions: versions, devicesRunning: running, commonestErrors: commonest,
                wrongAppKeyChecks: wrongAppKeyChecks, wastedDiffs: wastedDiffs)
        }
    }
}

/// One connection, made when first needed and again after it fails. After a failed connect,
/// callers within `retryAfter` fail at once instead of each waiting for a connect timeout: a
/// database that is away costs the check path nothing.
actor ConnectionSlot {
    let url: PostgresURL
    let logger: Logger
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?
    private var failed: (at: ContinuousClock.Instant, reason: String)?
    static let retryAfter: Duration = .seconds(1)

    init(url: PostgresURL, logger: Logger, connection: PostgresConnection?) {
        self.url = url
        self.logger = logger
        self.connection = connection
    }

    func get() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let connecting { return try await connecting.value }
        if let failed, failed.at.duration(to: .now) < Self.retryAfter {
            throw PostgresEventStoreError.unreachable(url: url.description, reason: failed.reason)
        }
        let task = Task { [url, logger] in try await PostgresEventStore.connect(url, logger: logger) }
        connecting = task
        do {
            let made = try await task.value
            connecting = nil
            connection = made
            failed = nil
            return made
        } catch {
            connecting = nil
            failed = (.now, PostgresEventStore.reason(error))
            throw error
        }
    }

    /// Forgets `broken` (a query on it failed) so the next use connects again.
    func drop(_ broken: PostgresConnection) {
        guard connection === broken else { return }
        connection = nil
        Task { try? await broken.close() }
    }

    func close() async {
        let open = connection
        connection = nil
        try? await open?.close()
    }

    /// Runs `work` on the connection; a failure drops it (the next use reconnects).
    nonisolated func use<Value: Sendable>(_ work: (PostgresConnection, Logger) async throws -> Value) async throws -> Value {
        let connection = try await get()
        do {
            return try await work(connection, logger)
        } catch {
            if connection.isClosed { await drop(connection) }
            throw error
        }
    }

    /// `use` that answers within `deadline` whatever the database does: past it, it throws and the
    /// connection is closed (a query on a connection that stopped answering never returns, and a
    /// task group would wait for it), so the next use connects again.
    nonisolated func withDeadline<Value: Sendable>(
        _ deadline: Duration, _ work: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) async throws -> Value {
        let timeout = PostgresEventStoreError.unreachable(url: url.description, reason: "no answer within \(deadline)")
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = FirstResume(continuation)
            let query = Task {
                do { outcome.resume(with: .success(try await self.use(work))) } catch { outcome.resume(with: .failure(error)) }
            }
            Task {
                try? await Task.sleep(for: deadline)
                guard outcome.resume(with: .failure(timeout)) else { return }
                query.cancel()
                await self.reset()
            }
        }
    }

    /// Closes the current connection, whatever state it is in; the next use connects again.
    func reset() async {
        guard let current = connection else { return }
        connection = nil
        try? await current.close()
    }
}

/// A continuation resumed by whichever of two tasks comes first (the later one finds it taken).
private final class FirstResume<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) { self.continuation = Mutex(continuation) }

    @discardableResult
    func resume(with result: Result<Value, any Error>) -> Bool {
        guard let continuation = continuation.withLock({ $0.take() }) else { return false }
        continuation.resume(with: result)
        return true
    }
}
