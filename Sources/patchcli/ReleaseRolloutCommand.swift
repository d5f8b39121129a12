import ArgumentParser
import PatchStore

struct ReleaseRollout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Change the rollout percentage of a channel's current release (also lifts a disable).")

    @Argument(help: ArgumentHelp("The new percentage, e.g. 50%.", valueName: RolloutPercent.valueName)) var percent: RolloutPercent
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The channel.") var channel = "production"
    @Option(help: "The fingerprint (needed when the channel serves several).") var fingerprint: String?
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release rollout") {
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: [.targets, .snapshot, .timestamp], stdin: &stdin)
            let outcome = try storeOptions.releaseStore.setRollout(channel: channel, fingerprint: fingerprint, percent: percent.value, signers: signers, options: publishFlags.options())
            outcome.records.forEach(console.record)
            console.files(outcome.receipt)
            return outcome
        }
    }
}
