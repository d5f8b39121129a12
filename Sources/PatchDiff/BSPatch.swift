/// Applies BSDIFF40 patches exactly as the Patch SDK's `DiffApply.swift` does, without trusting any
/// number in the patch.
///
/// Semantics (the SDK, `bspatch` 4.3 and Python `bsdiff4` 1.3 agree on all of these; checked against
/// the latter two in the tests):
/// - for each control triple (add, copy, seek): `new[n+i] = diff[d+i] &+ old[o+i]` for `add` bytes, an
///   old byte outside `0..<old.count` reading as 0; then `copy` bytes of the extra block; then
///   `o += seek`. The old position may leave OLD (negative or past its end): only the reads are
///   bounds-checked, as the device does. `BSPatchLimits.rejectsReadsOutsideOld` turns such reads
///   into an error for callers that want a wrong OLD caught early. Position arithmetic that would
///   overflow a 64-bit integer is an error (`bsdiff4`: "offset overflow").
/// - the result must end exactly at the header's new size.
///
/// Stricter than the peers (each only rejects patches no bsdiff writer produces):
/// - every block must be exactly one complete bzip2 stream filling its byte range (bspatch ignores a
///   second concatenated stream, Python appends it: refusing is the only answer both agree is safe);
/// - decompressed diff and extra bytes the control entries never use are an error (as in `bsdiff4`);
/// - at most `newSize + 1` control entries (and `limits.maxControlEntries`), so a flood of
///   zero-length triples costs no more than the output it claims to make.
///
/// Memory: OLD (the caller's), the patch (the caller's), one 64 KiB output window and three bzip2
/// decoders (about 3.6 MB each for 900 KB blocks). No allocation depends on a number in the patch.
public enum BSPatch {
    /// Size of the buffer `apply` fills before handing output to its caller.
    static let outputWindowSize = 64 * 1024

    /// Reads and validates the 32-byte header: the magic, the three lengths, and that the control
    /// and diff blocks fit inside the patch.
    public static func readHeader(
        _ patch: UnsafeRawBufferPointer, limits: BSPatchLimits = .device
    ) throws(BSPatchError) -> BSPatchHeader {
        guard BSDiffFormat.magic.starts(with: patch.prefix(BSDiffFormat.magic.count)) else {
            throw .badMagic(found: Array(patch.prefix(BSDiffFormat.magic.count)))
        }
        guard patch.count >= BSDiffFormat.headerSize else { throw .truncatedHeader(length: patch.count) }

        let controlLength = BSDiffFormat.decodeOfftin(patch, at: 8)
        let diffLength = BSDiffFormat.decodeOfftin(patch, at: 16)
        let newSize = BSDiffFormat.decodeOfftin(patch, at: 24)
        for (field, value) in [(BSPatchHeaderField.controlLength, controlLength), (.diffLength, diffLength), (.newSize, newSize)]
        where value < 0 {
            throw .negativeHeaderField(field, value: value)
        }
        let afterHeader = patch.count - BSDiffFormat.headerSize
        guard controlLength <= afterHeader else {
            throw .blockPastEndOfPatch(.controlLength, length: controlLength, available: afterHeader)
        }
        let afterControl = afterHeader - Int(controlLength)
        guard diffLength <= afterControl else {
            throw .blockPastEndOfPatch(.diffLength, length: diffLength, available: afterControl)
        }
        guard newSize <= limits.maxNewSize else { throw .newSizeExceedsLimit(newSize: newSize, limit: limits.maxNewSize) }
        return BSPatchHeader(
            controlLength: Int(controlLength), diffLength: Int(diffLength),
            extraLength: afterControl - Int(diffLength), newSize: Int(newSize))
    }

    /// Applies `patch` to `old`, handing the result to `output` in order, in chunks of at most 64 KiB.
    ///
    /// Output is delivered before the whole patch is checked: when this throws, discard what
    /// `output` received (write to a temporary file and rename it only on success).
    /// - Throws: the `BSPatchError` naming the first problem; `.outputFailed` when `output` throws.
    public static func apply(
        old: UnsafeRawBufferPointer, patch: UnsafeRawBufferPointer, limits: BSPatchLimits = .device,
        output: (UnsafeRawBufferPointer) throws -> Void
    ) throws(BSPatchError) {
        let header = try readHeader(patch, limits: limits)
        let diffStart = BSDiffFormat.headerSize + header.controlLength
        let extraStart = diffStart + header.diffLength
        var control = try openBlock(.control, UnsafeRawBufferPointer(rebasing: patch[BSDiffFormat.headerSize..<diffStart]))
        // The diff and extra blocks decode on threads of their own, ahead of the loop below (decoding
        // the diff block is most of the work); each stops before this function returns.
        var diff = ReadAheadDecoder(try openBlock(.diff, UnsafeRawBufferPointer(rebasing: patch[diffStart..<extraStart])))
        var extra = ReadAheadDecoder(try openBlock(.extra, UnsafeRawBufferPointer(rebasing: patch[extraStart...])))

        let window = UnsafeMutableRawBufferPointer.allocate(byteCount: outputWindowSize, alignment: 1)
        defer { window.deallocate() }
        let triple = UnsafeMutableRawBufferPointer.allocate(byteCount: BSDiffFormat.controlEntrySize, alignment: 1)
        defer { triple.deallocate() }

        let newSize = header.newSize
        // Every useful entry adds at least one byte, and a writer emits at most one that adds none.
        let entryLimit = newSize < limits.maxControlEntries ? newSize + 1 : limits.maxControlEntries
        var windowFill = 0
        var newPosition = 0
        var oldPosition: Int64 = 0
        var diffUsed = 0
        var extraUsed = 0
        var entry = 0

        func flush() throws(BSPatchError) {
            do {
                try output(UnsafeRawBufferPointer(rebasing: window[..<windowFill]))
            } catch {
                throw .outputFailed(String(describing: error))
            }
            windowFill = 0
        }

        while true {
            let tripleBytes: Int
            do { tripleBytes = try control.readFully(into: triple) } catch { throw .corruptBlock(.control, error) }
            if tripleBytes == 0 { break }
            guard tripleBytes == BSDiffFormat.controlEntrySize else {
                throw .controlBlockNotMultipleOf24(decompressedLength: entry * BSDiffFormat.controlEntrySize + tripleBytes)
            }
            guard entry < entryLimit else { throw .tooManyControlEntries(limit: entryLimit, newSize: newSize) }
            let add = BSDiffFormat.decodeOfftin(UnsafeRawBufferPointer(triple), at: 0)
            let copy = BSDiffFormat.decodeOfftin(UnsafeRawBufferPointer(triple), at: 8)
            let seek = BSDiffFormat.decodeOfftin(UnsafeRawBufferPointer(triple), at: 16)

            // Add: diff bytes plus the old bytes under them.
            guard add >= 0 else { throw .negativeControlLength(entry: entry, field: .add, value: add) }
            guard add <= newSize - newPosition else {
                throw .writesPastNewSize(entry: entry, field: .add, newPosition: newPosition, length: add, newSize: newSize)
            }
            let (oldEnd, overflows) = oldPosition.addingReportingOverflow(add)
            guard !overflows else { throw .oldPositionOverflow(entry: entry, oldPosition: oldPosition, offset: add) }
            if limits.rejectsReadsOutsideOld, add > 0, oldPosition < 0 || oldEnd > old.count {
                throw .oldReadOutOfRange(entry: entry, oldPosition: oldPosition, length: add, oldSize: old.count)
            }
            let diffNeeded = diffUsed + Int(add)
            while diffUsed < diffNeeded {
                if windowFill == window.count { try flush() }
                let chunk = min(diffNeeded - diffUsed, window.count - windowFill)
                let destination = UnsafeMutableRawBufferPointer(rebasing: window[windowFill..<windowFill + chunk])
                let read: Int
                do { read = try diff.readFully(into: destination) } catch { throw .corruptBlock(.diff, error) }
                guard read == chunk else {
                    throw .blockTooShort(.diff, entry: entry, endsAt: diffUsed + read, needs: diffNeeded)
                }
                addOldBytes(old, at: oldPosition, to: destination)
                oldPosition += Int64(chunk)
                diffUsed += chunk
                windowFill += chunk
            }
            newPosition += Int(add)

            // Copy: extra bytes as they are.
            guard copy >= 0 else { throw .negativeControlLength(entry: entry, field: .copy, value: copy) }
            guard copy <= newSize - newPosition else {
                throw .writesPastNewSize(entry: entry, field: .copy, newPosition: newPosition, length: copy, newSize: newSize)
            }
            let extraNeeded = extraUsed + Int(copy)
            while extraUsed < extraNeeded {
                if windowFill == window.count { try flush() }
                let chunk = min(extraNeeded - extraUsed, window.count - windowFill)
                let read: Int
                do {
                    read = try extra.readFully(into: UnsafeMutableRawBufferPointer(rebasing: window[windowFill..<windowFill + chunk]))
                } catch {
                    throw .corruptBlock(.extra, error)
                }
                guard read == chunk else {
                    throw .blockTooShort(.extra, entry: entry, endsAt: extraUsed + read, needs: extraNeeded)
                }
                extraUsed += chunk
                windowFill += chunk
            }
            newPosition += Int(copy)

            // Seek.
            let (seeked, seekOverflows) = oldPosition.addingReportingOverflow(seek)
            guard !seekOverflows else { throw .oldPositionOverflow(entry: entry, oldPosition: oldPosition, offset: seek) }
            oldPosition = seeked
            entry += 1
        }

        guard newPosition == newSize else { throw .resultTooShort(produced: newPosition, newSize: newSize) }
        try finishBlock(.control, &control, used: entry * BSDiffFormat.controlEntrySize)
        try finishBlock(.diff, &diff, used: diffUsed)
        try finishBlock(.extra, &extra, used: extraUsed)
        if windowFill > 0 { try flush() }
    }

    /// Applies `patch` to `old` in memory. The result grows with the bytes actually produced, not
    /// with the size the header claims.
    public static func apply(old: [UInt8], patch: [UInt8], limits: BSPatchLimits = .device) throws(BSPatchError) -> [UInt8] {
        var result: [UInt8] = []
        try old.withUnsafeBytes { oldBytes in
            patch.withUnsafeBytes { patchBytes in
                Result { () throws(BSPatchError) in
                    try apply(old: oldBytes, patch: patchBytes, limits: limits) { result.append(contentsOf: $0) }
                }
            }
        }.get()
        return result
    }

    private static func openBlock(_ block: BSPatchBlock, _ bytes: UnsafeRawBufferPointer) throws(BSPatchError) -> BZip2.Decoder {
        do { return try BZip2.Decoder(bytes) } catch { throw .corruptBlock(block, error) }
    }

    /// Checks that a block's stream ends right after the bytes the control entries used.
    private static func finishBlock<Decoder: StreamDecoder & ~Copyable>(
        _ block: BSPatchBlock, _ decoder: inout Decoder, used: Int
    ) throws(BSPatchError) {
        let leftover: Int
        do { leftover = try decoder.finish() } catch { throw .corruptBlock(block, error) }
        guard leftover == 0 else { throw .unusedBlockData(block, used: used) }
    }

    /// `destination[i] &+= old[oldPosition + i]` where that old byte exists; bytes outside OLD add 0.
    private static func addOldBytes(_ old: UnsafeRawBufferPointer, at oldPosition: Int64, to destination: UnsafeMutableRawBufferPointer) {
        // Clamp the range to OLD once instead of testing every byte; the caller checked that
        // oldPosition + destination.count does not overflow.
        let start = max(oldPosition, 0)
        let end = min(oldPosition + Int64(destination.count), Int64(old.count))
        guard start < end, let oldBase = old.baseAddress, let destinationBase = destination.baseAddress else { return }
        let source = (oldBase + Int(start)).assumingMemoryBound(to: UInt8.self)
        let target = (destinationBase + Int(start - oldPosition)).assumingMemoryBound(to: UInt8.self)
        for index in 0..<Int(end - start) {
            target[index] &+= source[index]
        }
    }
}

/// What `BSPatch` accepts. `.device` is what the Patch SDK enforces (`DiffApply.swift`).
public struct BSPatchLimits: Sendable, Equatable {
    /// The largest new size a header may declare. SDK: 256 MiB.
    public var maxNewSize: Int
    /// The most control entries a patch may hold, on top of the format rule of at most newSize + 1.
    /// SDK: its 256 MiB cap on any decompressed block, divided by 24 bytes per entry.
    public var maxControlEntries: Int
    /// Whether an add that reads outside OLD is an error. The SDK (and bspatch, bsdiff4) read such
    /// bytes as 0; no bsdiff writer produces these reads, so rejecting them catches a patch applied
    /// to the wrong (e.g. shorter) OLD early, at the price of differing from the device.
    public var rejectsReadsOutsideOld: Bool

    public init(maxNewSize: Int = 256 << 20, maxControlEntries: Int = (256 << 20) / 24, rejectsReadsOutsideOld: Bool = false) {
        self.maxNewSize = maxNewSize
        self.maxControlEntries = maxControlEntries
        self.rejectsReadsOutsideOld = rejectsReadsOutsideOld
    }

    /// The limits and semantics of the Patch SDK.
    public static let device = BSPatchLimits()
}

/// The validated header of a BSDIFF40 patch. Lengths are the compressed sizes of the three blocks.
public struct BSPatchHeader: Sendable, Equatable {
    public let controlLength: Int
    public let diffLength: Int
    /// Everything after the diff block.
    public let extraLength: Int
    public let newSize: Int
}

public enum BSPatchHeaderField: String, Sendable {
    case controlLength = "control block length"
    case diffLength = "diff block length"
    case newSize = "new file size"

    /// Where the field sits in the patch.
    public var offset: Int {
        switch self {
        case .controlLength: 8
        case .diffLength: 16
        case .newSize: 24
        }
    }
}

/// The three bzip2-compressed blocks of a patch.
public enum BSPatchBlock: String, Sendable {
    case control, diff, extra
}

/// The two lengths of a control entry (the third number, seek, is a signed offset).
public enum BSPatchControlField: String, Sendable {
    case add = "add length"
    case copy = "copy length"
}

/// Why a patch was refused. Control entries are numbered from 0; entry N starts at byte 24·N of the
/// decompressed control block.
public enum BSPatchError: Error, Equatable, Sendable {
    /// The patch is shorter than the 32-byte header.
    case truncatedHeader(length: Int)
    /// The patch does not start with "BSDIFF40".
    case badMagic(found: [UInt8])
    /// A header length is negative.
    case negativeHeaderField(BSPatchHeaderField, value: Int64)
    /// The control or diff block is longer than what follows it in the patch.
    case blockPastEndOfPatch(BSPatchHeaderField, length: Int64, available: Int)
    /// The header declares a larger result than the limits allow.
    case newSizeExceedsLimit(newSize: Int64, limit: Int)
    /// A block is not one valid, complete bzip2 stream filling its byte range.
    case corruptBlock(BSPatchBlock, CodecError)
    /// The decompressed control block ends inside a 24-byte entry.
    case controlBlockNotMultipleOf24(decompressedLength: Int)
    /// More control entries than the new size (or the limits) allows.
    case tooManyControlEntries(limit: Int, newSize: Int)
    /// An add or copy length is negative.
    case negativeControlLength(entry: Int, field: BSPatchControlField, value: Int64)
    /// An add or copy would write past the new size (the CVE-2014-9862 class).
    case writesPastNewSize(entry: Int, field: BSPatchControlField, newPosition: Int, length: Int64, newSize: Int)
    /// The diff or extra block ran out: it has `endsAt` decompressed bytes, the entries need `needs`.
    case blockTooShort(BSPatchBlock, entry: Int, endsAt: Int, needs: Int)
    /// Moving the old position by `offset` would overflow a 64-bit integer.
    case oldPositionOverflow(entry: Int, oldPosition: Int64, offset: Int64)
    /// An add reads outside OLD (only with `BSPatchLimits.rejectsReadsOutsideOld`).
    case oldReadOutOfRange(entry: Int, oldPosition: Int64, length: Int64, oldSize: Int)
    /// A block decompresses to more bytes than the control entries use (`used`).
    case unusedBlockData(BSPatchBlock, used: Int)
    /// The control entries end before the new size is reached.
    case resultTooShort(produced: Int, newSize: Int)
    /// The caller's output handler failed (e.g. the disk is full).
    case outputFailed(String)
}

extension BSPatchError: CustomStringConvertible {
    private static let regenerate = "the patch is corrupt or truncated: download it again or regenerate it with `patchcli diff create`"

    public var description: String {
        switch self {
        case let .truncatedHeader(length):
            return "patch is \(length) byte(s) long, shorter than the 32-byte BSDIFF40 header; \(Self.regenerate)"
        case let .badMagic(found):
            let hex = found.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
            return "not a BSDIFF40 patch: it starts with \(hex) instead of \"BSDIFF40\" (bsdiff 4.x, Python bsdiff4 and patchcli write BSDIFF40; other formats such as BSDIFF43/ENDSLEY are not supported)"
        case let .negativeHeaderField(field, value):
            return "header field \(field.rawValue) at byte \(field.offset) is negative (\(value)); \(Self.regenerate)"
        case let .blockPastEndOfPatch(field, length, available):
            return "header field \(field.rawValue) at byte \(field.offset) says \(length) bytes, but only \(available) follow; \(Self.regenerate)"
        case let .newSizeExceedsLimit(newSize, limit):
            return "the patch produces \(newSize) bytes, more than the \(limit)-byte limit (devices accept at most 256 MiB); raise the limit only if the target can hold the result"
        case let .corruptBlock(block, error):
            return "the \(block.rawValue) block is not a single valid bzip2 stream: \(error); \(Self.regenerate)"
        case let .controlBlockNotMultipleOf24(length):
            return "the control block decompresses to \(length) bytes, not a multiple of 24 (it must hold whole add/copy/seek entries); \(Self.regenerate)"
        case let .tooManyControlEntries(limit, newSize):
            return "the control block has more than \(limit) entries, more than a \(newSize)-byte result can need; \(Self.regenerate)"
        case let .negativeControlLength(entry, field, value):
            return "control entry \(entry) has a negative \(field.rawValue) (\(value)); \(Self.regenerate)"
        case let .writesPastNewSize(entry, field, newPosition, length, newSize):
            return "control entry \(entry): \(field.rawValue) \(length) at output offset \(newPosition) would write past the new size \(newSize); \(Self.regenerate)"
        case let .blockTooShort(block, entry, endsAt, needs):
            return "the \(block.rawValue) block ends after \(endsAt) decompressed bytes, but control entry \(entry) needs \(needs); \(Self.regenerate)"
        case let .oldPositionOverflow(entry, oldPosition, offset):
            return "control entry \(entry) moves the old-file position \(oldPosition) by \(offset), past the 64-bit range; \(Self.regenerate)"
        case let .oldReadOutOfRange(entry, oldPosition, length, oldSize):
            return "control entry \(entry) reads \(length) old byte(s) at offset \(oldPosition), outside the \(oldSize)-byte OLD file: is this patch for a different OLD?"
        case let .unusedBlockData(block, used):
            return "the \(block.rawValue) block holds more data than the control entries use (they use \(used) bytes); \(Self.regenerate)"
        case let .resultTooShort(produced, newSize):
            return "the control entries produce \(produced) bytes, but the header promises \(newSize); \(Self.regenerate)"
        case let .outputFailed(reason):
            return "could not write the patched output: \(reason)"
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
