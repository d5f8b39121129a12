/// The match search of Colin Percival's bsdiff 4.3, step for step: a binary search of every suffix
/// of old at every position of new where the current alignment stops paying, a switch when a match
/// beats the alignment by more than 8 bytes, and the forward/backward extension with its overlap
/// split. `BSDiff.makePatch` writes the covers it finds as a second candidate patch next to its own
/// and keeps the smaller, so no patch is larger than the one bsdiff 4.3 writes for the same pair
/// (its own cost model wins on most pairs but not on every one).
///
/// The suffix array is the same as qsufsort's (suffixes are distinct, so their order is unique)
/// plus bsdiff's empty suffix at rank 0, and the search probes it as bsdiff does (the middle of the
/// range, then the longer of the two last candidates), so the positions chosen are bsdiff's too.
/// Its cost is a full suffix array (4 bytes per old byte) and, on repetitive inputs, bsdiff's
/// quadratic scan; `BSDiffOptions.referenceCandidateLimit` bounds the sizes it runs on.
enum BSDiffReference {
    /// The covers bsdiff 4.3 would write, and the seek of its last control entry (bsdiff writes the
    /// offset to the last match found; the value is never used by an applier, but it is part of the
    /// compressed control block).
    struct Scan {
        var covers: [BSDiff.Cover]
        var finalSeek: Int
    }

    static func scan(old: Bytes, new: Bytes) -> Scan {
        let suffixes = UnsafeMutableBufferPointer<Int32>.allocate(capacity: old.count)
        defer { suffixes.deallocate() }
        SuffixArray.build(UnsafeRawBufferPointer(start: old.base, count: old.count), into: suffixes, sampling: .all)
        let index = Index(old: old, suffixes: UnsafeBufferPointer(suffixes))

        var covers: [BSDiff.Cover] = []
        var scan = 0, length = 0, position = 0
        var lastScan = 0, lastPosition = 0, lastOffset = 0
        var finalSeek = 0
        while scan < new.count {
            var oldScore = 0
            scan &+= length
            var scored = scan
            while scan < new.count {
                (length, position) = index.longestMatch(new.base + scan, count: new.count &- scan)
                while scored < scan &+ length {
                    if scored &+ lastOffset < old.count && old[scored &+ lastOffset] == new[scored] { oldScore &+= 1 }
                    scored &+= 1
                }
                if (length == oldScore && length != 0) || length > oldScore &+ 8 { break }
                if scan &+ lastOffset < old.count && old[scan &+ lastOffset] == new[scan] { oldScore &-= 1 }
                scan &+= 1
            }
            guard length != oldScore || scan == new.count else { continue }

            var score = 0, bestScore = 0, forwardLength = 0
            var offset = 0
            while lastScan &+ offset < scan && lastPosition &+ offset < old.count {
                if old[lastPosition &+ offset] == new[lastScan &+ offset] { score &+= 1 }
                offset &+= 1
                if score &* 2 &- offset > bestScore &* 2 &- forwardLength {
                    bestScore = score
                    forwardLength = offset
                }
            }
            var backwardLength = 0
            if scan < new.count {
                score = 0
                bestScore = 0
                offset = 1
                while scan >= lastScan &+ offset && position >= offset {
                    if old[position &- offset] == new[scan &- offset] { score &+= 1 }
                    if score &* 2 &- offset > bestScore &* 2 &- backwardLength {
                        bestScore = score
                        backwardLength = offset
                    }
                    offset &+= 1
                }
            }
            BSDiff.splitOverlap(old: old, new: new, lastScan: lastScan, lastPosition: lastPosition, scan: scan, position: position,
                                forwardLength: &forwardLength, backwardLength: &backwardLength)
            covers.append(BSDiff.Cover(newStart: lastScan, oldStart: lastPosition, length: forwardLength))
            finalSeek = (position &- backwardLength) &- (lastPosition &+ forwardLength)
            lastScan = scan &- backwardLength
            lastPosition = position &- backwardLength
            lastOffset = position &- scan
        }
        return Scan(covers: covers, finalSeek: finalSeek)
    }

    /// bsdiff's `search` over its suffix array `I`: rank 0 is the empty suffix (position old.count),
    /// rank r > 0 is `suffixes[r - 1]`.
    ///
    /// bsdiff probes the middle of the rank range, then the middle of the half it keeps: the first
    /// `cachedLevels` probes of every search visit the same ranks (at most 2^17 of them). Their
    /// positions and first 8 bytes are kept in a table (breadth-first, as a heap; 1.5 MB at most), so
    /// those probes are decided without a cache miss in the suffix array or old, and the search still
    /// probes exactly the ranks bsdiff's does (its choice among equally long matches depends on them).
    /// On the 4 MB benchmark pair this takes a third off the scan's time (17 levels; 20 gain little more).
    final class Index {
        let old: Bytes
        let suffixes: UnsafeBufferPointer<Int32>
        let cachedLevels: Int
        /// Per node: the probed suffix's first 8 bytes, big-endian (zero-padded past old's end), and its position.
        private let keys: UnsafeMutableBufferPointer<UInt64>
        private let positions: UnsafeMutableBufferPointer<Int32>

        init(old: Bytes, suffixes: UnsafeBufferPointer<Int32>) {
            self.old = old
            self.suffixes = suffixes
            // Levels below log2(old.count) would hold no node: the ranges there are shorter than 2.
            cachedLevels = min(17, Int.bitWidth &- old.count.leadingZeroBitCount)
            let nodeCount = (1 << cachedLevels) &- 1
            keys = .allocate(capacity: nodeCount)
            keys.initialize(repeating: 0)
            positions = .allocate(capacity: nodeCount)
            positions.initialize(repeating: 0)
            fill(node: 0, start: 0, end: old.count, level: 0)
        }

        deinit {
            keys.deallocate()
            positions.deallocate()
        }

        private func fill(node: Int, start: Int, end: Int, level: Int) {
            guard level < cachedLevels, end &- start >= 2 else { return }
            let middle = start &+ (end &- start) / 2
            let position = self.position(ofRank: middle)
            positions[node] = Int32(truncatingIfNeeded: position)
            keys[node] = Self.key(old.base + position, count: old.count &- position)
            fill(node: 2 &* node &+ 1, start: middle, end: end, level: level &+ 1)
            fill(node: 2 &* node &+ 2, start: start, end: middle, level: level &+ 1)
        }

        /// The first 8 bytes at `bytes` (fewer when `count` < 8, zero-padded) as a big-endian number,
        /// so that numeric order is byte-string order.
        @inline(__always)
        static func key(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
            if count >= 8 { return UInt64(bigEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)) }
            var key: UInt64 = 0
            for index in 0..<count { key |= UInt64(bytes[index]) << UInt64(56 &- index &* 8) }
            return key
        }

        @inline(__always)
        func position(ofRank rank: Int) -> Int { rank == 0 ? old.count : Int(suffixes[rank &- 1]) }

        @inline(__always)
        func matchLength(_ rank: Int, _ pattern: UnsafePointer<UInt8>, _ count: Int) -> Int {
            let start = position(ofRank: rank)
            return commonPrefixLength(old.base + start, pattern, from: 0, limit: min(old.count &- start, count))
        }

        /// Whether bsdiff's `memcmp(old + suffix, pattern, min(suffix length, count)) < 0`.
        @inline(__always)
        func sortsBefore(_ suffix: Int, _ pattern: UnsafePointer<UInt8>, count: Int) -> Bool {
            let limit = min(old.count &- suffix, count)
            let common = commonPrefixLength(old.base + suffix, pattern, from: 0, limit: limit)
            return common < limit && old[suffix &+ common] < pattern[common]
        }

        func longestMatch(_ pattern: UnsafePointer<UInt8>, count: Int) -> (length: Int, oldPosition: Int) {
            var start = 0, end = old.count
            var node = 0, level = 0
            let patternKey = Self.key(pattern, count: count)
            while end &- start >= 2 {
                let middle = start &+ (end &- start) / 2
                let goesRight: Bool
                if level < cachedLevels {
                    let suffix = Int(positions[node])
                    // Within the first min(8, both lengths) bytes the keys decide; equal keys over
                    // a shorter limit mean memcmp returned 0; otherwise compare the rest.
                    let known = min(8, old.count &- suffix, count)
                    let mask: UInt64 = known == 0 ? 0 : ~0 << UInt64(64 &- known &* 8)
                    let suffixBits = keys[node] & mask, patternBits = patternKey & mask
                    if suffixBits != patternBits {
                        goesRight = suffixBits < patternBits
                    } else if known < 8 {
                        goesRight = false
                    } else {
                        goesRight = sortsBefore(suffix, pattern, count: count)
                    }
                    node = goesRight ? 2 &* node &+ 1 : 2 &* node &+ 2
                    level &+= 1
                } else {
                    goesRight = sortsBefore(position(ofRank: middle), pattern, count: count)
                }
                if goesRight { start = middle } else { end = middle }
            }
            let startLength = matchLength(start, pattern, count)
            let endLength = matchLength(end, pattern, count)
            return startLength > endLength ? (startLength, position(ofRank: start)) : (endLength, position(ofRank: end))
        }
    }
}
