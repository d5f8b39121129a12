import PatchDiff

/// What one fuzz input exercises. Every input is tried three ways:
/// 1. as a BSDIFF40 patch against a fixed OLD;
/// 2. split into OLD and patch (the first two bytes give OLD's length), so OLD's size and contents
///    vary too;
/// 3. as a compressed stream for each codec.
/// Anything may be rejected; nothing may crash, hang or allocate by a number in the input, and an
/// accepted patch must satisfy the invariants checked below (a violation traps, which libFuzzer
/// records as a crash).
enum FuzzTarget {
    /// A small OLD with structure (runs, text, every byte value) so seeds can express real matches.
    static let fixedOld: [UInt8] = Array(0...255) + Array("struct ContentView: View { var body: some View { Text(\"v1\") } }".utf8)
        + [UInt8](repeating: 0x41, count: 64)

    /// The device's own limits: the fuzzer runs with a malloc limit (see the Makefile) that any
    /// allocation sized by the header's 256 MiB new size would trip.
    static let limits = BSPatchLimits.device
    static let maxCodecOutput = 1 << 20

    static func run(_ input: UnsafeRawBufferPointer) {
        fixedOld.withUnsafeBytes { old in applyAndCheck(old: old, patch: input) }

        if input.count >= 2 {
            let oldLength = min(Int(input[0]) | Int(input[1]) << 8, input.count - 2)
            let old = UnsafeRawBufferPointer(rebasing: input[2..<2 + oldLength])
            let patch = UnsafeRawBufferPointer(rebasing: input[(2 + oldLength)...])
            applyAndCheck(old: old, patch: patch)
        }

        for codec in CodecKind.allCases {
            if let output = try? codec.decompress(input, maxOutputBytes: maxCodecOutput) {
                guard output.count <= maxCodecOutput else { fatalError("\(codec) exceeded its output cap: \(output.count)") }
            }
        }
    }

    /// How applying `patch` to the fixed OLD ends, as one line: used by replay to compare the
    /// corpus with other bspatch implementations.
    static func outcomeAgainstFixedOld(_ patch: UnsafeRawBufferPointer) -> String {
        let result = fixedOld.withUnsafeBytes { old in
            Result { () throws(BSPatchError) in try digestOfApplying(old: old, patch: patch, limits: limits) }
        }
        switch result {
        case let .success(digest): return "accepted \(digest.count) bytes fnv1a \(String(digest.hash, radix: 16))"
        case let .failure(error): return "rejected: \(error)"
        }
    }

    /// Applies the patch in device and strict mode, keeping only a digest of each output so memory
    /// stays at the applier's own buffers however much a patch produces.
    private static func applyAndCheck(old: UnsafeRawBufferPointer, patch: UnsafeRawBufferPointer) {
        let device = Result { () throws(BSPatchError) in try digestOfApplying(old: old, patch: patch, limits: limits) }
        var strictLimits = limits
        strictLimits.rejectsReadsOutsideOld = true
        let strict = Result { () throws(BSPatchError) in try digestOfApplying(old: old, patch: patch, limits: strictLimits) }
        switch device {
        case let .success(digest):
            // An accepted patch produced exactly the size its header declares…
            guard let header = try? BSPatch.readHeader(patch, limits: limits), header.newSize == digest.count else {
                fatalError("accepted a patch whose output (\(digest.count) bytes) does not match its header")
            }
            // …and strict mode may only refuse it, never produce different bytes.
            if case let .success(strictDigest) = strict, strictDigest != digest {
                fatalError("strict and device modes produced different results")
            }
        case let .failure(error):
            // Strict mode adds checks only: it cannot accept what device mode refuses.
            if case .success = strict { fatalError("strict mode accepted a patch device mode refused: \(error)") }
            // Every error renders a message (formatting must not crash, and must say something).
            guard !error.description.isEmpty else { fatalError("empty message for \(error)") }
        }
    }

    /// Output size and FNV-1a hash.
    private struct Digest: Equatable {
        var count = 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    }

    private static func digestOfApplying(
        old: UnsafeRawBufferPointer, patch: UnsafeRawBufferPointer, limits: BSPatchLimits
    ) throws(BSPatchError) -> Digest {
        var digest = Digest()
        try BSPatch.apply(old: old, patch: patch, limits: limits) { chunk in
            guard !chunk.isEmpty, chunk.count <= 64 * 1024 else { fatalError("output chunk of \(chunk.count) bytes") }
            digest.count += chunk.count
            for byte in chunk { digest.hash = (digest.hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return digest
    }
}
