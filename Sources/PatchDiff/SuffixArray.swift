/// Suffix arrays by induced sorting (SA-IS: Nong, Zhang & Chan, "Two Efficient Algorithms for Linear
/// Time Suffix Array Construction", 2009), in the space-frugal arrangement popularised by Yuta Mori's
/// sais-lite: no L/S type array (types are recomputed from neighbouring symbols), the reduced problem
/// lives inside the output array, and bucket tables borrow its unused tail when they fit.
///
/// Two samplings: every suffix, or only those starting at even positions. The even-position array is
/// the suffix array of the text read as byte pairs (a 65,792-symbol alphabet: every pair plus a lone
/// last byte, ordered so that pair order is byte order), built without materialising the pair text.
/// It halves both the memory (2 bytes per input byte) and the construction work; a match that starts
/// at an odd position is found one byte later by a search at the next position.
///
/// Memory: the output (4 bytes per sampled suffix) plus the top-level bucket tables (2 KiB for bytes,
/// 514 KiB for pairs); recursion levels allocate a bucket table only in the rare case the output
/// array has no room for it. Time: linear in the input length.
///
/// All index arithmetic is on `Int` with wrapping operators: every index is provably within
/// `0..<count` (count ≤ `Int32.max`), and wrapping arithmetic keeps release builds free of overflow
/// traps in the hot loops.
public enum SuffixArray {
    /// Longest input whose suffix array fits `Int32` entries.
    public static let maxCount = Int(Int32.max)

    /// Which suffixes the array holds.
    public enum Sampling: Sendable {
        /// Every suffix: `count` entries.
        case all
        /// The suffixes starting at even positions: `(count + 1) / 2` entries.
        case evenPositions

        /// Distance between consecutive sampled positions.
        public var step: Int {
            switch self {
            case .all: return 1
            case .evenPositions: return 2
            }
        }

        /// Entries in the suffix array of a `textCount`-byte text.
        public func entryCount(textCount: Int) -> Int {
            (textCount &+ step &- 1) / step
        }
    }

    /// Writes the suffix array of `text` into `suffixes`: `suffixes[r]` is the start of the suffix of
    /// rank `r` among the sampled ones, suffixes compared as byte strings (a proper prefix sorts first).
    /// - Precondition: `suffixes.count == sampling.entryCount(textCount: text.count)` and
    ///   `text.count <= maxCount` (checked by callers that take untrusted sizes; see `BSDiff.makePatch`).
    public static func build(_ text: UnsafeRawBufferPointer, into suffixes: UnsafeMutableBufferPointer<Int32>, sampling: Sampling = .all) {
        let count = text.count
        precondition(suffixes.count == sampling.entryCount(textCount: count) && count <= maxCount, "suffix array size mismatch")
        guard count > 0, let textBase = text.baseAddress, let suffixBase = suffixes.baseAddress else { return }
        let bytes = textBase.assumingMemoryBound(to: UInt8.self)
        // One suffix (a single byte, or one pair) is sorted already.
        if suffixes.count == 1 {
            suffixBase[0] = 0
            return
        }
        switch sampling {
        case .all:
            induceSort(ByteText(bytes: bytes), suffixBase, count: count, freeSpace: 0, alphabetSize: 256)
        case .evenPositions:
            let pairCount = suffixes.count
            induceSort(PairText(bytes: bytes, byteCount: count), suffixBase, count: pairCount, freeSpace: 0, alphabetSize: PairText.alphabetSize)
            // Pair ranks are pair indices; the suffix of pair i starts at byte 2i.
            for rank in 0..<pairCount { suffixBase[rank] &<<= 1 }
        }
    }

    /// Convenience for small inputs and tests.
    public static func build(_ text: [UInt8], sampling: Sampling = .all) -> [Int32] {
        var suffixes = [Int32](repeating: 0, count: sampling.entryCount(textCount: text.count))
        text.withUnsafeBytes { textBuffer in
            suffixes.withUnsafeMutableBufferPointer { build(textBuffer, into: $0, sampling: sampling) }
        }
        return suffixes
    }

    // MARK: - SA-IS

    /// Sorts all suffixes of `text[0..<count]` (symbols in `0..<alphabetSize`, with a virtual
    /// sentinel smaller than every symbol after the end) into `sa[0..<count]`.
    /// `sa[count..<count+freeSpace]` is scratch this level and its recursion may use.
    private static func induceSort<Text: InducibleText>(
        _ text: Text, _ sa: UnsafeMutablePointer<Int32>,
        count n: Int, freeSpace: Int, alphabetSize k: Int
    ) {
        // Bucket tables: `buckets` is required; `counts` (symbol frequencies) is a cache that saves
        // one pass over the text each time bucket bounds are recomputed.
        var ownedTable: UnsafeMutablePointer<Int32>?
        let buckets: UnsafeMutablePointer<Int32>
        let counts: UnsafeMutablePointer<Int32>?
        if k <= freeSpace {
            buckets = sa + n
            counts = 2 &* k <= freeSpace ? sa + (n &+ k) : nil
        } else if k <= 1 << 17 {
            // Up to 2^17 symbols (bytes, and pairs: `PairText.alphabetSize` is 65,792) the counts cache
            // is allocated too; a recursion level with more distinct ranks gets the buckets alone.
            let table = UnsafeMutablePointer<Int32>.allocate(capacity: 2 &* k)
            ownedTable = table
            buckets = table
            counts = table + k
        } else {
            let table = UnsafeMutablePointer<Int32>.allocate(capacity: k)
            ownedTable = table
            buckets = table
            counts = nil
        }
        defer { ownedTable?.deallocate() }
        let bucketTable = BucketTable(buckets: buckets, counts: counts, alphabetSize: k)

        // Stage 1: sort the LMS substrings. Place every LMS position at the end of its bucket (in
        // any order), then induce; LMS substrings come out sorted.
        bucketTable.recount(text, n)
        bucketTable.loadEnds(text, n)
        sa.update(repeating: 0, count: n)
        var lmsCount = 0
        forEachLMSPositionBackward(text, n) { position in
            let symbol = Int(text[position])
            buckets[symbol] &-= 1
            sa[Int(buckets[symbol])] = Int32(truncatingIfNeeded: position)
            lmsCount &+= 1
        }
        induce(text, sa, n, bucketTable)

        // Compact the sorted LMS positions into sa[0..<lmsCount].
        var compacted = 0
        for index in 0..<n {
            let position = Int(sa[index])
            if isLMS(text, n, position) {
                sa[compacted] = Int32(truncatingIfNeeded: position)
                compacted &+= 1
            }
        }
        let m = lmsCount

        // Name the LMS substrings: equal substrings get equal names, names increase with rank.
        // sa[m + position/2] temporarily holds, per LMS position, the distance to the next LMS
        // position (LMS positions are at least 2 apart, so position/2 is unique), then its name.
        (sa + m).update(repeating: 0, count: n &- m)
        var nextLMS = n
        forEachLMSPositionBackward(text, n) { position in
            sa[m &+ (position >> 1)] = Int32(truncatingIfNeeded: nextLMS &- position)
            nextLMS = position
        }
        var nameCount = 0
        var previous = 0
        var previousLength = 0
        for rank in 0..<m {
            let position = Int(sa[rank])
            let length = Int(sa[m &+ (position >> 1)])
            // The substring runs from `position` through the next LMS position inclusive; the last
            // one reaches the sentinel and so equals nothing else.
            var isNew = true
            if length == previousLength && position &+ length < n && previous &+ previousLength < n {
                var offset = 0
                while offset <= length && text[position &+ offset] == text[previous &+ offset] {
                    offset &+= 1
                }
                isNew = offset <= length
            }
            if isNew {
                nameCount &+= 1
                previous = position
                previousLength = length
            }
            sa[m &+ (position >> 1)] = Int32(truncatingIfNeeded: nameCount)
        }

        // Gather the names in text order into the reduced string at the very end of the work area.
        // Writing from the top down never overtakes the reading index.
        let reducedStart = n &+ freeSpace &- m
        var writeIndex = n &+ freeSpace &- 1
        var readIndex = m &+ ((n &- 1) >> 1)
        while readIndex >= m {
            let name = sa[readIndex]
            if name != 0 {
                sa[writeIndex] = name &- 1
                writeIndex &-= 1
            }
            readIndex &-= 1
        }
        let reduced = sa + reducedStart

        // Stage 2: sort the LMS suffixes by sorting the reduced string (recursively when names repeat).
        if nameCount < m {
            induceSort(NameText(names: UnsafePointer(reduced)), sa, count: m, freeSpace: n &+ freeSpace &- 2 &* m, alphabetSize: nameCount)
        } else {
            for index in 0..<m { sa[Int(reduced[index])] = Int32(truncatingIfNeeded: index) }
        }

        // Stage 3: map reduced ranks back to text positions, place them at bucket ends in order,
        // and induce the full suffix array.
        var lmsIndex = m
        forEachLMSPositionBackward(text, n) { position in
            lmsIndex &-= 1
            reduced[lmsIndex] = Int32(truncatingIfNeeded: position)
        }
        for rank in 0..<m { sa[rank] = reduced[Int(sa[rank])] }
        // The recursion (and the reduced string) may have used the bucket area: rebuild it.
        bucketTable.recount(text, n)
        bucketTable.loadEnds(text, n)
        (sa + m).update(repeating: 0, count: n &- m)
        var rank = m &- 1
        while rank >= 0 {
            let position = sa[rank]
            sa[rank] = 0
            let symbol = Int(text[Int(position)])
            buckets[symbol] &-= 1
            sa[Int(buckets[symbol])] = position
            rank &-= 1
        }
        induce(text, sa, n, bucketTable)
    }

    /// Bucket bounds per symbol, with or without a cached symbol count.
    private struct BucketTable {
        let buckets: UnsafeMutablePointer<Int32>
        let counts: UnsafeMutablePointer<Int32>?
        let alphabetSize: Int

        @inline(__always)
        func recount<Text: InducibleText>(_ text: Text, _ n: Int) {
            guard let counts else { return }
            tally(text, n, into: counts)
        }

        @inline(__always)
        private func tally<Text: InducibleText>(_ text: Text, _ n: Int, into table: UnsafeMutablePointer<Int32>) {
            table.update(repeating: 0, count: alphabetSize)
            for index in 0..<n { table[Int(text[index])] &+= 1 }
        }

        /// buckets[c] = one past the last slot of symbol c.
        @inline(__always)
        func loadEnds<Text: InducibleText>(_ text: Text, _ n: Int) {
            if let counts { buckets.update(from: counts, count: alphabetSize) } else { tally(text, n, into: buckets) }
            var sum: Int32 = 0
            for symbol in 0..<alphabetSize {
                sum &+= buckets[symbol]
                buckets[symbol] = sum
            }
        }

        /// buckets[c] = first slot of symbol c.
        @inline(__always)
        func loadHeads<Text: InducibleText>(_ text: Text, _ n: Int) {
            if let counts { buckets.update(from: counts, count: alphabetSize) } else { tally(text, n, into: buckets) }
            var sum: Int32 = 0
            for symbol in 0..<alphabetSize {
                let count = buckets[symbol]
                buckets[symbol] = sum
                sum &+= count
            }
        }
    }

    /// Calls `body` with every LMS position (an S-type position whose predecessor is L-type), from the
    /// end of the text to the start. Position n-1 is L-type (the virtual sentinel is smaller).
    @inline(__always)
    private static func forEachLMSPositionBackward<Text: InducibleText>(
        _ text: Text, _ n: Int, _ body: (Int) -> Void
    ) {
        var index = n &- 2
        var nextIsS = false
        var next = text[n &- 1]
        while index >= 0 {
            let current = text[index]
            let isS = current < next || (current == next && nextIsS)
            if !isS && nextIsS { body(index &+ 1) }
            nextIsS = isS
            next = current
            index &-= 1
        }
    }

    /// Whether `position` is LMS: its predecessor is larger, and the first different symbol after its
    /// run of equal symbols is larger (so it is S-type). Each run is examined by at most one position
    /// (the one after a larger symbol), so testing every position costs linear time in total.
    @inline(__always)
    private static func isLMS<Text: InducibleText>(_ text: Text, _ n: Int, _ position: Int) -> Bool {
        guard position > 0 else { return false }
        let symbol = text[position]
        guard text[position &- 1] > symbol else { return false }
        var scan = position &+ 1
        while scan < n && text[scan] == symbol { scan &+= 1 }
        return scan < n && text[scan] > symbol
    }

    /// Induces L-type suffixes left to right from the bucket heads, then S-type suffixes right to
    /// left from the bucket ends. An entry is stored complemented (~j) when its predecessor must not
    /// be induced by the current pass; each pass flips what it has seen so the next pass (and the
    /// caller) finds plain positions.
    @inline(__always)
    private static func induce<Text: InducibleText>(
        _ text: Text, _ sa: UnsafeMutablePointer<Int32>, _ n: Int, _ table: BucketTable
    ) {
        let buckets = table.buckets
        // L-type pass. Suffix n-1 is L-type and the smallest in its bucket.
        table.loadHeads(text, n)
        var last = n &- 1
        var bucketSymbol = Int(text[last])
        var head = Int(buckets[bucketSymbol])
        sa[head] = last > 0 && Int(text[last &- 1]) < bucketSymbol ? ~Int32(truncatingIfNeeded: last) : Int32(truncatingIfNeeded: last)
        head &+= 1
        for index in 0..<n {
            let entry = sa[index]
            sa[index] = ~entry
            if entry > 0 {
                last = Int(entry) &- 1
                let symbol = Int(text[last])
                if symbol != bucketSymbol {
                    buckets[bucketSymbol] = Int32(truncatingIfNeeded: head)
                    bucketSymbol = symbol
                    head = Int(buckets[symbol])
                }
                // `last` is L-type; its predecessor is S-type exactly when it is smaller.
                sa[head] = last > 0 && Int(text[last &- 1]) < bucketSymbol ? ~Int32(truncatingIfNeeded: last) : Int32(truncatingIfNeeded: last)
                head &+= 1
            }
        }
        // S-type pass.
        table.loadEnds(text, n)
        bucketSymbol = 0
        var end = Int(buckets[0])
        var index = n &- 1
        while index >= 0 {
            let entry = sa[index]
            if entry > 0 {
                last = Int(entry) &- 1
                let symbol = Int(text[last])
                if symbol != bucketSymbol {
                    buckets[bucketSymbol] = Int32(truncatingIfNeeded: end)
                    bucketSymbol = symbol
                    end = Int(buckets[symbol])
                }
                end &-= 1
                // `last` is S-type; its predecessor is L-type exactly when it is larger.
                sa[end] = last == 0 || Int(text[last &- 1]) > bucketSymbol ? ~Int32(truncatingIfNeeded: last) : Int32(truncatingIfNeeded: last)
            } else {
                sa[index] = ~entry
            }
            index &-= 1
        }
    }
}

/// A text SA-IS sorts: symbols in `0..<alphabetSize` read by index.
protocol InducibleText {
    subscript(index: Int) -> Int { get }
}

/// The input bytes.
struct ByteText: InducibleText {
    let bytes: UnsafePointer<UInt8>
    @inline(__always) subscript(index: Int) -> Int { Int(bytes[index]) }
}

/// The input read as byte pairs: symbol i is bytes 2i and 2i+1, or a lone last byte. A pair (a, b) is
/// a·257 + 1 + b and a lone byte a is a·257, so a lone byte sorts before every pair it begins, as the
/// one-byte suffix sorts before longer ones.
struct PairText: InducibleText {
    static let alphabetSize = 256 * 257
    let bytes: UnsafePointer<UInt8>
    let byteCount: Int
    @inline(__always) subscript(index: Int) -> Int {
        let first = index &<< 1
        let high = Int(bytes[first]) &* 257
        return first &+ 1 < byteCount ? high &+ 1 &+ Int(bytes[first &+ 1]) : high
    }
}

/// A reduced problem: the names of LMS substrings, stored in the work area.
struct NameText: InducibleText {
    let names: UnsafePointer<Int32>
    @inline(__always) subscript(index: Int) -> Int { Int(names[index]) }
}
