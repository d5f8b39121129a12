import Testing
@testable import PatchDiff

/// SA-IS checked against a naive comparison sort on inputs chosen to exercise every branch:
/// recursion (repetitive text), no LMS positions at all (non-increasing text), single symbols,
/// the full byte alphabet, and long runs. Every case is checked for both samplings: all suffixes,
/// and the even-position ones (sorted as a pair text with an odd lone last byte).
@Suite struct SuffixArrayTests {
    /// Reference: sort all suffix start positions by comparing the suffixes byte-wise.
    static func naiveSuffixArray(_ text: [UInt8]) -> [Int32] {
        text.withUnsafeBufferPointer { buffer in
            (0..<text.count).sorted { left, right in
                var l = left, r = right
                while l < buffer.count && r < buffer.count {
                    if buffer[l] != buffer[r] { return buffer[l] < buffer[r] }
                    l += 1
                    r += 1
                }
                return l == buffer.count // the shorter suffix (a prefix of the other) sorts first
            }.map { Int32($0) }
        }
    }

    /// Deterministic pseudo-random bytes (SplitMix64), so failures reproduce.
    static func randomBytes(count: Int, seed: UInt64, alphabet: Int = 256) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() % UInt64(alphabet)) }
    }

    func expectMatchesNaive(_ text: [UInt8], _ comment: Comment? = nil) {
        let naive = Self.naiveSuffixArray(text)
        #expect(SuffixArray.build(text) == naive, comment)
        #expect(SuffixArray.build(text, sampling: .evenPositions) == naive.filter { $0 % 2 == 0 }, comment)
    }

    @Test func emptyInput() {
        #expect(SuffixArray.build([]) == [])
        #expect(SuffixArray.build([], sampling: .evenPositions) == [])
    }

    @Test func singleByte() {
        #expect(SuffixArray.build([42]) == [0])
        #expect(SuffixArray.build([42], sampling: .evenPositions) == [0])
    }

    @Test func evenSamplingOfShortTexts() {
        // Two and three bytes: one pair, or a pair and a lone last byte that must sort before the
        // pairs it begins.
        for text in [[5, 5], [5, 5, 5], [5, 6, 5], [6, 5, 5], [0, 255, 0], [255, 0, 255, 0]] as [[UInt8]] {
            expectMatchesNaive(text, "\(text)")
        }
    }

    @Test func twoBytes() {
        for a in [0, 1, 255] as [UInt8] {
            for b in [0, 1, 255] as [UInt8] {
                expectMatchesNaive([a, b], "\([a, b])")
            }
        }
    }

    @Test func allSameByte() {
        for count in [2, 3, 17, 1000] {
            let text = [UInt8](repeating: 7, count: count)
            #expect(SuffixArray.build(text) == (0..<count).reversed().map { Int32($0) })
            let evenPositions: [Int32] = (0..<Int32(count)).reversed().filter { $0 % 2 == 0 }
            #expect(SuffixArray.build(text, sampling: .evenPositions) == evenPositions)
        }
    }

    @Test func strictlyDecreasingAndIncreasing() {
        expectMatchesNaive((0...255).reversed().map { UInt8($0) })
        expectMatchesNaive((0...255).map { UInt8($0) })
    }

    @Test func classicExamples() {
        for word in ["banana", "mississippi", "abracadabra", "GTCCCGATGTCATGTCAGGA", "aabaabaabaab", "abababab"] {
            expectMatchesNaive(Array(word.utf8), "\(word)")
        }
    }

    @Test func periodicInputs() {
        for period in [1, 2, 3, 5, 16, 255] {
            let unit = Self.randomBytes(count: period, seed: UInt64(period))
            let text = (0..<(600 / period + 1)).flatMap { _ in unit }
            expectMatchesNaive(text, "period \(period)")
        }
        // Nested periodicity forces several recursion levels.
        var fibonacci: [UInt8] = [1]
        var previous: [UInt8] = [0]
        while fibonacci.count < 1000 {
            (fibonacci, previous) = (fibonacci + previous, fibonacci)
        }
        expectMatchesNaive(fibonacci, "Fibonacci word")
    }

    @Test func randomInputs() {
        for seed in 1...40 as ClosedRange<UInt64> {
            let count = Int(seed * 37 % 700) + 1
            let alphabet = [2, 3, 4, 26, 256][Int(seed % 5)]
            expectMatchesNaive(Self.randomBytes(count: count, seed: seed, alphabet: alphabet), "seed \(seed)")
        }
    }

    @Test func longRunsAndBlocks() {
        var text: [UInt8] = []
        for block in 0..<50 {
            text += [UInt8](repeating: UInt8(block % 3), count: block * 7 % 23 + 1)
            text += Self.randomBytes(count: block % 5, seed: UInt64(block), alphabet: 3)
        }
        expectMatchesNaive(text)
    }

    /// A larger input verified by checking adjacent suffixes are in order (the naive sort would be slow).
    @Test(arguments: [SuffixArray.Sampling.all, .evenPositions])
    func largeInputIsSorted(sampling: SuffixArray.Sampling) {
        var text = Self.randomBytes(count: 100_001, seed: 99, alphabet: 4)
        text += text[0..<300] // a repeat, kept short so the adjacent-pair check stays fast
        let sa = SuffixArray.build(text, sampling: sampling)
        let expected = sampling == .all ? Set(0..<Int32(text.count)) : Set(stride(from: 0, to: Int32(text.count), by: 2))
        #expect(Set(sa) == expected)
        text.withUnsafeBufferPointer { buffer in
            var ordered = true
            for rank in 1..<sa.count where ordered {
                let a = buffer[Int(sa[rank - 1])...], b = buffer[Int(sa[rank])...]
                ordered = a.lexicographicallyPrecedes(b)
            }
            #expect(ordered)
        }
    }
}

/// Small deterministic generator for reproducible test data.
struct SplitMix64: RandomNumberGenerator {
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
