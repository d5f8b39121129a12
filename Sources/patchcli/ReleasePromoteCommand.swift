import ArgumentParser
import PatchStore

struct ReleasePromote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Publish a channel's current release on another channel: the same bytes, a new counter.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The channel to take the release from.") var from: String
    @Option(help: "The channel to publish it on.") var to: String
    @Option(help: "Only this fingerprint's release (default: every fingerprint on --from).") var fingerprint: String?
    @Option(help: ArgumentHelp("Rollout percentage on --to (default 100%).", valueName: RolloutPercent.valueName)) var rollout: RolloutPercent?
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release promote") {
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: [.targets, .snapshot, .timestamp], stdin: &stdin)
            let outcome = try storeOptions.releaseStore.promote(from: from, to: to, fingerprint: fingerprint, rolloutPercent: rollout?.value, signers: signers, options: publishFlags.options())
            outcome.records.forEach(console.record)
            console.files(outcome.receipt)
            return outcome
        }
    }
}
