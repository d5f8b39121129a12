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
        case let .notFound(path): return "\(path): no event database here; `patchcli serve --events-db \(path)` creates it"
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
public final class EventDatabase: Sendable {
    static let schemaVersion = 1
    public let path: String
    private let connection: Mutex<Connection>

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

    /// Opens (and with `create`, creates) the database at `path`.
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
        try Self.execute(connection.handle, path: path, """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=NORMAL;
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
            CREATE TABLE IF NOT EXISTS wasted_diffs (
                id INTEGER PRIMARY KEY,
                received_at TEXT NOT NULL,
                module_version TEXT,
                diff_path TEXT NOT NULL
            );
            """)
        let version = try Self.integer(connection.handle, path: path, "PRAGMA user_version")
        if version > Self.schemaVersion { throw .newerSchema(path: path, version: version) }
        if version < Self.schemaVersion { try Self.execute(connection.handle, path: path, "PRAGMA user_version=\(Self.schemaVersion)") }
        connection.insert = try Self.prepare(connection.handle, path: path, """
            INSERT INTO events (received_at, event_type, device_id, module_version, error_message,
                                app_id, app_key, os_version, device_model, app_version, duration_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        connection.insertWrongAppKey = try Self.prepare(connection.handle, path: path, """
            INSERT INTO wrong_app_key_checks (received_at, device_id, app_key, fingerprint, channel) VALUES (?, ?, ?, ?, ?)
            """)
        connection.selectSlots = try Self.prepare(connection.handle, path: path, """
            SELECT current_version, previous_version, previous_known, offered_version FROM device_slots WHERE app_key = ? AND device_id = ?
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
    /// A table added without a schema bump: an older patchcli reading the file ignores it.
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
        let path = self.path
        return try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) -> DeviceSlots? in
            guard let statement = connection.selectSlots else { return nil }
            defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
            Self.bind(statement, 1, appKey ?? "")
            Self.bind(statement, 2, deviceID)
            switch sqlite3_step(statement) {
            case SQLITE_DONE: return nil
            case SQLITE_ROW:
                let previous = Self.text(statement, 1)
                return DeviceSlots(
                    current: Self.text(statement, 0),
                    previous: sqlite3_column_int(statement, 2) == 0 ? .unknown : previous.map(DeviceSlots.Previous.version) ?? .empty,
                    offered: Self.text(statement, 3))
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

    /// Runs a read query and returns each row's columns as text (nil for NULL), each as long as
    /// SQLite says it is: text with a NUL in it comes back whole.
    package func rows(_ sql: String) throws(EventDatabaseError) -> [[String?]] {
        let path = self.path
        return try connection.withLock { (connection: inout Connection) throws(EventDatabaseError) -> [[String?]] in
            let statement = try Self.prepare(connection.handle, path: path, sql)
            defer { sqlite3_finalize(statement) }
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
