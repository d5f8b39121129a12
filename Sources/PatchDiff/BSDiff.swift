import Dispatch

/// Tuning knobs for `BSDiff.makePatch`. The defaults are what the benchmarks were tuned on; every
/// setting keeps the output a valid BSDIFF40 patch, and the output depends only on the inputs and
/// these options (never on thread scheduling).
public struct BSDiffOptions: Sendable, Equatable {
    /// bzip2 block size in units of 100 KB (1...9). 9 gives the smallest patches (bsdiff 4.3 uses 9).
    public var bzip2BlockSize100k: Int32
    /// Worker threads for match search and block compression. Does not change the output.
    public var threadCount: Int
    /// A new match must beat the current old/new alignment by more than this many matching bytes
    /// before the writer starts a new control entry (bsdiff 4.3 uses 8).
    public var switchThreshold: Int
    /// When a match is found that does not justify switching, the scan skips ahead instead of
    /// re-searching at every byte of it (it would be found again, one byte shorter); this is how many
    /// of its last bytes are still re-examined. Bounds the work per position on repetitive inputs
    /// (bsdiff 4.3's quadratic case) and costs nothing measurable in patch size.
    public var rescanWindow: Int
    /// When old and new already agree for at least this many bytes on the current alignment, the scan
    /// takes that run as the match without searching the suffix array for a longer one elsewhere
    /// (a switch would rarely pay for its control entry, and the search is the main cost).
    /// 0 always searches, as bsdiff does.
    public var trustedRunLength: Int
    /// Two consecutive matches on the same old/new alignment separated by at most this many new bytes
    /// may be joined into one (the gap goes to the diff block instead of a control entry + extra
    /// bytes) when the cost model below says it is cheaper.
    public var maxJoinGap: Int
    /// Largest new file accepted. Defaults to the SDK's 256 MiB BSDIFF40 limit (a larger patch could
    /// never be applied on a device).
    public var maxNewSize: Int
    /// Bits per old byte in the filter that skips searching where no match long enough to matter
    /// can start (memory: old size × this / 8 bytes). 0 disables the filter. 1 bit costs ~10% more
    /// search time than 2 on the large benchmark pair and keeps the differ under 5 bytes per old byte.
    public var filterBitsPerByte: Int
    /// Matches are extended over neighbouring bytes while at least this percentage of them match.
    public var extensionMatchPercent: Int
    /// How many suffix-array neighbours of equal match length are examined to pick the candidate
    /// closest to the current alignment.
    public var candidateWindow: Int
    /// Cost model for keeping or joining matches, in hundredths of a compressed byte: a new byte left
    /// to the extra block, a mismatching byte inside a match (a non-zero diff byte) and one control
    /// entry. Starting points were measured on WebAssembly pairs (bzip2 packs wasm code to ~0.57
    /// bytes/byte, a non-zero diff byte costs ~1 byte, a control entry ~3.9 bytes); the entry cost is
    /// set higher (9 bytes) because a dropped short match also leaves its neighbours' zero runs and
    /// extra runs longer, which bzip2 rewards, and the mismatch cost too (1.6 bytes) because a
    /// non-zero byte also breaks the zero run it sits in — both tuned on the benchmark pairs
    /// (a plateau from 1.6 to 1.8; 1.0 gave 0.952x bsdiff's size, 1.6 gives 0.946x).
    public var extraByteCost: Int
    public var mismatchCost: Int
    public var controlEntryCost: Int
    /// Up to this size of old, the patch bsdiff 4.3's own search would give is also written
    /// (`BSDiffReference`, on a second thread) and the smaller of the two patches is kept: never a
    /// larger patch than bsdiff's. Above it the full suffix array it needs (4 bytes per old byte) and
    /// bsdiff's quadratic worst case cost more than the rare saving. 0 never writes it.
    public var referenceCandidateLimit: Int
    /// Re-chooses the Huffman tables of every bzip2 block after libbz2 wrote it (`BZip2Recoder`):
    /// same decompressed bytes, 1-8 % smaller patches between Embedded Swift modules. Off only to compare
    /// blocks byte for byte with bsdiff 4.3's.
    public var recodesBZip2Tables: Bool

    public init(
        bzip2BlockSize100k: Int32 = 9,
        threadCount: Int = 2,
        switchThreshold: Int = 6,
        rescanWindow: Int = 1,
        trustedRunLength: Int = 32,
        maxJoinGap: Int = 256,
        maxNewSize: Int = 256 << 20,
        filterBitsPerByte: Int = 1,
        extensionMatchPercent: Int = 50,
        candidateWindow: Int = 16,
        extraByteCost: Int = 57,
        mismatchCost: Int = 160,
        controlEntryCost: Int = 900,
        referenceCandidateLimit: Int = 16 << 20,
        recodesBZip2Tables: Bool = true
    ) {
        self.recodesBZip2Tables = recodesBZip2Tables
        self.referenceCandidateLimit = max(0, referenceCandidateLimit)
        self.extraByteCost = max(0, extraByteCost)
        self.mismatchCost = max(0, mismatchCost)
        self.controlEntryCost = max(0, controlEntryCost)
        self.filterBitsPerByte = min(64, max(0, filterBitsPerByte))
        self.extensionMatchPercent = min(100, max(1, extensionMatchPercent))
        self.candidateWindow = max(0, candidateWindow)
        self.bzip2BlockSize100k = min(9, max(1, bzip2BlockSize100k))
        self.threadCount = max(1, threadCount)
        self.switchThreshold = max(0, switchThreshold)
        self.rescanWindow = max(1, rescanWindow)
        self.trustedRunLength = max(0, trustedRunLength)
        self.maxJoinGap = max(0, maxJoinGap)
        self.maxNewSize = max(0, maxNewSize)
    }
}

/// Why a patch could not be created.
public enum BSDiffError: Error, Equatable, Sendable {
    /// The old file is longer than the suffix array's 32-bit indices can address.
    case oldFileTooLarge(size: Int, limit: Int)
    /// The new file is longer than a device accepts (`BSDiffOptions.maxNewSize`).
    case newFileTooLarge(size: Int, limit: Int)
    /// bzip2 failed while compressing one of the three blocks.
    case compressionFailed(block: String, underlying: CodecError)
}

extension BSDiffError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .oldFileTooLarge(size, limit):
            return "old file is \(size) bytes; BSDIFF40 patch creation supports at most \(limit) bytes (32-bit suffix array). Diff smaller modules or send the full artifact."
        case let .newFileTooLarge(size, limit):
            return "new file is \(size) bytes; devices reject BSDIFF40 patches producing more than \(limit) bytes. Send the full artifact instead."
        case let .compressionFailed(block, underlying):
            return "compressing the \(block) block of the patch failed: \(underlying)"
        }
    }
}

/// BSDIFF40 patch creation (Colin Percival's format, readable by bspatch 4.x, Python `bsdiff4` and
/// the SDK's `DiffApply.swift`).
///
/// Pipeline: (1) suffix array of old's even positions (SA-IS, 2 bytes per old byte); (2) match search over fixed-size
/// segments of new, in parallel, producing "covers" (new range ↔ old range); (3) the covers become
/// control triples, and the diff/extra bytes are generated on the fly and streamed into two bzip2
/// compressors running concurrently, so neither block is ever materialised uncompressed.
public enum BSDiff {
    public static func makePatch(old: [UInt8], new: [UInt8], options: BSDiffOptions = .init()) throws(BSDiffError) -> [UInt8] {
        let result = old.withUnsafeBytes { oldBuffer in
            new.withUnsafeBytes { newBuffer in
                Result { () throws(BSDiffError) in try makePatch(old: oldBuffer, new: newBuffer, options: options) }
            }
        }
        return try result.get()
    }

    public static func makePatch(old: UnsafeRawBufferPointer, new: UnsafeRawBufferPointer, options: BSDiffOptions = .init()) throws(BSDiffError) -> [UInt8] {
        guard old.count <= SuffixArray.maxCount else {
            throw .oldFileTooLarge(size: old.count, limit: SuffixArray.maxCount)
        }
        guard new.count <= options.maxNewSize else {
            throw .newFileTooLarge(size: new.count, limit: options.maxNewSize)
        }
        let old = Bytes(old), new = Bytes(new)
        guard old.count <= options.referenceCandidateLimit else {
            return try writePatch(old: old, new: new, covers: searchCovers(old: old, new: new, options: options), options: options)
        }
        // Both candidates at once when a second thread is allowed; the output is the same either way.
        let patches = SegmentSlots<Result<[UInt8], BSDiffError>>(count: 2, initial: .success([]))
        DispatchQueue.concurrentPerform(iterations: options.threadCount > 1 ? 2 : 1) { task in
            if task == 0 || options.threadCount == 1 {
                patches[0] = Result { () throws(BSDiffError) in
                    try writePatch(old: old, new: new, covers: searchCovers(old: old, new: new, options: options), options: options)
                }
            }
            if task == 1 || options.threadCount == 1 {
                let reference = BSDiffReference.scan(old: old, new: new)
                patches[1] = Result { () throws(BSDiffError) in
                    try writePatch(old: old, new: new, covers: reference.covers, finalSeek: reference.finalSeek, options: options)
                }
            }
        }
        let own = try patches[0].get(), reference = try patches[1].get()
        return reference.count < own.count ? reference : own
    }

    /// Only suffixes at even positions of old are indexed: half the memory of a full suffix array
    /// (the differ's peak is then old + new + 2 bytes per old byte instead of + 4) and half the
    /// sorting work. A match at an odd old position q is found by also searching one new byte later
    /// (for q + 1), which keeps patches as small as with every suffix indexed.
    static let suffixSampling = SuffixArray.Sampling.evenPositions

    /// Builds the search structures, finds the covers, and frees the structures before the caller
    /// writes the patch (the bzip2 writers then reuse that memory rather than add to the peak).
    /// Where the last match's forward extension (from `lastScan`/`lastPosition`) and the next one's
    /// backward extension (ending at `scan`/`position`) overlap in NEW, splits the overlap at the
    /// point that keeps the most matching bytes (bsdiff 4.3's rule, which both searches use).
    @inline(__always)
    static func splitOverlap(old: Bytes, new: Bytes, lastScan: Int, lastPosition: Int, scan: Int, position: Int,
                             forwardLength: inout Int, backwardLength: inout Int) {
        guard lastScan &+ forwardLength > scan &- backwardLength else { return }
        let overlap = (lastScan &+ forwardLength) &- (scan &- backwardLength)
        var balance = 0, bestBalance = 0, split = 0
        for index in 0..<overlap {
            if new[lastScan &+ forwardLength &- overlap &+ index] == old[lastPosition &+ forwardLength &- overlap &+ index] { balance &+= 1 }
            if new[scan &- backwardLength &+ index] == old[position &- backwardLength &+ index] { balance &-= 1 }
            if balance > bestBalance {
                bestBalance = balance
                split = index &+ 1
            }
        }
        forwardLength &+= split &- overlap
        backwardLength &-= split
    }

    static func searchCovers(old: Bytes, new: Bytes, options: BSDiffOptions) -> [Cover] {
        let suffixes = UnsafeMutableBufferPointer<Int32>.allocate(capacity: suffixSampling.entryCount(textCount: old.count))
        defer { suffixes.deallocate() }
        // The suffix array is the one serial step; build the search accelerators beside it.
        let tables = SegmentSlots<SearchTables?>(count: 1, initial: nil)
        let sharedSuffixes = SendableMutableBuffer(buffer: suffixes)
        DispatchQueue.concurrentPerform(iterations: options.threadCount > 1 ? 2 : 1) { task in
            if task == 0 || options.threadCount == 1 { tables[0] = SearchTables(old: old, sampling: suffixSampling, options: options) }
            if task == 1 || options.threadCount == 1 {
                SuffixArray.build(UnsafeRawBufferPointer(start: old.base, count: old.count), into: sharedSuffixes.buffer, sampling: suffixSampling)
            }
        }
        // Slot 0 was filled by the first task before concurrentPerform returned.
        guard let searchTables = tables[0] else { preconditionFailure("search tables were not built") }
        defer { searchTables.filter?.deallocate() }
        return findCovers(old: old, new: new, suffixes: UnsafeBufferPointer(suffixes), tables: searchTables, options: options)
    }

    // MARK: - Match search

    /// New bytes `newStart..<newStart+length` are encoded as differences against old bytes
    /// `oldStart..<oldStart+length`; new bytes between covers go to the extra block.
    struct Cover: Equatable {
        var newStart: Int
        var oldStart: Int
        var length: Int
        var newEnd: Int { newStart &+ length }
        var oldEnd: Int { oldStart &+ length }
        /// old position minus new position: equal offsets mean the covers lie on one alignment.
        var offset: Int { oldStart &- newStart }
    }

    /// Segment length for parallel search. Fixed (not derived from the thread count) so the output
    /// does not depend on how many threads ran; large enough that the restart at each boundary is
    /// negligible.
    static let segmentLength = 1 << 20

    /// Lookup structures over old that make suffix-array searches cheaper or unnecessary.
    struct SearchTables: Sendable {
        let prefixRanges: PrefixRanges
        let filter: SubstringFilter?

        init(old: Bytes, sampling: SuffixArray.Sampling, options: BSDiffOptions) {
            prefixRanges = PrefixRanges(old: old, sampling: sampling)
            // A match can only start a new entry if it is longer than the switch threshold, so
            // filtering on grams of threshold + 1 bytes (at most 8) never hides a useful match.
            filter = SubstringFilter(old: old, gramLength: min(8, options.switchThreshold &+ 1), bitsPerByte: options.filterBitsPerByte)
        }
    }

    static func findCovers(old: Bytes, new: Bytes, suffixes: UnsafeBufferPointer<Int32>, tables: SearchTables, options: BSDiffOptions) -> [Cover] {
        let segmentCount = max(1, (new.count + segmentLength - 1) / segmentLength)
        let results = SegmentSlots<[Cover]>(count: segmentCount, initial: [])
        let searcher = MatchSearcher(old: old, new: new, suffixes: suffixes, prefixRanges: tables.prefixRanges, filter: tables.filter, options: options)
        let workers = min(options.threadCount, segmentCount)
        // Worker w takes segments w, w + workers, …: a static split, so no shared counter is needed.
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for segment in stride(from: worker, to: segmentCount, by: workers) {
                let start = segment * segmentLength
                let end = min(new.count, start + segmentLength)
                results[segment] = searcher.covers(newRange: start..<end)
            }
        }
        let covers = (0..<segmentCount).flatMap { results[$0] }
        return selectCovers(covers, old: old, new: new, options: options)
    }

    /// Number of positions in `count` bytes from new[newStart] / old[oldStart] that differ.
    @inline(__always)
    static func mismatchCount(old: Bytes, new: Bytes, oldStart: Int, newStart: Int, count: Int) -> Int {
        var mismatches = 0
        for index in 0..<count where old[oldStart &+ index] != new[newStart &+ index] { mismatches &+= 1 }
        return mismatches
    }

    /// Drops matches that cost more than they save (short ones whose control entry outweighs the
    /// extra bytes they replace) and joins matches on one alignment when encoding the gap as diff
    /// bytes is cheaper than an extra run plus a control entry. bsdiff's greedy scan keeps both kinds.
    static func selectCovers(_ covers: [Cover], old: Bytes, new: Bytes, options: BSDiffOptions) -> [Cover] {
        var selected: [Cover] = []
        selected.reserveCapacity(covers.count)
        for cover in covers where cover.length > 0 {
            if var last = selected.last, last.offset == cover.offset, cover.newStart &- last.newEnd <= options.maxJoinGap {
                let gap = cover.newStart &- last.newEnd
                let gapMismatches = mismatchCount(old: old, new: new, oldStart: last.oldEnd, newStart: last.newEnd, count: gap)
                if gapMismatches &* options.mismatchCost <= gap &* options.extraByteCost &+ options.controlEntryCost {
                    last.length = cover.newEnd &- last.newStart
                    selected[selected.count &- 1] = last
                    continue
                }
            }
            let mismatches = mismatchCount(old: old, new: new, oldStart: cover.oldStart, newStart: cover.newStart, count: cover.length)
            let saving = cover.length &* options.extraByteCost &- mismatches &* options.mismatchCost
            if saving > options.controlEntryCost { selected.append(cover) }
        }
        return selected
    }

    /// bsdiff's scan, with the work per position bounded and candidate choice biased towards the
    /// current alignment.
    struct MatchSearcher: @unchecked Sendable {
        // Read-only views of caller-owned memory that outlives the search.
        let old: Bytes
        let new: Bytes
        let suffixes: UnsafeBufferPointer<Int32>
        let prefixRanges: PrefixRanges
        let filter: SubstringFilter?
        let options: BSDiffOptions

        /// Whether old[newPosition + offset] exists and equals new[newPosition].
        @inline(__always)
        func matchesAlignment(_ newPosition: Int, _ offset: Int) -> Bool {
            let oldPosition = newPosition &+ offset
            return oldPosition >= 0 && oldPosition < old.count && old[oldPosition] == new[newPosition]
        }

        func covers(newRange: Range<Int>) -> [Cover] {
            var covers: [Cover] = []
            let end = newRange.upperBound
            var scan = newRange.lowerBound
            var length = 0
            var position = 0
            var lastScan = newRange.lowerBound
            var lastPosition = min(newRange.lowerBound, max(0, old.count &- 1))
            var lastOffset = lastPosition &- lastScan

            while scan < end {
                // Bytes of new already examined under the current alignment, and how many matched.
                var alignedScore = 0
                scan &+= length
                var scored = scan
                while scan < end {
                    // Only a match longer than the threshold can start a new entry; where the filter
                    // proves none exists, skip the suffix-array search (its cache misses dominate).
                    let alignedRun = options.trustedRunLength > 0 ? alignedRunLength(at: scan, end: end, offset: lastOffset, atMost: options.trustedRunLength) : 0
                    if alignedRun >= options.trustedRunLength && options.trustedRunLength > 0 {
                        (length, position) = (alignedRunLength(at: scan, end: end, offset: lastOffset, atMost: end &- scan), scan &+ lastOffset)
                    } else if let filter, scan &+ filter.gramLength <= new.count, !filter.mayContain(new.base + scan) {
                        (length, position) = (0, 0)
                    } else {
                        (length, position) = longestMatch(at: scan, end: end, preferredOffset: lastOffset)
                    }
                    while scored < scan &+ length {
                        if matchesAlignment(scored, lastOffset) { alignedScore &+= 1 }
                        scored &+= 1
                    }
                    if (length == alignedScore && length != 0) || length > alignedScore &+ options.switchThreshold { break }
                    // Not worth switching. A long match here would be found again (one byte shorter)
                    // at every following position; skip most of it instead of re-searching each byte.
                    let step = length > options.rescanWindow ? length &- options.rescanWindow : 1
                    for skipped in scan..<(scan &+ step) where matchesAlignment(skipped, lastOffset) {
                        alignedScore &-= 1
                    }
                    scan &+= step
                    length = 0
                }
                guard length != alignedScore || scan >= end else { continue }

                // Extend the previous match forwards and the new one backwards as long as at least
                // half the bytes match (the diff block absorbs the mismatches).
                var score = 0, bestScore = 0, forwardLength = 0
                var index = 0
                while lastScan &+ index < scan && lastPosition &+ index < old.count {
                    if old[lastPosition &+ index] == new[lastScan &+ index] { score &+= 1 }
                    index &+= 1
                    if score &* 100 &- index &* options.extensionMatchPercent > bestScore &* 100 &- forwardLength &* options.extensionMatchPercent {
                        bestScore = score
                        forwardLength = index
                    }
                }
                var backwardLength = 0
                if scan < end {
                    score = 0
                    bestScore = 0
                    index = 1
                    while scan >= lastScan &+ index && position >= index {
                        if old[position &- index] == new[scan &- index] { score &+= 1 }
                        if score &* 100 &- index &* options.extensionMatchPercent > bestScore &* 100 &- backwardLength &* options.extensionMatchPercent {
                            bestScore = score
                            backwardLength = index
                        }
                        index &+= 1
                    }
                }
                splitOverlap(old: old, new: new, lastScan: lastScan, lastPosition: lastPosition, scan: scan, position: position,
                             forwardLength: &forwardLength, backwardLength: &backwardLength)
                covers.append(Cover(newStart: lastScan, oldStart: lastPosition, length: forwardLength))
                lastScan = scan &- backwardLength
                lastPosition = position &- backwardLength
                lastOffset = position &- scan
            }
            return covers
        }

        /// How many bytes from new[newPosition] (up to `end`, at most `atMost`) equal old at `offset`.
        @inline(__always)
        func alignedRunLength(at newPosition: Int, end: Int, offset: Int, atMost: Int) -> Int {
            let oldPosition = newPosition &+ offset
            guard oldPosition >= 0 && oldPosition < old.count else { return 0 }
            let limit = min(atMost, end &- newPosition, old.count &- oldPosition)
            return commonPrefixLength(old.base + oldPosition, new.base + newPosition, from: 0, limit: limit)
        }

        /// Longest prefix of new[at..<end] occurring in old, by binary search over the suffix array
        /// (tracking the common prefix with both bounds so no byte is compared twice per step).
        /// Among equally long candidates, the one on `preferredOffset`'s alignment wins, so
        /// continuing matches keep their control entry.
        @inline(__always)
        func longestMatch(at newPosition: Int, end: Int, preferredOffset: Int) -> (length: Int, oldPosition: Int) {
            var best = longestSampledMatch(at: newPosition, end: end, preferredOffset: preferredOffset)
            guard BSDiff.suffixSampling == .evenPositions, newPosition &+ 1 < end else { return best }
            // A match at an odd old position q is a match at the even position q + 1 one byte later.
            let shifted = longestSampledMatch(at: newPosition &+ 1, end: end, preferredOffset: preferredOffset)
            if shifted.length &+ 1 > best.length && shifted.oldPosition > 0 && old[shifted.oldPosition &- 1] == new[newPosition] {
                best = (shifted.length &+ 1, shifted.oldPosition &- 1)
            }
            return best
        }

        @inline(__always)
        func longestSampledMatch(at newPosition: Int, end: Int, preferredOffset: Int) -> (length: Int, oldPosition: Int) {
            let patternLength = end &- newPosition
            guard old.count > 0, patternLength > 0 else { return (0, 0) }
            // Start from the suffix-array range of the first two bytes (saves the first ~16 steps of
            // the binary search, whose probes are the likeliest cache misses after the first few).
            var low = -1, high = suffixes.count
            var lowCommon = 0, highCommon = 0
            var rangeStart = 0, rangeEnd = suffixes.count
            if patternLength >= 2 {
                let range = prefixRanges.range(new[newPosition], new[newPosition &+ 1])
                if range.lowerBound < range.upperBound {
                    rangeStart = range.lowerBound
                    rangeEnd = range.upperBound
                    low = rangeStart &- 1
                    high = rangeEnd
                    lowCommon = 2
                    highCommon = 2
                }
            }
            while high &- low > 1 {
                let middle = (low &+ high) >> 1
                let suffix = Int(suffixes[middle])
                let suffixLength = old.count &- suffix
                let common = commonPrefixLength(
                    old.base + suffix, new.base + newPosition,
                    from: min(lowCommon, highCommon), limit: min(suffixLength, patternLength))
                if common == patternLength {
                    high = middle; highCommon = common
                } else if common == suffixLength || old[suffix &+ common] < new[newPosition &+ common] {
                    low = middle; lowCommon = common
                } else {
                    high = middle; highCommon = common
                }
            }
            var best: (length: Int, oldPosition: Int)
            // The bounds outside [rangeStart, rangeEnd) are virtual; at least one bound is inside.
            if low >= rangeStart && (high >= rangeEnd || lowCommon >= highCommon) {
                best = (lowCommon, Int(suffixes[low]))
            } else {
                best = (highCommon, Int(suffixes[high]))
            }
            let preferred = newPosition &+ preferredOffset
            if options.candidateWindow > 0 && best.length > 0 {
                let center = low >= rangeStart && (high >= rangeEnd || lowCommon >= highCommon) ? low : high
                var bestDistance = abs(best.oldPosition &- preferred)
                var rank = center &- 1
                while rank >= 0 && rank >= center &- options.candidateWindow {
                    let candidate = Int(suffixes[rank])
                    guard commonPrefixLength(old.base + candidate, new.base + newPosition, from: 0, limit: min(best.length, old.count &- candidate)) == best.length else { break }
                    if abs(candidate &- preferred) < bestDistance { bestDistance = abs(candidate &- preferred); best.oldPosition = candidate }
                    rank &-= 1
                }
                rank = center &+ 1
                while rank < suffixes.count && rank <= center &+ options.candidateWindow {
                    let candidate = Int(suffixes[rank])
                    guard commonPrefixLength(old.base + candidate, new.base + newPosition, from: 0, limit: min(best.length, old.count &- candidate)) == best.length else { break }
                    if abs(candidate &- preferred) < bestDistance { bestDistance = abs(candidate &- preferred); best.oldPosition = candidate }
                    rank &+= 1
                }
            }
            if best.oldPosition != preferred && preferred >= 0 && preferred < old.count && best.length > 0 {
                let limit = min(best.length, old.count &- preferred)
                if commonPrefixLength(old.base + preferred, new.base + newPosition, from: 0, limit: limit) == best.length {
                    best.oldPosition = preferred
                }
            }
            return best
        }
    }

    // MARK: - Output

    /// `finalSeek` is the old-position seek of the last control entry, which no applier uses
    /// (0 unless the covers are bsdiff 4.3's, which writes the distance to its last match).
    static func writePatch(old: Bytes, new: Bytes, covers: [Cover], finalSeek: Int = 0, options: BSDiffOptions) throws(BSDiffError) -> [UInt8] {
        // Control triples: (diff length, extra length, old seek). A leading entry with no diff bytes
        // covers new bytes before the first cover.
        var control: [UInt8] = []
        control.reserveCapacity((covers.count + 1) * BSDiffFormat.controlEntrySize)
        var extraRanges: [Range<Int>] = []
        var diffTotal = 0
        // The entry being built: its diff part is `pending`; its extra part and seek are known once
        // the next cover is. Patches start at old/new position 0 with an empty entry.
        var pending = Cover(newStart: 0, oldStart: 0, length: 0)
        var pendingIsInitialEmpty = true
        for cover in covers {
            if !(pendingIsInitialEmpty && cover.newStart == 0 && cover.oldStart == 0) {
                appendEntry(&control, diff: pending.length, extra: cover.newStart &- pending.newEnd, seek: cover.oldStart &- pending.oldEnd)
                if cover.newStart > pending.newEnd { extraRanges.append(pending.newEnd..<cover.newStart) }
            }
            pending = cover
            pendingIsInitialEmpty = false
            diffTotal &+= cover.length
        }
        if pending.length > 0 || pending.newEnd < new.count {
            appendEntry(&control, diff: pending.length, extra: new.count &- pending.newEnd, seek: finalSeek)
            if pending.newEnd < new.count { extraRanges.append(pending.newEnd..<new.count) }
        }
        let diffCount = diffTotal
        let extraCount = new.count &- diffTotal

        // Compress the three blocks: control now (it is small), diff and extra concurrently.
        let compressedControl: [UInt8]
        do { compressedControl = try compressControlBlock(control, options: options) } catch {
            throw .compressionFailed(block: "control", underlying: error)
        }
        let blocks = SegmentSlots<Result<[UInt8], CodecError>>(count: 2, initial: .success([]))
        let diffCovers = covers
        let extras = extraRanges
        DispatchQueue.concurrentPerform(iterations: 2) { block in
            if block == 0 {
                blocks[0] = Result { () throws(CodecError) in
                    try compressDiffBlock(old: old, new: new, covers: diffCovers, total: diffCount, options: options)
                }
            } else {
                blocks[1] = Result { () throws(CodecError) in
                    try compressExtraBlock(new: new, ranges: extras, total: extraCount, options: options)
                }
            }
        }
        let compressedDiff: [UInt8]
        let compressedExtra: [UInt8]
        switch blocks[0] {
        case .success(let bytes): compressedDiff = bytes
        case .failure(let error): throw .compressionFailed(block: "diff", underlying: error)
        }
        switch blocks[1] {
        case .success(let bytes): compressedExtra = bytes
        case .failure(let error): throw .compressionFailed(block: "extra", underlying: error)
        }

        var patch: [UInt8] = []
        patch.reserveCapacity(BSDiffFormat.headerSize + compressedControl.count + compressedDiff.count + compressedExtra.count)
        patch += BSDiffFormat.magic
        BSDiffFormat.encodeOfftin(Int64(compressedControl.count), into: &patch)
        BSDiffFormat.encodeOfftin(Int64(compressedDiff.count), into: &patch)
        BSDiffFormat.encodeOfftin(Int64(new.count), into: &patch)
        patch += compressedControl
        patch += compressedDiff
        patch += compressedExtra
        return patch
    }

    private static func appendEntry(_ control: inout [UInt8], diff: Int, extra: Int, seek: Int) {
        BSDiffFormat.encodeOfftin(Int64(diff), into: &control)
        BSDiffFormat.encodeOfftin(Int64(extra), into: &control)
        BSDiffFormat.encodeOfftin(Int64(seek), into: &control)
    }

    /// Compresses the control entries with the same writer as the other blocks, which sizes bzip2's
    /// working memory to the input (the control block is usually a few KB).
    static func compressControlBlock(_ control: [UInt8], options: BSDiffOptions) throws(CodecError) -> [UInt8] {
        let writer = try BSDiffBlockWriter(expectedInputCount: control.count, maxBlockSize100k: options.bzip2BlockSize100k, recodesTables: options.recodesBZip2Tables)
        try control.withUnsafeBytes { bytes in
            Result { () throws(CodecError) in try writer.append(bytes) }
        }.get()
        return try writer.finish()
    }

    /// Generates new − old over every cover in 64 KiB chunks and streams them into bzip2.
    static func compressDiffBlock(old: Bytes, new: Bytes, covers: [Cover], total: Int, options: BSDiffOptions) throws(CodecError) -> [UInt8] {
        let writer = try BSDiffBlockWriter(expectedInputCount: total, maxBlockSize100k: options.bzip2BlockSize100k, recodesTables: options.recodesBZip2Tables)
        let chunkCapacity = 64 * 1024
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkCapacity, alignment: 16)
        defer { chunk.deallocate() }
        var filled = 0
        for cover in covers {
            var done = 0
            while done < cover.length {
                let count = min(cover.length &- done, chunkCapacity &- filled)
                let newBytes = new.base + (cover.newStart &+ done)
                let oldBytes = old.base + (cover.oldStart &+ done)
                for index in 0..<count {
                    chunk[filled &+ index] = newBytes[index] &- oldBytes[index]
                }
                filled &+= count
                done &+= count
                if filled == chunkCapacity {
                    try writer.append(UnsafeRawBufferPointer(chunk))
                    filled = 0
                }
            }
        }
        try writer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<filled]))
        return try writer.finish()
    }

    /// Streams the new bytes not covered by any match into bzip2 (straight from the caller's buffer).
    static func compressExtraBlock(new: Bytes, ranges: [Range<Int>], total: Int, options: BSDiffOptions) throws(CodecError) -> [UInt8] {
        let writer = try BSDiffBlockWriter(expectedInputCount: total, maxBlockSize100k: options.bzip2BlockSize100k, recodesTables: options.recodesBZip2Tables)
        for range in ranges {
            try writer.append(UnsafeRawBufferPointer(start: new.base + range.lowerBound, count: range.count))
        }
        return try writer.finish()
    }
}

// MARK: - Helpers

/// A read-only byte buffer owned by the caller for the duration of `makePatch`, shareable with the
/// worker threads (which only read it).
struct Bytes: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let count: Int

    init(_ buffer: UnsafeRawBufferPointer) {
        // An empty buffer may have no address. Any non-null pointer will do then: with `count` 0
        // nothing is ever read through it.
        base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        count = buffer.count
    }

    @inline(__always) subscript(index: Int) -> UInt8 { base[index] }
}

/// Length of the common prefix of `a` and `b`, starting the comparison at `from` (bytes before it are
/// known to match) and stopping at `limit`. Compares 8 bytes at a time.
@inline(__always)
func commonPrefixLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
    var index = from
    let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
    while index &+ 8 <= limit {
        let wordA = UInt64(littleEndian: rawA.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let wordB = UInt64(littleEndian: rawB.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let difference = wordA ^ wordB
        if difference != 0 { return index &+ difference.trailingZeroBitCount >> 3 }
        index &+= 8
    }
    while index < limit && a[index] == b[index] { index &+= 1 }
    return index
}

/// The suffix array under construction, handed to the one task that fills it.
struct SendableMutableBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Int32>
}

/// Fixed slots written by concurrent workers, each slot by exactly one worker, read after all
/// workers finished (`DispatchQueue.concurrentPerform` returns only then).
final class SegmentSlots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value>

    init(count: Int, initial: Value) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: initial)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    subscript(index: Int) -> Value {
        get { storage[index] }
        set { storage[index] = newValue }
    }
}

/// A Bloom-style bit set (one hash) of every `gramLength`-byte substring of old. `mayContain` false
/// means the substring certainly does not occur in old; true means it may.
struct SubstringFilter: @unchecked Sendable {
    let gramLength: Int
    private let bits: UnsafeMutablePointer<UInt64>
    private let bitCount: UInt64
    private let mask: UInt64

    /// Nil when disabled, when old is too short to hold a gram, or when grams are too short to be selective.
    init?(old: Bytes, gramLength: Int, bitsPerByte: Int) {
        guard bitsPerByte > 0, gramLength >= 4, gramLength <= 8, old.count >= 8 else { return nil }
        self.gramLength = gramLength
        mask = gramLength == 8 ? ~0 : (1 << UInt64(gramLength &* 8)) &- 1
        let words = max(1024, (old.count &* bitsPerByte &+ 63) >> 6)
        bitCount = UInt64(words) << 6
        bits = .allocate(capacity: words)
        bits.initialize(repeating: 0, count: words)
        let raw = UnsafeRawPointer(old.base)
        // Grams read as 8-byte words; the last few grams (fewer than 8 bytes left) are assembled bytewise.
        var position = 0
        while position &+ gramLength <= old.count {
            let word = position &+ 8 <= old.count
                ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                : Self.tailWord(old.base + position, count: old.count &- position)
            insert(word)
            position &+= 1
        }
    }

    func deallocate() { bits.deallocate() }

    private static func tailWord(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<min(8, count) { word |= UInt64(bytes[index]) << UInt64(index &* 8) }
        return word
    }

    @inline(__always)
    private func slot(_ word: UInt64) -> Int {
        // Multiplicative hash, mapped onto 0..<bitCount by the high half of a 64×64 product
        // (no power-of-two rounding of the table size, so memory is exactly bitsPerByte per byte).
        let hash = (word & mask) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash.multipliedFullWidth(by: bitCount).high)
    }

    @inline(__always)
    private func insert(_ word: UInt64) {
        let index = slot(word)
        bits[index >> 6] |= 1 << UInt64(index & 63)
    }

    /// Whether the gram at `bytes` (which must have `gramLength` readable bytes) may occur in old.
    @inline(__always)
    func mayContain(_ bytes: UnsafePointer<UInt8>) -> Bool {
        var word: UInt64 = 0
        if gramLength == 8 {
            word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        } else {
            word = Self.tailWord(bytes, count: gramLength)
        }
        let index = slot(word)
        return bits[index >> 6] & (1 << UInt64(index & 63)) != 0
    }
}

/// For every two-byte prefix, the range of suffix-array ranks whose (sampled) suffixes start with it.
struct PrefixRanges: Sendable {
    /// starts[p] ..< ends[p] for p = first << 8 | second.
    private let starts: [Int32]
    private let ends: [Int32]

    init(old: Bytes, sampling: SuffixArray.Sampling) {
        var counts = [Int32](repeating: 0, count: 1 << 16)
        var firstByteCounts = [Int](repeating: 0, count: 256)
        for position in stride(from: 0, to: old.count, by: sampling.step) {
            firstByteCounts[Int(old[position])] &+= 1
            if position &+ 1 < old.count { counts[Int(old[position]) << 8 | Int(old[position &+ 1])] &+= 1 }
        }
        // The one-byte suffix (old's last byte) is indexed when its position is sampled.
        let lastIsSampled = old.count > 0 && (old.count &- 1) % sampling.step == 0
        var starts = [Int32](repeating: 0, count: 1 << 16)
        var ends = [Int32](repeating: 0, count: 1 << 16)
        var groupStart = 0
        for first in 0..<256 {
            // The one-byte suffix sorts first within its first-byte group.
            var rank = groupStart &+ (lastIsSampled && Int(old[old.count &- 1]) == first ? 1 : 0)
            for second in 0..<256 {
                let prefix = first << 8 | second
                starts[prefix] = Int32(truncatingIfNeeded: rank)
                rank &+= Int(counts[prefix])
                ends[prefix] = Int32(truncatingIfNeeded: rank)
            }
            groupStart &+= firstByteCounts[first]
        }
        self.starts = starts
        self.ends = ends
    }

    @inline(__always)
    func range(_ first: UInt8, _ second: UInt8) -> Range<Int> {
        let prefix = Int(first) << 8 | Int(second)
        return Int(starts[prefix])..<Int(ends[prefix])
    }
}
