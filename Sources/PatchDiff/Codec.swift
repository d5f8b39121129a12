/// One entry point for the artifact codecs, so callers (the CLI's `diff compress`/`decompress`, the
/// runtime) choose a codec by value instead of switching over the per-codec enums themselves.
extension CodecKind {
    /// The level used when the caller gives none: brotli 11 (what module artifacts ship with),
    /// zstd 19, xz preset 6, bzip2 9 (900 KB blocks, as bsdiff uses).
    public var defaultLevel: Int {
        switch self {
        case .brotli: Brotli.defaultQuality
        case .zstd: Zstd.defaultLevel
        case .xz: XZ.defaultPreset
        case .bzip2: 9
        }
    }

    /// The levels `compress(_:level:)` accepts; validate user input against this to report a usage error.
    public var levelRange: ClosedRange<Int> {
        switch self {
        case .brotli: Brotli.qualityRange
        case .zstd: Zstd.levelRange
        case .xz: XZ.presetRange
        case .bzip2: 1...9
        }
    }

    /// Compresses `input` as one stream of this codec. Brotli uses the standard 16 MiB window
    /// (`Brotli.compress(_:quality:windowBits:)` sets it explicitly).
    /// - Throws: `.libraryFailure` for a level outside `levelRange` or a library failure.
    public func compress(_ input: UnsafeRawBufferPointer, level: Int? = nil) throws(CodecError) -> [UInt8] {
        let level = level ?? defaultLevel
        switch self {
        case .brotli:
            return try Brotli.compress(input, quality: level)
        case .zstd:
            return try Zstd.compress(input, level: level)
        case .xz:
            return try XZ.compress(input, preset: level)
        case .bzip2:
            guard levelRange.contains(level) else {
                throw .libraryFailure(codec: .bzip2, detail: "block size \(level) is outside \(levelRange)")
            }
            return try BZip2.compress(input, blockSize100k: Int32(level))
        }
    }

    public func compress(_ input: [UInt8], level: Int? = nil) throws(CodecError) -> [UInt8] {
        try input.withUnsafeBytes { buffer in
            Result { () throws(CodecError) in try compress(buffer, level: level) }
        }.get()
    }

    /// Decompresses exactly one stream of this codec.
    /// - Throws: `.outputLimitExceeded` as soon as the output would pass `maxOutputBytes` (memory
    ///   grows with the output actually produced, never with a size the stream claims),
    ///   `.trailingData` when anything follows the stream, `.truncated`, `.corrupt`.
    public func decompress(_ input: UnsafeRawBufferPointer, maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        switch self {
        case .brotli: try Brotli.decompress(input, maxOutputBytes: maxOutputBytes)
        case .zstd: try Zstd.decompress(input, maxOutputBytes: maxOutputBytes)
        case .xz: try XZ.decompress(input, maxOutputBytes: maxOutputBytes)
        case .bzip2: try BZip2.decompress(input, maxOutputBytes: maxOutputBytes)
        }
    }

    public func decompress(_ input: [UInt8], maxOutputBytes: Int) throws(CodecError) -> [UInt8] {
        try input.withUnsafeBytes { buffer in
            Result { () throws(CodecError) in try decompress(buffer, maxOutputBytes: maxOutputBytes) }
        }.get()
    }

    /// The codec whose magic number starts `bytes`: zstd (`28 B5 2F FD`), xz (`FD 37 7A 58 5A 00`),
    /// bzip2 (`BZh1`…`BZh9`). Raw brotli has no magic number, so brotli data gives nil.
    public static func detect(_ bytes: some Collection<UInt8>) -> CodecKind? {
        let head = Array(bytes.prefix(6))
        if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        if head.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if head.count >= 4, head.starts(with: Array("BZh".utf8)), (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(head[3]) {
            return .bzip2
        }
        return nil
    }
}
