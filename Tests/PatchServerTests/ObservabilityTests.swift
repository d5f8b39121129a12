import Foundation
import HummingbirdTesting
import NIOCore
import PatchManifest
import PatchServer
import PatchStore
import Testing

/// What `serve` says about itself: wasted diffs, the request log and `GET /metrics`.
struct ObservabilityTests {
    /// The SDK fetches the diff, fails its SHA-256 and fetches the full module on the same
    /// connection (sdk-contract §7.4): one wasted diff, stored for `status` and counted in metrics.
    /// A diff that applied (no full download after it) and a full download with no diff before it
    /// are not.
    @Test func aFullDownloadAfterADiffOnOneConnectionIsAWastedDiff() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        let second = try fixture.publish(answer: 2)
        try fixture.deviceInstalledFirst(first.version)
        try await fixture.application.test(.live) { client async throws in
            let update = try await client.check(sdkCheckBody(currentVersion: first.version))
            let diffPath = try #require(update.diffURL.flatMap(URL.init(string:))?.path)
            let modulePath = try #require(update.moduleURL.flatMap(URL.init(string:))?.path)
            #expect(try await client.execute(uri: modulePath, method: .get).status == .ok, "a full download with no diff before it")
            #expect(try await client.execute(uri: diffPath, method: .get).status == .ok)
            #expect(try await client.execute(uri: modulePath, method: .head).status == .ok, "a HEAD is no download")
            #expect(try await client.execute(uri: modulePath, method: .get).status == .ok)
            #expect(try await client.execute(uri: modulePath, method: .get).status == .ok, "one diff is wasted once")
            #expect(try await client.execute(uri: diffPath, method: .get).status == .ok, "a diff that applied")

            let metrics = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(metrics.contains("patchcli_serve_wasted_diffs_total 1\n"), "\(metrics)")
            #expect(metrics.contains(#"patchcli_serve_downloads_total{kind="full"} 3"#), "\(metrics)")
            #expect(metrics.contains(#"patchcli_serve_downloads_total{kind="diff"} 2"#), "\(metrics)")
        }
        #expect(try AdoptionReport.summarize(fixture.events).wastedDiffs == [second.version: 1])
    }

    @Test func metricsAnswerInTheTextFormatAndMoveWithRequests() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        _ = try fixture.publish(answer: 1)
        try await fixture.application.test(.router) { client async throws in
            let before = try await client.execute(uri: UpdateServer.metricsPath, method: .get)
            #expect(before.status == .ok)
            #expect(before.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let initial = String(buffer: before.body)
            #expect(initial.contains("# TYPE patchcli_serve_checks_total counter"), "\(initial)")
            #expect(initial.contains(#"patchcli_serve_checks_total{decision="update_full"} 0"#), "every series is there from the start: \(initial)")
            #expect(initial.contains("# TYPE patchcli_serve_request_duration_seconds histogram"), "\(initial)")

            _ = try await client.check(sdkCheckBody())
            _ = try await client.check(sdkCheckBody(deviceID: "device-2"))
            _ = try await client.post(UpdateServer.eventsPath, #"{"device_id":"device-1","event_type":"activation","module_version":"1-abc"}"#)
            _ = try await client.post(UpdateServer.checkPath, "{}")
            let after = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(after.contains(#"patchcli_serve_checks_total{decision="update_full"} 2"#), "\(after)")
            #expect(after.contains(#"patchcli_serve_events_total{event_type="activation"} 1"#), "\(after)")
            #expect(after.contains(#"patchcli_serve_responses_total{route="check",status="400"} 1"#), "\(after)")
            #expect(after.contains(#"patchcli_serve_request_duration_seconds_count{route="check"} 3"#), "\(after)")
        }
    }

    @Test(arguments: RequestLog.Format.allCases)
    func everyRequestGetsOneLogLineWithoutIdsInClear(format: RequestLog.Format) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        _ = try fixture.publish(answer: 1)
        let path = fixture.directory.appendingPathComponent("requests.log").path
        let log = try RequestLog(format: format, path: path)
        let server = UpdateServer(store: fixture.store, events: fixture.events, configuration: ServerConfiguration(requestLog: log))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            _ = try await client.check(sdkCheckBody(deviceID: "8C1F-secret-device"))
            _ = try await client.execute(uri: "/nowhere", method: .get)
        }
        log.close()  // lines are written by the log's own thread
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(text)")
        #expect(!text.contains("8C1F-secret-device") && !text.contains("demo-app"), "ids and keys are hashed: \(text)")
        let bucket = RequestLog.deviceBucket(of: "8C1F-secret-device")
        let app = RequestLog.appTag(ofKey: "demo-app")
        #expect(bucket.count == 4 && app.count == 8)
        switch format {
        case .logfmt:
            #expect(lines[0].wholeMatch(of: /time=\S+Z method=POST path=\/api\/v1\/modules\/check status=200 ms=\d+\.\d{3} app=(\w+) device=(\w+)/)
                .map { [$0.output.1, $0.output.2] } == [Substring(app), Substring(bucket)], "\(lines[0])")
            #expect(lines[1].hasSuffix("method=GET path=/nowhere status=404 ms=\(lines[1].split(separator: "ms=")[1])"), "\(lines[1])")
        case .json:
            let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects[0]["method"] as? String == "POST" && objects[0]["path"] as? String == UpdateServer.checkPath)
            #expect(objects[0]["status"] as? Int == 200 && objects[0]["ms"] is Double)
            #expect(objects[0]["app"] as? String == app && objects[0]["device"] as? String == bucket)
            #expect(objects[1]["status"] as? Int == 404 && objects[1]["device"] == nil)
        }
    }

    @Test func logfmtQuotesWhatWouldBreakALine() {
        #expect(RequestLog.Entry.logfmtValue("/targets/a") == "/targets/a")
        #expect(RequestLog.Entry.logfmtValue(#"/a b"c\d"#) == #""/a b\"c\\d""#)
        #expect(RequestLog.Entry.logfmtValue("/a\nb") == #""/a\u{A}b""#)
        #expect(RequestLog.Entry.logfmtValue("") == #""""#)
        #expect(RequestLog.Entry.logfmtValue("/é") == #""/é""#)
    }

    @Test func timesAndDurationsAreWrittenInFull() {
        #expect(RequestLog.Entry.timestamp(Date(timeIntervalSince1970: 0.007)) == "1970-01-01T00:00:00.007Z")
        #expect(RequestLog.Entry.timestamp(Date(timeIntervalSince1970: 1_795_770_062.25)) == "2026-11-27T09:01:02.250Z")
        #expect(RequestLog.Entry.milliseconds(1.5) == "1.500")
        #expect(RequestLog.Entry.milliseconds(0.0004) == "0.000")
        #expect(RequestLog.Entry.milliseconds(12.34567) == "12.346")
    }

    @Test func anUnwritableLogFileIsRefusedByName() {
        #expect(throws: RequestLogError.self) { _ = try RequestLog(format: .logfmt, path: "/nonexistent-dir/requests.log") }
    }
}
