import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `patchcli serve` and `patchcli status` as a user runs them: a real server process on loopback.
@Suite struct ServeCommandTests {
    @Test func serveAnswersChecksRecordsEventsAndStatusReportsThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReleaseCommandTests.prepare(directory)
        let published = try ReleaseCommandTests.publish("a.wasm", in: directory)
        #expect(published.status == 0, "\(published.stdout)")

        let (server, base) = try Self.startServer(in: directory)
        defer { if server.isRunning { server.terminate() } }

        func post(_ path: String, _ body: String) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
        }
        let (status, update) = try await post("/api/v1/modules/check", #"{"current_version":"0.0.0","fingerprint":"fp-1","device_id":"d1","app_key":"k","sdk_version":"1.2.0","channel":"production"}"#)
        #expect(status == 200)
        #expect(update["has_update"] as? Bool == true)
        let version = try #require(update["version"] as? String)
        let (eventStatus, _) = try await post("/api/v1/events", #"{"app_key":"k","device_id":"d1","event_type":"activation","module_version":"\#(version)"}"#)
        #expect(eventStatus == 202)
        let (badStatus, bad) = try await post("/api/v1/modules/check", "{}")
        #expect(badStatus == 400)
        #expect((bad["reason"] as? String)?.contains("missing field") == true)

        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationStatus == 0, "SIGTERM stops the server cleanly")

        let report = try CLI.run(["status", "--events-db", "events.sqlite", "--store", "store", "--json"], in: directory)
        #expect(report.status == 0, "\(report.stdout)")
        let releases = try #require(report.result?["releases"] as? [[String: Any]])
        let release = try #require(releases.first { $0["version"] as? String == version })
        #expect(release["devices_running"] as? Int == 1)
        #expect(release["channel"] as? String == "production")
    }

    @Test func connectionLimitFlagsAreValidatedAndApplied() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            for flags in [["--idle-timeout", "0"], ["--request-timeout", "-1"], ["--request-timeout", "nan"], ["--max-connections", "0"]] {
                let refused = try CLI.run(["serve", "--store", "store", "--events-db", "events.sqlite"] + flags, in: directory)
                #expect(refused.status == 2, "\(flags): \(refused.stderr)")
                #expect(refused.stderr.contains(flags[0]), "\(refused.stderr)")
            }
            // A silent client is closed after --idle-timeout (the default, 30 s, would outlast the 10 s wait).
            let (server, base) = try Self.startServer(in: directory, extra: ["--idle-timeout", "0.5", "--request-timeout", "5", "--max-connections", "16"])
            defer { server.terminate() }
            let port = try #require(base.split(separator: ":").last.map(String.init))
            let client = Process()
            client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            client.arguments = ["python3", "-c", """
                import socket, sys
                connection = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                connection.settimeout(10)
                print("closed" if connection.recv(1) == b"" else "data")
                """, port]
            let output = Pipe()
            client.standardOutput = output
            try client.run()
            client.waitUntilExit()
            #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "closed\n")
        }
    }

    @Test func aBusyPortAndAMissingDatabaseHaveTheirExitCodes() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let (first, base) = try Self.startServer(in: directory)
            defer { first.terminate() }
            let port = try #require(base.split(separator: ":").last.map(String.init))
            let busy = try CLI.run(["serve", "--store", "store", "--port", port, "--events-db", "events.sqlite", "--json"], in: directory)
            #expect(busy.status == 47, "\(busy.stdout)")
            #expect(busy.error?["kind"] as? String == "serve_failed")

            let missing = try CLI.run(["status", "--events-db", "nowhere.sqlite", "--json"], in: directory)
            #expect(missing.status == 48)
            #expect(missing.error?["kind"] as? String == "events_db")
        }
    }

    /// Issue 16 defect 3: a restarted `serve` over a store whose old timestamp.json was put back.
    @Test func aRestartedServerRefusesARolledBackStore() throws {
        try withScratchDirectory { directory in
            let (timestamp, old) = try VerifyCLITests.storeOfTwoReleases(in: directory)
            let (server, _) = try Self.startServer(in: directory, extra: ["--state-dir", "state"])
            server.terminate()
            server.waitUntilExit()
            try old.write(to: timestamp)

            let restarted = try CLI.run(["serve", "--store", "store", "--port", "0", "--events-db", "events.sqlite", "--state-dir", "state", "--json"], in: directory)
            #expect(restarted.status == 40, "\(restarted.stdout)")
            #expect(restarted.error?["kind"] as? String == "store_rollback")
            #expect((restarted.error?["message"] as? String)?.contains("timestamp version 2 is older than version 3") == true, "\(restarted.stdout)")
        }
    }

    /// Starts `patchcli serve` on a free port in `directory` and returns it with its base URL.
    static func startServer(in directory: URL, events: String = "events.sqlite", extra: [String] = []) throws -> (Process, String) {
        let server = Process()
        server.executableURL = CLI.binary
        server.arguments = ["serve", "--store", "store", "--port", "0", "--events", events] + extra
        server.currentDirectoryURL = directory
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        let banner = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let base = banner.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/).map({ String($0.output) }) else {
            server.terminate()
            throw ServerDidNotStart(banner: banner)
        }
        return (server, base)
    }
}

struct ServerDidNotStart: Error, CustomStringConvertible {
    let banner: String
    var description: String { "patchcli serve printed no address: \(banner)" }
}
