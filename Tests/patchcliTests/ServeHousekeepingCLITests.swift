import Foundation
import Testing

/// The event database's housekeeping as a user meets it (docs/serve.md "The event database",
/// "Forgetting devices"): a database from a newer patchcli, `--forget-devices-after`.
@Suite struct ServeHousekeepingCLITests {
    @Test func aDatabaseFromANewerPatchcliExits48ForServeAndStatus() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let sqlite = try CLI.run(["sqlite3", "newer.sqlite", "PRAGMA user_version=99;"], in: directory, executable: URL(fileURLWithPath: "/usr/bin/env"))
            try #require(sqlite.status == 0, "\(sqlite.stderr)")
            for command in [["status"], ["serve", "--store", "store", "--port", "0"]] {
                let refused = try CLI.run(command + ["--events-db", "newer.sqlite", "--json"], in: directory)
                #expect(refused.status == 48, "\(command): \(refused.stdout)")
                #expect(refused.error?["kind"] as? String == "events_db")
                #expect((refused.error?["message"] as? String)?.contains("written by a newer patchcli (schema 99") == true, "\(refused.stdout)")
            }
        }
    }

    @Test func forgetDevicesAfterIsADayCount() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            for days in ["0", "-3", "1.5"] {
                let refused = try CLI.run(["serve", "--store", "store", "--events-db", "events.sqlite", "--forget-devices-after", days], in: directory)
                #expect(refused.status == 2, "\(days): \(refused.stderr)")
                #expect(refused.stderr.contains("--forget-devices-after"), "\(refused.stderr)")
            }
        }
    }
}
