import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PatchManifest
import PatchServer
import PatchStore
import Testing

struct CheckTests {
    @Test func onlyTheDevicesFingerprintIsServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1, fingerprint: "build-A")
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(fingerprint: "build-B")) == .noUpdate)
            #expect(try await client.check(sdkCheckBody(fingerprint: "")) == .noUpdate)
            #expect(try await client.check(sdkCheckBody(fingerprint: "build-A")).version == release.version)
        }
    }

    @Test func downloadURLsUseThePublicURLWhenGiven() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        let server = UpdateServer(store: fixture.store, events: fixture.events, configuration: ServerConfiguration(publicURL: "https://cdn.example.com/"))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let update = try await client.check(sdkCheckBody())
            #expect(update.moduleURL?.hasPrefix("https://cdn.example.com/targets/modules/") == true)
            #expect(update.moduleURL?.hasSuffix(".\(release.module.sha256).wasm.br") == true)
        }
    }

    @Test func aDeviceOnTheOfferedContentIsUpToDate() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        try fixture.setRollout(100)  // a new record, new version string, same content
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(currentVersion: release.version)) == .noUpdate)
        }
    }

    @Test func channelsAndCohortsAreHonoured() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let stable = try fixture.publish(answer: 1)
        let beta = try fixture.publish(answer: 2, cohort: "beta")
        let staging = try fixture.publish(answer: 3, channel: "staging")
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(cohort: "beta")).version == beta.version)
            #expect(try await client.check(sdkCheckBody()).version == stable.version, "outside the cohort: the release before it")
            #expect(try await client.check(sdkCheckBody(cohort: "other")).version == stable.version)
            #expect(try await client.check(sdkCheckBody(channel: "staging")).version == staging.version)
            #expect(try await client.check(sdkCheckBody(channel: "development")) == .noUpdate)
        }
    }

    @Test func diffURLOnlyWhenADiffFromTheDevicesVersionExists() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        _ = try fixture.publish(answer: 2)
        try fixture.deviceInstalledFirst(first.version)
        try await fixture.application.test(.router) { client async throws in
            let fromFirst = try await client.check(sdkCheckBody(currentVersion: first.version))
            #expect(fromFirst.diffURL != nil && fromFirst.diffSize != nil)
            // An unknown version of a lower counter gets the full artifact (a higher one is a device
            // ahead of this store, which is offered nothing: StoreFaultTests).
            for version in ["0.0.0", "1-0123456789ab"] {
                let full = try await client.check(sdkCheckBody(currentVersion: version, deviceID: "device-2"))
                #expect(full.hasUpdate && full.diffURL == nil && full.diffSize == nil)
            }
        }
    }

    @Test func rolloutBucketsAreStableAndFollowTheDocumentedHash() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let previous = try fixture.publish(answer: 1)
        let partial = try fixture.publish(answer: 2, rollout: 30)
        let devices = (0..<200).map { "device-\($0)" }
        // docs/release.md: first 4 bytes of SHA-256("<module sha256>:<device_id>") mod 100 < rollout.
        let documentedBuckets = devices.map { device in
            Int(UInt32(SHA256Hasher.hex(of: Array("\(partial.module.sha256):\(device)".utf8)).prefix(8), radix: 16)! % 100)
        }
        let reachedAt30 = try await fixture.application.test(.router) { client async throws in
            var reached: Set<String> = []
            for (device, bucket) in zip(devices, documentedBuckets) {
                let version = try await client.check(sdkCheckBody(deviceID: device)).version
                #expect(version == (bucket < 30 ? partial.version : previous.version), "\(device)")
                if version == partial.version { reached.insert(device) }
            }
            return reached
        }
        #expect((40...80).contains(reachedAt30.count), "about 30% of 200 devices, got \(reachedAt30.count)")

        try fixture.setRollout(60)
        try await fixture.application.test(.router) { client async throws in
            var reachedAt60 = 0
            for device in devices {
                let response = try await client.check(sdkCheckBody(deviceID: device))
                if reachedAt30.contains(device) { #expect(response.hasUpdate && response.version != previous.version, "\(device) left the rollout") }
                if response.version != previous.version { reachedAt60 += 1 }
            }
            #expect(reachedAt60 > reachedAt30.count)
        }
    }

    @Test func theKillSwitchStopsOffers() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        _ = try fixture.publish(answer: 1)
        try fixture.disable()
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()) == .noUpdate)
        }
    }

    @Test func aNewPublishIsServedWithoutARestart() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()).version == first.version)
            let second = try fixture.publish(answer: 2)
            #expect(try await client.check(sdkCheckBody()).version == second.version)
        }
    }

    @Test func aTamperedTimestampIsNotServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        let timestamp = fixture.store.base.appendingPathComponent("metadata/timestamp.json")
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()).version == first.version)
            // Same length, one signed byte changed: the signature no longer verifies.
            var bytes = [UInt8](try Data(contentsOf: timestamp))
            let index = try #require(bytes.firstIndex(of: UInt8(ascii: "9")) ?? bytes.firstIndex(of: UInt8(ascii: "1")))
            bytes[index] = bytes[index] == UInt8(ascii: "9") ? UInt8(ascii: "8") : UInt8(ascii: "2")
            try Data(bytes).write(to: timestamp)
            #expect(try await client.check(sdkCheckBody()).version == first.version, "the last verified release stays in service")
        }
        let fresh = UpdateServer(store: fixture.store, events: fixture.events)
        try await fresh.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let answer = try await client.post(UpdateServer.checkPath, sdkCheckBody())
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.reason?.contains("timestamp.json") == true)
        }
    }

    @Test func expiredMetadataIsNotServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        _ = try fixture.publish(answer: 1)
        // The timestamp role is re-signed for 7 days on each publish.
        let later = Date().addingTimeInterval(8 * 86_400)
        let server = UpdateServer(store: fixture.store, events: fixture.events, configuration: ServerConfiguration(clock: { later }))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let answer = try await client.post(UpdateServer.checkPath, sdkCheckBody())
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.reason?.contains("expired") == true, "reason: \(answer.reason ?? "none")")
        }
    }

    @Test func onlyListedFilesAreServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        let state = try fixture.store.loadState(now: nil)
        let listed = try #require(state.targets.targets[release.module.path]?.hashes["sha256"])
        try await fixture.application.test(.router) { client async throws in
            let good = "/" + StorePath.targetFile(release.module.path, sha256: listed)
            #expect(try await client.execute(uri: good, method: .get).status == .ok)
            let wrongHash = "/" + StorePath.targetFile(release.module.path, sha256: String(repeating: "0", count: 64))
            for uri in [wrongHash, "/targets/../metadata/1.root.json", "/targets/modules/x.wasm.br", "/targets/.patchcli/lock"] {
                #expect(try await client.execute(uri: uri, method: .get).status == .notFound, "\(uri)")
            }
        }
    }
}

struct MalformedRequestTests {
    @Test(arguments: [
        ("{not json", "not valid JSON"),
        ("[1,2]", "must be a JSON object"),
        (#"{"fingerprint":"fp-1","device_id":"d","channel":"production"}"#, "missing field current_version"),
        (#"{"current_version":1,"fingerprint":"fp-1","device_id":"d","channel":"production"}"#, "field current_version must be a string"),
        (#"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":null,"channel":"production"}"#, "device_id must not be null"),
        (#"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":"","channel":"production"}"#, "device_id must not be empty"),
        (#"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":"d","channel":"production","cohort":7}"#, "field cohort must be a string"),
        ("{\"current_version\":\"0.0.0\",\"fingerprint\":\"\(String(repeating: "f", count: 300))\",\"device_id\":\"d\",\"channel\":\"p\"}", "fingerprint is longer than 256"),
        ("null", "the request body must be a JSON object, not null"),
        (#"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":"\u0000","channel":"production"}"#, "device_id contains the control character U+0000 at byte 0"),
    ])
    func badCheckBodiesAre400WithAReason(body: String, reason: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            let answer = try await client.post(UpdateServer.checkPath, body)
            #expect(answer.status == .badRequest)
            #expect(answer.reason?.contains(reason) == true, "reason: \(answer.reason ?? "none")")
        }
    }

    @Test func oversizedBodiesAndWrongContentTypesAre400() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            let huge = #"{"current_version":"0.0.0","pad":""# + String(repeating: "x", count: 100_000) + #""}"#
            let oversized = try await client.post(UpdateServer.checkPath, huge)
            #expect(oversized.status == .badRequest)
            #expect(oversized.reason?.contains("larger than") == true)
            let text = try await client.post(UpdateServer.checkPath, sdkCheckBody(), headers: [.contentType: "text/plain"])
            #expect(text.status == .badRequest)
            #expect(text.reason?.contains("Content-Type") == true)
            let event = try await client.post(UpdateServer.eventsPath, #"{"device_id":"d","event_type":"reboot"}"#)
            #expect(event.status == .badRequest)
            #expect(event.reason?.contains("event_type") == true)
        }
    }
}

struct UnroutedRequestTests {
    @Test func headOnAnArtifactAnswersGETsHeadersWithoutTheBody() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        let listed = try #require(try fixture.store.loadState(now: nil).targets.targets[release.module.path]?.hashes["sha256"])
        let uri = "/" + StorePath.targetFile(release.module.path, sha256: listed)
        try await fixture.application.test(.router) { client async throws in
            let get = try await client.execute(uri: uri, method: .get)
            #expect(get.status == .ok && get.body.readableBytes > 0)
            let head = try await client.execute(uri: uri, method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.headers[.eTag] == get.headers[.eTag] && head.headers[.eTag] != nil)
            let missing = "/" + StorePath.targetFile(release.module.path, sha256: String(repeating: "0", count: 64))
            #expect(try await client.execute(uri: missing, method: .head).status == .notFound)
        }
    }

    @Test func unknownPathsAndMethodsGetTheJSONError() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            let unknown = try await client.execute(uri: "/api/v1/nothing", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try errorKind(of: unknown) == "not_found")
            for (uri, method, allowed) in [
                (UpdateServer.checkPath, HTTPRequest.Method.get, "POST"), (UpdateServer.eventsPath, .put, "POST"),
                ("/targets/modules/x.wasm.br", .post, "GET, HEAD"),
            ] {
                let answer = try await client.execute(uri: uri, method: method)
                #expect(answer.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(answer.headers[.allow] == allowed)
                #expect(try errorKind(of: answer) == "method_not_allowed")
            }
        }
    }

    private func errorKind(of response: TestResponse) throws -> String? {
        #expect(response.headers[.contentType] == "application/json")
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        #expect((object?["reason"] as? String)?.isEmpty == false)
        return object?["error"] as? String
    }
}

struct EventTests {
    @Test func eventsAreStoredAndSummarizedPerRelease() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        let second = try fixture.publish(answer: 2)
        let sent: [(String, String, String?, String?)] = [
            ("a", "download", second.version, nil), ("a", "activation", second.version, nil),
            ("b", "download", second.version, nil), ("b", "activation", second.version, nil),
            ("c", "activation", first.version, nil),
            ("c", "error", second.version, "hash mismatch"), ("c", "fallback", first.version, nil),
            ("d", "error", nil, "offline"),
        ]
        try await fixture.application.test(.router) { client async throws in
            for (device, type, version, message) in sent {
                var fields = [#""app_key":"demo-app""#, #""device_id":"\#(device)""#, #""event_type":"\#(type)""#]
                if let version { fields.append(#""module_version":"\#(version)""#) }
                if let message { fields.append(#""error_message":"\#(message)""#) }
                let answer = try await client.post(UpdateServer.eventsPath, "{\(fields.joined(separator: ","))}")
                #expect(answer.status == .accepted)
            }
        }
        let records = try fixture.store.list(channel: nil, now: nil).flatMap(\.history)
        let report = try AdoptionReport.summarize(fixture.events, records: records)
        #expect(report.events == sent.count)
        #expect(report.devices == 4)
        #expect(report.checkErrors == 1)
        let byVersion = Dictionary(uniqueKeysWithValues: report.releases.map { ($0.version, $0) })
        let latest = try #require(byVersion[second.version])
        #expect(latest.downloads == 2 && latest.activations == 2 && latest.devicesActivated == 2 && latest.devicesRunning == 2)
        #expect(latest.errors == 1 && latest.commonestError == "hash mismatch")
        #expect(latest.adoptionPercent == 50)
        #expect(latest.releaseCounter == second.releaseCounter && latest.channel == "production")
        let earlier = try #require(byVersion[first.version])
        #expect(earlier.fallbacks == 1 && earlier.devicesRunning == 1)
    }

    /// Every string field of an event and a check, with a NUL and other control characters
    /// (C0, DEL, C1): refused by name in ids, stored byte for byte in the free-text error message.
    @Test func controlCharactersAreRefusedInIdsAndKeptInFreeText() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let eventIDs = ["device_id", "app_id", "app_key", "module_version", "os_version", "device_model", "app_version"]
        let checkIDs = ["current_version", "fingerprint", "device_id", "channel", "app_id", "app_key", "os_version", "app_version", "sdk_version", "cohort"]
        let controls = ["\u{0}", "a\u{0}hidden", "\u{1}", "tab\there", "line\n", "\u{1B}[31m", "del\u{7F}", "c1\u{85}"]
        let message = "msg\u{0}hidden\u{1}\t\n\u{7F}\u{85} é 😀"
        try await fixture.application.test(.router) { client async throws in
            for control in controls {
                for field in eventIDs {
                    var event: [String: Any] = ["device_id": "d", "event_type": "error"]
                    event[field] = control
                    let answer = try await client.post(UpdateServer.eventsPath, try json(event))
                    #expect(answer.status == .badRequest, "\(field): \(control.debugDescription)")
                    #expect(answer.reason?.hasPrefix("\(field) contains the control character U+") == true, "\(answer.reason ?? "none")")
                }
                for field in checkIDs {
                    var check: [String: Any] = ["current_version": "0.0.0", "fingerprint": "fp-1", "device_id": "d", "channel": "production"]
                    check[field] = control
                    let answer = try await client.post(UpdateServer.checkPath, try json(check))
                    #expect(answer.status == .badRequest, "\(field): \(control.debugDescription)")
                    #expect(answer.reason?.hasPrefix("\(field) contains the control character U+") == true, "\(answer.reason ?? "none")")
                }
            }
            let stored = try await client.post(UpdateServer.eventsPath, try json(["device_id": "d", "event_type": "error", "error_message": message]))
            #expect(stored.status == .accepted)
            // The raw escape as a device would send it, not only as JSONSerialization writes it.
            let raw = try await client.post(UpdateServer.eventsPath, #"{"device_id":"e","event_type":"error","error_message":"msg\u0000hidden"}"#)
            #expect(raw.status == .accepted)
        }
        let rows = try fixture.events.rows("SELECT device_id, error_message, length(CAST(error_message AS BLOB)) FROM events ORDER BY id")
        #expect(rows.count == 2, "nothing refused was stored")
        #expect(rows.first == ["d", message, String(message.utf8.count)])
        #expect(rows.last == ["e", "msg\u{0}hidden", "10"])
    }

    @Test func storedControlCharactersAreEscapedForATerminal() {
        #expect("msg\u{0}hidden\u{1B}[2J\r\n\u{85} é 😀".withControlCharactersEscaped == #"msg\u{0}hidden\u{1B}[2J\u{D}\u{A}\u{85} é 😀"#)
        #expect("plain text".withControlCharactersEscaped == "plain text")
    }

    @Test func aFractionalDurationIsRefusedByName() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            for duration in ["1.5", "1e300"] {
                let answer = try await client.post(UpdateServer.eventsPath, #"{"device_id":"d","event_type":"download","duration_ms":\#(duration)}"#)
                #expect(answer.status == .badRequest)
                #expect(answer.reason == "field duration_ms must be an integer (a whole number)", "\(answer.reason ?? "none")")
            }
            #expect(try await client.post(UpdateServer.eventsPath, #"{"device_id":"d","event_type":"download","duration_ms":15}"#).status == .accepted)
            #expect(try await client.post(UpdateServer.eventsPath, #"{"device_id":"d","event_type":"download","duration_ms":-1}"#).status == .badRequest)
        }
        #expect(try fixture.events.rows("SELECT duration_ms FROM events") == [["15"]])
    }

    @Test func twoServersCanAppendToOneDatabaseAtOnce() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let second = try EventDatabase(path: fixture.events.path, create: true)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, database) in [("first", fixture.events), ("second", second)] {
                group.addTask {
                    for index in 0..<200 {
                        try database.record(DeviceEvent(deviceID: "\(name)-\(index)", eventType: .download, moduleVersion: "1-abc"), receivedAt: "2026-11-24T10:00:00Z")
                    }
                }
            }
            try await group.waitForAll()
        }
        let report = try AdoptionReport.summarize(second)
        #expect(report.events == 400 && report.devices == 400)
        #expect(report.releases.first?.downloads == 400)
    }

    @Test func statusRefusesAMissingDatabase() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).sqlite").path
        #expect(throws: EventDatabaseError.self) { _ = try EventDatabase(path: path, create: false) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

private func json(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
}
