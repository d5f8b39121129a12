import ArgumentParser
import Foundation
import PatchDiff
import PatchManifest

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
    @Flag(help: ArgumentHelp(
        "Also compress NEW with brotli and report the patch's size relative to it.",
        discussion: "brotli(NEW) is what a device downloads without a patch. Off by default: at quality 11 it takes 10 to 40 times as long as the diff itself."))
    var compareBrotli = false
    @Option(help: ArgumentHelp(
        "Brotli quality (0-11) of the brotli(NEW) comparison; implies --compare-brotli.",
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
        /// Only with `--compare-brotli` (or `--brotli-quality`); these three keys are then null, so
        /// the report keeps one shape.
        var newBrotliBytes: Int?
        var brotliQuality: Int?
        var ratioToBrotli: Double?
        var seconds: Double
        var verified: Bool

        enum CodingKeys: String, CodingKey {
            case old, new, patch, oldBytes, newBytes, patchBytes, newBrotliBytes, brotliQuality, ratioToBrotli, seconds, verified
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(old, forKey: .old)
            try container.encode(new, forKey: .new)
            try container.encode(patch, forKey: .patch)
            try container.encode(oldBytes, forKey: .oldBytes)
            try container.encode(newBytes, forKey: .newBytes)
            try container.encode(patchBytes, forKey: .patchBytes)
            // Encoded as null when absent rather than left out (what the synthesized encoding does).
            try container.encode(newBrotliBytes, forKey: .newBrotliBytes)
            try container.encode(brotliQuality, forKey: .brotliQuality)
            try container.encode(ratioToBrotli, forKey: .ratioToBrotli)
            try container.encode(seconds, forKey: .seconds)
            try container.encode(verified, forKey: .verified)
        }
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
            let seconds = (clock.now - start).inSeconds
            if verify {
                console.progress("verifying the round trip…")
                guard try BSPatch.apply(old: oldBytes, patch: patch) == newBytes else {
                    throw CommandFailure(
                        kind: "round_trip_mismatch", message: "the patch does not reproduce \(new) from \(old)",
                        exitStatus: .verificationFailed, hint: "this is a bug in patchcli's differ; please report it with both files")
                }
            }
            // No flush to the disk: the patch can be made again from OLD and NEW (as bsdiff does).
            let writer = try AtomicFileWriter(path: output, flushBeforeCommit: false)
            try writer.write(patch)
            try writer.commit()
            var report = Report(
                old: old, new: new, patch: output, oldBytes: oldBytes.count, newBytes: newBytes.count,
                patchBytes: patch.count, seconds: seconds.rounded(toPlaces: 3), verified: verify)
            if compareBrotli || brotliQuality != nil {
                console.progress("compressing NEW with brotli for the comparison…")
                let quality = brotliQuality ?? (newBytes.count <= Self.fullQualityLimit ? CodecKind.brotli.defaultLevel : Self.largeInputQuality)
                let brotliBytes = try Brotli.compressedSize(newBytes, quality: quality)
                report.newBrotliBytes = brotliBytes
                report.brotliQuality = quality
                report.ratioToBrotli = brotliBytes == 0 ? 0 : (Double(patch.count) / Double(brotliBytes)).rounded(toPlaces: 3)
            }
            console.line("old    \(ByteCount.format(report.oldBytes))  \(old)")
            console.line("new    \(ByteCount.format(report.newBytes))  \(new)")
            console.line("patch  \(ByteCount.format(report.patchBytes))  \(output)")
            if let ratio = report.ratioToBrotli, let brotliBytes = report.newBrotliBytes, let quality = report.brotliQuality {
                console.line("ratio  \(ratio.fixed(places: 3)) of brotli(new) = \(ByteCount.format(brotliBytes)) (quality \(quality))")
            }
            console.line("time   \(seconds.fixed(places: 3)) s\(verify ? ", round trip verified" : "")")
            return report
        }
    }
}
