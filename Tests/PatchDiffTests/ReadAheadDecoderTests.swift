import Testing
@testable import PatchDiff

/// The read-ahead wrapper must be invisible: same bytes, same order, errors after exactly the data
/// that preceded them, the end marker's trailing count, and no thread left behind when abandoned.
@Suite struct ReadAheadDecoderTests {
    /// Produces `count` bytes (byte i = i % 251) in reads of at most `step` bytes, then ends, or
    /// fails with a corrupt-data error if `failsAtEnd`.
    struct PatternDecoder: ~Copyable, StreamDecoder {
        static var codec: CodecKind { .bzip2 }
        let count: Int
        let step: Int
        let failsAtEnd: Bool
        var produced = 0
        var trailingInputCount: Int { 7 }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
            if produced == count {
                if failsAtEnd { throw .corrupt(codec: .bzip2, detail: "after \(produced)") }
                return 0
            }
            let length = min(buffer.count, step, count - produced)
            for index in 0..<length { buffer[index] = UInt8((produced + index) % 251) }
            produced += length
            return length
        }
    }

    static func drain(_ decoder: inout ReadAheadDecoder<PatternDecoder>, readSize: Int) -> (bytes: [UInt8], error: CodecError?) {
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            do {
                let count = try decoder.read(into: buffer)
                if count == 0 { return (bytes, nil) }
                bytes += buffer[..<count]
            } catch {
                return (bytes, error)
            }
        }
    }

    @Test(arguments: [(0, 1000, 7), (1, 1000, 1), (1_000_000, 4096, 333), (1_000_000, 70_000, 100_000)])
    func deliversTheSameBytesInOrder(count: Int, step: Int, readSize: Int) {
        var decoder = ReadAheadDecoder(PatternDecoder(count: count, step: step, failsAtEnd: false))
        let (bytes, error) = Self.drain(&decoder, readSize: readSize)
        #expect(error == nil)
        #expect(bytes.count == count)
        #expect(bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        #expect(decoder.trailingInputCount == 7)
    }

    @Test func anErrorArrivesAfterTheDataBeforeIt() {
        var decoder = ReadAheadDecoder(PatternDecoder(count: 300_001, step: 1000, failsAtEnd: true))
        let (bytes, error) = Self.drain(&decoder, readSize: 4096)
        #expect(bytes.count == 300_001)
        #expect(error == .corrupt(codec: .bzip2, detail: "after 300001"))
    }

    @Test func abandoningAStreamMidwayStopsItsThread() {
        // A stream far longer than the read-ahead limit, dropped after one read: deinit must stop
        // the producer (blocked on a full queue) and return.
        for _ in 0..<20 {
            var decoder = ReadAheadDecoder(PatternDecoder(count: 1 << 30, step: 1 << 16, failsAtEnd: false))
            var byte: UInt8 = 0
            let count = withUnsafeMutableBytes(of: &byte) { try? decoder.read(into: $0) }
            #expect(count == 1)
        }
    }
}
