import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `serve`'s request log flags as a user runs them (docs/serve.md "Request log").
@Suite struct ServeLogCLITests {
    @Test func badLogFlagsHaveTheirExitCodes() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let xml = try CLI.run(["serve", "--store", "store", "--events-db", "events.sqlite", "--log-format", "xml"], in: directory)
            #expect(xml.status == 2, "\(xml.stderr)")
            #expect(xml.stderr.contains("logfmt") && xml.stderr.contains("json"), "names the valid values: \(xml.stderr)")

            let unwritable = try CLI.run(["serve", "--store", "store", "--events-db", "events.sqlite", "--log-file", "missing-dir/requests.log", "--json"], in: directory)
            #expect(unwritable.status == 7, "\(unwritable.stdout)")
            #expect(unwritable.error?["kind"] as? String == "output_unwritable")
            #expect((unwritable.error?["message"] as? String)?.contains("missing-dir/requests.log") == true, "\(unwritable.stdout)")
        }
    }

    @Test func aCheckIsOneJSONLineInTheLogFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-serve-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReleaseCommandTests.prepare(directory)
        let (server, base) = try ServeCommandTests.startServer(in: directory, extra: ["--log-format", "json", "--log-file", "requests.log"])
        defer { if server.isRunning { server.terminate() } }
        var request = URLRequest(url: URL(string: base + "/api/v1/modules/check")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":"d1","app_key":"k","channel":"production"}"#.utf8)
        _ = try await URLSession.shared.data(for: request)
        server.terminate()
        server.waitUntilExit()

        let lines = try String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let first = try #require(lines.first)
        let line = try #require(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(line["path"] as? String == "/api/v1/modules/check" && line["status"] as? Int == 200)
        #expect(line["device"] as? String != nil && line["device"] as? String != "d1")
    }

    /// A device fetches a diff, then the full module on the same connection (what the SDK does when
    /// the diff fails its SHA-256): `status` shows one wasted diff, in text and in --json.
    @Test func statusShowsAWastedDiff() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            #expect(try ReleaseCommandTests.publish("a.wasm", in: directory).status == 0)
            let (server, base) = try ServeCommandTests.startServer(in: directory)
            defer { if server.isRunning { server.terminate() } }
            let port = try #require(base.split(separator: ":").last.map(String.init))
            func device(_ steps: String) throws -> String {
                let client = Process()
                client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                client.arguments = ["python3", "-c", """
                    import http.client, json, sys, urllib.parse
                    connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
                    def check(version):
                        body = json.dumps({"current_version": version, "fingerprint": "fp-1", "device_id": "d1", "channel": "production"})
                        connection.request("POST", "/api/v1/modules/check", body, {"Content-Type": "application/json"})
                        return json.loads(connection.getresponse().read())
                    def get(url):
                        connection.request("GET", urllib.parse.urlparse(url).path)
                        connection.getresponse().read()
                    \(steps)
                    """, port]
                let output = Pipe()
                client.standardOutput = output
                try client.run()
                client.waitUntilExit()
                return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            // A fresh install takes a as its first update; b then comes as a diff from a.
            let first = try device(#"print(check("0.0.0")["version"])"#)
            #expect(try ReleaseCommandTests.publish("b.wasm", in: directory).status == 0)
            let answer = try device("""
                update = check("\(first)")
                get(update["diff_url"]); get(update["module_url"]); print(update["version"])
                """)
            server.terminate()
            server.waitUntilExit()

            let report = try CLI.run(["status", "--events-db", "events.sqlite", "--json"], in: directory)
            #expect(report.result?["wasted_diffs"] as? [String: Int] == [answer: 1], "\(report.stdout)")
            let human = try CLI.run(["status", "--events-db", "events.sqlite"], in: directory)
            #expect(human.stdout.contains("1 diffs wasted: devices could not apply them and downloaded the full module (\(answer): 1)"), "\(human.stdout)")
        }
    }
}
