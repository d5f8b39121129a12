import Foundation
import Testing

/// `patchcli diff` end to end, as a user runs it: files in, files out, exit codes and the envelope.
@Suite struct DiffCommandTests {
    /// A module-like pair: NEW is OLD with an insertion, a shifted tail and scattered edits.
    static func samplePair() -> (old: [UInt8], new: [UInt8]) {
        var generator = SystemRandomNumberGeneratorSeeded(seed: 42)
        let old = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next() % 64) }
        var new = old
        new.insert(contentsOf: Array("inserted section".utf8), at: 50_000)
        for index in stride(from: 1_000, to: new.count, by: 9_973) { new[index] &+= 1 }
        new.append(contentsOf: (0..<3_000).map { UInt8(truncatingIfNeeded: $0) })
        return (old, new)
    }

    @Test func createThenApplyReproducesNew() throws {
        try withScratchDirectory { directory in
            let (old, new) = Self.samplePair()
            let oldURL = directory.appendingPathComponent("old.wasm"), newURL = directory.appendingPathComponent("new.wasm")
            try Data(old).write(to: oldURL)
            try Data(new).write(to: newURL)
            let create = try CLI.run(["diff", oldURL.path, newURL.path, "-o", "p.bsdiff", "--verify", "--json"], in: directory)
            #expect(create.status == 0, "\(create.stderr)")
            #expect(create.envelope?["ok"] as? Bool == true)
            #expect(create.envelope?["command"] as? String == "diff")
            let result = try #require(create.result)
            #expect(result["old_bytes"] as? Int == old.count)
            #expect(result["new_bytes"] as? Int == new.count)
            #expect(result["verified"] as? Bool == true)
            let patchBytes = try Data(contentsOf: directory.appendingPathComponent("p.bsdiff"))
            #expect(result["patch_bytes"] as? Int == patchBytes.count)
            #expect(patchBytes.prefix(8) == Data("BSDIFF40".utf8))
            #expect(patchBytes.count < new.count / 10)

            let apply = try CLI.run(["diff", "apply", oldURL.path, "p.bsdiff", "-o", "out.wasm", "--json"], in: directory)
            #expect(apply.status == 0, "\(apply.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out.wasm")) == Data(new))
            let digest = try #require(apply.result?["sha256"] as? String)
            #expect(digest.count == 64)

            let human = try CLI.run(["diff", "create", oldURL.path, newURL.path, "-o", "p2.bsdiff"], in: directory)
            #expect(human.status == 0)
            #expect(human.stdout.contains("patch"))
            #expect(!human.stdout.contains("brotli"), "brotli(NEW) is compared only on request (--compare-brotli)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("p2.bsdiff")) == patchBytes, "diff output must be deterministic")
        }
    }

    @Test func missingInputExits3AndWritesNothing() throws {
        try withScratchDirectory { directory in
            try Data([1, 2, 3]).write(to: directory.appendingPathComponent("new"))
            let result = try CLI.run(["diff", "absent", "new", "-o", "p", "--json"], in: directory)
            #expect(result.status == 3)
            #expect(result.error?["kind"] as? String == "input_unavailable")
            #expect((result.error?["message"] as? String)?.contains("absent") == true)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("p").path))
        }
    }

    @Test func malformedPatchExits4AndLeavesNoOutput() throws {
        try withScratchDirectory { directory in
            try Data([1, 2, 3]).write(to: directory.appendingPathComponent("old"))
            try Data("BSDIFF41 not a patch at all, but long enough".utf8).write(to: directory.appendingPathComponent("bad"))
            let result = try CLI.run(["diff", "apply", "old", "bad", "-o", "out", "--json"], in: directory)
            #expect(result.status == 4)
            #expect(result.envelope?["ok"] as? Bool == false)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
            let human = try CLI.run(["diff", "apply", "old", "bad", "-o", "out"], in: directory)
            #expect(human.status == 4)
            #expect(human.stderr.hasPrefix("error: "))
            #expect(human.stdout.isEmpty)
        }
    }

    @Test func sha256MismatchExits5AndKeepsThePreviousOutput() throws {
        try withScratchDirectory { directory in
            let (old, new) = Self.samplePair()
            try Data(old).write(to: directory.appendingPathComponent("old"))
            try Data(new).write(to: directory.appendingPathComponent("new"))
            #expect(try CLI.run(["diff", "old", "new", "-o", "p"], in: directory).status == 0)
            try Data("previous".utf8).write(to: directory.appendingPathComponent("out"))
            let result = try CLI.run(["diff", "apply", "old", "p", "-o", "out", "--sha256", String(repeating: "0", count: 64), "--json"], in: directory)
            #expect(result.status == 5)
            #expect(result.error?["kind"] as? String == "sha256_mismatch")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out")) == Data("previous".utf8))
        }
    }

    @Test func outputCapExits6() throws {
        try withScratchDirectory { directory in
            let (old, new) = Self.samplePair()
            try Data(old).write(to: directory.appendingPathComponent("old"))
            try Data(new).write(to: directory.appendingPathComponent("new"))
            #expect(try CLI.run(["diff", "old", "new", "-o", "p"], in: directory).status == 0)
            let result = try CLI.run(["diff", "apply", "old", "p", "-o", "out", "--max-output-size", "64k", "--json"], in: directory)
            #expect(result.status == 6, "\(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
        }
    }

    @Test func unwritableOutputExits7() throws {
        try withScratchDirectory { directory in
            try Data([1]).write(to: directory.appendingPathComponent("a"))
            try Data([2]).write(to: directory.appendingPathComponent("b"))
            let result = try CLI.run(["diff", "a", "b", "-o", "no/such/dir/p", "--json"], in: directory)
            #expect(result.status == 7)
            #expect(result.error?["kind"] as? String == "output_unwritable")
        }
    }

    @Test func outputOverAnInputIsRefused() throws {
        try withScratchDirectory { directory in
            try Data([1]).write(to: directory.appendingPathComponent("a"))
            try Data([2]).write(to: directory.appendingPathComponent("b"))
            let result = try CLI.run(["diff", "a", "b", "-o", "a"], in: directory)
            #expect(result.status == 2)
            #expect(try Data(contentsOf: directory.appendingPathComponent("a")) == Data([1]))
        }
    }

    @Test func compressAndDecompressRoundTripEveryCodec() throws {
        try withScratchDirectory { directory in
            let (_, new) = Self.samplePair()
            try Data(new).write(to: directory.appendingPathComponent("module.wasm"))
            for codec in ["brotli", "zstd", "xz", "bzip2"] {
                let compress = try CLI.run(["diff", "compress", "module.wasm", "--codec", codec, "-o", "m.\(codec)", "--json"], in: directory)
                #expect(compress.status == 0, "\(codec): \(compress.stdout)")
                #expect((compress.result?["output_bytes"] as? Int ?? .max) < new.count)
                // Detection by magic for zstd/xz/bzip2; brotli is the fallback.
                let decompress = try CLI.run(["diff", "decompress", "m.\(codec)", "-o", "back.\(codec)", "--json"], in: directory)
                #expect(decompress.status == 0, "\(codec): \(decompress.stdout)")
                #expect(decompress.result?["codec"] as? String == codec)
                #expect(try Data(contentsOf: directory.appendingPathComponent("back.\(codec)")) == Data(new))
            }
            let capped = try CLI.run(["diff", "decompress", "m.zstd", "-o", "capped", "--max-output-size", "1k"], in: directory)
            #expect(capped.status == 6)
            let corrupt = try CLI.run(["diff", "decompress", "module.wasm", "--codec", "xz", "-o", "x"], in: directory)
            #expect(corrupt.status == 4)
        }
    }
}

/// Deterministic test data (SplitMix64), so failures reproduce.
struct SystemRandomNumberGeneratorSeeded: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
