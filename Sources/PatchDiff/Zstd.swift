import CZstd

/// Zstandard through the system libzstd.
public enum Zstd {
    /// Level 19 is the strongest level that needs no extra decoder memory ("ultra" 20…22 raise the
    /// window, and with it what every decoder must allocate).
    public static let defaultLevel = 19
    public static var levelRange: ClosedRange<Int> { Int(ZSTD_minCLevel())...Int(ZSTD_maxCLevel()) }
    /// Frames asking for a window above 2^27 (128 MiB, libzstd's default decoder limit) are refused,
    /// so a frame header cannot make the decoder allocate more.
    static let maxWindowLog: Int32 = 27

    /// Compresses `input` as one frame that records its content size.
    public static func compress(_ input: UnsafeRawBufferPointer, level: Int = defaultLevel) throws(CodecError) -> [UInt8] {
        guard levelRange.contains(level) else {
            throw .libraryFailure(codec: .zstd, detail: "level \(level) is outside \(levelRange)")
        }
        let bound = ZSTD_compressBound(input.count)
        guard ZSTD_isError(bound) == 0 else {
            throw .libraryFailure(codec: .zstd, detail: "\(input.count) bytes is too large for one zstd frame")
        }
        var output = [UInt8](repeating: 0, count: bound)
        let written = output.withUnsafeMutableBytes { out in
            ZSTD_compress(out.baseAddress, out.count, input.baseAddress, input.count, Int32(level))
        }
        if ZSTD_isError(written) != 0 {
            throw .libraryFailure(codec: .zstd, detail: String(cString: ZSTD_getErrorName(written)))
        }
        output.removeSubrange(written...)
        return output
    }

    public static func decompress(_ input: UnsafeRawBufferPointer, maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        var decoder = try Decoder(input)
        return try decoder.decodeAll(maxOutputBytes: maxOutputBytes)
    }

    /// Pull decoder for one zstd frame. `input` must stay valid while the decoder lives.
    /// A second frame after the first counts as trailing data: we only ever write one.
    struct Decoder: ~Copyable, StreamDecoder {
        static var codec: CodecKind { .zstd }

        private let context: OpaquePointer
        private let input: UnsafeRawBufferPointer
        private var consumed = 0
        private var reachedEnd = false

        init(_ input: UnsafeRawBufferPointer) throws(CodecError) {
            guard let context = ZSTD_createDCtx() else {
                throw .libraryFailure(codec: .zstd, detail: "ZSTD_createDCtx failed")
            }
            let status = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Zstd.maxWindowLog)
            guard ZSTD_isError(status) == 0 else {
                ZSTD_freeDCtx(context)
                throw .libraryFailure(codec: .zstd, detail: String(cString: ZSTD_getErrorName(status)))
            }
            self.context = context
            self.input = input
        }

        deinit { ZSTD_freeDCtx(context) }

        var trailingInputCount: Int { reachedEnd ? input.count - consumed : 0 }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
            guard !reachedEnd, buffer.count > 0 else { return 0 }
            while true {
                var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: consumed)
                var outBuffer = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                let result = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                let used = inBuffer.pos - consumed
                consumed = inBuffer.pos
                if ZSTD_isError(result) != 0 {
                    throw .corrupt(codec: .zstd, detail: "\(String(cString: ZSTD_getErrorName(result))) before compressed byte \(consumed)")
                }
                if result == 0 {
                    // 0 means the frame is complete and fully flushed.
                    reachedEnd = true
                    return outBuffer.pos
                }
                if outBuffer.pos > 0 { return outBuffer.pos }
                if consumed == input.count { throw .truncated(codec: .zstd) }
                if used == 0 {
                    throw .libraryFailure(codec: .zstd, detail: "the decoder made no progress at byte \(consumed)")
                }
            }
        }
    }
}
