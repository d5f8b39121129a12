import ArgumentParser
import Foundation
import PatchDiff
import PatchManifest

struct DiffApply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a BSDIFF40 patch to OLD, as a device does, and write NEW.",
        discussion: """
            The applier is hardened against hostile patches: every length and control entry is checked,
            output is capped, and it streams, so memory stays near the size of OLD. NEW is written
            atomically: on any failure nothing is left at the output path.
            """
    )

    @Argument(help: "The file the patch was made against.") var old: String
    @Argument(help: "The BSDIFF40 patch.") var patch: String
    @Option(name: .shortAndLong, help: "Where to write the patched file.") var output: String
    @Option(help: "Refuse patches whose output exceeds this size (default: the SDK's 256MiB).") var maxOutputSize: ByteSize?
    @Option(help: "Check the result's SHA-256 (hex), as devices check the update response's sha256.") var sha256: String?
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var old: String, patch: String, output: String
        var oldBytes: Int, patchBytes: Int, newBytes: Int
        var sha256: String
        var seconds: Double
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("diff apply") {
            try FileAccess.requireDistinct(output: output, inputs: [old, patch])
            let oldBytes = try FileAccess.read(old)
            let patchBytes = try FileAccess.read(patch)
            var limits = BSPatchLimits.device
            if let maxOutputSize { limits.maxNewSize = maxOutputSize.bytes }
            // NEW can be made again from OLD and the patch: no flush to the disk (as bspatch).
            let writer = try AtomicFileWriter(path: output, flushBeforeCommit: false)
            var hasher = SHA256Hasher()
            var written = 0
            var writeFailure: FileAccessError?
            let clock = ContinuousClock()
            let start = clock.now
            do {
                try oldBytes.withUnsafeBytes { oldBuffer in
                    try patchBytes.withUnsafeBytes { patchBuffer in
                        try BSPatch.apply(old: oldBuffer, patch: patchBuffer, limits: limits) { chunk in
                            hasher.update(chunk)
                            written += chunk.count
                            do throws(FileAccessError) { try writer.write(chunk) } catch { writeFailure = error; throw error }
                        }
                    }
                }
            } catch {
                // The applier wraps the sink's failure; report the file error itself.
                if let writeFailure { throw writeFailure }
                throw error
            }
            let digest = hasher.finalizeHex()
            if let expected = sha256, expected.lowercased() != digest {
                throw CommandFailure(
                    kind: "sha256_mismatch", message: "the patched output's SHA-256 is \(digest), expected \(expected.lowercased())",
                    exitStatus: .verificationFailed, hint: "the patch was made against a different OLD, or NEW changed since")
            }
            try writer.commit()
            let report = Report(
                old: old, patch: patch, output: output, oldBytes: oldBytes.count, patchBytes: patchBytes.count,
                newBytes: written, sha256: digest, seconds: (clock.now - start).inSeconds.rounded(toPlaces: 3))
            console.line("wrote  \(ByteCount.format(written))  \(output)")
            console.line("sha256 \(digest)")
            console.line("time   \(report.seconds.fixed(places: 3)) s")
            return report
        }
    }
}
