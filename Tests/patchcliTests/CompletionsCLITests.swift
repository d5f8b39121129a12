import Foundation
import Testing

/// Shell completions: ArgumentParser's scripts for bash, zsh and fish name every subcommand, and
/// `make install` puts them where each shell looks under the prefix (what Homebrew's formula does too).
@Suite(.serialized) struct CompletionsCLITests {
    /// Subcommands (and their subcommands) a user completes: each must be in every script.
    static let subcommands = ["init", "prepare", "build", "audit", "doctor", "run", "diff", "apply", "compress", "decompress",
                              "release", "publish", "list", "promote", "rollout", "rollback", "disable", "keys", "generate",
                              "show", "rotate", "verify", "serve", "status"]

    @Test(arguments: ["bash", "zsh", "fish"])
    func eachScriptGeneratesAndNamesTheSubcommands(shell: String) throws {
        let script = try CLI.run(["--generate-completion-script", shell])
        #expect(script.status == 0, "\(script.stderr)")
        let missing = Self.subcommands.filter { name in script.stdout.firstMatch(of: try! Regex("\\b\(name)\\b")) == nil }
        #expect(missing.isEmpty, "\(shell) script lacks \(missing)")
        // Options complete too: one of build's and the flag every command has.
        #expect(script.stdout.contains("min-coverage"))
        #expect(script.stdout.contains("quiet"))
    }

    @Test func makeInstallPutsThemWhereEachShellLooks() throws {
        try withScratchDirectory { directory in
            let prefix = directory.appendingPathComponent("prefix")
            let installing = try InstallCLITests.install(into: prefix)
            try #require(installing.status == 0, "\(installing.stdout)\(installing.stderr)")
            for (path, shell) in [("share/bash-completion/completions/patchcli", "bash"), ("share/zsh/site-functions/_patchcli", "zsh"),
                                  ("share/fish/vendor_completions.d/patchcli.fish", "fish")] {
                let installed = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
                #expect(installed == (try CLI.run(["--generate-completion-script", shell])).stdout, "\(path)")
            }
        }
    }
}
