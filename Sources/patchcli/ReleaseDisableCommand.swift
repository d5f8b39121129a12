import ArgumentParser
import PatchStore

struct ReleaseDisable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Kill switch: a new record telling devices of the fingerprint there is no update.",
        discussion: "Devices keep what they run; to move them back, use `release rollback`. `release rollout` re-enables.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The channel.") var channel = "production"
    @Option(help: "The fingerprint (needed when the channel serves several).") var fingerprint: String?
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release disable") {
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: [.targets, .snapshot, .timestamp], stdin: &stdin)
            let outcome = try storeOptions.releaseStore.disable(channel: channel, fingerprint: fingerprint, signers: signers, options: publishFlags.options())
            outcome.records.forEach(console.record)
            console.files(outcome.receipt)
            return outcome
        }
    }
}
