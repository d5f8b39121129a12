import CBZip2

/// bzip2 through the system libbz2: the block codec of BSDIFF40.
///
/// One-shot compression for patch creation, and a pull decoder that inflates one stream at a time
/// into a caller-sized window so a patch applier never holds a whole decompressed block.
public enum BZip2 {
    /// Compresses `input` as a single bzip2 stream. `blockSize100k` is bzip2's 1...9 (9 = 900 KB
    /// blocks, what bsdiff 4.3 uses and what gives the smallest patches).
    public static func compress(_ input: UnsafeRawBufferPointer, blockSize100k: Int32 = 9) throws(CodecError) -> [UInt8] {
        var stream = bz_stream()
        guard BZ2_bzCompressInit(&stream, blockSize100k, 0, 0) == BZ_OK else {
            throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzCompressInit failed")
        }
        defer { BZ2_bzCompressEnd(&stream) }
        // Worst-case bzip2 expansion is 1% + 600 bytes; start a little above that and grow if needed.
        var output = [UInt8](repeating: 0, count: input.count + input.count / 100 + 640)
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
        var remainingInput = input.count
        while true {
            if produced == output.count { output.append(contentsOf: repeatElement(0, count: max(4096, output.count / 2))) }
            let chunkIn = UInt32(clamping: remainingInput)
            stream.avail_in = chunkIn
            let status: Int32 = output.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress!.advanced(by: produced).assumingMemoryBound(to: CChar.self)
                stream.avail_out = UInt32(clamping: out.count - produced)
                let before = stream.avail_out
                let isLastChunk = Int(chunkIn) == remainingInput
                let status = BZ2_bzCompress(&stream, isLastChunk ? BZ_FINISH : BZ_RUN)
                produced += Int(before - stream.avail_out)
                return status
            }
            remainingInput -= Int(chunkIn - stream.avail_in)
            switch status {
            case BZ_STREAM_END:
                output.removeSubrange(produced...)
                return output
            case BZ_RUN_OK, BZ_FINISH_OK:
                continue
            default:
                throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzCompress returned \(status)")
            }
        }
    }

    public static func compress(_ input: [UInt8], blockSize100k: Int32 = 9) throws(CodecError) -> [UInt8] {
        try input.withUnsafeBytes { buffer in
            Result { () throws(CodecError) in try compress(buffer, blockSize100k: blockSize100k) }
        }.get()
    }
}

extension BZip2 {
    /// Decompresses one bzip2 stream, refusing output past `maxOutputBytes` and bytes after the stream.
    public static func decompress(_ input: UnsafeRawBufferPointer, maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        var decoder = try Decoder(input)
        return try decoder.decodeAll(maxOutputBytes: maxOutputBytes)
    }

    /// Pull decoder for one bzip2 stream. `input` must stay valid while the decoder lives.
    ///
    /// Decodes one stream only: libbz2 stops at the first end-of-stream marker, and whatever follows
    /// is reported through `trailingInputCount` (bspatch ignores a second stream, Python's `bz2`
    /// appends it; callers reject it instead of picking one).
    struct Decoder: ~Copyable, StreamDecoder {
        static var codec: CodecKind { .bzip2 }

        // libbz2 keeps a pointer back to the bz_stream in its state and checks it on every call,
        // so the stream must live at a fixed address: heap-allocate it.
        private let stream: UnsafeMutablePointer<bz_stream>
        private let input: UnsafeRawBufferPointer
        private var consumed = 0
        private var reachedEnd = false

        init(_ input: UnsafeRawBufferPointer) throws(CodecError) {
            let stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
            stream.initialize(to: bz_stream())
            let status = BZ2_bzDecompressInit(stream, 0, 0)
            guard status == BZ_OK else {
                stream.deallocate()
                throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzDecompressInit returned \(status)")
            }
            self.stream = stream
            self.input = input
        }

        deinit {
            BZ2_bzDecompressEnd(stream)
            stream.deallocate()
        }

        var trailingInputCount: Int { reachedEnd ? input.count - consumed : 0 }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
            guard !reachedEnd, let outputBase = buffer.baseAddress, buffer.count > 0 else { return 0 }
            while true {
                // avail_in is 32-bit: offer at most 4 GiB per call.
                let offered = UInt32(clamping: input.count - consumed)
                let window = UInt32(clamping: buffer.count)
                stream.pointee.next_in = input.baseAddress.map {
                    UnsafeMutablePointer(mutating: ($0 + consumed).assumingMemoryBound(to: CChar.self))
                }
                stream.pointee.avail_in = offered
                stream.pointee.next_out = outputBase.assumingMemoryBound(to: CChar.self)
                stream.pointee.avail_out = window
                let status = BZ2_bzDecompress(stream)
                let used = Int(offered - stream.pointee.avail_in)
                consumed += used
                let produced = Int(window - stream.pointee.avail_out)
                switch status {
                case BZ_STREAM_END:
                    reachedEnd = true
                    return produced
                case BZ_OK:
                    if produced > 0 { return produced }
                    if used == 0 {
                        guard consumed < input.count else { throw .truncated(codec: .bzip2) }
                        throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzDecompress made no progress at byte \(consumed)")
                    }
                case BZ_DATA_ERROR_MAGIC:
                    throw .corrupt(codec: .bzip2, detail: "the stream does not start with the \"BZh1\"…\"BZh9\" header")
                case BZ_DATA_ERROR:
                    throw .corrupt(codec: .bzip2, detail: "invalid or checksum-failing data before compressed byte \(consumed)")
                default:
                    throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzDecompress returned \(status)")
                }
            }
        }
    }
}
