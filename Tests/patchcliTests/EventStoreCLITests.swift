import Foundation
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
}
