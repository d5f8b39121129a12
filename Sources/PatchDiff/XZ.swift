import CLZMA

/// The .xz container (LZMA2) through the system liblzma.
public enum XZ {
    /// liblzma's own default preset: a 8 MiB dictionary, so decoding needs about 9 MiB.
    public static let defaultPreset = 6
    public static let presetRange = 0...9
    /// The largest decoder memory a stream may ask for. Preset 9 needs 65 MiB; a header asking for
    /// more (up to 1.5 GiB of dictionary) is refused instead of allocated.
    static let decoderMemoryLimit: UInt64 = 128 << 20

    /// Compresses `input` as one .xz stream with a CRC64 check.
    public static func compress(_ input: UnsafeRawBufferPointer, preset: Int = defaultPreset) throws(CodecError) -> [UInt8] {
        guard presetRange.contains(preset) else {
            throw .libraryFailure(codec: .xz, detail: "preset \(preset) is outside \(presetRange)")
        }
        let bound = lzma_stream_buffer_bound(input.count)
        guard bound > 0 else {
            throw .libraryFailure(codec: .xz, detail: "\(input.count) bytes is too large for one xz call")
        }
        var output = [UInt8](repeating: 0, count: bound)
        var written = 0
        let status = output.withUnsafeMutableBufferPointer { out in
            lzma_easy_buffer_encode(
                UInt32(preset), LZMA_CHECK_CRC64, nil,
                input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                out.baseAddress, &written, out.count)
        }
        guard status == LZMA_OK else {
            throw .libraryFailure(codec: .xz, detail: "lzma_easy_buffer_encode returned \(status.rawValue)")
        }
        output.removeSubrange(written...)
        return output
    }

    public static func decompress(_ input: UnsafeRawBufferPointer, maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        var decoder = try Decoder(input)
        return try decoder.decodeAll(maxOutputBytes: maxOutputBytes)
    }

    /// Pull decoder for one .xz stream. `input` must stay valid while the decoder lives.
    /// Concatenated streams and stream padding count as trailing data: we only ever write one stream.
    struct Decoder: ~Copyable, StreamDecoder {
        static var codec: CodecKind { .xz }

        // Heap-allocated so liblzma's view of the stream never moves between calls.
        private let stream: UnsafeMutablePointer<lzma_stream>
        private let input: UnsafeRawBufferPointer
        private var consumed = 0
        private var reachedEnd = false

        init(_ input: UnsafeRawBufferPointer) throws(CodecError) {
            let stream = UnsafeMutablePointer<lzma_stream>.allocate(capacity: 1)
            // An all-zero lzma_stream is LZMA_STREAM_INIT.
            stream.initialize(to: lzma_stream())
            let status = lzma_stream_decoder(stream, XZ.decoderMemoryLimit, 0)
            guard status == LZMA_OK else {
                stream.deallocate()
                throw .libraryFailure(codec: .xz, detail: "lzma_stream_decoder returned \(status.rawValue)")
            }
            self.stream = stream
            self.input = input
        }

        deinit {
            lzma_end(stream)
            stream.deallocate()
        }

        var trailingInputCount: Int { reachedEnd ? input.count - consumed : 0 }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
            guard !reachedEnd, let outputBase = buffer.baseAddress, buffer.count > 0 else { return 0 }
            while true {
                stream.pointee.next_in = input.baseAddress.map { ($0 + consumed).assumingMemoryBound(to: UInt8.self) }
                stream.pointee.avail_in = input.count - consumed
                stream.pointee.next_out = outputBase.assumingMemoryBound(to: UInt8.self)
                stream.pointee.avail_out = buffer.count
                // All input is offered at once, so LZMA_FINISH is always the right action.
                let status = lzma_code(stream, LZMA_FINISH)
                let used = input.count - consumed - stream.pointee.avail_in
                consumed += used
                let produced = buffer.count - stream.pointee.avail_out
                switch status {
                case LZMA_STREAM_END:
                    reachedEnd = true
                    return produced
                case LZMA_OK:
                    if produced > 0 { return produced }
                    if consumed == input.count { throw .truncated(codec: .xz) }
                    if used == 0 {
                        throw .libraryFailure(codec: .xz, detail: "the decoder made no progress at byte \(consumed)")
                    }
                case LZMA_BUF_ERROR:
                    if produced > 0 { return produced }
                    throw .truncated(codec: .xz)
                case LZMA_FORMAT_ERROR:
                    throw .corrupt(codec: .xz, detail: "the stream does not start with the .xz header magic")
                case LZMA_OPTIONS_ERROR:
                    throw .corrupt(codec: .xz, detail: "unsupported compression options near compressed byte \(consumed)")
                case LZMA_DATA_ERROR:
                    throw .corrupt(codec: .xz, detail: "invalid or checksum-failing data before compressed byte \(consumed)")
                case LZMA_MEMLIMIT_ERROR:
                    throw .corrupt(codec: .xz, detail: "the stream needs more than \(XZ.decoderMemoryLimit >> 20) MiB of decoder memory (dictionary too large)")
                default:
                    throw .libraryFailure(codec: .xz, detail: "lzma_code returned \(status.rawValue)")
                }
            }
        }
    }
}
