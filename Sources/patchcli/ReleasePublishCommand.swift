import ArgumentParser
import PatchManifest
import PatchStore

struct ReleasePublish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Verify, compress, hash, diff, sign and publish a module artifact.",
        discussion: """
            MODULE is the artifact devices run: a raw .wasm, a PMOD container or a POVR envelope. It is
            stored brotli-compressed (.br, quality 11) with the SHA-256 of its raw bytes, plus BSDIFF40
            diffs from the last releases of the same fingerprint when smaller than the .br.

            Verification today is structural (artifact layering, wasm magic/version, sections, an
            exported memory). The device-parity run (smoke probes and the fallback check in
            PatchRuntime) plugs into the same step when the runtime lands.
            """)

    @Argument(help: "The module artifact to publish.") var module: String
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The native build fingerprint the module is built for (devices send it as `fingerprint`).") var fingerprint: String
    @Option(help: "The channel (production, staging, development or any name).") var channel = "production"
    @Option(help: "Percentage of devices offered the release, e.g. 25%.") var rollout = RolloutPercent.everyone
    @Flag(help: "Devices must apply the update (enforceMandatoryUpdates).") var mandatory = false
    @Option(help: "Release notes shown by the app.") var notes: String?
    @Option(help: "Offer the release only to devices in this cohort.") var cohort: String?
    @Flag(help: "Publish without verifying the module (only for a module you have verified yourself).") var skipVerify = false
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release") {
            let bytes = try FileAccess.read(module)
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: [.targets, .snapshot, .timestamp], stdin: &stdin)
            let request = PublishRequest(channel: channel, fingerprint: fingerprint, rolloutPercent: rollout.value, mandatory: mandatory, notes: notes, cohort: cohort)
            let outcome = try storeOptions.releaseStore.publish(
                module: bytes, request: request, verifier: skipVerify ? nil : StructuralModuleVerifier(),
                signers: signers, options: publishFlags.options())
            if let check = outcome.moduleCheck {
                console.line("verified (\(check.verifier): \(check.layout), \(check.checks.joined(separator: ", "))); the device-parity run arrives with PatchRuntime")
            } else {
                console.line("module verification skipped (--skip-verify)")
            }
            outcome.records.forEach(console.record)
            console.files(outcome.receipt)
            return outcome
        }
    }
}
