/// A pull decoder over one compressed stream that is already in memory.
///
/// Every codec's decoder inflates into a window the caller owns, so how much memory decompression
/// takes is decided by the caller (a cap, or the BSDIFF40 applier's small buffers), never by a size
/// written in the compressed data.
protocol StreamDecoder: ~Copyable {
    static var codec: CodecKind { get }

    /// Decodes up to `buffer.count` (> 0) bytes into `buffer` and returns how many it wrote.
    /// Returns 0 only once the stream's end marker has been read and checked.
    /// - Throws: `.truncated` when the input ends before the end marker, `.corrupt` for invalid data.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int

    /// Compressed bytes that follow the end marker; meaningful once `read` returned 0.
    var trailingInputCount: Int { get }
}

extension StreamDecoder where Self: ~Copyable {
    /// Fills `buffer` unless the stream ends first; returns how many bytes it wrote.
    mutating func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Checks that the stream holds no more output and nothing follows its end marker (a second
    /// concatenated stream or garbage, which peers disagree about: reject rather than guess).
    /// - Returns: the number of decoded bytes that were left unread (0 for a well-formed stream);
    ///   counting stops at 1, so a bomb costs nothing to detect.
    mutating func finish() throws(CodecError) -> Int {
        var probe: UInt8 = 0
        let leftover = try withUnsafeMutableBytes(of: &probe) { buffer throws(CodecError) in try read(into: buffer) }
        if leftover > 0 { return leftover }
        if trailingInputCount > 0 { throw .trailingData(codec: Self.codec, count: trailingInputCount) }
        return 0
    }

    /// Decodes the whole stream into an array, growing it only as output actually arrives.
    /// - Throws: `.outputLimitExceeded` as soon as the output would pass `maxOutputBytes`;
    ///   `.trailingData` when bytes follow the end of the stream.
    mutating func decodeAll(maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        let limit = max(0, maxOutputBytes)
        let window = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { window.deallocate() }
        var output: [UInt8] = []
        while true {
            // Ask for at most one byte more than the cap allows: enough to prove it is exceeded.
            let wanted = min(window.count, limit - output.count + 1)
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: window[..<wanted]))
            if count == 0 { break }
            if output.count + count > limit { throw .outputLimitExceeded(codec: Self.codec, limit: limit) }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[..<count]))
        }
        if trailingInputCount > 0 { throw .trailingData(codec: Self.codec, count: trailingInputCount) }
        return output
    }
}
