import Foundation
import Testing

@Suite struct GeneralCLITests {
    @Test func versionAndHelpSucceed() throws {
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE"))
    }

    @Test func unknownOptionIsAUsageErrorWithExitCode2() throws {
        let result = try CLI.run(["--no-such-flag"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--no-such-flag"))
    }

    @Test func usageErrorUnderJSONPrintsTheErrorEnvelope() throws {
        let result = try CLI.run(["--no-such-flag", "--json"])
        #expect(result.status == 2)
        #expect(result.envelope?["ok"] as? Bool == false)
        #expect(result.error?["kind"] as? String == "usage")
        #expect(result.error?["exit_code"] as? Int == 2)
    }
}
