import ArgumentParser
import Foundation
import PatchDiff

struct DiffCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Write a BSDIFF40 patch that turns OLD into NEW.",
        discussion: """
            The patch is readable by the Patch SDK, Colin Percival's bspatch 4.3 and Python bsdiff4.
            Output is deterministic: the same inputs always give the same bytes.
            """
    )

    @Argument(help: "The module version devices have now.") var old: String
    @Argument(help: "The module version to ship.") var new: String
    @Option(name: .shortAndLong, help: "Where to write the patch.") var output: String
    @Flag(help: "Apply the patch to OLD after writing and check it reproduces NEW byte for byte.") var verify = false
    @Option(help: ArgumentHelp(
        "Brotli quality (0-11) of the brotli(NEW) figure the patch is compared with.",
        discussion: "Default: 11, what `release` ships, for NEW up to 8 MiB; 5 above, where quality 11 would take minutes and change the figure by a few percent."))
    var brotliQuality: Int?
    /// Above the SDK's synchronous-activation size (sdk-contract §1.4) modules are rare, and brotli 11
    /// of a 60 MB input takes longer than the diff itself by an order of magnitude.
    static let fullQualityLimit = 8 << 20
    static let largeInputQuality = 5
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var old: String, new: String, patch: String
        var oldBytes: Int, newBytes: Int, patchBytes: Int
        /// Brotli of NEW is what a device downloads without a patch: the figure the patch competes with.
        var newBrotliBytes: Int
        var brotliQuality: Int
        var ratioToBrotli: Double
        var seconds: Double
        var verified: Bool
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("diff") {
            if let brotliQuality, !CodecKind.brotli.levelRange.contains(brotliQuality) {
                throw CommandFailure(
                    kind: "usage", message: "--brotli-quality \(brotliQuality) is outside brotli's range \(CodecKind.brotli.levelRange)",
                    exitStatus: .usage, hint: "pick a quality from 0 to 11")
            }
            try FileAccess.requireDistinct(output: output, inputs: [old, new])
            let oldBytes = try FileAccess.read(old)
            let newBytes = try FileAccess.read(new)
            console.progress("diffing \(ByteCount.format(oldBytes.count)) → \(ByteCount.format(newBytes.count))…")
            let clock = ContinuousClock()
            let start = clock.now
            let patch = try BSDiff.makePatch(old: oldBytes, new: newBytes)
            let seconds = (clock.now - start).seconds
            if verify {
                console.progress("verifying the round trip…")
                guard try BSPatch.apply(old: oldBytes, patch: patch) == newBytes else {
                    throw CommandFailure(
                        kind: "round_trip_mismatch", message: "the patch does not reproduce \(new) from \(old)",
                        exitStatus: .verificationFailed, hint: "this is a bug in patchcli's differ; please report it with both files")
                }
            }
            try FileAccess.writeAtomically(patch, to: output)
            let brotliQuality = brotliQuality ?? (newBytes.count <= Self.fullQualityLimit ? CodecKind.brotli.defaultLevel : Self.largeInputQuality)
            let brotliBytes = try Brotli.compressedSize(newBytes, quality: brotliQuality)
            let report = Report(
                old: old, new: new, patch: output, oldBytes: oldBytes.count, newBytes: newBytes.count,
                patchBytes: patch.count, newBrotliBytes: brotliBytes, brotliQuality: brotliQuality,
                ratioToBrotli: brotliBytes == 0 ? 0 : (Double(patch.count) / Double(brotliBytes)).rounded(toPlaces: 3),
                seconds: seconds.rounded(toPlaces: 3), verified: verify)
            console.line("old    \(ByteCount.format(report.oldBytes))  \(old)")
            console.line("new    \(ByteCount.format(report.newBytes))  \(new)")
            console.line("patch  \(ByteCount.format(report.patchBytes))  \(output)")
            console.line(String(format: "ratio  %.3f of brotli(new) = %@ (quality %d)", report.ratioToBrotli, ByteCount.format(brotliBytes), brotliQuality))
            console.line(String(format: "time   %.3f s%@", seconds, verify ? ", round trip verified" : ""))
            return report
        }
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
