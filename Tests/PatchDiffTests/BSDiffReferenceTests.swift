import Foundation
import Testing
@testable import PatchDiff

/// The bsdiff 4.3 candidate (`BSDiffReference`): it must find what bsdiff 4.3 finds, so that keeping
/// the smaller of it and our own patch means never a larger patch than bsdiff's.
@Suite struct BSDiffReferenceTests {
    /// Pairs bsdiff 4.3 can take (it cannot map an empty file).
    static func pairs() -> [(name: String, old: [UInt8], new: [UInt8])] {
        var pairs = BSDiffCreateTests.casePairs().filter { !$0.old.isEmpty && !$0.new.isEmpty }
        let code = BSDiffCreateTests.codeLike(120_000, seed: 31)
        pairs.append(("120 KB mutated", code, BSDiffCreateTests.mutate(code, edits: 200, seed: 32)))
        // A function inserted in the middle: the case where our own cost model once lost to bsdiff.
        pairs.append(("insertion", code, Array(code[..<60_000]) + BSDiffCreateTests.codeLike(4_000, seed: 33) + Array(code[60_000...])))
        return pairs
    }

    static func referencePatch(old: [UInt8], new: [UInt8], options: BSDiffOptions = BSDiffOptions()) throws -> [UInt8] {
        try old.withUnsafeBytes { oldBuffer in
            try new.withUnsafeBytes { newBuffer in
                let scan = BSDiffReference.scan(old: Bytes(oldBuffer), new: Bytes(newBuffer))
                return try BSDiff.writePatch(old: Bytes(oldBuffer), new: Bytes(newBuffer), covers: scan.covers, finalSeek: scan.finalSeek, options: options)
            }
        }
    }

    /// bsdiff 4.3's own patch of the pair, written by the `bsdiff` executable.
    static func bsdiff43Patch(_ bsdiff: String, old: [UInt8], new: [UInt8], in directory: URL, name: String) throws -> [UInt8] {
        let oldURL = directory.appendingPathComponent("\(name).old"), newURL = directory.appendingPathComponent("\(name).new")
        let patchURL = directory.appendingPathComponent("\(name).bsdiff")
        try Data(old).write(to: oldURL)
        try Data(new).write(to: newURL)
        let result = try runTool(bsdiff, [oldURL.path, newURL.path, patchURL.path])
        #expect(result.status == 0, "bsdiff failed on \(name): \(result.stderr)")
        return try [UInt8](Data(contentsOf: patchURL))
    }

    /// Same control entries and the same diff and extra bytes as bsdiff 4.3: the patches differ only
    /// in the bzip2 block-size digit of each block header ('BZh9' there, the smallest that fits here),
    /// so they have the same length, and bspatch 4.3 applies ours. (Compared with libbz2's own tables:
    /// the default re-chosen tables only make the blocks smaller.)
    @Test func referencePatchIsBsdiff43sPatch() throws {
        guard let bsdiff = try requireTool("bsdiff"), let bspatch = try requireTool("bspatch") else { return }
        try withTemporaryDirectory { directory in
            for (index, pair) in Self.pairs().enumerated() {
                let theirs = try Self.bsdiff43Patch(bsdiff, old: pair.old, new: pair.new, in: directory, name: "pair\(index)")
                let ours = try Self.referencePatch(old: pair.old, new: pair.new, options: BSDiffOptions(recodesBZip2Tables: false))
                #expect(try Self.referencePatch(old: pair.old, new: pair.new).count <= theirs.count, "\(pair.name)")
                #expect(ours.count == theirs.count, "\(pair.name): \(ours.count) bytes, bsdiff 4.3 wrote \(theirs.count)")
                let differing = zip(ours, theirs).enumerated().filter { $0.element.0 != $0.element.1 }
                #expect(differing.allSatisfy { ours[$0.offset - 3] == UInt8(ascii: "B") && ours[$0.offset - 1] == UInt8(ascii: "h") },
                        "\(pair.name): patches differ outside bzip2 block-size digits")

                let patchURL = directory.appendingPathComponent("pair\(index).reference")
                let outURL = directory.appendingPathComponent("pair\(index).out")
                try Data(ours).write(to: patchURL)
                let applied = try runTool(bspatch, [directory.appendingPathComponent("pair\(index).old").path, outURL.path, patchURL.path])
                #expect(applied.status == 0, "bspatch failed on \(pair.name): \(applied.stderr)")
                #expect(try [UInt8](Data(contentsOf: outURL)) == pair.new, "bspatch output differs for \(pair.name)")
            }
        }
    }

    /// The default options keep the smaller of the two candidates: never larger than bsdiff 4.3's
    /// patch, nor than our own search's.
    @Test func makePatchIsNeverLargerThanBsdiff43s() throws {
        guard let bsdiff = try requireTool("bsdiff") else { return }
        try withTemporaryDirectory { directory in
            for (index, pair) in Self.pairs().enumerated() {
                let theirs = try Self.bsdiff43Patch(bsdiff, old: pair.old, new: pair.new, in: directory, name: "pair\(index)")
                let patch = try BSDiff.makePatch(old: pair.old, new: pair.new)
                let own = try BSDiff.makePatch(old: pair.old, new: pair.new, options: BSDiffOptions(referenceCandidateLimit: 0))
                #expect(patch.count <= theirs.count, "\(pair.name): \(patch.count) bytes, bsdiff 4.3 wrote \(theirs.count)")
                #expect(patch.count == min(own.count, try Self.referencePatch(old: pair.old, new: pair.new).count), "\(pair.name)")
                #expect(try BSPatch.apply(old: pair.old, patch: patch) == pair.new, "\(pair.name)")
            }
        }
    }

    @Test func outputDoesNotDependOnTheThreadCount() throws {
        for pair in Self.pairs() {
            let single = try BSDiff.makePatch(old: pair.old, new: pair.new, options: BSDiffOptions(threadCount: 1))
            #expect(single == (try BSDiff.makePatch(old: pair.old, new: pair.new)), "\(pair.name)")
        }
    }

    /// The table of the first probes must not change a single probe: compared with bsdiff's
    /// `search` written plainly, on texts shorter and longer than the table and patterns shorter
    /// than its 8-byte keys, ending in old's last bytes and running past old's end.
    @Test func cachedProbesFindBsdiffsMatch() {
        var generator = SplitMix64(seed: 77)
        for oldCount in [1, 5, 9, 64, 3_000, 70_000] {
            // A small alphabet makes long common prefixes, so the keys are often equal.
            let old = (0..<oldCount).map { _ in UInt8(truncatingIfNeeded: generator.next() % 3) }
            let suffixes = SuffixArray.build(old)
            let ranks = [old.count] + suffixes.map(Int.init)
            old.withUnsafeBytes { oldBuffer in
                suffixes.withUnsafeBufferPointer { suffixBuffer in
                    let index = BSDiffReference.Index(old: Bytes(oldBuffer), suffixes: suffixBuffer)
                    for _ in 0..<400 {
                        let start = Int(generator.next() % UInt64(oldCount))
                        var pattern = Array(old[start..<min(oldCount, start + Int(generator.next() % 20))])
                        if generator.next() % 2 == 0 { pattern.append(UInt8(truncatingIfNeeded: generator.next() % 4)) }
                        guard !pattern.isEmpty else { continue }
                        let found = pattern.withUnsafeBufferPointer { index.longestMatch($0.baseAddress!, count: $0.count) }
                        let expected = Self.plainSearch(old: old, ranks: ranks, pattern: pattern)
                        #expect(found.length == expected.length && found.oldPosition == expected.oldPosition,
                                "old \(oldCount) bytes, pattern \(pattern)")
                    }
                }
            }
        }
    }

    /// bsdiff 4.3's `search`, recursion and all, over its `I` (`ranks`: old.count, then the suffix array).
    static func plainSearch(old: [UInt8], ranks: [Int], pattern: [UInt8]) -> (length: Int, oldPosition: Int) {
        func matchLength(_ position: Int) -> Int {
            var length = 0
            while position + length < old.count && length < pattern.count && old[position + length] == pattern[length] { length += 1 }
            return length
        }
        func search(_ start: Int, _ end: Int) -> (Int, Int) {
            if end - start < 2 {
                let x = matchLength(ranks[start]), y = matchLength(ranks[end])
                return x > y ? (x, ranks[start]) : (y, ranks[end])
            }
            let middle = start + (end - start) / 2
            let limit = min(old.count - ranks[middle], pattern.count)
            let suffix = old[ranks[middle]..<(ranks[middle] + limit)]
            return suffix.lexicographicallyPrecedes(pattern[..<limit]) ? search(middle, end) : search(start, middle)
        }
        return search(0, old.count)
    }
}
