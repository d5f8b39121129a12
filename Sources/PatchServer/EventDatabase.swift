import CSQLite
import Foundation
import Synchronization

/// Why the event database cannot be used. Messages name the file and say what to do.
public enum EventDatabaseError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case notFound(path: String)
    case statementFailed(path: String, reason: String)
    case newerSchema(path: String, version: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open the event database (\(reason)); check the path and its directory's permissions"
        case let .notFound(path): return "\(path): no event database here; `patchcli serve --events \(path)` creates it"
        case let .statementFailed(path, reason): return "\(path): database error (\(reason))"
        case let .newerSchema(path, version):
            return "\(path): written by a newer patchcli (schema \(version), this one knows \(EventDatabase.schemaVersion)); upgrade patchcli"
        }
    }
}

/// The embedded SQLite database `serve` appends device events to and `status` summarises.
///
/// WAL mode lets readers (`status`) run while servers write; the busy timeout makes several
/// servers sharing one file wait for each other instead of failing. One connection per instance,
/// used under a lock, with the insert statement prepared once.
///
/// The schema's version is SQLite's `user_version`; opening a file of an older version migrates it
/// in place (`migrations`), and a file of a newer version is refused before anything is written.
public final class EventDatabase: EventStore {
    static var schemaVersion: Int { migrations.count }
    public let path: String
    public var location: String { path }
    private let connection: Mutex<Connection>

    /// The statements that take a database from version `index` to `index + 1`, in order; a new
    /// file runs them all. Every step is idempotent (`IF NOT EXISTS`), because version 1 files in
    /// the wild hold any of the tables later added under version 1.
    static let migrations = [
        // 1: device events.
        """
        CREATE TABLE IF NOT EXISTS events (
            id INTEGER PRIMARY KEY,
            received_at TEXT NOT NULL,
            event_type TEXT NOT NULL,
            device_id TEXT NOT NULL,
            module_version TEXT,
            error_message TEXT,
            app_id TEXT, app_key TEXT, os_version TEXT, device_model TEXT, app_version TEXT,
            duration_ms INTEGER
        );
        CREATE INDEX IF NOT EXISTS events_by_version ON events (module_version, event_type);
        CREATE INDEX IF NOT EXISTS events_by_device ON events (device_id, event_type);
        """,
        // 2: checks refused for their app key, devices' slots (`updated_at`: when the device was
        // last seen, to a day, indexed so devices not seen for long are found without a scan) and
        // wasted diffs. The three tables were added to version 1 files without a bump: a file may
        // already have any of them, but not the index.
        """
        CREATE TABLE IF NOT EXISTS wrong_app_key_checks (
            id INTEGER PRIMARY KEY,
            received_at TEXT NOT NULL,
            device_id TEXT NOT NULL,
            app_key TEXT,
            fingerprint TEXT NOT NULL,
            channel TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS device_slots (
            app_key TEXT NOT NULL,
            device_id TEXT NOT NULL,
            current_version TEXT,
            previous_version TEXT,
            previous_known INTEGER NOT NULL,
            offered_version TEXT,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (app_key, device_id)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS device_slots_by_seen ON device_slots (updated_at);
        CREATE TABLE IF NOT EXISTS wasted_diffs (
            id INTEGER PRIMARY KEY,
            received_at TEXT NOT NULL,
            module_version TEXT,
            diff_path TEXT NOT NULL
        );
        """,
    ]

    /// An open SQLite handle and its prepared insert. Only touched under `connection`'s lock.
    private final class Connection: @unchecked Sendable {
        let handle: OpaquePointer
        var insert: OpaquePointer?
        var insertWrongAppKey: OpaquePointer?
        var selectSlots: OpaquePointer?
        var upsertSlots: OpaquePointer?
        var insertWastedDiff: OpaquePointer?
        init(handle: OpaquePointer) { self.handle = handle }
        deinit {
            sqlite3_finalize(insert)
            sqlite3_finalize(insertWrongAppKey)
            sqlite3_finalize(selectSlots)
            sqlite3_finalize(upsertSlots)
            sqlite3_finalize(insertWastedDiff)
            sqlite3_close_v2(handle)
        }
    }

    /// Opens (and with `create`, creates) the database at `path`, migrating an older schema.
    public init(path: String, create: Bool) throws(EventDatabaseError) {
        self.path = path
        if !create, !FileManager.default.fileExists(atPath: path) { throw .notFound(path: path) }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw .cannotOpen(path: path, reason: reason)
        }
        let connection = Connection(handle: handle)
        sqlite3_busy_timeout(handle, 5_000)
        // A newer patchcli's file is refused before this one changes anything in it.
        let version = try Self.integer(handle, path: path, "PRAGMA user_version")
        if version > Self.schemaVersion { throw .newerSchema(path: path, version: version) }
        try Self.execute(handle, path: path, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
        try Self.migrate(handle, path: path)
        connection.insert = try Self.prepare(connection.handle, path: path, """
            INSERT INTO events (received_at, event_type, device_id, module_version, error_message,
                                app_id, app_key, os_version, device_model, app_version, duration_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        connection.insertWrongAppKey = try Self.prepare(connection.handle, path: path, """
            INSERT INTO wrong_app_key_checks (received_at, device_id, app_key, fingerprint, channel) VALUES (?, ?, ?, ?, ?)
            """)
        connection.selectSlots = try Self.prepare(connection.handle, path: path, """
            SELECT current_version, previous_version, previous_known, offered_version, updated_at FROM device_slots WHERE app_key = ? AND device_id = ?
            """)
        connection.upsertSlots = try Self.prepare(connection.handle, path: path, """
            INSERT INTO device_slots (app_key, device_id, current_version, previous_version, previous_known, offered_version, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app_key, device_id) DO UPDATE SET current_version = excluded.current_version,
                previous_version = excluded.previous_version, previous_known = excluded.previous_known,
                offered_version = excluded.offered_version, updated_at = excluded.updated_at
            """)
        connection.insertWastedDiff = try Self.prepare(connection.handle, path: path, """
            INSERT INTO wasted_diffs (received_at, module_version, diff_path) VALUES (?, ?, ?)
            """)
        self.connection = Mutex(connection)
    }

    /// Brings the schema to `schemaVersion` in one write transaction: several servers opening one
    /// old file at once migrate it once (the version is read again under the write lock).
    private static func migrate(_ handle: OpaquePointer, path: String) throws(EventDatabaseError) {
        guard try integer(handle, path: path, "PRAGMA user_version") < schemaVersion else { return }
        try execute(handle, path: path, "BEGIN IMMEDIATE")
        do throws(EventDatabaseError) {
            let version = try integer(handle, path: path, "PRAGMA user_version")
            if version > schemaVersion { throw .newerSchema(path: path, version: version) }
            for step in migrations[version...] { try execute(handle, path: path, step) }
            try execute(handle, path: path, "PRAGMA user_version=\(schemaVersion); COMMIT")
        } catch {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Appends one event, received at `receivedAt` (TUF-style UTC timestamp).
    public func record(_ event: DeviceEvent, receivedAt: String) throws(EventDatabaseError) {
        let path = self.path
        try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) in
            guard let statement = connection.insert else { return }
            defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
            let texts: [String?] = [
                receivedAt, event.eventType.rawValue, event.deviceID, event.moduleVersion, event.errorMessage,
                event.appID, event.appKey, event.osVersion, event.deviceModel, event.appVersion,
            ]
            for (index, text) in texts.enumerated() { Self.bind(statement, Int32(index + 1), text) }
            if let duration = event.durationMS { sqlite3_bind_int64(statement, 11, Int64(duration)) } else { sqlite3_bind_null(statement, 11) }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle)))
            }
        }
    }

    /// Appends an update check `serve` refused because its `app_key` is not the one the
    /// fingerprint's release is for (a table of its own: such a device is not one of the app's).
    public func recordWrongAppKey(_ check: UpdateCheckRequest, receivedAt: String) throws(EventDatabaseError) {
        let path = self.path
        try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) in
            guard let statement = connection.insertWrongAppKey else { return }
            defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
            let texts: [String?] = [receivedAt, check.deviceID, check.appKey, check.fingerprint, check.channel]
            for (index, text) in texts.enumerated() {
                Self.bind(statement, Int32(index + 1), text)
            }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle)))
            }
        }
    }

    /// Appends a diff a device could not apply (`DiffFallbacks`): it downloaded the full module of
    /// `moduleVersion` (the newest release of that content) after `diffPath`.
    public func recordWastedDiff(diffPath: String, moduleVersion: String?, receivedAt: String) throws(EventDatabaseError) {
        let path = self.path
        try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) in
            guard let statement = connection.insertWastedDiff else { return }
            defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
            for (index, text) in [receivedAt, moduleVersion, diffPath].enumerated() { Self.bind(statement, Int32(index + 1), text) }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle)))
            }
        }
    }

    /// What earlier checks left of a device's slots (`DeviceSlots`), nil for a device never seen.
    /// Devices are keyed by app key and id: the SDK keeps one set of slots per app key.
    public func deviceSlots(deviceID: String, appKey: String?) throws(EventDatabaseError) -> DeviceSlots? {
        try device(deviceID: deviceID, appKey: appKey)?.slots
    }

    /// A device's slots and when it was last seen (`updated_at`, a TUF time: `saveDeviceSlots`'s
    /// `at`), nil for a device never seen.
    public func device(deviceID: String, appKey: String?) throws(EventDatabaseError) -> (slots: DeviceSlots, seenAt: String)? {
        let path = self.path
        return try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) -> (slots: DeviceSlots, seenAt: String)? in
            guard let statement = connection.selectSlots else { return nil }
            defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
            Self.bind(statement, 1, appKey ?? "")
            Self.bind(statement, 2, deviceID)
            switch sqlite3_step(statement) {
            case SQLITE_DONE: return nil
            case SQLITE_ROW:
                let previous = Self.text(statement, 1)
                let slots = DeviceSlots(
                    current: Self.text(statement, 0),
                    previous: sqlite3_column_int(statement, 2) == 0 ? .unknown : previous.map(DeviceSlots.Previous.version) ?? .empty,
                    offered: Self.text(statement, 3))
                return (slots, Self.text(statement, 4) ?? "")
            default: throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle)))
            }
        }
    }

    /// Records a device's slots as its latest check left them.
    public func saveDeviceSlots(_ slots: DeviceSlots, deviceID: String, appKey: String?, at time: String) throws(EventDatabaseError) {
        let path = self.path
        try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) in
            guard let statement = connection.upsertSlots else { return }
            defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
            let previous: String? = if case let .version(version) = slots.previous { version } else { nil }
            Self.bind(statement, 1, appKey ?? "")
            Self.bind(statement, 2, deviceID)
            Self.bind(statement, 3, slots.current)
            Self.bind(statement, 4, previous)
            sqlite3_bind_int(statement, 5, slots.previous == .unknown ? 0 : 1)
            Self.bind(statement, 6, slots.offered)
            Self.bind(statement, 7, time)
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle)))
            }
        }
    }

    /// Rows deleted per statement when forgetting devices: the lock every request needs is held
    /// for one batch at a time (milliseconds), never for a whole sweep.
    static let forgetBatch = 1000

    /// Deletes the slots of devices last seen before `cutoff` (a TUF time), batch by batch through
    /// the `updated_at` index; returns how many.
    public func forgetDevices(seenBefore cutoff: String) throws(EventDatabaseError) -> Int {
        var total = 0
        while true {
            let deleted = try changes("""
                DELETE FROM device_slots WHERE (app_key, device_id) IN
                    (SELECT app_key, device_id FROM device_slots WHERE updated_at < ?1 LIMIT \(Self.forgetBatch))
                """, [cutoff])
            total += deleted
            if deleted < Self.forgetBatch { return total }
        }
    }

    /// Deletes the slots of devices none of whose versions (current, previous, offered) is in
    /// `versions`: slots of releases the store no longer has, which can never name a diff's base
    /// again. Walks the table in key order, a batch of keys at a time; returns how many.
    public func forgetDevices(runningNoneOf versions: Set<String>) throws(EventDatabaseError) -> Int {
        try changes("CREATE TEMP TABLE IF NOT EXISTS live_versions (version TEXT PRIMARY KEY) WITHOUT ROWID", [])
        _ = try changes("DELETE FROM temp.live_versions", [])
        for version in versions { _ = try changes("INSERT OR IGNORE INTO temp.live_versions VALUES (?1)", [version]) }
        defer { _ = try? changes("DELETE FROM temp.live_versions", []) }
        var total = 0
        var start: [String?] = [nil, nil]
        while true {
            // The last key of the next batch (nil: the rest of the table is one batch).
            let end = try rows("""
                SELECT app_key, device_id FROM device_slots WHERE ?1 IS NULL OR (app_key, device_id) > (?1, ?2)
                ORDER BY app_key, device_id LIMIT 1 OFFSET \(Self.forgetBatch - 1)
                """, start).first ?? [nil, nil]
            total += try changes("""
                DELETE FROM device_slots
                WHERE (?1 IS NULL OR (app_key, device_id) > (?1, ?2)) AND (?3 IS NULL OR (app_key, device_id) <= (?3, ?4))
                  AND (current_version IS NULL OR current_version NOT IN temp.live_versions)
                  AND (previous_version IS NULL OR previous_version NOT IN temp.live_versions)
                  AND (offered_version IS NULL OR offered_version NOT IN temp.live_versions)
                """, start + end)
            if end[0] == nil { return total }
            start = end
        }
    }

    /// Rows deleted per statement by retention: like `forgetBatch`, the lock is held a batch at a time.
    static let retentionBatch = 5000

    /// Retention: deletes events, refused checks and wasted diffs received before `cutoff`.
    /// Rows are appended in time order (ids grow with `received_at`), so each table's old rows are
    /// the ones below the first id received at or after the cutoff: found by walking the rowid from
    /// the start (as far as the old rows go, no index needed), then deleted in batches.
    public func forgetEvents(receivedBefore cutoff: String) throws(EventDatabaseError) -> Int {
        var total = 0
        for table in ["events", "wrong_app_key_checks", "wasted_diffs"] {
            let keep = try rows("SELECT id FROM \(table) WHERE received_at >= ?1 ORDER BY id LIMIT 1", [cutoff]).first?.first ?? nil
            // Without a row to keep, every row is older: the bound is past the largest id.
            let bound = keep ?? "9223372036854775807"
            while true {
                let deleted = try changes("DELETE FROM \(table) WHERE id IN (SELECT id FROM \(table) WHERE id < ?1 ORDER BY id LIMIT \(Self.retentionBatch))", [bound])
                total += deleted
                if deleted < Self.retentionBatch { break }
            }
        }
        return total
    }

    /// What `status` reports, counted by this database's queries.
    public func adoptionCounts() throws(EventDatabaseError) -> AdoptionCounts {
        func number(_ text: String?) -> Int { Int(text ?? "0") ?? 0 }
        let totals = try rows("SELECT COUNT(*), COUNT(DISTINCT device_id) FROM events").first ?? []
        let versions = try rows("""
            SELECT module_version, SUM(event_type = 'download'), SUM(event_type = 'activation'), SUM(event_type = 'error'),
                   SUM(event_type = 'fallback'), COUNT(DISTINCT CASE WHEN event_type = 'activation' THEN device_id END)
            FROM events GROUP BY module_version
            """).map { row in
            AdoptionCounts.Version(
                version: row[0], downloads: number(row[1]), activations: number(row[2]), errors: number(row[3]), fallbacks: number(row[4]),
                devicesActivated: number(row[5]))
        }
        var running: [String: Int] = [:]
        // SQLite returns the bare columns of the row holding MAX(id): each device's latest state.
        for row in try rows("""
            SELECT module_version, COUNT(*) FROM (
                SELECT device_id, module_version, MAX(id) FROM events
                WHERE event_type IN ('activation', 'fallback') GROUP BY device_id)
            WHERE module_version IS NOT NULL GROUP BY module_version
            """) {
            if let version = row[0] { running[version] = number(row[1]) }
        }
        var commonest: [String: String] = [:]
        for row in try rows("""
            SELECT module_version, error_message, COUNT(*) AS n FROM events
            WHERE event_type = 'error' AND module_version IS NOT NULL AND error_message IS NOT NULL
            GROUP BY module_version, error_message ORDER BY n DESC, error_message
            """) {
            guard let version = row[0], commonest[version] == nil, let message = row[1] else { continue }
            commonest[version] = message
        }
        var wrongAppKeyChecks: [String: Int] = [:]
        for row in try rows("SELECT COALESCE(app_key, '(none)'), COUNT(*) FROM wrong_app_key_checks GROUP BY 1") {
            wrongAppKeyChecks[row[0] ?? "(none)"] = number(row[1])
        }
        var wastedDiffs: [String: Int] = [:]
        for row in try rows("SELECT COALESCE(module_version, '(unknown)'), COUNT(*) FROM wasted_diffs GROUP BY 1") {
            wastedDiffs[row[0] ?? "(unknown)"] = number(row[1])
        }
        return AdoptionCounts(
            events: number(totals.first ?? nil), devices: number(totals.dropFirst().first ?? nil), versions: versions,
            devicesRunning: running, commonestErrors: commonest, wrongAppKeyChecks: wrongAppKeyChecks, wastedDiffs: wastedDiffs)
    }

    /// Runs one statement with its parameters bound as text; returns how many rows it changed.
    @discardableResult
    private func changes(_ sql: String, _ parameters: [String?]) throws(EventDatabaseError) -> Int {
        let path = self.path
        return try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) -> Int in
            let statement = try Self.prepare(connection.handle, path: path, sql)
            defer { sqlite3_finalize(statement) }
            for (index, parameter) in parameters.enumerated() { Self.bind(statement, Int32(index + 1), parameter) }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle)))
            }
            return Int(sqlite3_changes(connection.handle))
        }
    }

    /// Runs a read query and returns each row's columns as text (nil for NULL), each as long as
    /// SQLite says it is: text with a NUL in it comes back whole.
    package func rows(_ sql: String, _ parameters: [String?] = []) throws(EventDatabaseError) -> [[String?]] {
        let path = self.path
        return try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) -> [[String?]] in
            let statement = try Self.prepare(connection.handle, path: path, sql)
            defer { sqlite3_finalize(statement) }
            for (index, parameter) in parameters.enumerated() { Self.bind(statement, Int32(index + 1), parameter) }
            var rows: [[String?]] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else { throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(connection.handle))) }
                rows.append((0..<sqlite3_column_count(statement)).map { Self.text(statement, $0) })
            }
            return rows
        }
    }

    // MARK: - SQLite helpers

    /// SQLITE_TRANSIENT: SQLite copies the bound text, so the Swift string may go away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds with the UTF-8 length: with -1 SQLite would stop at the first NUL, and an error
    /// message `"msg\u0000hidden"` would be stored as `msg`.
    private static func bind(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
        guard let text else { sqlite3_bind_null(statement, index); return }
        sqlite3_bind_text64(statement, index, text, sqlite3_uint64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
    }

    /// A text column of the current row, whole (NULs included), nil for NULL.
    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { text in
            String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }
    }

    private static func execute(_ handle: OpaquePointer, path: String, _ sql: String) throws(EventDatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let reason = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw .statementFailed(path: path, reason: reason)
        }
    }

    private static func prepare(_ handle: OpaquePointer, path: String, _ sql: String) throws(EventDatabaseError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(handle)))
        }
        return statement
    }

    private static func integer(_ handle: OpaquePointer, path: String, _ sql: String) throws(EventDatabaseError) -> Int {
        let statement = try prepare(handle, path: path, sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw .statementFailed(path: path, reason: String(cString: sqlite3_errmsg(handle))) }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
