import CBZip2

/// Incremental bzip2 compressor for one BSDIFF40 block (diff or extra).
///
/// `BZip2.compress` needs the whole block in memory; the diff block is as large as the new file, so
/// the patch writer instead generates it in small chunks and feeds them here, keeping memory bounded
/// by bzip2's own working set plus the (small) compressed output.
final class BSDiffBlockWriter {
    private let stream: UnsafeMutablePointer<bz_stream>
    private var output: [UInt8] = []
    /// bzip2 writes here; only the bytes it produced are appended to `output`.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private let recodesTables: Bool

    /// `expectedInputCount` picks the smallest bzip2 block size that holds the whole input: bzip2
    /// output is identical for any block size at least the input size, and its working memory is
    /// 8 × block size, so small blocks stay cheap.
    /// `recodesTables`: `finish` returns the stream with its Huffman tables chosen again by `BZip2Recoder`.
    init(expectedInputCount: Int, maxBlockSize100k: Int32, recodesTables: Bool) throws(CodecError) {
        self.recodesTables = recodesTables
        let needed = Int32(clamping: (expectedInputCount + 99_999) / 100_000)
        let blockSize = max(1, min(maxBlockSize100k, needed))
        stream = .allocate(capacity: 1)
        stream.initialize(to: bz_stream())
        guard BZ2_bzCompressInit(stream, blockSize, 0, 0) == BZ_OK else {
            stream.deallocate()
            scratch.deallocate()
            throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzCompressInit failed (out of memory?)")
        }
    }

    deinit {
        BZ2_bzCompressEnd(stream)
        stream.deallocate()
        scratch.deallocate()
    }

    /// Compresses `bytes` (buffered by bzip2 until a block fills).
    func append(_ bytes: UnsafeRawBufferPointer) throws(CodecError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var consumed = 0
        while consumed < bytes.count {
            let chunk = min(bytes.count - consumed, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + consumed).assumingMemoryBound(to: CChar.self))
            stream.pointee.avail_in = UInt32(chunk)
            while stream.pointee.avail_in > 0 {
                let status = drain(action: BZ_RUN)
                guard status == BZ_RUN_OK else {
                    throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzCompress(BZ_RUN) returned \(status)")
                }
            }
            consumed += chunk
        }
    }

    /// Ends the stream and returns the complete compressed block.
    func finish() throws(CodecError) -> [UInt8] {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while true {
            let status = drain(action: BZ_FINISH)
            if status == BZ_STREAM_END { break }
            guard status == BZ_FINISH_OK else {
                throw .libraryFailure(codec: .bzip2, detail: "BZ2_bzCompress(BZ_FINISH) returned \(status)")
            }
        }
        return recodesTables ? BZip2Recoder.recode(output) : output
    }

    /// Runs one compression step and collects what it produced.
    private func drain(action: Int32) -> Int32 {
        stream.pointee.next_out = scratch.baseAddress!.assumingMemoryBound(to: CChar.self)
        stream.pointee.avail_out = UInt32(scratch.count)
        let status = BZ2_bzCompress(stream, action)
        let produced = scratch.count - Int(stream.pointee.avail_out)
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<produced]))
        return status
    }
}
