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
        #expect(result.envelope?["command"] as? String == "patchcli")
    }

    /// A usage error names the subcommand as its own envelope would, in a one-line message, with the
    /// help and usage lines in `detail` and a hint that names the subcommand's help.
    @Test func aUsageErrorNamesTheFullSubcommandInOneLine() throws {
        let rollout = try CLI.run(["release", "publish", "a.wasm", "--rollout", "150%", "--json"])
        #expect(rollout.status == 2)
        #expect(rollout.envelope?["command"] as? String == "release", "publish reports as `release`, like its successful runs")
        let message = try #require(rollout.error?["message"] as? String)
        #expect(message == "The value '150%' is invalid for '--rollout <0-100%>'", "\(message)")
        #expect((rollout.error?["detail"] as? String)?.contains("Usage: patchcli release publish") == true)
        #expect(rollout.error?["hint"] as? String == "`patchcli release publish --help` shows the usage")

        let missing = try CLI.run(["release", "rollout", "--store", "s", "--json"])
        #expect(missing.status == 2)
        #expect(missing.envelope?["command"] as? String == "release rollout")
        #expect((missing.error?["message"] as? String)?.contains("\n") == false)
        #expect(missing.error?["hint"] as? String == "`patchcli release rollout --help` shows the usage")
    }
}
