import Foundation
import PatchDiff

/// A starting corpus of well-formed inputs, written at fuzz time so it always matches the current
/// formats: real patches from our differ (against the fixed OLD and in the split form), and one
/// stream per codec. libFuzzer mutates from these instead of having to discover "BSDIFF40" and
/// bzip2 framing on its own.
enum Seeds {
    static func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let old = FuzzTarget.fixedOld
        var edited = old
        edited.replaceSubrange(300..<302, with: Array("v2 + more".utf8))
        let news: [[UInt8]] = [
            edited,
            Array(old.reversed()),
            Array(old[100...]) + Array(old[..<100]),
            [UInt8](repeating: 0x41, count: 5_000),
            [],
        ]
        var seeds: [[UInt8]] = []
        for new in news {
            let patch = try BSDiff.makePatch(old: old, new: new)
            seeds.append(patch)
            // The split form: two-byte little-endian OLD length, OLD, patch.
            let smallOld = Array(old.prefix(200))
            let splitPatch = try BSDiff.makePatch(old: smallOld, new: Array(new.prefix(300)))
            seeds.append([UInt8(smallOld.count & 0xFF), UInt8(smallOld.count >> 8)] + smallOld + splitPatch)
        }
        for codec in CodecKind.allCases {
            seeds.append(try codec.compress(edited, level: codec.levelRange.lowerBound))
        }
        for (index, seed) in seeds.enumerated() {
            try Data(seed).write(to: directory.appendingPathComponent(String(format: "seed-%02d", index)), options: .atomic)
        }
        print("wrote \(seeds.count) seeds to \(directory.path)")
    }
}
