import Foundation
import Testing

/// `make install` under a packager's layout (README "Shell completions"): the completion folders
/// are variables, and Homebrew's formula passes its own, so bash's lands in the keg's
/// `etc/bash_completion.d` (where Homebrew links it for its bash-completion), not in
/// `share/bash-completion/completions`.
@Suite(.serialized) struct HomebrewCompletionsCLITests {
    private static let formula = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Formula/patchcli.rb").standardizedFileURL

    @Test func completionFoldersAreVariablesInstallAndUninstallHonour() throws {
        try withScratchDirectory { directory in
            let keg = directory.appendingPathComponent("Cellar/patchcli/HEAD")
            // Homebrew's bash_completion, zsh_completion and fish_completion of a keg.
            let folders = [
                ("BASH_COMPLETION_DIR", "etc/bash_completion.d", "patchcli"), ("ZSH_COMPLETION_DIR", "share/zsh/site-functions", "_patchcli"),
                ("FISH_COMPLETION_DIR", "share/fish/vendor_completions.d", "patchcli.fish"),
            ]
            let variables = folders.map { "\($0.0)=\(keg.appendingPathComponent($0.1).path)" }
            let installing = try InstallCLITests.install(into: keg, variables: variables)
            try #require(installing.status == 0, "\(installing.stdout)\(installing.stderr)")
            for (_, folder, name) in folders {
                #expect(FileManager.default.fileExists(atPath: keg.appendingPathComponent("\(folder)/\(name)").path), "\(folder)/\(name)")
            }
            #expect(!FileManager.default.fileExists(atPath: keg.appendingPathComponent("share/bash-completion").path), "nothing at make's default")

            let removing = try InstallCLITests.install(into: keg, target: "uninstall", variables: variables)
            #expect(removing.status == 0, "\(removing.stderr)")
            for (_, folder, name) in folders {
                #expect(!FileManager.default.fileExists(atPath: keg.appendingPathComponent("\(folder)/\(name)").path), "uninstall removes \(folder)/\(name)")
            }
        }
    }

    /// The formula names make's variables with Homebrew's folders, and installs no second copy.
    @Test func theFormulaPassesHomebrewsFolders() throws {
        let text = try String(contentsOf: Self.formula, encoding: .utf8)
        for variable in ["BASH_COMPLETION_DIR=#{bash_completion}", "ZSH_COMPLETION_DIR=#{zsh_completion}", "FISH_COMPLETION_DIR=#{fish_completion}"] {
            #expect(text.contains(variable), "\(variable)")
        }
        #expect(!text.contains("generate_completions_from_executable"), "make install writes them: one implementation")
    }
}
