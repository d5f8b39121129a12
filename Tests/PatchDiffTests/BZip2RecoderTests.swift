import Foundation
import Testing
@testable import PatchDiff

/// `BZip2Recoder` re-chooses the Huffman tables of libbz2's output: the result must decompress
/// (with libbz2, what bspatch, bsdiff4 and `BZip2.decompress` use) to the same bytes, never be
/// larger, and keep every code a complete prefix code within libbz2's 17-bit limit.
@Suite struct BZip2RecoderTests {
    static let inputs: [(name: String, bytes: [UInt8], blockSize100k: Int32)] = [
        ("empty", [], 9),
        ("one byte", [0x42], 9),
        ("short text", Array("hello, hello, hello, hello".utf8), 9),
        ("2 KB code-like", BSDiffCreateTests.codeLike(2_000, seed: 5), 9),
        ("300 KB code-like", BSDiffCreateTests.codeLike(300_000, seed: 7), 9),
        ("mostly zeros with scattered bytes", (0..<200_000).map { $0 % 997 == 0 ? UInt8(truncatingIfNeeded: $0 / 997) : 0 }, 9),
        ("three 100 KB blocks", BSDiffCreateTests.codeLike(250_000, seed: 9), 1),
        ("random", BSDiffCreateTests.random(50_000, seed: 13), 9),
    ]

    @Test func recodedStreamsDecompressToTheSameBytesAndAreNeverLarger() throws {
        for input in Self.inputs {
            let original = try BZip2.compress(input.bytes, blockSize100k: input.blockSize100k)
            let recoded = BZip2Recoder.recode(original)
            #expect(recoded.count <= original.count, "\(input.name)")
            let restored = try recoded.withUnsafeBytes { try BZip2.decompress($0, maxOutputBytes: input.bytes.count) }
            #expect(restored == input.bytes, "\(input.name)")
        }
    }

    /// Every reader so far is libbz2; the device's may not be. busybox's `bunzip2` has a bzip2
    /// decoder of its own (it does not link libbz2), which must read the recoded tables, selectors
    /// and multi-block streams as libbz2 does. (lbzip2, another, read them all by hand, but hangs
    /// when started by Foundation's Process, so it is not a test peer.)
    @Test func anIndependentBZip2DecoderReadsTheRecodedStreams() throws {
        let decoders = try [("busybox", ["bunzip2", "-c"])].compactMap { name, arguments in
            try requireTool(name).map { (name, $0, arguments) }
        }
        // From a file, not stdin: a pipe's write end that a process started by a parallel test
        // inherits would keep the decoder from ever seeing the end of its input.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recoded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (position, input) in Self.inputs.enumerated() {
            let recoded = BZip2Recoder.recode(try BZip2.compress(input.bytes, blockSize100k: input.blockSize100k))
            let file = directory.appendingPathComponent("\(position).bz2")
            try Data(recoded).write(to: file)
            for (name, path, arguments) in decoders {
                let result = try runTool(path, arguments + [file.path])
                #expect(result.status == 0, "\(name) on \(input.name): \(result.stderr)")
                #expect(result.stdout == input.bytes, "\(name) on \(input.name)")
            }
        }
    }

    /// What the recoder is for: on small blocks libbz2's tables are a large share of the stream.
    @Test func smallBlocksGetSmaller() throws {
        for input in Self.inputs where input.bytes.count >= 2_000 && input.name != "random" {
            let original = try BZip2.compress(input.bytes, blockSize100k: input.blockSize100k)
            #expect(BZip2Recoder.recode(original).count < original.count, "\(input.name)")
        }
    }

    @Test func everyBlockIsParsedAndRecodingIsStable() throws {
        let input = BSDiffCreateTests.codeLike(250_000, seed: 9)
        let original = try BZip2.compress(input, blockSize100k: 1)
        let blocks = try #require(BZip2Recoder.parse(original))
        #expect(blocks.blocks.count == 3)
        let recoded = BZip2Recoder.recode(original)
        // The recoder reads its own output as well as libbz2's, and finds nothing left to gain.
        #expect(BZip2Recoder.parse(recoded)?.blocks.map(\.symbols) == blocks.blocks.map(\.symbols))
        #expect(BZip2Recoder.recode(recoded).count <= recoded.count)
    }

    @Test func codeLengthsFormCompletePrefixCodesWithinTheLimit() {
        var generator = SplitMix64(seed: 21)
        for trial in 0..<200 {
            let alphabetSize = 3 + Int(generator.next() % 256)
            // Skewed counts with many unused symbols, like MTF output.
            let frequencies = (0..<alphabetSize).map { symbol -> Int in
                generator.next() % 3 == 0 ? 0 : Int(generator.next() % UInt64(1 + 100_000 / (symbol + 1)))
            }
            let lengths = BZip2Recoder.codeLengths(frequencies: frequencies)
            #expect(lengths.count == alphabetSize)
            #expect(lengths.allSatisfy { (1...BZip2Recoder.maxCodeLength).contains($0) }, "trial \(trial)")
            let unit = 1 << BZip2Recoder.maxCodeLength
            #expect(lengths.reduce(0) { $0 + (unit >> $1) } == unit, "trial \(trial): not a complete code")
            // Never worse than plain Huffman lengths once the table's own bits are counted.
            let huffman = BZip2Recoder.huffmanLengths(frequencies.map { max(1, $0) })
            if huffman.max()! <= BZip2Recoder.maxCodeLength {
                func bits(_ lengths: [Int]) -> Int { zip(frequencies, lengths).reduce(0) { $0 + $1.0 * $1.1 } + BZip2Recoder.tableBits(lengths) }
                #expect(bits(lengths) <= bits(huffman), "trial \(trial)")
            }
        }
    }

    /// The single-table coding's second table is never used but must still be a valid, complete code.
    @Test func singleTableCodingSendsCompleteCodes() {
        let header = BZip2Recoder.BlockHeader(crc: 0, originPointer: 0, usedRanges: 0, usedBytes: [])
        let unit = 1 << BZip2Recoder.maxCodeLength
        for alphabetSize in 3...258 {
            let symbols = (0..<120).map { UInt16($0 % (alphabetSize - 1)) } + [UInt16(alphabetSize - 1)]
            let coding = BZip2Recoder.singleTable(BZip2Recoder.Block(header: header, symbols: symbols, alphabetSize: alphabetSize))
            #expect(coding.lengths.count == 2 && coding.selectors.allSatisfy { $0 == 0 })
            for lengths in coding.lengths {
                #expect(lengths.count == alphabetSize)
                #expect(lengths.reduce(0) { $0 + (unit >> $1) } == unit, "alphabet \(alphabetSize)")
            }
        }
    }

    @Test func leavesStreamsItDoesNotRecognizeUnchanged() throws {
        let stream = try BZip2.compress(BSDiffCreateTests.codeLike(5_000, seed: 3))
        let truncated = Array(stream.dropLast(7))
        #expect(BZip2Recoder.recode(truncated) == truncated)
        let notBZip2: [UInt8] = Array("BSDIFF40 and then some more bytes".utf8)
        #expect(BZip2Recoder.recode(notBZip2) == notBZip2)
    }
}
