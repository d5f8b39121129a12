import ArgumentParser
import PatchStore

struct ReleaseRollback: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Publish earlier content under a new, higher counter (devices never see a counter go down).",
        discussion: "Without --to, the most recent earlier release of the fingerprint whose content differs from the current one.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The channel.") var channel = "production"
    @Option(help: "The fingerprint (needed when the channel serves several).") var fingerprint: String?
    @Option(help: "The release counter whose content to restore.") var to: Int?
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release rollback") {
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: [.targets, .snapshot, .timestamp], stdin: &stdin)
            let outcome = try storeOptions.releaseStore.rollback(channel: channel, fingerprint: fingerprint, toCounter: to, signers: signers, options: publishFlags.options())
            outcome.records.forEach(console.record)
            console.files(outcome.receipt)
            return outcome
        }
    }
}
