/// Rewrites the entropy-coding stage of a bzip2 stream written by libbz2 with smaller Huffman tables.
///
/// bzip2 codes each block's MTF/RLE symbols with 2 to 6 Huffman tables, switched every 50 symbols.
/// libbz2 picks the number of tables from the symbol count alone (2 below 200 symbols … 6 from 2400),
/// refines them 4 times and sends every table in full, with lengths built as if each unused symbol
/// occurred once. On the small blocks of a patch between module versions the tables are a large part
/// of the output (a 60 KB Embedded Swift pair's diff block: 212 of 1,331 bytes). This keeps libbz2's
/// block sorting, symbols, CRCs and block boundaries (so the decompressed bytes are identical and any
/// bzip2 decoder reads the result) and chooses again, by exact bit count: how many tables, which table
/// each 50-symbol group uses, and code lengths that also weigh what each length costs in the table's
/// delta coding. Every code stays complete (Kraft sum exactly 1) with lengths at most 17, as libbz2's.
/// On the benchmark corpus: 1-8 % smaller patches for the Embedded Swift pairs, 0.05-1.7 % for the others.
enum BZip2Recoder {
    /// The stream re-encoded, or `stream` itself when that is not smaller or the stream is not the
    /// single-stream, non-randomised shape libbz2 writes (never an error: the input stays valid).
    static func recode(_ stream: [UInt8]) -> [UInt8] {
        guard let blocks = parse(stream) else { return stream }
        var writer = BitWriter(capacity: stream.count)
        for byte in stream[0..<4] { writer.write(UInt32(byte), count: 8) }
        for block in blocks {
            block.header.write(to: &writer)
            encode(block, into: &writer)
        }
        writer.write(0x177245, count: 24)
        writer.write(0x385090, count: 24)
        writer.write(blocks.combinedCRC, count: 32)
        let recoded = writer.finish()
        return recoded.count < stream.count ? recoded : stream
    }

    static let maxCodeLength = 17
    static let groupSize = 50

    /// What is copied unchanged from a block: CRC, origin pointer and the used-bytes bitmap.
    struct BlockHeader {
        var crc: UInt32
        var originPointer: UInt32
        var usedRanges: UInt32
        var usedBytes: [UInt32]

        func write(to writer: inout BitWriter) {
            writer.write(0x314159, count: 24)
            writer.write(0x265359, count: 24)
            writer.write(crc, count: 32)
            writer.write(0, count: 1)  // not randomised
            writer.write(originPointer, count: 24)
            writer.write(usedRanges, count: 16)
            for word in usedBytes { writer.write(word, count: 16) }
        }
    }

    struct Block {
        var header: BlockHeader
        /// Symbols 0 ..< alphabetSize, ending with the end-of-block symbol alphabetSize - 1.
        var symbols: [UInt16]
        var alphabetSize: Int
    }

    struct Blocks: Sequence {
        var blocks: [Block]
        var combinedCRC: UInt32
        func makeIterator() -> IndexingIterator<[Block]> { blocks.makeIterator() }
    }

    // MARK: - Reading

    static func parse(_ stream: [UInt8]) -> Blocks? {
        guard stream.count >= 14, stream[0] == 0x42, stream[1] == 0x5A, stream[2] == 0x68,
              (0x31...0x39).contains(stream[3]) else { return nil }
        var reader = BitReader(stream, bitOffset: 32)
        var blocks: [Block] = []
        while true {
            guard let high = reader.read(24), let low = reader.read(24) else { return nil }
            if high == 0x177245 && low == 0x385090 {
                guard let crc = reader.read(32), reader.remainingBits < 8 else { return nil }
                return Blocks(blocks: blocks, combinedCRC: crc)
            }
            guard high == 0x314159 && low == 0x265359, let block = parseBlock(&reader) else { return nil }
            blocks.append(block)
        }
    }

    private static func parseBlock(_ reader: inout BitReader) -> Block? {
        guard let crc = reader.read(32), reader.read(1) == 0, let origin = reader.read(24),
              let usedRanges = reader.read(16) else { return nil }
        var usedBytes: [UInt32] = []
        for range in 0..<16 where usedRanges & (0x8000 >> UInt32(range)) != 0 {
            guard let word = reader.read(16) else { return nil }
            usedBytes.append(word)
        }
        let alphabetSize = usedBytes.reduce(0) { $0 + $1.nonzeroBitCount } + 2
        guard let groups = reader.read(3).map(Int.init), (2...6).contains(groups),
              let selectorCount = reader.read(15).map(Int.init), selectorCount > 0 else { return nil }
        var order = Array(0..<groups)
        var selectors: [Int] = []
        selectors.reserveCapacity(selectorCount)
        for _ in 0..<selectorCount {
            var position = 0
            while true {
                guard let bit = reader.read(1) else { return nil }
                if bit == 0 { break }
                position += 1
                guard position < groups else { return nil }
            }
            let table = order.remove(at: position)
            order.insert(table, at: 0)
            selectors.append(table)
        }
        var decoders: [CanonicalDecoder] = []
        for _ in 0..<groups {
            guard var length = reader.read(5).map(Int.init) else { return nil }
            var lengths: [Int] = []
            lengths.reserveCapacity(alphabetSize)
            for _ in 0..<alphabetSize {
                while true {
                    guard (1...20).contains(length), let more = reader.read(1) else { return nil }
                    if more == 0 { break }
                    guard let down = reader.read(1) else { return nil }
                    length += down == 1 ? -1 : 1
                }
                lengths.append(length)
            }
            decoders.append(CanonicalDecoder(lengths: lengths))
        }
        var symbols: [UInt16] = []
        let endOfBlock = alphabetSize - 1
        while true {
            let group = symbols.count / groupSize
            guard group < selectors.count, let symbol = decoders[selectors[group]].decode(&reader) else { return nil }
            symbols.append(UInt16(symbol))
            if symbol == endOfBlock { break }
        }
        return Block(header: BlockHeader(crc: crc, originPointer: origin, usedRanges: usedRanges, usedBytes: usedBytes),
                     symbols: symbols, alphabetSize: alphabetSize)
    }

    // MARK: - Choosing tables

    struct Coding {
        var lengths: [[Int]]
        var selectors: [Int]
        var bits: Int
    }

    static func encode(_ block: Block, into writer: inout BitWriter) {
        let coding = bestCoding(block)
        let groups = coding.lengths.count
        writer.write(UInt32(groups), count: 3)
        writer.write(UInt32(coding.selectors.count), count: 15)
        var order = Array(0..<groups)
        for table in coding.selectors {
            let position = order.firstIndex(of: table)!
            for _ in 0..<position { writer.write(1, count: 1) }
            writer.write(0, count: 1)
            order.remove(at: position)
            order.insert(table, at: 0)
        }
        for lengths in coding.lengths {
            var current = lengths[0]
            writer.write(UInt32(current), count: 5)
            for length in lengths {
                while current < length { writer.write(0b10, count: 2); current += 1 }
                while current > length { writer.write(0b11, count: 2); current -= 1 }
                writer.write(0, count: 1)
            }
        }
        let codes = coding.lengths.map(canonicalCodes)
        for (index, symbol) in block.symbols.enumerated() {
            let table = coding.selectors[index / groupSize]
            writer.write(codes[table][Int(symbol)], count: coding.lengths[table][Int(symbol)])
        }
    }

    /// Tries every table count from 2 to 6 on blocks of up to `fullSearchSymbols` symbols (larger
    /// blocks keep libbz2's count: more tables pay off there and the search would cost seconds on a
    /// 60 MB module), each refined `refinements` times, and keeps the fewest bits.
    static let fullSearchSymbols = 100_000
    static let refinements = 4

    static func bestCoding(_ block: Block) -> Coding {
        let counts: ClosedRange<Int>
        if block.symbols.count <= fullSearchSymbols {
            counts = 2...6
        } else {
            let libbz2Count = block.symbols.count < 200 ? 2 : block.symbols.count < 600 ? 3
                : block.symbols.count < 1200 ? 4 : block.symbols.count < 2400 ? 5 : 6
            counts = libbz2Count...libbz2Count
        }
        var best = singleTable(block)
        for groups in counts {
            let coding = refine(block, groups: groups)
            if coding.bits < best.bits { best = coding }
        }
        return best
    }

    /// One table codes every group; the second table the format requires is the cheapest complete
    /// code to send (lengths k and k + 1, one step between them). Wins on small blocks whose symbols
    /// are too few to pay for two real tables (a few KB of extra bytes).
    static func singleTable(_ block: Block) -> Coding {
        let alphabetSize = block.alphabetSize
        var frequencies = [Int](repeating: 0, count: alphabetSize)
        for symbol in block.symbols { frequencies[Int(symbol)] += 1 }
        let lengths = codeLengths(frequencies: frequencies)
        // s symbols of length k and the rest of k + 1 fill the code exactly: 2s + (A - s) = 2^(k+1).
        let shorter = Int.bitWidth - 1 - alphabetSize.leadingZeroBitCount
        let shortCount = (1 << (shorter + 1)) - alphabetSize
        let filler = (0..<alphabetSize).map { $0 < shortCount ? shorter : shorter + 1 }
        let selectors = [Int](repeating: 0, count: (block.symbols.count + groupSize - 1) / groupSize)
        let dataBits = zip(frequencies, lengths).reduce(0) { $0 + $1.0 * $1.1 }
        let bits = 3 + 15 + selectorBits(selectors, groups: 2) + tableBits(lengths) + tableBits(filler) + dataBits
        return Coding(lengths: [lengths, filler], selectors: selectors, bits: bits)
    }

    /// libbz2's initial tables (each favours one slice of the symbol range holding an equal share of
    /// the symbols), then alternately assign groups to their cheapest table and rebuild the tables.
    static func refine(_ block: Block, groups: Int) -> Coding {
        let alphabetSize = block.alphabetSize
        var frequencies = [Int](repeating: 0, count: alphabetSize)
        for symbol in block.symbols { frequencies[Int(symbol)] += 1 }
        var lengths = [[Int]](repeating: [Int](repeating: 15, count: alphabetSize), count: groups)
        var remaining = block.symbols.count
        var sliceStart = 0
        for part in stride(from: groups, to: 0, by: -1) {
            let target = remaining / part
            var sliceEnd = sliceStart - 1
            var taken = 0
            while taken < target && sliceEnd < alphabetSize - 1 {
                sliceEnd += 1
                taken += frequencies[sliceEnd]
            }
            if sliceEnd > sliceStart && part != groups && part != 1 && (groups - part) % 2 == 1 {
                taken -= frequencies[sliceEnd]
                sliceEnd -= 1
            }
            for symbol in 0..<alphabetSize where symbol >= sliceStart && symbol <= sliceEnd {
                lengths[groups - part][symbol] = 0
            }
            sliceStart = sliceEnd + 1
            remaining -= taken
        }
        let groupCount = (block.symbols.count + groupSize - 1) / groupSize
        var best: Coding?
        for _ in 0..<refinements {
            let selectors = assign(block.symbols, groupCount: groupCount, lengths: lengths).selectors
            var tableFrequencies = [[Int]](repeating: [Int](repeating: 0, count: alphabetSize), count: groups)
            for (index, symbol) in block.symbols.enumerated() { tableFrequencies[selectors[index / groupSize]][Int(symbol)] += 1 }
            lengths = tableFrequencies.map { codeLengths(frequencies: $0) }
            let (finalSelectors, dataBits) = assign(block.symbols, groupCount: groupCount, lengths: lengths)
            let bits = 3 + 15 + selectorBits(finalSelectors, groups: groups) + lengths.reduce(0) { $0 + tableBits($1) } + dataBits
            if best == nil || bits < best!.bits { best = Coding(lengths: lengths, selectors: finalSelectors, bits: bits) }
        }
        return best!
    }

    /// Each group of 50 symbols to the table that codes it in the fewest bits; the total bits.
    static func assign(_ symbols: [UInt16], groupCount: Int, lengths: [[Int]]) -> (selectors: [Int], bits: Int) {
        // Each symbol's length in every table, 16 bits per table (50 symbols of at most 20 bits fit),
        // as libbz2 packs them: a group's cost in all tables is two additions per symbol.
        let tables = lengths.count, alphabetSize = lengths[0].count
        var packedLow = [UInt64](repeating: 0, count: alphabetSize)
        var packedHigh = [UInt64](repeating: 0, count: alphabetSize)
        for table in 0..<tables {
            for symbol in 0..<alphabetSize {
                let lane = UInt64(lengths[table][symbol]) << UInt64(16 * (table % 4))
                if table < 4 { packedLow[symbol] |= lane } else { packedHigh[symbol] |= lane }
            }
        }
        var selectors = [Int](repeating: 0, count: groupCount)
        var total = 0
        symbols.withUnsafeBufferPointer { symbols in
            packedLow.withUnsafeBufferPointer { packedLow in
                packedHigh.withUnsafeBufferPointer { packedHigh in
                    for group in 0..<groupCount {
                        var low: UInt64 = 0, high: UInt64 = 0
                        for index in (group * groupSize)..<min(symbols.count, (group + 1) * groupSize) {
                            let symbol = Int(symbols[index])
                            low &+= packedLow[symbol]
                            high &+= packedHigh[symbol]
                        }
                        var chosen = 0, chosenCost = Int.max
                        for table in 0..<tables {
                            let cost = Int(truncatingIfNeeded: ((table < 4 ? low : high) >> UInt64(16 * (table % 4))) & 0xFFFF)
                            if cost < chosenCost { chosenCost = cost; chosen = table }
                        }
                        selectors[group] = chosen
                        total += chosenCost
                    }
                }
            }
        }
        return (selectors, total)
    }

    static func selectorBits(_ selectors: [Int], groups: Int) -> Int {
        var order = Array(0..<groups)
        var bits = 0
        for table in selectors {
            let position = order.firstIndex(of: table)!
            bits += position + 1
            order.remove(at: position)
            order.insert(table, at: 0)
        }
        return bits
    }

    /// A table is sent as a 5-bit first length, then per symbol 2 bits per unit of change from the
    /// previous symbol's length and a 1-bit terminator.
    static func tableBits(_ lengths: [Int]) -> Int {
        var bits = 5
        var current = lengths[0]
        for length in lengths {
            bits += 2 * abs(length - current) + 1
            current = length
        }
        return bits
    }

    /// Huffman lengths (unused symbols weighted as if seen once, as libbz2 does, halving the weights
    /// until no code exceeds the limit), then single-step changes that lower data plus table bits
    /// while the code stays a prefix code, then the Kraft slack filled again so the code is complete.
    static func codeLengths(frequencies: [Int]) -> [Int] {
        var weights = frequencies.map { max(1, $0) }
        var lengths = huffmanLengths(weights)
        while lengths.max()! > maxCodeLength {
            weights = weights.map { 1 + $0 / 2 }
            lengths = huffmanLengths(weights)
        }
        let unit = 1 << maxCodeLength
        var kraft = lengths.reduce(0) { $0 + (unit >> $1) }
        let count = lengths.count
        func neighbourBits(_ index: Int, _ length: Int) -> Int {
            var bits = 0
            if index > 0 { bits += 2 * abs(length - lengths[index - 1]) }
            if index + 1 < count { bits += 2 * abs(lengths[index + 1] - length) }
            return bits
        }
        var changed = true
        var passes = 0
        while changed && passes < 20 {
            changed = false
            passes += 1
            for index in 0..<count {
                for step in [1, -1] {
                    let length = lengths[index] + step
                    guard length >= 1 && length <= maxCodeLength else { continue }
                    let newKraft = kraft - (unit >> lengths[index]) + (unit >> length)
                    guard newKraft <= unit else { continue }
                    let gain = frequencies[index] * (lengths[index] - length) + neighbourBits(index, lengths[index]) - neighbourBits(index, length)
                    if gain > 0 {
                        kraft = newKraft
                        lengths[index] = length
                        changed = true
                    }
                }
            }
        }
        while kraft < unit {
            var chosen = -1, chosenGain = Int.min
            for index in 0..<count where lengths[index] > 1 && (unit >> lengths[index]) <= unit - kraft {
                let gain = frequencies[index] + neighbourBits(index, lengths[index]) - neighbourBits(index, lengths[index] - 1)
                if gain > chosenGain { chosenGain = gain; chosen = index }
            }
            guard chosen >= 0 else { break }
            kraft += unit >> lengths[chosen]
            lengths[chosen] -= 1
        }
        return lengths
    }

    /// Code lengths of a Huffman code for `weights` (ties broken by subtree depth, then by index, so
    /// the result is deterministic).
    static func huffmanLengths(_ weights: [Int]) -> [Int] {
        let count = weights.count
        var parent = [Int](repeating: -1, count: 2 * count)
        var heap = MinHeap(capacity: count)
        for (index, weight) in weights.enumerated() { heap.push(HeapNode(weight: weight, depth: 0, index: index)) }
        var next = count
        while heap.count > 1 {
            let first = heap.pop(), second = heap.pop()
            parent[first.index] = next
            parent[second.index] = next
            heap.push(HeapNode(weight: first.weight + second.weight, depth: max(first.depth, second.depth) + 1, index: next))
            next += 1
        }
        return (0..<count).map { leaf in
            var depth = 0, node = leaf
            while parent[node] >= 0 { node = parent[node]; depth += 1 }
            return max(1, depth)
        }
    }

    /// A node ordered by (weight, depth, index), packed in one integer so the heap compares and
    /// moves 8 bytes: weight in the high 40 bits (a block's symbol count, below 2^20, bounds every
    /// subtree's weight, and so its depth below 30), depth in 8, index in 16 (at most 2 × 258 nodes).
    struct HeapNode {
        let key: UInt64

        init(weight: Int, depth: Int, index: Int) {
            key = UInt64(weight) << 24 | UInt64(depth) << 16 | UInt64(index)
        }

        init(key: UInt64) { self.key = key }

        var weight: Int { Int(key >> 24) }
        var depth: Int { Int(key >> 16 & 0xFF) }
        var index: Int { Int(key & 0xFFFF) }
    }

    /// A binary min-heap of packed nodes; sifts work on the buffer directly (no per-access bounds
    /// or uniqueness checks: the recoder builds hundreds of codes per block).
    struct MinHeap {
        private var keys: [UInt64] = []
        var count: Int { keys.count }

        init(capacity: Int) { keys.reserveCapacity(capacity) }

        mutating func push(_ node: HeapNode) {
            keys.append(node.key)
            keys.withUnsafeMutableBufferPointer { keys in
                var child = keys.count - 1
                let key = keys[child]
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard key < keys[parent] else { break }
                    keys[child] = keys[parent]
                    child = parent
                }
                keys[child] = key
            }
        }

        mutating func pop() -> HeapNode {
            let top = keys[0]
            let last = keys.removeLast()
            keys.withUnsafeMutableBufferPointer { keys in
                guard !keys.isEmpty else { return }
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = left
                    guard left < keys.count else { break }
                    if right < keys.count && keys[right] < keys[left] { smallest = right }
                    guard keys[smallest] < last else { break }
                    keys[parent] = keys[smallest]
                    parent = smallest
                }
                keys[parent] = last
            }
            return HeapNode(key: top)
        }
    }

    /// bzip2's canonical codes: by length, then by symbol.
    static func canonicalCodes(_ lengths: [Int]) -> [UInt32] {
        var codes = [UInt32](repeating: 0, count: lengths.count)
        var code: UInt32 = 0
        for length in 1...(lengths.max() ?? 1) {
            for symbol in lengths.indices where lengths[symbol] == length {
                codes[symbol] = code
                code += 1
            }
            code <<= 1
        }
        return codes
    }

    /// Decodes canonical codes one bit at a time (libbz2's limit/base scheme).
    struct CanonicalDecoder {
        private var limits: [Int] = []
        private var bases: [Int] = []
        private var symbolsByCode: [Int] = []
        private let minLength: Int

        init(lengths: [Int]) {
            minLength = lengths.min() ?? 1
            let maxLength = lengths.max() ?? 1
            var code = 0, rank = 0
            limits = [Int](repeating: -1, count: maxLength + 1)
            bases = [Int](repeating: 0, count: maxLength + 1)
            for length in 1...maxLength {
                bases[length] = rank - code
                for symbol in lengths.indices where lengths[symbol] == length {
                    symbolsByCode.append(symbol)
                    code += 1
                    rank += 1
                }
                limits[length] = code - 1
                code <<= 1
            }
        }

        func decode(_ reader: inout BitReader) -> Int? {
            // The longest code's worth of bits at once (zeros past the end), then the shortest
            // length whose limit the prefix is within.
            let maxLength = limits.count - 1
            let window = reader.peek(maxLength)
            for length in minLength...maxLength {
                let code = Int(window >> UInt32(maxLength - length))
                if code <= limits[length] {
                    let rank = code + bases[length]
                    guard rank >= 0 && rank < symbolsByCode.count, reader.skip(length) else { return nil }
                    return symbolsByCode[rank]
                }
            }
            return nil
        }
    }

    // MARK: - Bits

    struct BitReader {
        private let bytes: [UInt8]
        private var position: Int

        init(_ bytes: [UInt8], bitOffset: Int) {
            self.bytes = bytes
            position = bitOffset
        }

        var remainingBits: Int { bytes.count * 8 - position }

        /// The next `count` (≤ 32) bits, most significant first; nil past the end.
        mutating func read(_ count: UInt32) -> UInt32? {
            let value = peek(Int(count))
            return skip(Int(count)) ? value : nil
        }

        /// The next `count` (≤ 32) bits without consuming them, zeros standing in past the end.
        func peek(_ count: Int) -> UInt32 {
            guard count > 0 else { return 0 }
            var window: UInt64 = 0
            let first = position >> 3
            for index in first..<(first + 5) {
                window = window << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
            }
            return UInt32(truncatingIfNeeded: (window >> UInt64(40 - (position & 7) - count)) & ((1 << UInt64(count)) - 1))
        }

        /// Consumes `count` bits; false (and nothing consumed) when fewer remain.
        mutating func skip(_ count: Int) -> Bool {
            guard count <= remainingBits else { return false }
            position += count
            return true
        }
    }

    struct BitWriter {
        private var bytes: [UInt8] = []
        private var buffer: UInt64 = 0
        private var buffered = 0

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        mutating func write(_ value: UInt32, count: Int) {
            buffer = buffer << UInt64(count) | UInt64(value & UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(count)) - 1))
            buffered += count
            while buffered >= 8 {
                buffered -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt64(buffered)))
            }
            buffer &= (UInt64(1) << UInt64(buffered)) - 1
        }

        mutating func finish() -> [UInt8] {
            if buffered > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer << UInt64(8 - buffered))) }
            buffered = 0
            return bytes
        }
    }
}
