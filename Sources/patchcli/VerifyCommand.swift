import ArgumentParser
import Foundation
import PatchManifest
import PatchStore

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a release store: every signature, hash, length, version, expiry and reference, every module and diff.",
        discussion: """
            Exits 0 when the store verifies (warnings included), 40 naming the failing file or item (or when the \
            store is older than metadata this machine already trusted for it: a rollback), 41 when metadata has \
            expired. Leftovers of interrupted publishes are warnings; --repair removes them. So is a root.key \
            kept in the same key folder as the online keys (--key-dir, or the project's signing.keyDirectory).
            """)

    @Argument(help: "The release store directory.") var store: String
    @Option(help: "A trusted root.json to start the chain from (default: the store's own 1.root.json).") var root: String?
    @Option(help: "A timestamp.json seen earlier: the store must not be older (rollback check).") var since: String?
    @Option(help: "Check expiry at this time instead of now (YYYY-MM-DDTHH:MM:SSZ).") var now: String?
    @Flag(help: "Skip the per-module verification (hashes and diffs are still checked).") var skipModules = false
    @Flag(help: "After the store verifies, remove what no metadata references (temporary files and unlisted targets of interrupted publishes), under the publisher lock.")
    var repair = false
    @Option(help: "A key folder to check for a root.key kept beside the online keys, a warning (default in a project: patch.json's signing.keyDirectory).")
    var keyDir: String?
    @OptionGroup var trustOptions: TrustOptions
    @OptionGroup(title: "Limits of the module proof (as for `patchcli run`)") var limits: RuntimeLimitOptions
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("verify") {
            var reference = Date()
            if let now {
                guard let parsed = TUFTime.parse(now) else {
                    throw CommandFailure(kind: "usage", message: "--now \(now): expected YYYY-MM-DDTHH:MM:SSZ", exitStatus: .usage, hint: "`patchcli verify --help` shows the usage")
                }
                reference = parsed
            }
            let trustedRoot = try root.map { try FileAccess.read($0) }
            let previous = try since.map { try FileAccess.read($0) }
            let releaseStore = ReleaseStore(directory: store)
            var report = try releaseStore.verify(
                now: reference, trustedRoot: trustedRoot, previousTimestamp: previous, trusted: trustOptions.file,
                moduleVerifier: skipModules ? nil : DeviceParityVerifier(limits: try limits.limits()))
            if let advice = ProjectKeyDirectory.inspected(keyDir: keyDir)?.rootKeyBesideOnlineKeys() { report.warnings.append(advice) }
            if repair {
                let removed = try releaseStore.removeLeftovers()
                report.removed = removed
                report.warnings.removeAll { warning in removed.all.contains { warning.hasPrefix("\($0): ") } }
            }
            console.line("store verifies: root v\(report.rootVersion), timestamp v\(report.timestampVersion), snapshot v\(report.snapshotVersion), targets v\(report.targetsVersion)")
            console.line("\(report.targets) targets, \(report.modulesChecked) modules (\(report.moduleVerifier ?? "not verified")), \(report.diffsChecked) diffs reproduce their modules")
            for (channel, counter) in report.channels.sorted(by: { $0.key < $1.key }) { console.line("channel \(channel): release counter \(counter)") }
            for warning in report.warnings { console.line("warning: \(warning)") }
            if let removed = report.removed {
                for path in removed.all { console.line("removed \(path)") }
                console.line("repair: removed \(removed.all.count) leftover file(s)")
            }
            return report
        }
    }
}
