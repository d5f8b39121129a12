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
