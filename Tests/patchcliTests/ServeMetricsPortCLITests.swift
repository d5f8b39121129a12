import Foundation
import Testing

/// `serve --metrics-port` and `--metrics-host` as a user runs them (docs/serve.md "Metrics").
@Suite struct ServeMetricsPortCLITests {
    /// Both listeners print their address; `/metrics` answers on the metrics port only, and the
    /// `--json` envelope names both ports.
    @Test func metricsMoveToTheirOwnPort() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let server = Process()
            server.executableURL = CLI.binary
            server.arguments = ["serve", "--store", "store", "--port", "0", "--events-db", "events.sqlite", "--metrics-port", "0", "--metrics-host", "127.0.0.1"]
            server.currentDirectoryURL = directory
            let output = Pipe()
            server.standardOutput = output
            server.standardError = FileHandle.nullDevice
            try server.run()
            defer { if server.isRunning { server.terminate() } }
            var banner = ""
            let deadline = Date().addingTimeInterval(30)
            while !(banner.contains("serving ") && banner.contains("metrics on ")), Date() < deadline, server.isRunning {
                banner += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            }
            let updates = try #require(banner.firstMatch(of: /serving store on (http:\/\/127\.0\.0\.1:\d+)/).map { String($0.1) }, "\(banner)")
            let metrics = try #require(banner.firstMatch(of: /metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/).map { String($0.1) }, "\(banner)")
            #expect(updates != metrics)
            #expect(try Self.status(of: metrics + "/metrics") == 200)
            #expect(try Self.status(of: updates + "/metrics") == 404)
            server.terminate()
            server.waitUntilExit()
            #expect(server.terminationStatus == 0)
        }
    }

    @Test func badMetricsFlagsAreUsageErrorsAndABusyMetricsPortIsNamed() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let hostOnly = try CLI.run(["serve", "--store", "store", "--events-db", "events.sqlite", "--metrics-host", "0.0.0.0"], in: directory)
            #expect(hostOnly.status == 2, "\(hostOnly.stderr)")
            #expect(hostOnly.stderr.contains("--metrics-host needs --metrics-port"), "\(hostOnly.stderr)")
            let same = try CLI.run(["serve", "--store", "store", "--events-db", "events.sqlite", "--port", "9311", "--metrics-port", "9311"], in: directory)
            #expect(same.status == 2, "\(same.stderr)")
            #expect(same.stderr.contains("--metrics-port must differ from --port"), "\(same.stderr)")

            // A port already taken by another listener: serve stops (exit 47) naming --metrics-port.
            let holder = try Self.listeningSocket()
            defer { holder.terminate() }
            let busy = try CLI.run(
                ["serve", "--store", "store", "--events-db", "events.sqlite", "--port", "0", "--metrics-port", String(holder.port), "--json"], in: directory)
            #expect(busy.status == 47, "\(busy.stdout)")
            #expect(busy.error?["kind"] as? String == "serve_failed")
            let message = busy.error?["message"] as? String ?? ""
            #expect(message.contains(":\(holder.port)") && message.contains("--metrics-port"), "\(busy.stdout)")
        }
    }

    /// The HTTP status of a GET (python's urllib: no URLSession state shared with other tests).
    private static func status(of url: String) throws -> Int {
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "-c", """
            import sys, urllib.request, urllib.error
            try:
                print(urllib.request.urlopen(sys.argv[1], timeout=10).status)
            except urllib.error.HTTPError as error:
                print(error.code)
            """, url]
        let output = Pipe()
        client.standardOutput = output
        try client.run()
        client.waitUntilExit()
        return Int(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A python process listening on a free port of 127.0.0.1 until killed (SIGKILL: the test
    /// process may block SIGTERM, and a child inherits its signal mask).
    private static func listeningSocket() throws -> (port: Int, terminate: () -> Void) {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import socket, sys, time
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen()
            print(listener.getsockname()[1], flush=True)
            time.sleep(120)
            """]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        let port = Int(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (port, { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() })
    }
}
