import CBrotli

/// Brotli (RFC 7932, raw stream, no framing) through the system libbrotlienc/libbrotlidec: the format
/// devices download modules in (`.br`, decoded by Apple's `COMPRESSION_BROTLI`).
public enum Brotli {
    /// Quality 11 with a 16 MiB window (`windowBits` 24) gives the smallest modules; both are the
    /// defaults for module artifacts.
    public static let defaultQuality = 11
    public static let defaultWindowBits = 24
    public static let qualityRange = Int(BROTLI_MIN_QUALITY)...Int(BROTLI_MAX_QUALITY)
    /// Apple's decoder supports the standard window only, so "large window" brotli is not offered.
    public static let windowBitsRange = Int(BROTLI_MIN_WINDOW_BITS)...Int(BROTLI_MAX_WINDOW_BITS)

    public static func compress(
        _ input: UnsafeRawBufferPointer, quality: Int = defaultQuality, windowBits: Int = defaultWindowBits
    ) throws(CodecError) -> [UInt8] {
        var output: [UInt8] = []
        try encode(input, quality: quality, windowBits: windowBits) { output += $0 }
        return output
    }

    /// The size `compress` would return, without keeping the output (for reports that compare
    /// against brotli: on a 66 MB input, holding the output would add its size to the peak).
    public static func compressedSize(
        _ input: UnsafeRawBufferPointer, quality: Int = defaultQuality, windowBits: Int = defaultWindowBits
    ) throws(CodecError) -> Int {
        var size = 0
        try encode(input, quality: quality, windowBits: windowBits) { size += $0.count }
        return size
    }

    public static func compressedSize(_ input: [UInt8], quality: Int = defaultQuality) throws(CodecError) -> Int {
        try input.withUnsafeBytes { buffer in
            Result { () throws(CodecError) in try compressedSize(buffer, quality: quality) }
        }.get()
    }

    /// Streams the compressed form of `input` to `sink` in chunks of at most 64 KiB. The streaming
    /// encoder, unlike the one-call API, needs no output buffer of the worst-case size up front.
    static func encode(
        _ input: UnsafeRawBufferPointer, quality: Int, windowBits: Int, sink: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(CodecError) {
        guard qualityRange.contains(quality) else {
            throw .libraryFailure(codec: .brotli, detail: "quality \(quality) is outside \(qualityRange)")
        }
        guard windowBitsRange.contains(windowBits) else {
            throw .libraryFailure(codec: .brotli, detail: "window bits \(windowBits) is outside \(windowBitsRange)")
        }
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else {
            throw .libraryFailure(codec: .brotli, detail: "BrotliEncoderCreateInstance failed")
        }
        defer { BrotliEncoderDestroyInstance(state) }
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, UInt32(quality))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, UInt32(windowBits))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_SIZE_HINT, UInt32(clamping: input.count))
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 << 10)
        defer { chunk.deallocate() }
        var availableIn = input.count
        // The encoder reads nothing when the input is empty but still wants a non-null pointer.
        var emptyInput: UInt8 = 0
        try withUnsafePointer(to: &emptyInput) { (emptyPointer) throws(CodecError) in
            var nextIn: UnsafePointer<UInt8>? = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyPointer
            // All the input is there from the start, so every call finishes the stream (as the
            // one-call `BrotliEncoderCompress` does); the loop only drains the output in chunks.
            while true {
                var availableOut = chunk.count
                var nextOut: UnsafeMutablePointer<UInt8>? = chunk.baseAddress
                guard BrotliEncoderCompressStream(state, BROTLI_OPERATION_FINISH, &availableIn, &nextIn, &availableOut, &nextOut, nil) == BROTLI_TRUE else {
                    throw .libraryFailure(codec: .brotli, detail: "BrotliEncoderCompressStream failed")
                }
                if availableOut < chunk.count { sink(UnsafeBufferPointer(rebasing: chunk[0..<(chunk.count - availableOut)])) }
                // Finished means all input consumed and all output taken.
                if BrotliEncoderIsFinished(state) == BROTLI_TRUE { return }
            }
        }
    }

    public static func decompress(_ input: UnsafeRawBufferPointer, maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        var decoder = try Decoder(input)
        return try decoder.decodeAll(maxOutputBytes: maxOutputBytes)
    }

    /// Pull decoder for one brotli stream. `input` must stay valid while the decoder lives.
    struct Decoder: ~Copyable, StreamDecoder {
        static var codec: CodecKind { .brotli }

        private let state: OpaquePointer
        private let input: UnsafeRawBufferPointer
        private var consumed = 0
        private var reachedEnd = false

        init(_ input: UnsafeRawBufferPointer) throws(CodecError) {
            guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
                throw .libraryFailure(codec: .brotli, detail: "BrotliDecoderCreateInstance failed")
            }
            self.state = state
            self.input = input
        }

        deinit { BrotliDecoderDestroyInstance(state) }

        var trailingInputCount: Int { reachedEnd ? input.count - consumed : 0 }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
            guard !reachedEnd, let outputBase = buffer.baseAddress, buffer.count > 0 else { return 0 }
            while true {
                var availableIn = input.count - consumed
                var nextIn = input.baseAddress.map { ($0 + consumed).assumingMemoryBound(to: UInt8.self) }
                var availableOut = buffer.count
                var nextOut: UnsafeMutablePointer<UInt8>? = outputBase.assumingMemoryBound(to: UInt8.self)
                let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                let used = input.count - consumed - availableIn
                consumed += used
                let produced = buffer.count - availableOut
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    reachedEnd = true
                    return produced
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    return produced
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    if produced > 0 { return produced }
                    if consumed == input.count { throw .truncated(codec: .brotli) }
                    if used == 0 {
                        throw .libraryFailure(codec: .brotli, detail: "the decoder made no progress at byte \(consumed)")
                    }
                default:
                    let code = BrotliDecoderGetErrorCode(state)
                    let name = BrotliDecoderErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
                    throw .corrupt(codec: .brotli, detail: "\(name) before compressed byte \(consumed)")
                }
            }
        }
    }
}
