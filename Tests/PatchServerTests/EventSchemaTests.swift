import Foundation
import PatchServer
import Testing

/// The event database's schema version (docs/serve.md "The event database"): files written by an
/// older patchcli are migrated in place with their data, a newer one's are refused untouched.
struct EventSchemaTests {
    /// The schema the first `serve` wrote (version 1: events only), with one event.
    static let version1 = """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY, received_at TEXT NOT NULL, event_type TEXT NOT NULL, device_id TEXT NOT NULL,
            module_version TEXT, error_message TEXT,
            app_id TEXT, app_key TEXT, os_version TEXT, device_model TEXT, app_version TEXT, duration_ms INTEGER
        );
        CREATE INDEX events_by_version ON events (module_version, event_type);
        CREATE INDEX events_by_device ON events (device_id, event_type);
        INSERT INTO events (received_at, event_type, device_id, module_version) VALUES ('2026-11-20T08:00:00Z', 'activation', 'd1', '1-abc');
        PRAGMA user_version=1;
        """

    /// Version 1 as later commits left it: device slots added without a bump (no index on them).
    static let version1WithSlots = version1 + """
        CREATE TABLE device_slots (
            app_key TEXT NOT NULL, device_id TEXT NOT NULL, current_version TEXT, previous_version TEXT,
            previous_known INTEGER NOT NULL, offered_version TEXT, updated_at TEXT NOT NULL,
            PRIMARY KEY (app_key, device_id)
        ) WITHOUT ROWID;
        INSERT INTO device_slots VALUES ('demo-app', 'd1', '2-def', '1-abc', 1, NULL, '2026-11-21T08:00:00Z');
        """

    @Test(arguments: [version1, version1WithSlots])
    func anOlderDatabaseIsMigratedWithItsData(schema: String) throws {
        try withDirectory { directory in
            let path = directory.appendingPathComponent("events.sqlite").path
            try sqlite(path, schema)
            let database = try EventDatabase(path: path, create: false)
            #expect(try database.rows("PRAGMA user_version") == [["2"]])
            #expect(try database.rows("SELECT device_id, module_version FROM events") == [["d1", "1-abc"]], "events kept")
            let indexes = try database.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'device_slots'").compactMap(\.first)
            #expect(indexes.contains("device_slots_by_seen"), "\(indexes)")
            #expect(try AdoptionReport.summarize(database).wastedDiffs.isEmpty, "the tables version 2 reads are there")
            if schema == Self.version1WithSlots {
                let device = try #require(try database.device(deviceID: "d1", appKey: "demo-app"))
                #expect(device.slots == DeviceSlots(current: "2-def", previous: .version("1-abc")))
                #expect(device.seenAt == "2026-11-21T08:00:00Z")
            }
            // A second open (another server, a restart) finds it current and changes nothing.
            #expect(try EventDatabase(path: path, create: false).rows("SELECT COUNT(*) FROM events") == [["1"]])
        }
    }

    /// A file of a newer schema is refused before anything is written to it.
    @Test func aNewerDatabaseIsRefusedUntouched() throws {
        try withDirectory { directory in
            let path = directory.appendingPathComponent("events.sqlite").path
            try sqlite(path, "CREATE TABLE future (x); PRAGMA user_version=3;")
            #expect {
                try EventDatabase(path: path, create: true)
            } throws: { error in
                guard case let .newerSchema(refused, version)? = error as? EventDatabaseError else { return false }
                return refused == path && version == 3 && "\(error)".contains("newer patchcli (schema 3, this one knows 2)")
            }
            #expect(try sqlite(path, "SELECT name FROM sqlite_master") == "future\n", "no table of this version added")
        }
    }

    @discardableResult
    private func sqlite(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return text
    }

    private func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchevents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }
}
