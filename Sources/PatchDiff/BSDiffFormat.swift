/// The BSDIFF40 container, shared by the patch writer and the applier.
///
/// Layout (Colin Percival's bsdiff 4.x, what the SDK's `DiffApply.swift` and Python `bsdiff4` read):
///
///     0   8  "BSDIFF40"
///     8   8  offtin: compressed length of the control block
///     16  8  offtin: compressed length of the diff block
///     24  8  offtin: size of the new file
///     32  …  bzip2(control) · bzip2(diff) · bzip2(extra, to the end of the patch)
///
/// The control block is a sequence of (add, copy, seek) offtin triples.
public enum BSDiffFormat {
    public static let magic: [UInt8] = Array("BSDIFF40".utf8)
    public static let headerSize = 32
    /// Bytes per control triple: three offtin numbers.
    public static let controlEntrySize = 24

    /// Decodes bsdiff's "offtin": the low 63 bits are the magnitude, little-endian, and the top bit of
    /// the last byte is the sign. It is not two's complement, so a set sign bit with magnitude 0
    /// ("negative zero") decodes to 0, exactly as bspatch does.
    @inline(__always)
    public static func decodeOfftin(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        var magnitude: UInt64 = 0
        for index in (0..<8).reversed() {
            magnitude = magnitude << 8 | UInt64(bytes[offset + index])
        }
        let isNegative = magnitude & (1 << 63) != 0
        let value = Int64(magnitude & ~(1 << 63))
        return isNegative ? -value : value
    }

    /// Encodes `value` as offtin. `Int64.min` has no sign-magnitude form and is never produced by
    /// the writer (every quantity it encodes is a byte count or offset well below 2^63).
    @inline(__always)
    public static func encodeOfftin(_ value: Int64, into bytes: inout [UInt8]) {
        var magnitude = value.magnitude
        precondition(magnitude < 1 << 63, "offtin cannot encode \(value)")
        if value < 0 { magnitude |= 1 << 63 }
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: magnitude))
            magnitude >>= 8
        }
    }
}
