import ArgumentParser
import Foundation
import PatchBuild

@main
struct Patchcli: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patchcli",
        abstract: "Over-the-air code updates for native Swift apps: diff, run and ship Patch modules.",
        discussion: """
            Every command accepts --json and then prints exactly one JSON envelope on stdout.
            Exit codes are listed in docs/cli.md.
            """,
        version: Installation.version,
        subcommands: [
            InitCommand.self, PrepareCommand.self, Build.self, Audit.self, DoctorCommand.self, Run.self, Diff.self, Release.self, Keys.self, Verify.self, Serve.self, Status.self,
        ]
    )

    /// Parses and runs the command line, mapping every failure onto the documented exit-code table
    /// (ArgumentParser's own usage failures included, which it would otherwise exit with 64).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The commit is looked up only when asked for (in a checkout that runs git).
        if arguments == ["--version"] {
            print(Installation.current.versionLine)
            return
        }
        let command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            reportParseFailure(error, arguments: arguments)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            // Commands report their own failures through Console.perform, so what arrives here is
            // ArgumentParser's: help requests, clean exits and validation failures.
            reportParseFailure(error, arguments: arguments)
        }
    }

    /// Usage failures get exit code 2 (and the error envelope under --json); help and version
    /// requests, which ArgumentParser delivers as errors with a success code, print as usual.
    private static func reportParseFailure(_ error: Error, arguments: [String]) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let message = fullMessage(for: error)
        if arguments.contains("--json") {
            let failure = CommandFailure(kind: "usage", message: message, exitStatus: .usage, hint: "run `patchcli help` for the usage")
            Console(json: true).emitFailure(command: arguments.first { !$0.hasPrefix("-") } ?? "patchcli", failure)
        } else {
            FileHandle.standardError.write(Data("\(message)\n".utf8))
        }
        Foundation.exit(ExitStatus.usage.rawValue)
    }
}
