import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A release is for one app: `release` records the app key (`--app-key`, else the project's), and
/// `serve` offers it only to checks carrying that key, counting the others for `status`.
@Suite struct AppKeyServeTests {
    @Test func serveOffersAReleaseOnlyToItsAppsKeyAndCountsTheRest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-appkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReleaseCommandTests.prepare(directory)
        let shop = try ReleaseCommandTests.publish("a.wasm", in: directory, extra: ["--app-key", "shop"])
        #expect(shop.status == 0, "\(shop.stdout)")
        #expect(((shop.result?["records"] as? [[String: Any]])?.first)?["app_key"] as? String == "shop")
        // A second app in the same store, told apart by its fingerprint and key.
        let other = try CLI.run(["release", "b.wasm", "--store", "store", "--key-dir", "keys", "--fingerprint", "fp-2", "--app-key", "other", "--json"], in: directory)
        #expect(other.status == 0, "\(other.stdout)")

        let (server, base) = try ServeCommandTests.startServer(in: directory)
        defer { if server.isRunning { server.terminate() } }
        func offered(fingerprint: String, appKey: String?) async throws -> Bool? {
            var request = URLRequest(url: URL(string: base + "/api/v1/modules/check")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let key = appKey.map { #","app_key":"\#($0)""# } ?? ""
            request.httpBody = Data(#"{"current_version":"0.0.0","fingerprint":"\#(fingerprint)","device_id":"d1","sdk_version":"1.2.0","channel":"production"\#(key)}"#.utf8)
            let (data, _) = try await URLSession.shared.data(for: request)
            return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["has_update"] as? Bool
        }
        #expect(try await offered(fingerprint: "fp-1", appKey: "shop") == true)
        #expect(try await offered(fingerprint: "fp-2", appKey: "other") == true)
        #expect(try await offered(fingerprint: "fp-1", appKey: "other") == false)
        #expect(try await offered(fingerprint: "fp-1", appKey: "intruder") == false)
        #expect(try await offered(fingerprint: "fp-1", appKey: nil) == false)
        server.terminate()
        server.waitUntilExit()

        let report = try CLI.run(["status", "--events-db", "events.sqlite", "--store", "store", "--json"], in: directory)
        #expect(report.status == 0, "\(report.stdout)")
        #expect(report.result?["wrong_app_key_checks"] as? [String: Int] == ["other": 1, "intruder": 1, "(none)": 1], "\(report.stdout)")
        let human = try CLI.run(["status", "--events-db", "events.sqlite", "--store", "store"], in: directory)
        #expect(human.stdout.contains("3 update checks refused for a wrong app key ((none): 1, intruder: 1, other: 1)"), "\(human.stdout)")
    }

    /// Without --app-key, the key is the one of the project the module was built in.
    @Test func theAppKeyDefaultsToTheProjectsAboveTheModule() throws {
        try withScratchDirectory { directory in
            let project = try BuildCLITests.initializedExample(in: directory)
            try ReleaseCommandTests.prepare(directory)
            try FileManager.default.copyItem(at: directory.appendingPathComponent("a.wasm"), to: project.appendingPathComponent("a.wasm"))
            let published = try ReleaseCommandTests.publish(project.appendingPathComponent("a.wasm").path, in: directory)
            #expect(published.status == 0, "\(published.stdout)")
            #expect(((published.result?["records"] as? [[String: Any]])?.first)?["app_key"] as? String == "patchshop")
        }
    }
}
