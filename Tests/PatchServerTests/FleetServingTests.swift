import Foundation
import HummingbirdTesting
import PatchManifest
import PatchServer
import PatchStore
import Testing

/// Serving at fleet scale over SQLite: artifact URLs on a CDN (`--artifact-base-url`) and
/// retention (`--events-retention`). PostgreSQL's side: Tests/PatchEventsPostgresTests.
struct FleetServingTests {
    @Test func artifactAndDiffURLsUseTheArtifactBaseURL() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        let second = try fixture.publish(answer: 2)
        try fixture.deviceInstalledFirst(first.version)
        let server = UpdateServer(
            store: fixture.store, events: fixture.events,
            configuration: ServerConfiguration(publicURL: "https://api.example.com", artifactBaseURL: "https://cdn.example.com/store/"))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let update = try await client.check(sdkCheckBody(currentVersion: first.version))
            #expect(update.version == second.version)
            #expect(update.moduleURL?.hasPrefix("https://cdn.example.com/store/targets/modules/") == true)
            #expect(update.diffURL?.hasPrefix("https://cdn.example.com/store/targets/") == true)
            // The same file, at the same path under the store: what a CDN holding a copy serves.
            let path = try #require(update.moduleURL?.dropFirst("https://cdn.example.com/store/".count))
            #expect(FileManager.default.fileExists(atPath: fixture.store.base.appendingPathComponent(String(path)).path))
            #expect(try await client.execute(uri: "/" + path, method: .get).headers[.cacheControl] == "public, max-age=31536000, immutable")
        }
    }

    @Test func metadataIsServedForACDNWithTimestampShortAndTheRestImmutable() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try fixture.publish(answer: 1)
        try await fixture.application.test(.router) { client async throws in
            let timestamp = try await client.execute(uri: "/metadata/timestamp.json", method: .get)
            #expect(timestamp.status == .ok)
            #expect(timestamp.headers[.cacheControl] == "public, max-age=\(UpdateServer.timestampMaxAge)")
            let onDisk = try Data(contentsOf: fixture.store.base.appendingPathComponent("metadata/timestamp.json"))
            #expect(Data(timestamp.body.readableBytesView) == onDisk, "the signed bytes as the store holds them")
            for name in ["1.root.json", "2.snapshot.json", "2.targets.json"] {
                let file = try await client.execute(uri: "/metadata/\(name)", method: .get)
                #expect(file.status == .ok, "\(name)")
                #expect(file.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(name)")
            }
            for name in ["99.root.json", "x.root.json", ".root.json", "1.keys.json", "..", "timestamp.json.tmp"] {
                #expect(try await client.execute(uri: "/metadata/\(name)", method: .get).status == .notFound, "\(name)")
            }
        }
    }

    @Test func retentionDeletesOnlyRowsOlderThanTheWindow() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        for day in 1...9 {
            try fixture.events.record(DeviceEvent(deviceID: "d\(day)", eventType: .download, moduleVersion: "1-a"), receivedAt: "2026-11-0\(day)T12:00:00Z")
        }
        try fixture.events.recordWastedDiff(diffPath: "targets/diffs/a", moduleVersion: nil, receivedAt: "2026-11-01T12:00:00Z")
        try fixture.events.recordWastedDiff(diffPath: "targets/diffs/b", moduleVersion: nil, receivedAt: "2026-11-09T12:00:00Z")
        let now = try #require(TUFTime.parse("2026-11-09T12:00:00Z"))
        let server = UpdateServer(
            store: fixture.store, events: fixture.events,
            configuration: ServerConfiguration(eventsRetention: .seconds(4 * 86_400), clock: { now }))
        #expect(await server.forgetDevices().events == 5, "days 1 to 4 and the old wasted diff; day 5 is exactly at the cutoff")
        let report = try AdoptionReport.summarize(fixture.events)
        #expect(report.events == 5 && report.wastedDiffs == ["(unknown)": 1])
        #expect(await server.forgetDevices().events == 0)
    }
}
