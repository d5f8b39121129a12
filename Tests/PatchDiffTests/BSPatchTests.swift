import Foundation
import Testing
@testable import PatchDiff

/// Builds BSDIFF40 patches by hand, including ones no writer would produce, so each rule of the
/// applier can be tested on exactly the bytes that break it.
struct CraftedPatch {
    var triples: [(add: Int64, copy: Int64, seek: Int64)] = []
    var diff: [UInt8] = []
    var extra: [UInt8] = []
    /// Defaults to what the triples produce.
    var newSize: Int64?
    /// Replace the decompressed control block (e.g. to end mid-entry or write negative zero).
    var rawControl: [UInt8]?
    /// Replace a compressed block outright (corrupt, truncated, multi-stream…).
    var controlBlock: [UInt8]?
    var diffBlock: [UInt8]?
    var extraBlock: [UInt8]?
    /// Override the header's compressed lengths.
    var headerControlLength: Int64?
    var headerDiffLength: Int64?

    func bytes() throws -> [UInt8] {
        var control: [UInt8] = []
        for triple in triples {
            for value in [triple.add, triple.copy, triple.seek] { BSDiffFormat.encodeOfftin(value, into: &control) }
        }
        let controlBlock = try self.controlBlock ?? BZip2.compress(rawControl ?? control)
        let diffBlock = try self.diffBlock ?? BZip2.compress(diff)
        let extraBlock = try self.extraBlock ?? BZip2.compress(extra)
        var patch = BSDiffFormat.magic
        BSDiffFormat.encodeOfftin(headerControlLength ?? Int64(controlBlock.count), into: &patch)
        BSDiffFormat.encodeOfftin(headerDiffLength ?? Int64(diffBlock.count), into: &patch)
        BSDiffFormat.encodeOfftin(newSize ?? triples.reduce(0) { $0 + $1.add + $1.copy }, into: &patch)
        return patch + controlBlock + diffBlock + extraBlock
    }
}

@Suite struct BSPatchTests {
    static let old: [UInt8] = Array(0..<10)

    @Test func appliesAddCopyAndSeek() throws {
        // add 4 (old 0..3 + 1), copy "XY", seek +2 → add 2 (old 6,7 + 0).
        let patch = try CraftedPatch(
            triples: [(4, 2, 2), (2, 0, 0)], diff: [1, 1, 1, 1, 0, 0], extra: Array("XY".utf8)
        ).bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: patch) == [1, 2, 3, 4, 0x58, 0x59, 6, 7])
    }

    @Test func addWrapsAroundModulo256() throws {
        let patch = try CraftedPatch(triples: [(2, 0, 0)], diff: [0xFF, 0xFF]).bytes()
        #expect(try BSPatch.apply(old: [0x01, 0x02], patch: patch) == [0x00, 0x01])
    }

    @Test func readsTheHeader() throws {
        let crafted = CraftedPatch(triples: [(3, 1, 0)], diff: [0, 0, 0], extra: [9])
        let patch = try crafted.bytes()
        let header = try patch.withUnsafeBytes { try BSPatch.readHeader($0) }
        var control: [UInt8] = []
        for value: Int64 in [3, 1, 0] { BSDiffFormat.encodeOfftin(value, into: &control) }
        let controlBlock = try BZip2.compress(control)
        #expect(header.controlLength == controlBlock.count)
        #expect(header.diffLength == (try BZip2.compress([0, 0, 0])).count)
        #expect(header.extraLength == (try BZip2.compress([9])).count)
        #expect(header.newSize == 4)
        #expect(BSDiffFormat.headerSize + header.controlLength + header.diffLength + header.extraLength == patch.count)
    }

    @Test func negativeZeroIsZero() throws {
        // bsdiff's sign-magnitude numbers have a "-0": sign bit set, magnitude 0. It means 0, in the
        // header as well as in control entries.
        let negativeZero: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0x80]
        var control: [UInt8] = []
        BSDiffFormat.encodeOfftin(2, into: &control)
        control += negativeZero  // copy -0
        control += negativeZero  // seek -0
        BSDiffFormat.encodeOfftin(0, into: &control)
        control += negativeZero  // copy -0
        BSDiffFormat.encodeOfftin(0, into: &control)
        var patch = try CraftedPatch(diff: [5, 5], newSize: 2, rawControl: control).bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: patch) == [5, 6])

        // -0 as the new size of an empty result.
        patch = try CraftedPatch(newSize: 0).bytes()
        patch.replaceSubrange(24..<32, with: negativeZero)
        #expect(try BSPatch.apply(old: Self.old, patch: patch) == [])
    }

    @Test func producesAnEmptyResult() throws {
        let patch = try CraftedPatch().bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: patch) == [])
        #expect(try BSPatch.apply(old: [], patch: patch) == [])
    }

    @Test func oldBytesOutsideOldReadAsZero() throws {
        // Past the end: old[8], old[9], then two missing bytes that add 0.
        let pastEnd = try CraftedPatch(triples: [(0, 0, 8), (4, 0, 0)], diff: [1, 1, 1, 1]).bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: pastEnd) == [9, 10, 1, 1])
        // Before the start: positions -2 and -1 add 0, then old[0], old[1].
        let beforeStart = try CraftedPatch(triples: [(0, 0, -2), (4, 0, 0)], diff: [1, 1, 1, 1]).bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: beforeStart) == [1, 1, 1, 2])
        // Far away in either direction is still fine as long as the arithmetic does not overflow.
        let farAway = try CraftedPatch(triples: [(0, 0, Int64.max - 4), (4, 0, 0)], diff: [7, 7, 7, 7]).bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: farAway) == [7, 7, 7, 7])
    }

    @Test func strictLimitsRejectReadsOutsideOld() throws {
        let strict = BSPatchLimits(rejectsReadsOutsideOld: true)
        let pastEnd = try CraftedPatch(triples: [(0, 0, 8), (4, 0, 0)], diff: [1, 1, 1, 1]).bytes()
        #expect(throws: BSPatchError.oldReadOutOfRange(entry: 1, oldPosition: 8, length: 4, oldSize: 10)) {
            try BSPatch.apply(old: Self.old, patch: pastEnd, limits: strict)
        }
        let beforeStart = try CraftedPatch(triples: [(0, 0, -1), (1, 0, 0)], diff: [1]).bytes()
        #expect(throws: BSPatchError.oldReadOutOfRange(entry: 1, oldPosition: -1, length: 1, oldSize: 10)) {
            try BSPatch.apply(old: Self.old, patch: beforeStart, limits: strict)
        }
        // A seek that leaves OLD without reading there is harmless, even when strict.
        let seekOnly = try CraftedPatch(triples: [(2, 0, 100), (0, 1, -102), (2, 0, 0)], diff: [0, 0, 0, 0], extra: [42]).bytes()
        #expect(try BSPatch.apply(old: Self.old, patch: seekOnly, limits: strict) == [0, 1, 42, 0, 1])
    }

    @Test func streamsInBoundedChunks() throws {
        let old = BSDiffCreateTests.codeLike(200_000, seed: 1)
        let new = old.map { $0 &+ 3 } + BSDiffCreateTests.codeLike(100_000, seed: 2)
        let patch = try CraftedPatch(
            triples: [(Int64(old.count), 100_000, 0)], diff: [UInt8](repeating: 3, count: old.count),
            extra: Array(new[old.count...])
        ).bytes()
        var chunks: [Int] = []
        var streamed: [UInt8] = []
        try old.withUnsafeBytes { oldBytes in
            try patch.withUnsafeBytes { patchBytes in
                try BSPatch.apply(old: oldBytes, patch: patchBytes) { chunk in
                    chunks.append(chunk.count)
                    streamed.append(contentsOf: chunk)
                }
            }
        }
        #expect(streamed == new)
        #expect(chunks.allSatisfy { $0 > 0 && $0 <= BSPatch.outputWindowSize })
        #expect(chunks.count == (new.count + BSPatch.outputWindowSize - 1) / BSPatch.outputWindowSize)
    }

    @Test func reportsOutputFailures() throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "no space left on device" } }
        let patch = try CraftedPatch(triples: [(3, 0, 0)], diff: [0, 0, 0]).bytes()
        #expect(throws: BSPatchError.outputFailed("no space left on device")) {
            try Self.old.withUnsafeBytes { oldBytes in
                try patch.withUnsafeBytes { patchBytes in
                    try BSPatch.apply(old: oldBytes, patch: patchBytes) { _ in throw DiskFull() }
                }
            }
        }
    }

    @Test func appliesPatchesMadeByBsdiff43() throws {
        guard let bsdiff = try requireTool("bsdiff") else { return }
        try withTemporaryDirectory { directory in
            // Debian's bsdiff 4.3 mmaps its inputs and fails on empty files, so those pairs are
            // covered by the bsdiff4 test only.
            for (old, new) in Self.editedPairs() where !old.isEmpty && !new.isEmpty {
                let oldURL = directory.appendingPathComponent("old")
                let newURL = directory.appendingPathComponent("new")
                let patchURL = directory.appendingPathComponent("patch")
                try Data(old).write(to: oldURL)
                try Data(new).write(to: newURL)
                let result = try runTool(bsdiff, [oldURL.path, newURL.path, patchURL.path])
                #expect(result.status == 0, "bsdiff: \(result.stderr)")
                let patch = [UInt8](try Data(contentsOf: patchURL))
                #expect(try BSPatch.apply(old: old, patch: patch) == new, "old \(old.count) → new \(new.count)")
            }
        }
    }

    @Test func appliesPatchesMadeByPythonBsdiff4() throws {
        guard let python = try requirePythonModule("bsdiff4") else { return }
        try withTemporaryDirectory { directory in
            for (old, new) in Self.editedPairs() {
                let oldURL = directory.appendingPathComponent("old")
                let newURL = directory.appendingPathComponent("new")
                let patchURL = directory.appendingPathComponent("patch")
                try Data(old).write(to: oldURL)
                try Data(new).write(to: newURL)
                let result = try runTool(python, ["-c", "import bsdiff4, sys; bsdiff4.file_diff(*sys.argv[1:4])", oldURL.path, newURL.path, patchURL.path])
                #expect(result.status == 0, "bsdiff4: \(result.stderr)")
                let patch = [UInt8](try Data(contentsOf: patchURL))
                #expect(try BSPatch.apply(old: old, patch: patch) == new, "old \(old.count) → new \(new.count)")
            }
        }
    }

    /// Crafted patches on the edges of the semantics: we must accept exactly what bsdiff4 accepts
    /// and produce the same bytes (the SDK documents the same rules).
    @Test func agreesWithPythonBsdiff4OnEdgeCases() throws {
        guard let python = try requirePythonModule("bsdiff4") else { return }
        let cases: [CraftedPatch] = [
            CraftedPatch(triples: [(0, 0, -5), (4, 0, 0)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(0, 0, 8), (4, 0, 0)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(0, 0, Int64.max - 4), (4, 0, 0)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(0, 0, Int64.max - 2), (4, 0, 0)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(0, 0, -Int64.max), (0, 0, -1), (4, 0, 0)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(0, 0, 1 << 62), (0, 0, 1 << 62), (1, 0, 0)], diff: [1]),
            CraftedPatch(triples: [(2, 0, 0)], diff: [1, 1], newSize: 4),
            CraftedPatch(triples: [(4, 0, 0)], diff: [1, 1]),
            CraftedPatch(triples: [(-1, 0, 0), (4, 0, 0)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(2, 0, 0)], diff: [1, 1, 1]),
            CraftedPatch(triples: [(1, 1, 0)], diff: [1], extra: [2, 3]),
            CraftedPatch(triples: [(4, 0, 0), (0, 0, 3)], diff: [1, 1, 1, 1]),
            CraftedPatch(triples: [(2, 2, 0)], diff: [1, 1], extra: [2]),
            CraftedPatch(triples: [(2, 0, 0), (0, 2, 0)], diff: [1, 1], extra: [2, 2], newSize: 3),
        ]
        try withTemporaryDirectory { directory in
            let oldURL = directory.appendingPathComponent("old")
            try Data(Self.old).write(to: oldURL)
            let script = """
            import bsdiff4, sys
            old = open(sys.argv[1], 'rb').read()
            try:
                sys.stdout.write(bsdiff4.patch(old, open(sys.argv[2], 'rb').read()).hex())
            except ValueError as error:
                sys.stdout.write('rejected: %s' % error)
            """
            for (index, crafted) in cases.enumerated() {
                let patch = try crafted.bytes()
                let patchURL = directory.appendingPathComponent("patch\(index)")
                try Data(patch).write(to: patchURL)
                let result = try runTool(python, ["-c", script, oldURL.path, patchURL.path])
                let theirs = String(decoding: result.stdout, as: UTF8.self)
                let ours: String
                do {
                    ours = try BSPatch.apply(old: Self.old, patch: patch).map { String($0, radix: 16).leftPaddedHex }.joined()
                } catch {
                    ours = "rejected: \(error)"
                }
                #expect(ours.hasPrefix("rejected") == theirs.hasPrefix("rejected"), "case \(index): ours \(ours) / bsdiff4 \(theirs)")
                if !theirs.hasPrefix("rejected") { #expect(ours == theirs, "case \(index)") }
            }
        }
    }

    @Test func roundTripsWithOurBSDiff() throws {
        for (old, new) in Self.editedPairs() {
            let patch = try BSDiff.makePatch(old: old, new: new)
            #expect(try BSPatch.apply(old: old, patch: patch) == new)
            #expect(try BSPatch.apply(old: old, patch: patch, limits: BSPatchLimits(rejectsReadsOutsideOld: true)) == new)
        }
    }

    /// OLD/NEW pairs shaped like module updates: edits, insertions, deletions, moves, and the
    /// degenerate empty cases.
    static func editedPairs() -> [([UInt8], [UInt8])] {
        let base = BSDiffCreateTests.codeLike(40_000, seed: 42)
        var edited = base
        for offset in stride(from: 100, to: edited.count, by: 997) { edited[offset] &+= 1 }
        let inserted = Array(base[..<15_000]) + BSDiffCreateTests.codeLike(3_000, seed: 43) + Array(base[15_000...])
        let deleted = Array(base[..<10_000]) + Array(base[18_000...])
        let moved = Array(base[20_000...]) + Array(base[..<20_000])
        return [
            (base, edited), (base, inserted), (base, deleted), (base, moved),
            (base, BSDiffCreateTests.mutate(base, edits: 40, seed: 44)),
            (base, []), ([], base), ([], []), (Array("a".utf8), Array("b".utf8)),
        ]
    }
}

private extension String {
    var leftPaddedHex: String { count == 1 ? "0" + self : self }
}
