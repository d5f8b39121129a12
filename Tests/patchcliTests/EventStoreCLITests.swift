import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import Testing

/// `serve --events` / `status --events` with a `postgres://` URL that is wrong or leads nowhere:
/// a clear message at start, with its exit code (docs/cli.md). The store against a real
/// PostgreSQL: Tests/PatchEventsPostgresTests.
struct EventStoreCLITests {
    @Test func aBadOrUnreachablePostgresURLHasItsExitCode() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let malformed = try CLI.run(["serve", "--store", "store", "--port", "0", "--events", "postgres://localhost/events", "--json"], in: directory)
            #expect(malformed.status == 72, "\(malformed.stdout)")
            #expect(malformed.error?["kind"] as? String == "events_url")
            #expect(malformed.errorText.contains("no user"), "\(malformed.errorText)")

            // Port 1 on loopback: nothing listens, the connection is refused at once.
            let nowhere = "postgres://patch:s3cret@127.0.0.1:1/events?sslmode=disable"
            for command in [["serve", "--store", "store", "--port", "0"], ["status"]] {
                let unreachable = try CLI.run(command + ["--events", nowhere, "--json"], in: directory)
                #expect(unreachable.status == 73, "\(command): \(unreachable.stdout)")
                #expect(unreachable.error?["kind"] as? String == "events_unreachable")
                #expect(unreachable.errorText.contains("postgres://patch@127.0.0.1:1/events"), "\(unreachable.errorText)")
                #expect(!unreachable.stdout.contains("s3cret") && !unreachable.stderr.contains("s3cret"), "the password is never printed")
            }
        }
    }

    @Test func retentionAndArtifactBaseURLAreValidated() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            for flags in [["--events-retention", "90"], ["--events-retention", "0d"], ["--artifact-base-url", "cdn.example.com/store"], ["--events-queue", "0"]] {
                let refused = try CLI.run(["serve", "--store", "store", "--port", "0", "--events", "events.sqlite"] + flags, in: directory)
                #expect(refused.status == 2, "\(flags): \(refused.stderr)")
                #expect(refused.stderr.contains(flags[0]), "\(refused.stderr)")
            }
        }
    }

    /// Two `serve` processes over one store and one PostgreSQL database, and a third over SQLite,
    /// are sent the same events; stopped with SIGTERM (which drains the write queue), `status` over
    /// PostgreSQL prints exactly what `status` over the SQLite file prints.
    @Test(.enabled(if: PostgresCluster.enabled, "PostgreSQL's server binaries are not installed (scripts/setup.sh installs them)"))
    func twoServeReplicasOverPostgresReportAsOneSQLiteServer() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.remove() }
        let url = try await cluster.createDatabase("cli")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReleaseCommandTests.prepare(directory)
        #expect(try ReleaseCommandTests.publish("a.wasm", in: directory).status == 0)
        let replicas = try [ServeCommandTests.startServer(in: directory, events: url), ServeCommandTests.startServer(in: directory, events: url)]
        let single = try ServeCommandTests.startServer(in: directory, events: "events.sqlite")
        for index in 0..<40 {
            let type = ["download", "activation", "error", "fallback"][index % 4]
            let body = #"{"device_id":"d\#(index % 13)","event_type":"\#(type)","module_version":"v\#(index % 3)","error_message":"e\#(index % 2)"}"#
            for base in [replicas[index % 2].1, single.1] {
                var request = URLRequest(url: URL(string: base + "/api/v1/events")!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 202)
            }
        }
        for (server, _) in replicas + [single] {
            server.terminate()
            server.waitUntilExit()
            #expect(server.terminationStatus == 0)
        }
        let overPostgres = try CLI.run(["status", "--events", url, "--store", "store", "--json"], in: directory)
        let overSQLite = try CLI.run(["status", "--events", "events.sqlite", "--store", "store", "--json"], in: directory)
        #expect(overPostgres.status == 0, "\(overPostgres.stdout)")
        #expect(overPostgres.result?["events"] as? Int == 40)
        #expect(overPostgres.result.map(NSDictionary.init) == overSQLite.result.map(NSDictionary.init), "\(overPostgres.stdout)\n\(overSQLite.stdout)")
        let human = try CLI.run(["status", "--events", url, "--store", "store"], in: directory)
        #expect(human.stdout == (try CLI.run(["status", "--events", "events.sqlite", "--store", "store"], in: directory)).stdout)
    }
}
