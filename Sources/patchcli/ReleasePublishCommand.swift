import ArgumentParser
import Foundation
import PatchBuild
import PatchManifest
import PatchNotify
import PatchRuntime
import PatchStore

struct ReleasePublish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Verify, compress, hash, diff, sign and publish a module artifact.",
        discussion: """
            MODULE is the artifact devices run: a raw .wasm, a PMOD container or a POVR envelope. It is
            stored brotli-compressed (.br, quality 11) with the SHA-256 of its raw bytes, plus BSDIFF40
            diffs from the last releases of the same fingerprint when smaller than the .br.

            Before anything is written the module is proven as a device would run it (PatchRuntime,
            as `patchcli run`): artifact layering and sections, device parity, every function
            validated, instantiation and `_initialize`, then its smoke probes (--probes FILE, or the
            `probes` of the manifest.json `patchcli build` wrote next to MODULE, whose sha256 must
            match), and the fallback rung: the module devices run today must still activate, or a
            warning says devices would fall back to the bundled code. All of it runs under `run`'s
            limits (--fuel, --max-memory-pages, --max-table-elements, …, same defaults). A failure
            exits 44 and publishes nothing; --skip-verify bypasses all of it.

            --notify then wakes devices with a silent push for the new release: over APNs (HTTP/2,
            token auth) to --device-tokens when APNs credentials are configured, else it writes the
            payload for the team's own push service. Credentials and tokens are checked before
            anything is published. Payload, credentials, errors and the app's glue: docs/triggers.md.
            """)

    @Argument(help: "The module artifact to publish.") var module: String
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The native build fingerprint the module is built for (devices send it as `fingerprint`); default: the one `patchcli build` recorded in manifest.json next to MODULE.") var fingerprint: String?
    @Option(help: "The channel (production, staging, development or any name).") var channel = "production"
    @Option(help: ArgumentHelp("Percentage of devices offered the release, e.g. 25%.", valueName: RolloutPercent.valueName)) var rollout = RolloutPercent.everyone
    @Flag(help: "Devices must apply the update (enforceMandatoryUpdates).") var mandatory = false
    @Option(help: "Release notes shown by the app.") var notes: String?
    @Option(help: "Offer the release only to devices in this cohort.") var cohort: String?
    @Option(name: .customLong("app-key"), help: "The app key devices of this app send; `serve` offers the release only to them (default: appKey of the patch.json above MODULE, else in the current folder).")
    var appKey: String?
    @Option(help: "Smoke probes to run before publishing (manifest.json format; default: manifest.json next to MODULE).") var probes: String?
    @Flag(help: "Publish without verifying the module (only for a module you have verified yourself).") var skipVerify = false
    @Flag(help: "After publishing, wake devices with a silent push: over APNs when credentials are configured, else print the payload (or write it to --notify-payload-out).")
    var notify = false
    @Option(help: ArgumentHelp("With --notify and no APNs credentials: write the payload to FILE instead of stdout.", valueName: "FILE"))
    var notifyPayloadOut: String?
    @OptionGroup(title: "Notify (with --notify; docs/triggers.md)") var apns: APNsOptions
    @Option(name: .customLong("max-artifact-bytes"), help: "Refuse (exit 57) an artifact larger than N bytes; the report lists its largest assets.") var maxArtifactBytes: Int?
    @OptionGroup(title: "Limits of the proof (as for `patchcli run`)") var limits: RuntimeLimitOptions
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if !notify, let flag = [(notifyPayloadOut, "--notify-payload-out"), (apns.deviceTokens, "--device-tokens"), (apns.apnsCredentials, "--apns-credentials"),
                                (apns.apnsEndpoint, "--apns-endpoint"), (apns.apnsCa, "--apns-ca")].first(where: { $0.0 != nil })?.1 {
            throw ValidationError("\(flag) is an option of --notify")
        }
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release") {
            let bytes = try FileAccess.read(module)
            let composition = ArtifactComposition(bytes)
            if let maxArtifactBytes, bytes.count > maxArtifactBytes { throw CommandFailure(composition.sizeReport(limit: maxArtifactBytes)) }
            let manifest = try Run.siblingManifest(of: module)
            let fingerprint = try publishedFingerprint(manifest)
            let appKey = try appKey ?? projectAppKey()
            // Bad credentials or tokens stop the command before the store changes.
            let delivery = notify ? try apns.delivery(appKey: appKey) : nil
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: [.targets, .snapshot, .timestamp], stdin: &stdin)
            let request = PublishRequest(channel: channel, fingerprint: fingerprint, rolloutPercent: rollout.value, mandatory: mandatory, notes: notes, cohort: cohort,
                                         source: ReleaseSource.of(path: module), appKey: appKey)
            let store = storeOptions.releaseStore
            let publishing = "compressing, diffing against the channel's releases, signing…"
            var verifier = skipVerify ? nil : try deviceParityVerifier(bytes, manifest: manifest, fingerprint: fingerprint, store: store)
            verifier?.proven = { console.progress(publishing) }
            console.progress(verifier == nil ? publishing : "verifying the module as a device would…")
            let outcome = try store.publish(
                module: bytes, request: request, verifier: verifier, signers: signers, options: publishFlags.options())
            if let check = outcome.moduleCheck {
                console.line("verified (\(check.verifier), \(check.layout)):")
                check.checks.forEach { console.line("  \($0)") }
                check.warnings.forEach { console.line("warning: \($0)") }
            } else {
                console.line("module verification skipped (--skip-verify)")
            }
            outcome.records.forEach(console.record)
            console.files(outcome.receipt)
            var report = PublishReport(outcome: outcome)
            // The dry run says what the artifact is made of: with assets, each one's share.
            if publishFlags.dryRun {
                composition.lines.forEach(console.line)
                report.artifact = composition
            }
            guard notify, let record = outcome.records.last else { return report }
            return try await notifyDevices(of: record, dryRun: outcome.receipt.dryRun, delivery: delivery, console: console) { [report] notified in
                var report = report
                report.notify = notified
                return report
            }
        }
    }

    /// `--notify`: the silent push for `record`, sent over APNs with `delivery`, else written out.
    private func notifyDevices(of record: ReleaseRecord, dryRun: Bool, delivery: APNsDelivery?, console: Console,
                               report: (NotifyReport) -> PublishReport) async throws -> PublishReport {
        let push = SilentPush(app: record.appKey, channel: record.channel, version: record.version)
        let payload = String(decoding: try push.payload(), as: UTF8.self)
        if dryRun {
            console.line("dry run: would notify \(delivery.map { "the devices of \($0.tokenFile) over APNs" } ?? "nobody (no APNs credentials)") with \(payload)")
            return report(NotifyReport(push: push))
        }
        guard let delivery else {
            if let notifyPayloadOut {
                try FileAccess.writeAtomically(Array((payload + "\n").utf8), to: notifyPayloadOut)
                console.line("wrote the silent-push payload to \(notifyPayloadOut) (no APNs credentials configured: send it with your push service)")
            } else {
                console.line("silent-push payload (no APNs credentials configured: send it with your push service; docs/triggers.md):")
                console.line(payload)
            }
            return report(NotifyReport(push: push, payloadFile: notifyPayloadOut))
        }
        console.progress("notifying devices over APNs…")
        let published = "published \(record.version) on \(record.channel)"
        let sent: NotifyReport
        do { sent = try await delivery.send(push) } catch {
            var failure = CommandFailure(error)
            failure.message = "\(published), but notifying devices stopped: \(failure.message)"
            failure.result = report(NotifyReport(push: push))
            throw failure
        }
        sent.lines().forEach(console.line)
        try sent.checkDelivered(published: published, result: report(sent))
        return report(sent)
    }

    /// The `appKey` of the project MODULE was built in (the nearest patch.json above it, as
    /// `<project>/.patch/build/module.wasm` sits), else of the current folder's; nil outside a project.
    private func projectAppKey() throws -> String? {
        var folder = URL(fileURLWithPath: module).standardizedFileURL.deletingLastPathComponent()
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(ProjectConfig.fileName).path) {
                return try ProjectSources.loadConfig(root: folder.path).appKey
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        guard FileManager.default.fileExists(atPath: ProjectConfig.fileName) else { return nil }
        return try ProjectSources.loadConfig(root: ".").appKey
    }

    /// --fingerprint, or the one `patchcli build` recorded: a module is never published for a
    /// native build other than the one it was built against.
    private func publishedFingerprint(_ manifest: RunManifest?) throws -> String {
        switch (fingerprint, manifest?.baselineFingerprint) {
        case let (given?, built?) where given != built:
            throw CommandFailure(
                kind: "module_rejected",
                message: "\(module) was built for fingerprint \(built) (\(Run.manifestPath(for: module))), not \(given): devices running that build would run code compiled against another one",
                exitStatus: .moduleFailedVerification, hint: "drop --fingerprint, or rebuild against the baseline of the build you want to patch (`patchcli build --baseline FILE`)")
        case let (given?, _):
            return given
        case let (nil, built?):
            return built
        case (nil, nil):
            throw CommandFailure(
                kind: "usage", message: "no fingerprint: \(module) has no manifest.json from `patchcli build` next to it",
                exitStatus: .usage, hint: "give --fingerprint with the native build's fingerprint")
        }
    }

    /// The probes come from --probes or the build's manifest.json next to MODULE (which must
    /// describe these very bytes); the fallback rung is what the channel serves this fingerprint now.
    private func deviceParityVerifier(_ bytes: [UInt8], manifest: RunManifest?, fingerprint: String, store: ReleaseStore) throws -> DeviceParityVerifier {
        if let expected = manifest?.sha256 {
            _ = try ArtifactLoader.load(bytes, expectedSHA256: expected, hashSource: Run.manifestPath(for: module))
        }
        let probeList = try probes.map { try RunManifest.parse(try FileAccess.read($0), source: $0).probes } ?? manifest?.probes ?? []
        let previous = try store.currentModule(channel: channel, fingerprint: fingerprint, now: Date())
        return DeviceParityVerifier(probes: probeList, previous: previous, limits: try limits.limits())
    }
}

/// `release`'s result: the store's outcome, plus the artifact's composition under --dry-run and
/// `notify` under --notify.
struct PublishReport: Encodable, Sendable {
    var outcome: ReleaseOutcome
    var artifact: ArtifactComposition?
    var notify: NotifyReport?

    enum CodingKeys: String, CodingKey { case artifact, notify }

    func encode(to encoder: Encoder) throws {
        try outcome.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(artifact, forKey: .artifact)
        try container.encodeIfPresent(notify, forKey: .notify)
    }
}
