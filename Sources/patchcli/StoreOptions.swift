import ArgumentParser
import Foundation
import PatchManifest
import PatchStore

/// `--store DIR` and the publish-time settings every store-changing command shares.
struct StoreOptions: ParsableArguments {
    @Option(help: "The release store directory.")
    var store: String

    var releaseStore: ReleaseStore { ReleaseStore(directory: store) }
}

/// Where `verify`, `serve` and every store-writing command keep the highest metadata versions
/// they trusted per store, so a rolled-back store is refused after a restart too, and never
/// published onto (docs/release.md, "Rollback protection").
struct TrustOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "patchcli's state folder; the per-store trusted-versions records go in its trusted/ (default: $PATCHCLI_STATE_DIR, else $XDG_STATE_HOME/patchcli, else ~/.local/state/patchcli).",
        valueName: "DIR"))
    var stateDir: String?

    var file: TrustedVersionsFile {
        TrustedVersionsFile(stateDirectory: stateDir ?? TrustedVersionsFile.defaultStateDirectory(environment: ProcessInfo.processInfo.environment))
    }
}

struct PublishFlags: ParsableArguments {
    @Flag(help: "Sign and plan everything, print the files it would write with their sizes, write nothing.")
    var dryRun = false
    @OptionGroup var trust: TrustOptions

    /// Publish options for this run. `PATCHCLI_FAULT_AT=<step>` (tests only) kills the process with
    /// SIGKILL right after that step, exactly as a crash or `kill -9` would.
    func options() -> PublishOptions {
        var options = PublishOptions(dryRun: dryRun, trusted: trust.file)
        if let step = ProcessInfo.processInfo.environment["PATCHCLI_FAULT_AT"], !step.isEmpty {
            options.faultHook = { reached throws(StoreError) in
                if reached.description == step { kill(getpid(), SIGKILL) }
            }
        }
        return options
    }
}

/// Human lines for the files a publish wrote (or would write).
extension Console {
    func files(_ receipt: PublishReceipt) {
        for file in receipt.files {
            line("  \(receipt.dryRun ? "would write" : "wrote") \(file.path)  \(file.bytes) bytes")
        }
        line("  metadata: targets v\(receipt.targetsVersion), snapshot v\(receipt.snapshotVersion), timestamp v\(receipt.timestampVersion), root v\(receipt.rootVersion)\(receipt.dryRun ? " (dry run: nothing written)" : "")")
    }

    func record(_ record: ReleaseRecord) {
        var flags: [String] = ["rollout \(record.rolloutPercent)%"]
        if record.mandatory { flags.append("mandatory") }
        if record.disabled { flags.append("DISABLED") }
        if let cohort = record.cohort { flags.append("cohort \(cohort)") }
        line("\(record.channel) #\(record.releaseCounter)  \(record.action.rawValue)  version \(record.version)  fingerprint \(record.fingerprint)  \(flags.joined(separator: ", "))")
        if let source = record.source { line("  built from \(source.summary)") }
        line("  module \(record.module.path)  \(record.module.length) bytes raw, \(record.module.compressedLength) bytes brotli")
        for diff in record.diffs { line("  diff from \(diff.fromVersion)  \(diff.length) bytes") }
    }
}
