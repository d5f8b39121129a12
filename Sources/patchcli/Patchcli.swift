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
            // One line for `message`; ArgumentParser's help and usage lines go to `detail`.
            let lines = message.split(separator: "\n", maxSplits: 1).map(String.init)
            let summary = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? message
            let named = commandPath(arguments)
            let failure = CommandFailure(
                kind: "usage", message: summary, exitStatus: .usage,
                hint: "`\((["patchcli"] + named.invoked).joined(separator: " ")) --help` shows the usage", detail: lines.count > 1 ? lines[1] : nil)
            Console(json: true).emitFailure(command: named.envelope.isEmpty ? "patchcli" : named.envelope.joined(separator: " "), failure)
        } else {
            Console.writeStandardError("\(message)\n")
        }
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    /// The subcommands `arguments` name, in order (`release rollout`), as typed and as the
    /// command's own envelope names them: a default subcommand (`release publish`, `diff create`)
    /// reports under its parent's name (`release`, `diff`), as its successful runs do.
    static func commandPath(_ arguments: [String]) -> (invoked: [String], envelope: [String]) {
        var command: ParsableCommand.Type = Patchcli.self
        var invoked: [String] = []
        var envelope: [String] = []
        for argument in arguments where !argument.hasPrefix("-") {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument || $0.configuration.aliases.contains(argument) })
            else { break }
            invoked.append(next._commandName)
            if command.configuration.defaultSubcommand.map(ObjectIdentifier.init) != ObjectIdentifier(next) { envelope.append(next._commandName) }
            command = next
        }
        return (invoked, envelope)
    }
}
