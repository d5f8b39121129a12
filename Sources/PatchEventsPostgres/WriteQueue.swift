import Foundation
import Logging
import PatchServer
import PostgresNIO
import Synchronization

/// One write the request path handed to `PostgresEventStore`.
enum QueuedWrite: Sendable {
    case event(DeviceEvent, receivedAt: String)
    case wrongAppKey(UpdateCheckRequest, receivedAt: String)
    case wastedDiff(diffPath: String, moduleVersion: String?, receivedAt: String)
    case slots(DeviceSlots, deviceID: String, appKey: String, at: String)
}

/// The bounded queue between the request path and PostgreSQL. `enqueue` never waits: it takes the
/// write or, at `capacity`, throws `EventStoreBusy`. `drain` writes the oldest `batchSize` writes
/// in one transaction and removes them only once it committed; a batch that fails stays at the
/// head and is tried again after a pause (growing to `maxBackoff`), so a database that goes away
/// and comes back loses nothing queued. Each write's wait, from `enqueue` to the commit of its
/// batch, goes to the observer `observeWaits` set (serve's queue-wait histogram).
final class WriteQueue: Sendable {
    let capacity: Int
    private let state: Mutex<State>
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let failures = Atomic<Int>(0)
    private let waitObserver = Mutex<(@Sendable (Duration) -> Void)?>(nil)
    static let maxBackoff: Duration = .seconds(2)
    static let batchDeadline: Duration = .seconds(30)

    private struct State {
        /// Oldest first; a batch being written stays here until its transaction committed.
        var writes: [(write: QueuedWrite, queuedAt: ContinuousClock.Instant)] = []
        var finished = false
    }

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State())
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    var depth: Int { state.withLock { $0.writes.count } }
    var failedBatches: Int { failures.load(ordering: .relaxed) }

    func observeWaits(_ observer: @escaping @Sendable (Duration) -> Void) {
        waitObserver.withLock { $0 = observer }
    }

    func enqueue(_ write: QueuedWrite) throws(EventStoreBusy) {
        let pending: Int? = state.withLock { state in
            guard state.writes.count < capacity else { return state.writes.count }
            state.writes.append((write, .now))
            return nil
        }
        if let pending { throw EventStoreBusy(pending: pending, retryAfterSeconds: PostgresEventStore.retryAfterSeconds) }
        wake.yield()
    }

    /// No more writes will come: `drain` returns once the queue is empty.
    func finish() {
        state.withLock { $0.finished = true }
        wake.yield()
    }

    /// Writes batches until `finish` was called and the queue is empty (or the task is cancelled),
    /// then closes the connection.
    func drain(into connections: ConnectionSlot) async {
        await writeBatches(into: connections)
        await connections.close()
    }

    private func writeBatches(into connections: ConnectionSlot) async {
        var backoff: Duration = .milliseconds(50)
        var wakeup = wakeups.makeAsyncIterator()
        while !Task.isCancelled {
            let (batch, finished) = state.withLock { (Array($0.writes.prefix(PostgresEventStore.batchSize)), $0.finished) }
            if batch.isEmpty {
                if finished { return }
                guard await wakeup.next() != nil else { return }
                continue
            }
            do {
                // A batch that gets no answer (a connection the server stopped answering) is given
                // up after `batchDeadline` and retried on a new connection.
                let writes = batch.map(\.write)
                try await connections.withDeadline(Self.batchDeadline) { connection, logger in try await Self.write(writes, on: connection, logger: logger) }
                state.withLock { $0.writes.removeFirst(batch.count) }
                if let observer = waitObserver.withLock({ $0 }) {
                    let committedAt = ContinuousClock.now
                    for queued in batch { observer(committedAt - queued.queuedAt) }
                }
                backoff = .milliseconds(50)
            } catch {
                failures.add(1, ordering: .relaxed)
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.maxBackoff)
            }
        }
    }

    /// One transaction: a multi-row INSERT per table, and the devices' slots as one upsert (the
    /// last slots of each device in the batch: a statement may not update a row twice).
    static func write(_ batch: [QueuedWrite], on connection: PostgresConnection, logger: Logger) async throws {
        var events = Rows(columns: 11), wrongAppKeys = Rows(columns: 5), wasted = Rows(columns: 3)
        var slots: [String: (DeviceSlots, String, String, String)] = [:]
        var slotOrder: [String] = []
        for write in batch {
            switch write {
            case let .event(event, receivedAt):
                try events.add { binds in
                    for text in [receivedAt, event.eventType.rawValue, event.deviceID, event.moduleVersion] { binds.append(text) }
                    // BYTEA: an error message is stored byte for byte, NULs included (TEXT refuses them).
                    try binds.append(event.errorMessage.map { Data($0.utf8) })
                    for text in [event.appID, event.appKey, event.osVersion, event.deviceModel, event.appVersion] { binds.append(text) }
                    binds.append(event.durationMS)
                }
            case let .wrongAppKey(check, receivedAt):
                wrongAppKeys.add { binds in
                    for text in [receivedAt, check.deviceID, check.appKey, check.fingerprint, check.channel] { binds.append(text) }
                }
            case let .wastedDiff(diffPath, moduleVersion, receivedAt):
                wasted.add { binds in
                    for text in [receivedAt, moduleVersion, diffPath] { binds.append(text) }
                }
            case let .slots(deviceSlots, deviceID, appKey, time):
                let key = "\(appKey)\u{0}\(deviceID)"
                if slots[key] == nil { slotOrder.append(key) }
                slots[key] = (deviceSlots, deviceID, appKey, time)
            }
        }
        var upserts = Rows(columns: 7)
        for key in slotOrder {
            guard let (deviceSlots, deviceID, appKey, time) = slots[key] else { continue }
            let previous: String? = if case let .version(version) = deviceSlots.previous { version } else { nil }
            upserts.add { binds in
                binds.append(appKey)
                binds.append(deviceID)
                binds.append(deviceSlots.current)
                binds.append(previous)
                binds.append(deviceSlots.previous != .unknown)
                binds.append(deviceSlots.offered)
                binds.append(time)
            }
        }
        try await connection.withTransaction(logger: logger) { connection in
            if let query = events.insert("""
                INSERT INTO events (received_at, event_type, device_id, module_version, error_message,
                                    app_id, app_key, os_version, device_model, app_version, duration_ms) VALUES
                """) { try await connection.query(query, logger: logger) }
            if let query = wrongAppKeys.insert("INSERT INTO wrong_app_key_checks (received_at, device_id, app_key, fingerprint, channel) VALUES") {
                try await connection.query(query, logger: logger)
            }
            if let query = wasted.insert("INSERT INTO wasted_diffs (received_at, module_version, diff_path) VALUES") {
                try await connection.query(query, logger: logger)
            }
            if let query = upserts.insert("""
                INSERT INTO device_slots (app_key, device_id, current_version, previous_version, previous_known, offered_version, updated_at) VALUES
                """, suffix: """
                 ON CONFLICT (app_key, device_id) DO UPDATE SET current_version = excluded.current_version,
                    previous_version = excluded.previous_version, previous_known = excluded.previous_known,
                    offered_version = excluded.offered_version, updated_at = excluded.updated_at
                """) { try await connection.query(query, logger: logger) }
        }
    }
}

/// The VALUES rows of one multi-row INSERT, their parameters bound in order.
private struct Rows {
    let columns: Int
    var count = 0
    var binds = PostgresBindings()

    init(columns: Int) { self.columns = columns }

    mutating func add(_ bind: (inout PostgresBindings) throws -> Void) rethrows {
        try bind(&binds)
        count += 1
    }

    /// `prefix` then `($1, …), (…)` for every row, then `suffix`; nil without rows.
    func insert(_ prefix: String, suffix: String = "") -> PostgresQuery? {
        guard count > 0 else { return nil }
        let rows = (0..<count).map { row in
            "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")"
        }
        return PostgresQuery(unsafeSQL: prefix + " " + rows.joined(separator: ", ") + suffix, binds: binds)
    }
}
