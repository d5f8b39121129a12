import Foundation
import Testing
@testable import PatchDiff

/// BSDIFF40 creation: every patch is applied back (by our `BSPatch` and, where installed, by
/// bspatch 4.3 and Python bsdiff4) and must reproduce NEW exactly.
@Suite struct BSDiffCreateTests {
    // MARK: Inputs

    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        SuffixArrayTests.randomBytes(count: count, seed: seed)
    }

    /// Code-like bytes: a small vocabulary of "instructions" so matches are plentiful but not trivial.
    static func codeLike(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        let vocabulary = (0..<64).map { index in random(Int(3 + index % 7), seed: seed &+ UInt64(index) &+ 1000) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 16)
        while bytes.count < count {
            bytes += vocabulary[Int(generator.next() % 64)]
            if generator.next() % 4 == 0 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
        }
        return Array(bytes.prefix(count))
    }

    /// Applies `edits` random edits: byte changes, small insertions and deletions, and a moved block.
    static func mutate(_ input: [UInt8], edits: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var bytes = input
        for _ in 0..<edits where !bytes.isEmpty {
            let position = Int(generator.next() % UInt64(bytes.count))
            switch generator.next() % 4 {
            case 0: bytes[position] &+= UInt8(truncatingIfNeeded: generator.next() | 1)
            case 1: bytes.insert(contentsOf: random(Int(generator.next() % 40) + 1, seed: generator.next()), at: position)
            case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int(generator.next() % 40) + 1))
            default:
                let length = min(bytes.count - position, Int(generator.next() % 2000))
                let block = Array(bytes[position..<(position + length)])
                bytes.removeSubrange(position..<(position + length))
                let target = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
                bytes.insert(contentsOf: block, at: target)
            }
        }
        return bytes
    }

    // MARK: Helpers

    @discardableResult
    func expectRoundTrip(old: [UInt8], new: [UInt8], options: BSDiffOptions = .init(), _ comment: Comment? = nil) throws -> [UInt8] {
        let patch = try BSDiff.makePatch(old: old, new: new, options: options)
        #expect(Array(patch.prefix(8)) == BSDiffFormat.magic, comment)
        patch.withUnsafeBytes { bytes in
            #expect(BSDiffFormat.decodeOfftin(bytes, at: 24) == Int64(new.count), comment)
        }
        let applied = try BSPatch.apply(old: old, patch: patch)
        #expect(applied == new, comment)
        return patch
    }

    /// (old, new) pairs covering the shapes patches take in practice and the edge cases.
    static func casePairs() -> [(name: String, old: [UInt8], new: [UInt8])] {
        let base = codeLike(20_000, seed: 7)
        return [
            ("both empty", [], []),
            ("empty old", [], random(1000, seed: 1)),
            ("empty new", random(1000, seed: 2), []),
            ("one byte each", [1], [2]),
            ("identical", base, base),
            ("unrelated", random(5000, seed: 3), random(6000, seed: 4)),
            ("appended", base, base + random(3000, seed: 5)),
            ("prepended", base, random(3000, seed: 6) + base),
            ("shifted", base, Array(base[0..<9000]) + random(17, seed: 8) + Array(base[9000...])),
            ("truncated", base, Array(base[5000..<15000])),
            ("mutated", base, mutate(base, edits: 60, seed: 9)),
            ("heavily mutated", base, mutate(base, edits: 2000, seed: 10)),
            ("all zeros", [UInt8](repeating: 0, count: 30_000), [UInt8](repeating: 0, count: 31_000)),
            ("periodic", Array(repeatElement(Array("abcabd".utf8), count: 4000).joined()),
             Array(repeatElement(Array("abcabd".utf8), count: 3000).joined()) + Array("xyz".utf8)
                + Array(repeatElement(Array("abcabd".utf8), count: 1000).joined())),
        ]
    }

    // MARK: Round trips

    @Test func roundTripsEveryCase() throws {
        for pair in Self.casePairs() {
            try expectRoundTrip(old: pair.old, new: pair.new, "\(pair.name)")
        }
    }

    @Test func roundTripsWithEveryHeuristicDisabled() throws {
        let plain = BSDiffOptions(
            switchThreshold: 8, rescanWindow: 1 << 30, maxJoinGap: 0, filterBitsPerByte: 0,
            candidateWindow: 0, extraByteCost: 0, mismatchCost: 0, controlEntryCost: 0)
        for pair in Self.casePairs() {
            try expectRoundTrip(old: pair.old, new: pair.new, options: plain, "\(pair.name)")
        }
    }

    @Test func roundTripsLargeInputsAcrossSegments() throws {
        // More than two 1 MiB search segments, with edits on both sides of each boundary.
        let old = Self.codeLike(2_600_000, seed: 11)
        let new = Self.mutate(old, edits: 300, seed: 12)
        let patch = try expectRoundTrip(old: old, new: new)
        #expect(patch.count < new.count / 10, "a lightly edited file should diff to a small patch, got \(patch.count) bytes")
    }

    @Test func identicalInputsNeedOneControlEntry() throws {
        let data = Self.random(100_000, seed: 13)
        let patch = try expectRoundTrip(old: data, new: data)
        // Header + three tiny bzip2 streams: anything larger means the match was not found whole.
        #expect(patch.count < 200, "got \(patch.count) bytes")
    }

    // MARK: Determinism

    @Test func outputIsDeterministicAndIndependentOfThreadCount() throws {
        let old = Self.codeLike(2_200_000, seed: 14)
        let new = Self.mutate(old, edits: 200, seed: 15)
        let reference = try BSDiff.makePatch(old: old, new: new, options: BSDiffOptions(threadCount: 1))
        #expect(try BSDiff.makePatch(old: old, new: new, options: BSDiffOptions(threadCount: 1)) == reference)
        #expect(try BSDiff.makePatch(old: old, new: new, options: BSDiffOptions(threadCount: 2)) == reference)
        #expect(try BSDiff.makePatch(old: old, new: new, options: BSDiffOptions(threadCount: 5)) == reference)
    }

    // MARK: Errors

    @Test func rejectsNewFilesLargerThanTheDeviceLimit() {
        let options = BSDiffOptions(maxNewSize: 10)
        #expect(throws: BSDiffError.newFileTooLarge(size: 11, limit: 10)) {
            try BSDiff.makePatch(old: [1, 2, 3], new: [UInt8](repeating: 0, count: 11), options: options)
        }
        #expect(BSDiffError.newFileTooLarge(size: 11, limit: 10).description.contains("11 bytes"))
        #expect(BSDiffOptions().maxNewSize == 256 << 20)
    }

    // MARK: Cover selection

    @Test func joinsCollinearCoversAndDropsUnprofitableOnes() {
        let old = Self.random(1000, seed: 16)
        var new = old
        new[100] &+= 1 // one mismatch inside the gap between two matches on the same alignment
        let options = BSDiffOptions()
        old.withUnsafeBytes { oldBuffer in
            new.withUnsafeBytes { newBuffer in
                let bytesOld = Bytes(oldBuffer), bytesNew = Bytes(newBuffer)
                let joined = BSDiff.selectCovers(
                    [.init(newStart: 0, oldStart: 0, length: 100), .init(newStart: 101, oldStart: 101, length: 899)],
                    old: bytesOld, new: bytesNew, options: options)
                #expect(joined == [.init(newStart: 0, oldStart: 0, length: 1000)])

                // A 3-byte match saves less than a control entry costs: it goes to the extra block.
                let dropped = BSDiff.selectCovers(
                    [.init(newStart: 0, oldStart: 0, length: 500), .init(newStart: 600, oldStart: 10, length: 3)],
                    old: bytesOld, new: bytesNew, options: options)
                #expect(dropped == [.init(newStart: 0, oldStart: 0, length: 500)])
            }
        }
    }

    /// Only even old positions are indexed: a block that starts at an odd old position must still be
    /// found whole, as one cover on its true alignment (not one byte short, not split).
    @Test(arguments: [1001, 1002])
    func findsMatchesAtOddAndEvenOldPositions(oldStart: Int) {
        let old = Self.random(20_000, seed: 17)
        let new = Array(old[oldStart..<(oldStart + 6000)]) + Self.random(300, seed: 18) + Array(old[9001..<13001])
        old.withUnsafeBytes { oldBuffer in
            new.withUnsafeBytes { newBuffer in
                let covers = BSDiff.searchCovers(old: Bytes(oldBuffer), new: Bytes(newBuffer), options: BSDiffOptions())
                #expect(covers.first == .init(newStart: 0, oldStart: oldStart, length: 6000))
                #expect(covers.contains { $0.oldStart == 9001 && $0.newEnd == new.count })
            }
        }
    }

    // MARK: Peer appliers

    @Test func bspatch43AppliesOurPatches() throws {
        guard let bspatch = try requireTool("bspatch") else { return }
        try withTemporaryDirectory { directory in
            var pairs = Self.casePairs()
            let large = Self.codeLike(1_200_000, seed: 17)
            pairs.append(("1.2 MB mutated", large, Self.mutate(large, edits: 150, seed: 18)))
            for (index, pair) in pairs.enumerated() {
                let oldURL = directory.appendingPathComponent("old\(index)")
                let patchURL = directory.appendingPathComponent("patch\(index)")
                let outURL = directory.appendingPathComponent("out\(index)")
                try Data(pair.old).write(to: oldURL)
                try Data(try BSDiff.makePatch(old: pair.old, new: pair.new)).write(to: patchURL)
                let result = try runTool(bspatch, [oldURL.path, outURL.path, patchURL.path])
                #expect(result.status == 0, "bspatch failed on \(pair.name): \(result.stderr)")
                #expect(try [UInt8](Data(contentsOf: outURL)) == pair.new, "bspatch output differs for \(pair.name)")
            }
        }
    }

    @Test func pythonBsdiff4AppliesOurPatches() throws {
        guard let python = try requirePythonModule("bsdiff4") else { return }
        try withTemporaryDirectory { directory in
            var pairs = Self.casePairs()
            let large = Self.codeLike(1_100_000, seed: 19)
            pairs.append(("1.1 MB mutated", large, Self.mutate(large, edits: 150, seed: 20)))
            let script = "import bsdiff4, sys; old = open(sys.argv[1], 'rb').read(); patch = open(sys.argv[2], 'rb').read(); sys.stdout.buffer.write(bsdiff4.patch(old, patch))"
            for (index, pair) in pairs.enumerated() {
                let oldURL = directory.appendingPathComponent("old\(index)")
                let patchURL = directory.appendingPathComponent("patch\(index)")
                try Data(pair.old).write(to: oldURL)
                try Data(try BSDiff.makePatch(old: pair.old, new: pair.new)).write(to: patchURL)
                let result = try runTool(python, ["-c", script, oldURL.path, patchURL.path])
                #expect(result.status == 0, "bsdiff4.patch failed on \(pair.name): \(result.stderr)")
                #expect(result.stdout == pair.new, "bsdiff4 output differs for \(pair.name)")
            }
        }
    }
}
