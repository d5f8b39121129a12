import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import PatchEventsPostgres
import PatchManifest
import PatchServer
import PatchStore
import PostgresTestServer
import Testing

/// The PostgreSQL event store against a real server (`PostgresCluster`, one per test: several
/// stop and restart theirs). Nothing here asserts on time: waits are for states, with generous caps.
@Suite(.enabled(if: PostgresCluster.enabled, "PostgreSQL's server binaries are not installed (scripts/setup.sh installs them)"))
struct PostgresEventStoreTests {
    /// An initialized, empty release store: checks are answered "no update", events need no release.
    static func releaseStore() throws -> (ReleaseStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchpg-store-\(UUID().uuidString)")
        let store = ReleaseStore(directory: directory.path)
        var keys: [TUFRole: SigningKey] = [:]
        for role in TUFRole.allCases { keys[role] = SigningKey.generate() }
        _ = try store.initialize(roleKeys: keys.mapValues(\.publicKey), signers: RoleSigners(keys.mapValues { [$0] }), options: PublishOptions())
        return (store, directory)
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    static func post(_ client: some TestClientProtocol, _ path: String, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: path, method: .post, headers: json, body: ByteBuffer(string: body))
    }

    static func event(_ device: String, _ type: String = "activation", version: String = "1-a") -> String {
        #"{"device_id":"\#(device)","event_type":"\#(type)","module_version":"\#(version)"}"#
    }

    static let check = #"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":"device-x","channel":"production","app_key":"demo-app"}"#

    @Test func eventsFromTwoReplicasLandOnceEach() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresURL(parsing: try await cluster.createDatabase("replicas"))
        let (store, directory) = try Self.releaseStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two replicas: two servers, each with its own connections and queue, one store, one database.
        let first = try await PostgresEventStore(url: url)
        let second = try await PostgresEventStore(url: url)
        let replicas = [UpdateServer(store: store, events: first), UpdateServer(store: store, events: second)]
        for (index, replica) in replicas.enumerated() {
            try await replica.application(host: "127.0.0.1", port: 0).test(.router) { client in
                for device in 0..<100 {
                    let response = try await Self.post(client, UpdateServer.eventsPath, Self.event("r\(index)-d\(device)"))
                    #expect(response.status == .accepted)
                }
            }
        }
        await first.close(deadline: .seconds(120))
        await second.close(deadline: .seconds(120))
        #expect(first.pendingWrites == 0 && second.pendingWrites == 0)
        let reader = try await PostgresEventStore(url: url)
        let counts = try await reader.adoptionCounts()
        await reader.close()
        #expect(counts.events == 200 && counts.devices == 200, "each event once: 200 devices, one event each")
        #expect(counts.devicesRunning == ["1-a": 200])
    }

    @Test func statusOverPostgresEqualsStatusOverSQLite() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let postgres = try await PostgresEventStore(url: try PostgresURL(parsing: try await cluster.createDatabase("parity")))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let sqlite = try EventDatabase(path: file.path, create: true)
        let stores: [any EventStore] = [sqlite, postgres]
        // Downloads, activations, a device moving on and one falling back, errors (a tie between two
        // messages, one with a NUL and an escape), a failed check, refused checks and wasted diffs.
        let events = [
            DeviceEvent(deviceID: "d1", eventType: .download, moduleVersion: "1-a"),
            DeviceEvent(deviceID: "d1", eventType: .activation, moduleVersion: "1-a", durationMS: 12),
            DeviceEvent(deviceID: "d2", eventType: .activation, moduleVersion: "1-a"),
            DeviceEvent(deviceID: "d2", eventType: .activation, moduleVersion: "2-b"),
            DeviceEvent(deviceID: "d3", eventType: .activation, moduleVersion: "2-b"),
            DeviceEvent(deviceID: "d3", eventType: .error, moduleVersion: "2-b", errorMessage: "trap\u{0}hidden \u{1B}[31m"),
            DeviceEvent(deviceID: "d3", eventType: .error, moduleVersion: "2-b", errorMessage: "out of fuel"),
            DeviceEvent(deviceID: "d3", eventType: .fallback, moduleVersion: "1-a"),
            DeviceEvent(deviceID: "d4", eventType: .error, errorMessage: "check failed"),
            DeviceEvent(deviceID: "d5", eventType: .download, moduleVersion: "3-c", appKey: "demo-app", osVersion: "18.1"),
        ]
        for store in stores {
            for (index, event) in events.enumerated() { try await store.record(event, receivedAt: "2026-11-27T10:00:0\(index % 10)Z") }
            for key in ["intruder", nil, "intruder"] {
                try await store.recordWrongAppKey(
                    UpdateCheckRequest(currentVersion: "0", fingerprint: "fp", deviceID: "x", channel: "production", appKey: key), receivedAt: "2026-11-27T10:00:00Z")
            }
            try await store.recordWastedDiff(diffPath: "targets/diffs/a", moduleVersion: "2-b", receivedAt: "2026-11-27T10:00:00Z")
            try await store.recordWastedDiff(diffPath: "targets/diffs/b", moduleVersion: nil, receivedAt: "2026-11-27T10:00:00Z")
        }
        await postgres.close(deadline: .seconds(120))
        let expected = try sqlite.adoptionCounts()
        let reader = try await PostgresEventStore(url: postgres.url)
        let counts = try await reader.adoptionCounts()
        await reader.close()
        #expect(counts.events == expected.events && counts.devices == expected.devices)
        #expect(counts.versions.sorted { ($0.version ?? "") < ($1.version ?? "") } == expected.versions.sorted { ($0.version ?? "") < ($1.version ?? "") })
        #expect(counts.devicesRunning == expected.devicesRunning)
        #expect(counts.commonestErrors == expected.commonestErrors)
        #expect(counts.commonestErrors["2-b"] == "out of fuel", "a tie goes to the first in byte order")
        #expect(counts.wrongAppKeyChecks == expected.wrongAppKeyChecks && counts.wastedDiffs == expected.wastedDiffs)
        #expect(try AdoptionReport(counts: counts) == AdoptionReport.summarize(sqlite), "the report status prints is the same")
        #expect(AdoptionReport(counts: counts).releases.first { $0.version == "1-a" }?.devicesRunning == 2)
    }

    @Test func theDatabaseGoingAwayLosesNothingAnswered202() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresURL(parsing: try await cluster.createDatabase("restart"))
        let (store, directory) = try Self.releaseStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try await PostgresEventStore(url: url)
        let server = UpdateServer(store: store, events: events)
        let accepted = try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            var accepted = 0
            for device in 0..<20 {
                if try await Self.post(client, UpdateServer.eventsPath, Self.event("before-\(device)")).status == .accepted { accepted += 1 }
            }
            cluster.stop()
            for device in 0..<30 {
                if try await Self.post(client, UpdateServer.eventsPath, Self.event("away-\(device)")).status == .accepted { accepted += 1 }
            }
            // Checks are answered while the database is away (without the device's slots: no diff).
            #expect(try await Self.post(client, UpdateServer.checkPath, Self.check).status == .ok)
            let metrics = try await client.execute(uri: UpdateServer.metricsPath, method: .get)
            #expect(String(buffer: metrics.body).contains("patchcli_serve_events_pending"))
            try cluster.start()
            return accepted
        }
        #expect(accepted == 50)
        await events.close(deadline: .seconds(120))
        #expect(events.pendingWrites == 0)
        let reader = try await PostgresEventStore(url: url)
        let counts = try await reader.adoptionCounts()
        await reader.close()
        #expect(counts.events == 50, "every event answered 202 is stored, those queued while the database was away too")
    }

    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresURL(parsing: try await cluster.createDatabase("fullqueue"))
        let (store, directory) = try Self.releaseStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try await PostgresEventStore(url: url, queueCapacity: 3)
        let server = UpdateServer(store: store, events: events)
        cluster.stop()  // nothing drains: the queue fills
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            for device in 0..<3 {
                #expect(try await Self.post(client, UpdateServer.eventsPath, Self.event("d\(device)")).status == .accepted)
            }
            let refused = try await Self.post(client, UpdateServer.eventsPath, Self.event("d3"))
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "5")
            #expect(String(buffer: refused.body).contains(#""error":"events_busy""#))
            let metrics = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(metrics.contains("patchcli_serve_events_rejected_total 1"))
            #expect(metrics.contains("patchcli_serve_events_pending 3"))
        }
        try cluster.start()
        await events.close(deadline: .seconds(120))
        let reader = try await PostgresEventStore(url: url)
        #expect(try await reader.adoptionCounts().events == 3, "the three accepted, not the refused one")
        await reader.close()
    }

    /// `patchcli_serve_event_queue_wait_seconds`: each write's wait from its 202 to its commit, so
    /// writes queued through an outage show up in the slow buckets once the database is back.
    @Test func queueWaitsAreMeasuredFromTheAnswerToTheCommit() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresURL(parsing: try await cluster.createDatabase("queuewaits"))
        let (store, directory) = try Self.releaseStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try await PostgresEventStore(url: url)
        let server = UpdateServer(store: store, events: events)
        cluster.stop()
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            for device in 0..<4 {
                #expect(try await Self.post(client, UpdateServer.eventsPath, Self.event("w\(device)")).status == .accepted)
            }
            var metrics = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(metrics.contains("patchcli_serve_event_queue_wait_seconds_count 0"), "nothing committed while the database is away")
            try await Task.sleep(for: .milliseconds(600))
            try cluster.start()
            let deadline = ContinuousClock.now + .seconds(120)
            while events.pendingWrites > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(events.pendingWrites == 0)
            metrics = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(metrics.contains("patchcli_serve_event_queue_wait_seconds_count 4"))
            #expect(metrics.contains(#"patchcli_serve_event_queue_wait_seconds_bucket{le="0.5"} 0"#), "each waited through the outage")
            #expect(metrics.contains(#"patchcli_serve_event_queue_wait_seconds_bucket{le="+Inf"} 4"#))
        }
        await events.close(deadline: .seconds(60))
    }

    @Test func writesThatCannotBeStoredByCloseAreCounted() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let events = try await PostgresEventStore(url: try PostgresURL(parsing: try await cluster.createDatabase("away")))
        cluster.stop()
        try await events.record(DeviceEvent(deviceID: "d1", eventType: .download), receivedAt: "2026-11-27T10:00:00Z")
        try await events.recordWastedDiff(diffPath: "targets/diffs/a", moduleVersion: nil, receivedAt: "2026-11-27T10:00:00Z")
        // The database stays away: whatever the deadline, both writes are still queued after it,
        // and serve reports that number when it exits.
        await events.close(deadline: .milliseconds(300))
        #expect(events.pendingWrites == 2)
    }

    @Test func retentionDeletesOldRowsAndSweepsForgetDevices() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresURL(parsing: try await cluster.createDatabase("sweeps"))
        let events = try await PostgresEventStore(url: url)
        for day in 1...9 { try await events.record(DeviceEvent(deviceID: "d\(day)", eventType: .download, moduleVersion: "1-a"), receivedAt: "2026-11-0\(day)T00:00:00Z") }
        try await events.recordWastedDiff(diffPath: "targets/diffs/a", moduleVersion: nil, receivedAt: "2026-11-01T00:00:00Z")
        try await events.saveDeviceSlots(DeviceSlots(current: "1-a", previous: .empty), deviceID: "old", appKey: "k", at: "2026-01-01T00:00:00Z")
        try await events.saveDeviceSlots(DeviceSlots(current: "gone", previous: .unknown), deviceID: "gone", appKey: "k", at: "2026-11-09T00:00:00Z")
        try await events.saveDeviceSlots(DeviceSlots(current: "1-a", previous: .version("0-z")), deviceID: "live", appKey: "k", at: "2026-11-09T00:00:00Z")
        await events.close(deadline: .seconds(120))
        let store = try await PostgresEventStore(url: url)
        #expect(try await store.forgetEvents(receivedBefore: "2026-11-05T00:00:00Z") == 5, "four events and the wasted diff")
        #expect(try await store.adoptionCounts().events == 5)
        #expect(try await store.forgetDevices(seenBefore: "2026-06-01T00:00:00Z") == 1)
        // More devices than one batch of the key-ordered walk, every other one running a live version.
        let bulk = try await cluster.rows("""
            INSERT INTO device_slots SELECT 'k', 'bulk-' || g, CASE WHEN g % 2 = 0 THEN '1-a' ELSE 'gone' END, NULL, false, NULL,
                '2026-11-09T00:00:00Z' FROM generate_series(1, 2500) g RETURNING 0
            """, database: "sweeps", as: Int.self)
        #expect(bulk.count == 2500)
        #expect(try await store.forgetDevices(runningNoneOf: ["1-a"]) == 1 + 1250)
        #expect(try await cluster.rows("SELECT count(*)::int FROM device_slots", database: "sweeps", as: Int.self) == [1 + 1250])
        #expect(try await store.device(deviceID: "live", appKey: "k")?.slots == DeviceSlots(current: "1-a", previous: .version("0-z")))
        #expect(try await store.device(deviceID: "gone", appKey: "k") == nil)
        await store.close()
    }

    @Test func aNewerSchemaIsRefusedAndAnUnreachableDatabaseIsNamed() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try PostgresURL(parsing: try await cluster.createDatabase("future"))
        await (try await PostgresEventStore(url: url)).close()
        _ = try await cluster.rows("UPDATE schema_version SET version = 99 RETURNING version", database: "future", as: Int.self)
        await #expect {
            _ = try await PostgresEventStore(url: url)
        } throws: { error in
            guard case let .newerSchema(_, version, known)? = error as? PostgresEventStoreError else { return false }
            return version == 99 && known == PostgresEventStore.schemaVersion
        }
        let missing = try PostgresURL(parsing: cluster.url("nosuchdb"))
        await #expect {
            _ = try await PostgresEventStore(url: missing)
        } throws: { error in
            guard case let .unreachable(named, reason)? = error as? PostgresEventStoreError else { return false }
            return named == missing.description && reason.contains("nosuchdb")
        }
        let closed = try PostgresURL(parsing: "postgres://patchcli@127.0.0.1:\(try PostgresCluster.freePort())/x?sslmode=disable")
        await #expect(throws: PostgresEventStoreError.self) { _ = try await PostgresEventStore(url: closed) }
    }
}
