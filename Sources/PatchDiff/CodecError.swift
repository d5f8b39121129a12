/// The compression formats PatchDiff reads and writes, each through its system library.
public enum CodecKind: String, CaseIterable, Sendable, Codable {
    case brotli, zstd, xz, bzip2
}

/// Why a codec refused its input. Every case names the codec so a message can say which layer failed.
public enum CodecError: Error, Equatable, Sendable {
    /// The compressed bytes are not a valid stream of this format.
    case corrupt(codec: CodecKind, detail: String)
    /// The stream ended before its end marker.
    case truncated(codec: CodecKind)
    /// Decompressing would produce more than the caller allowed (a decompression bomb, or a cap set too low).
    case outputLimitExceeded(codec: CodecKind, limit: Int)
    /// Bytes follow the end of the stream, which a well-formed artifact never has.
    case trailingData(codec: CodecKind, count: Int)
    /// The library itself failed (out of memory, bad parameters): not the input's fault.
    case libraryFailure(codec: CodecKind, detail: String)
}

extension CodecError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .corrupt(codec, detail): return "\(codec.rawValue) data is corrupt: \(detail)"
        case let .truncated(codec): return "\(codec.rawValue) data is truncated: the stream ends before its end marker"
        case let .outputLimitExceeded(codec, limit): return "\(codec.rawValue) data expands past the \(limit)-byte limit"
        case let .trailingData(codec, count): return "\(count) unexpected byte(s) follow the end of the \(codec.rawValue) stream"
        case let .libraryFailure(codec, detail): return "the \(codec.rawValue) library failed: \(detail)"
        }
    }
}
