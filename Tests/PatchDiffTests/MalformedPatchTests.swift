import Testing
@testable import PatchDiff

/// Every way a patch can be malformed, each asserting the specific error the applier reports.
/// None of these may crash, hang, or allocate by a number the patch claims.
@Suite struct MalformedPatchTests {
    static let old: [UInt8] = Array(0..<10)
    /// A valid patch: add 4 bytes (old + 1), copy "XY".
    static let valid = CraftedPatch(triples: [(4, 2, 0)], diff: [1, 1, 1, 1], extra: Array("XY".utf8))

    func apply(_ patch: [UInt8], limits: BSPatchLimits = .device) throws(BSPatchError) -> [UInt8] {
        try BSPatch.apply(old: Self.old, patch: patch, limits: limits)
    }

    @Test func validBaselineApplies() throws {
        #expect(try apply(try Self.valid.bytes()) == [1, 2, 3, 4, 0x58, 0x59])
    }

    // MARK: header

    @Test func rejectsABadMagic() throws {
        var patch = try Self.valid.bytes()
        patch.replaceSubrange(0..<8, with: Array("BSDIFF43".utf8))
        #expect(throws: BSPatchError.badMagic(found: Array("BSDIFF43".utf8))) { try apply(patch) }
        #expect(throws: BSPatchError.badMagic(found: Array("hello".utf8))) { try apply(Array("hello".utf8)) }
        // Python bsdiff4 only compares 7 bytes; the SDK and we want all 8.
        patch.replaceSubrange(0..<8, with: Array("BSDIFF4X".utf8))
        #expect(throws: BSPatchError.badMagic(found: Array("BSDIFF4X".utf8))) { try apply(patch) }
    }

    @Test func rejectsATruncatedHeader() throws {
        let patch = try Self.valid.bytes()
        #expect(throws: BSPatchError.truncatedHeader(length: 31)) { try apply(Array(patch.prefix(31))) }
        #expect(throws: BSPatchError.truncatedHeader(length: 8)) { try apply(Array(patch.prefix(8))) }
        #expect(throws: BSPatchError.truncatedHeader(length: 3)) { try apply(Array(patch.prefix(3))) }
        #expect(throws: BSPatchError.truncatedHeader(length: 0)) { try apply([]) }
    }

    @Test func rejectsNegativeHeaderLengths() throws {
        var crafted = Self.valid
        crafted.headerControlLength = -1
        #expect(throws: BSPatchError.negativeHeaderField(.controlLength, value: -1)) { try apply(try crafted.bytes()) }
        crafted = Self.valid
        crafted.headerDiffLength = -Int64.max
        #expect(throws: BSPatchError.negativeHeaderField(.diffLength, value: -Int64.max)) { try apply(try crafted.bytes()) }
        crafted = Self.valid
        crafted.newSize = -6
        #expect(throws: BSPatchError.negativeHeaderField(.newSize, value: -6)) { try apply(try crafted.bytes()) }
    }

    @Test func rejectsBlockLengthsPastTheEndOfThePatch() throws {
        let patch = try Self.valid.bytes()
        let afterHeader = patch.count - 32
        var crafted = Self.valid
        crafted.headerControlLength = Int64(afterHeader + 1)
        #expect(throws: BSPatchError.blockPastEndOfPatch(.controlLength, length: Int64(afterHeader + 1), available: afterHeader)) {
            try apply(try crafted.bytes())
        }
        crafted.headerControlLength = Int64.max
        #expect(throws: BSPatchError.blockPastEndOfPatch(.controlLength, length: Int64.max, available: afterHeader)) {
            try apply(try crafted.bytes())
        }
        // The diff length is checked against what follows the control block, without overflowing.
        crafted = Self.valid
        crafted.headerDiffLength = Int64.max
        let header = try patch.withUnsafeBytes { try BSPatch.readHeader($0) }
        #expect(throws: BSPatchError.blockPastEndOfPatch(.diffLength, length: Int64.max, available: afterHeader - header.controlLength)) {
            try apply(try crafted.bytes())
        }
    }

    @Test func rejectsANewSizeAboveTheLimit() throws {
        var crafted = Self.valid
        crafted.newSize = (256 << 20) + 1
        #expect(throws: BSPatchError.newSizeExceedsLimit(newSize: (256 << 20) + 1, limit: 256 << 20)) { try apply(try crafted.bytes()) }
        crafted.newSize = Int64.max
        #expect(throws: BSPatchError.newSizeExceedsLimit(newSize: Int64.max, limit: 256 << 20)) { try apply(try crafted.bytes()) }
        // Exactly the limit passes the header check (and then fails because nothing produces it).
        crafted.newSize = 256 << 20
        #expect(throws: BSPatchError.resultTooShort(produced: 6, newSize: 256 << 20)) { try apply(try crafted.bytes()) }
        // The limit is the caller's to lower.
        #expect(throws: BSPatchError.newSizeExceedsLimit(newSize: 6, limit: 5)) {
            try apply(try Self.valid.bytes(), limits: BSPatchLimits(maxNewSize: 5))
        }
    }

    // MARK: control entries

    @Test func rejectsAControlBlockThatIsNotWholeEntries() throws {
        var control: [UInt8] = []
        for value: Int64 in [4, 2, 0] { BSDiffFormat.encodeOfftin(value, into: &control) }
        var crafted = Self.valid
        crafted.rawControl = control + [0]
        #expect(throws: BSPatchError.controlBlockNotMultipleOf24(decompressedLength: 25)) { try apply(try crafted.bytes()) }
        crafted.rawControl = Array(control.prefix(23))
        crafted.newSize = 6
        #expect(throws: BSPatchError.controlBlockNotMultipleOf24(decompressedLength: 23)) { try apply(try crafted.bytes()) }
    }

    @Test func rejectsWritesPastTheNewSize() throws {
        // CVE-2014-9862: bspatch before the fix trusted add/copy lengths and wrote past its buffer.
        var crafted = Self.valid
        crafted.newSize = 3
        #expect(throws: BSPatchError.writesPastNewSize(entry: 0, field: .add, newPosition: 0, length: 4, newSize: 3)) {
            try apply(try crafted.bytes())
        }
        crafted.newSize = 5
        #expect(throws: BSPatchError.writesPastNewSize(entry: 0, field: .copy, newPosition: 4, length: 2, newSize: 5)) {
            try apply(try crafted.bytes())
        }
        let huge = CraftedPatch(triples: [(Int64.max, 0, 0)], newSize: 10)
        #expect(throws: BSPatchError.writesPastNewSize(entry: 0, field: .add, newPosition: 0, length: Int64.max, newSize: 10)) {
            try apply(try huge.bytes())
        }
    }

    @Test func rejectsNegativeAddAndCopyLengths() throws {
        let negativeAdd = CraftedPatch(triples: [(-1, 0, 0), (4, 0, 0)], diff: [1, 1, 1, 1], newSize: 4)
        #expect(throws: BSPatchError.negativeControlLength(entry: 0, field: .add, value: -1)) { try apply(try negativeAdd.bytes()) }
        let negativeCopy = CraftedPatch(triples: [(2, -2, 0)], diff: [1, 1], newSize: 2)
        #expect(throws: BSPatchError.negativeControlLength(entry: 0, field: .copy, value: -2)) { try apply(try negativeCopy.bytes()) }
    }

    @Test func rejectsOldPositionOverflow() throws {
        let seekThenAdd = CraftedPatch(triples: [(0, 0, Int64.max - 2), (4, 0, 0)], diff: [1, 1, 1, 1])
        #expect(throws: BSPatchError.oldPositionOverflow(entry: 1, oldPosition: Int64.max - 2, offset: 4)) {
            try apply(try seekThenAdd.bytes())
        }
        let seekTwice = CraftedPatch(triples: [(0, 0, 1 << 62), (0, 0, 1 << 62), (1, 0, 0)], diff: [1])
        #expect(throws: BSPatchError.oldPositionOverflow(entry: 1, oldPosition: 1 << 62, offset: 1 << 62)) {
            try apply(try seekTwice.bytes())
        }
        let seekDown = CraftedPatch(triples: [(0, 0, -Int64.max), (0, 0, -2), (1, 0, 0)], diff: [1])
        #expect(throws: BSPatchError.oldPositionOverflow(entry: 1, oldPosition: -Int64.max, offset: -2)) {
            try apply(try seekDown.bytes())
        }
    }

    @Test func capsZeroProgressEntries() throws {
        // Two million (0,0,0) entries: 48 MB of zeros, a few hundred bytes once compressed. The
        // applier must stop after newSize + 1 entries instead of decoding all of them.
        var flood = CraftedPatch(
            diff: [1, 1, 1, 1], newSize: 4,
            rawControl: {
                var control: [UInt8] = []
                for value: Int64 in [4, 0, 0] { BSDiffFormat.encodeOfftin(value, into: &control) }
                return control + [UInt8](repeating: 0, count: 24 * 2_000_000)
            }())
        let patch = try flood.bytes()
        #expect(patch.count < 1_000)
        #expect(throws: BSPatchError.tooManyControlEntries(limit: 5, newSize: 4)) { try apply(patch) }
        // The same flood with a large claimed size meets the absolute cap from the limits instead.
        flood.newSize = 100 << 20
        #expect(throws: BSPatchError.tooManyControlEntries(limit: 1_000, newSize: 100 << 20)) {
            try apply(try flood.bytes(), limits: BSPatchLimits(maxControlEntries: 1_000))
        }
        // newSize + 1 entries are fine: a writer may end with one entry that only seeks.
        let lastSeek = CraftedPatch(triples: [(2, 0, 0), (2, 0, 0), (0, 0, 5)], diff: [0, 0, 0, 0])
        #expect(try apply(try lastSeek.bytes()) == [0, 1, 2, 3])
    }

    @Test func rejectsAResultShorterThanTheHeaderSays() throws {
        var crafted = Self.valid
        crafted.newSize = 7
        #expect(throws: BSPatchError.resultTooShort(produced: 6, newSize: 7)) { try apply(try crafted.bytes()) }
    }

    // MARK: diff and extra blocks

    @Test func rejectsADiffBlockShorterThanTheControlAsks() throws {
        let crafted = CraftedPatch(triples: [(2, 0, 0), (3, 0, 0)], diff: [1, 1, 1])
        #expect(throws: BSPatchError.blockTooShort(.diff, entry: 1, endsAt: 3, needs: 5)) { try apply(try crafted.bytes()) }
    }

    @Test func rejectsAnExtraBlockShorterThanTheControlAsks() throws {
        let crafted = CraftedPatch(triples: [(0, 2, 0), (0, 3, 0)], extra: [7, 7, 7, 7])
        #expect(throws: BSPatchError.blockTooShort(.extra, entry: 1, endsAt: 4, needs: 5)) { try apply(try crafted.bytes()) }
    }

    @Test func rejectsBlockDataTheControlNeverUses() throws {
        var crafted = Self.valid
        crafted.diff = [1, 1, 1, 1, 1]
        #expect(throws: BSPatchError.unusedBlockData(.diff, used: 4)) { try apply(try crafted.bytes()) }
        crafted = Self.valid
        crafted.extra = Array("XYZ".utf8)
        #expect(throws: BSPatchError.unusedBlockData(.extra, used: 2)) { try apply(try crafted.bytes()) }
    }

    @Test func stopsABzip2BombAtWhatTheControlUses() throws {
        // 64 MB of zeros in the diff block (a few KB compressed) under a 4-byte result: decoding
        // stops one byte past what the entries use instead of inflating the rest.
        var crafted = Self.valid
        crafted.diffBlock = try BZip2.compress([UInt8](repeating: 0, count: 64 << 20))
        #expect(try crafted.bytes().count < 64 * 1024)
        #expect(throws: BSPatchError.unusedBlockData(.diff, used: 4)) { try apply(try crafted.bytes()) }
        // A bomb claiming a huge result runs into the size limit before anything is decoded.
        crafted.newSize = 1 << 40
        #expect(throws: BSPatchError.newSizeExceedsLimit(newSize: 1 << 40, limit: 256 << 20)) { try apply(try crafted.bytes()) }
    }

    // MARK: bzip2 streams

    @Test func rejectsCorruptBzip2Data() throws {
        var crafted = Self.valid
        crafted.diffBlock = Array("definitely not bzip2".utf8)
        expectCorruptBlock(.diff) { _ = try apply(try crafted.bytes()) }

        // Damage inside a real stream is caught by bzip2's CRCs.
        var block = try BZip2.compress(BSDiffCreateTests.codeLike(4, seed: 1) + [1, 1, 1, 1])
        block[block.count / 2] ^= 0xFF
        crafted = Self.valid
        crafted.diffBlock = block
        expectCorruptBlock(.diff) { _ = try apply(try crafted.bytes()) }

        crafted = Self.valid
        crafted.controlBlock = Array(repeating: 0x42, count: 40)
        expectCorruptBlock(.control) { _ = try apply(try crafted.bytes()) }
    }

    @Test func rejectsTruncatedBzip2Blocks() throws {
        for block in [BSPatchBlock.control, .diff, .extra] {
            var crafted = Self.valid
            let full = try BZip2.compress(block == .control ? controlBytes(4, 2, 0) : block == .diff ? [1, 1, 1, 1] : Array("XY".utf8))
            let cut = Array(full.dropLast(5))
            switch block {
            case .control: crafted.controlBlock = cut
            case .diff: crafted.diffBlock = cut
            case .extra: crafted.extraBlock = cut
            }
            #expect(throws: BSPatchError.corruptBlock(block, .truncated(codec: .bzip2))) { try apply(try crafted.bytes()) }
        }
        // An empty block is not an empty stream: it has no end marker either.
        var crafted = CraftedPatch()
        crafted.controlBlock = []
        #expect(throws: BSPatchError.corruptBlock(.control, .truncated(codec: .bzip2))) { try apply(try crafted.bytes()) }
    }

    @Test func rejectsASecondBzip2StreamInsideABlock() throws {
        // bspatch would ignore the second stream and Python would append it: refuse instead.
        let second = try BZip2.compress([9, 9])
        var crafted = Self.valid
        crafted.diffBlock = try BZip2.compress([1, 1, 1, 1]) + second
        #expect(throws: BSPatchError.corruptBlock(.diff, .trailingData(codec: .bzip2, count: second.count))) {
            try apply(try crafted.bytes())
        }
        crafted = Self.valid
        crafted.controlBlock = try BZip2.compress(controlBytes(4, 2, 0)) + second
        #expect(throws: BSPatchError.corruptBlock(.control, .trailingData(codec: .bzip2, count: second.count))) {
            try apply(try crafted.bytes())
        }
    }

    @Test func rejectsTrailingGarbageAfterTheExtraStream() throws {
        let patch = try Self.valid.bytes() + [0xDE, 0xAD, 0xBE]
        #expect(throws: BSPatchError.corruptBlock(.extra, .trailingData(codec: .bzip2, count: 3))) { try apply(patch) }
    }

    @Test func everyMessageSaysWhereAndWhat() throws {
        let error = BSPatchError.writesPastNewSize(entry: 3, field: .copy, newPosition: 70, length: 9, newSize: 72)
        #expect(error.description.contains("control entry 3"))
        #expect(error.description.contains("copy length 9"))
        #expect(error.description.contains("72"))
        let magic = BSPatchError.badMagic(found: Array("BSDIFF43".utf8))
        #expect(magic.description.contains("42 53 44 49 46 46 34 33"))
        let field = BSPatchError.blockPastEndOfPatch(.diffLength, length: 500, available: 20)
        #expect(field.description.contains("byte 16"))
        let block = BSPatchError.corruptBlock(.extra, .trailingData(codec: .bzip2, count: 3))
        #expect(block.description.contains("extra block"))
        #expect(block.description.contains("3 unexpected byte(s)"))
    }

    private func controlBytes(_ add: Int64, _ copy: Int64, _ seek: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [add, copy, seek] { BSDiffFormat.encodeOfftin(value, into: &bytes) }
        return bytes
    }

    private func expectCorruptBlock(
        _ expected: BSPatchBlock, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected the \(expected) block to be rejected", sourceLocation: sourceLocation)
        } catch let error as BSPatchError {
            guard case .corruptBlock(expected, .corrupt(.bzip2, _)) = error else {
                Issue.record("expected .corruptBlock(.\(expected), .corrupt), got \(error)", sourceLocation: sourceLocation)
                return
            }
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }
}
