import Foundation
import Testing
@testable import PatchDiff

@Suite struct CodecTests {
    static let inputs: [[UInt8]] = [
        [],
        [0x42],
        Array("hello, hello, hello, hello".utf8),
        BSDiffCreateTests.codeLike(300_000, seed: 7),
        [UInt8](repeating: 0, count: 1_000_000),
    ]

    @Test(arguments: CodecKind.allCases)
    func roundTripsAtTheDefaultLevel(codec: CodecKind) throws {
        for input in Self.inputs {
            let compressed = try codec.compress(input)
            let restored = try codec.decompress(compressed, maxOutputBytes: input.count)
            #expect(restored == input, "\(codec) round trip of \(input.count) bytes")
        }
    }

    @Test(arguments: CodecKind.allCases)
    func roundTripsAtTheExtremeLevels(codec: CodecKind) throws {
        let input = BSDiffCreateTests.codeLike(50_000, seed: 11)
        for level in [codec.levelRange.lowerBound, codec.levelRange.upperBound] {
            let compressed = try codec.compress(input, level: level)
            #expect(try codec.decompress(compressed, maxOutputBytes: input.count) == input, "\(codec) level \(level)")
        }
    }

    @Test(arguments: CodecKind.allCases)
    func rejectsALevelOutsideItsRange(codec: CodecKind) {
        let level = codec.levelRange.upperBound + 1
        #expect(throws: CodecError.self) { try codec.compress([1, 2, 3], level: level) }
        do {
            _ = try codec.compress([1, 2, 3], level: level)
        } catch {
            guard case .libraryFailure(codec, let detail) = error else {
                Issue.record("expected libraryFailure, got \(error)")
                return
            }
            #expect(detail.contains("\(level)"))
        }
    }

    @Test func brotliWindowIsConfigurable() throws {
        let input = BSDiffCreateTests.codeLike(200_000, seed: 3)
        try input.withUnsafeBytes { buffer in
            let small = try Brotli.compress(buffer, quality: 5, windowBits: 10)
            let restored = try small.withUnsafeBytes { try Brotli.decompress($0, maxOutputBytes: input.count) }
            #expect(restored == input)
            #expect(throws: CodecError.libraryFailure(codec: .brotli, detail: "window bits 25 is outside 10...24")) {
                try Brotli.compress(buffer, windowBits: 25)
            }
        }
    }

    @Test(arguments: CodecKind.allCases)
    func stopsAtTheOutputLimit(codec: CodecKind) throws {
        // A small bomb: 4 MB of zeros compresses to a few hundred bytes (or less) in every codec.
        let bomb = try codec.compress([UInt8](repeating: 0, count: 4 << 20))
        #expect(bomb.count < 64 * 1024)
        #expect(throws: CodecError.outputLimitExceeded(codec: codec, limit: 1 << 20)) {
            try codec.decompress(bomb, maxOutputBytes: 1 << 20)
        }
        // The cap is inclusive: exactly the output size is allowed, one byte less is not.
        #expect(try codec.decompress(bomb, maxOutputBytes: 4 << 20).count == 4 << 20)
        #expect(throws: CodecError.outputLimitExceeded(codec: codec, limit: (4 << 20) - 1)) {
            try codec.decompress(bomb, maxOutputBytes: (4 << 20) - 1)
        }
    }

    @Test(arguments: CodecKind.allCases)
    func rejectsTrailingData(codec: CodecKind) throws {
        let compressed = try codec.compress(Array("payload".utf8))
        #expect(throws: CodecError.trailingData(codec: codec, count: 3)) {
            try codec.decompress(compressed + [0xAA, 0xBB, 0xCC], maxOutputBytes: 100)
        }
        // A second complete stream is trailing data too: artifacts are always exactly one stream.
        #expect(throws: CodecError.trailingData(codec: codec, count: compressed.count)) {
            try codec.decompress(compressed + compressed, maxOutputBytes: 100)
        }
    }

    @Test(arguments: CodecKind.allCases)
    func rejectsTruncatedStreams(codec: CodecKind) throws {
        let compressed = try codec.compress(BSDiffCreateTests.codeLike(20_000, seed: 5))
        for cut in [1, compressed.count / 2] {
            #expect(throws: CodecError.truncated(codec: codec), "\(codec) cut by \(cut)") {
                try codec.decompress(Array(compressed.dropLast(cut)), maxOutputBytes: 1 << 20)
            }
        }
        #expect(throws: CodecError.truncated(codec: codec)) { try codec.decompress([], maxOutputBytes: 100) }
    }

    @Test(arguments: CodecKind.allCases)
    func rejectsCorruptStreams(codec: CodecKind) throws {
        // Not this codec at all: every format but brotli has a magic number to fail on, and brotli's
        // window-size bits in this first byte (0xFF) are invalid.
        let garbage = [UInt8](repeating: 0xFF, count: 64)
        expectCorrupt(codec: codec) { _ = try codec.decompress(garbage, maxOutputBytes: 1 << 20) }
    }

    @Test(arguments: [CodecKind.xz, .bzip2, .brotli])
    func detectsDamageInsideTheStream(codec: CodecKind) throws {
        // zstd frames carry no checksum by default, so a flipped literal is undetectable there;
        // xz and bzip2 have CRCs, and brotli's structure rejects this damage.
        let input = BSDiffCreateTests.codeLike(100_000, seed: 9)
        var compressed = try codec.compress(input)
        for offset in stride(from: compressed.count / 3, to: compressed.count / 3 + 16, by: 1) {
            compressed[offset] ^= 0x5A
        }
        expectCorrupt(codec: codec) { _ = try codec.decompress(compressed, maxOutputBytes: 1 << 20) }
    }

    @Test func detectsCodecsByMagic() throws {
        let input = Array("detect me".utf8)
        #expect(CodecKind.detect(try CodecKind.zstd.compress(input)) == .zstd)
        #expect(CodecKind.detect(try CodecKind.xz.compress(input)) == .xz)
        #expect(CodecKind.detect(try CodecKind.bzip2.compress(input)) == .bzip2)
        #expect(CodecKind.detect(try CodecKind.brotli.compress(input)) == nil)
        #expect(CodecKind.detect(Array("BZh0".utf8)) == nil)
        #expect(CodecKind.detect(Array("BZ".utf8)) == nil)
        #expect(CodecKind.detect([UInt8]()) == nil)
        #expect(CodecKind.detect(Array("\0asm".utf8)) == nil)
    }

    @Test func pythonBrotliReadsOursAndWeReadItsOutput() throws {
        guard let python = try requirePythonModule("brotli") else { return }
        let input = BSDiffCreateTests.codeLike(120_000, seed: 21)
        try withTemporaryDirectory { directory in
            let ours = directory.appendingPathComponent("ours.br")
            let theirs = directory.appendingPathComponent("theirs.br")
            let plain = directory.appendingPathComponent("plain")
            try Data(try CodecKind.brotli.compress(input)).write(to: ours)
            try Data(input).write(to: plain)
            let script = """
            import brotli, sys
            ours, theirs, plain = sys.argv[1:4]
            data = open(plain, 'rb').read()
            assert brotli.decompress(open(ours, 'rb').read()) == data, 'python cannot read our brotli'
            open(theirs, 'wb').write(brotli.compress(data))
            """
            let result = try runTool(python, ["-c", script, ours.path, theirs.path, plain.path])
            #expect(result.status == 0, "python: \(result.stderr)")
            let theirBytes = [UInt8](try Data(contentsOf: theirs))
            #expect(try CodecKind.brotli.decompress(theirBytes, maxOutputBytes: input.count) == input)
        }
    }

    @Test(arguments: [(CodecKind.zstd, "zstd"), (.xz, "xz"), (.bzip2, "bzip2")])
    func commandLineToolsAgree(codec: CodecKind, tool: String) throws {
        guard let path = try requireTool(tool) else { return }
        let input = BSDiffCreateTests.codeLike(150_000, seed: 13)
        let theirs = try runTool(path, ["-c"], stdin: input)
        #expect(theirs.status == 0, "\(tool) -c: \(theirs.stderr)")
        #expect(try codec.decompress(theirs.stdout, maxOutputBytes: input.count) == input)
        let back = try runTool(path, ["-d", "-c"], stdin: try codec.compress(input))
        #expect(back.status == 0, "\(tool) -d: \(back.stderr)")
        #expect(back.stdout == input)
    }
}

/// Expects `body` to throw `CodecError.corrupt` for `codec`; the detail text is the library's.
func expectCorrupt(codec: CodecKind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(codec) data to be rejected as corrupt", sourceLocation: sourceLocation)
    } catch let error as CodecError {
        guard case .corrupt(codec, let detail) = error, !detail.isEmpty else {
            Issue.record("expected .corrupt(\(codec)), got \(error)", sourceLocation: sourceLocation)
            return
        }
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}
