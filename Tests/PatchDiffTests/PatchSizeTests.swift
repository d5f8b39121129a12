import Foundation
import Testing
@testable import PatchDiff

/// Issue 19 on module-sized pairs: re-chosen bzip2 tables make the patch smaller, and it still applies.
@Suite struct PatchSizeTests {
    static func modulePairs() -> [(name: String, old: [UInt8], new: [UInt8])] {
        let module = BSDiffCreateTests.codeLike(60_000, seed: 41)
        return [
            ("60 KB, a few edits", module, BSDiffCreateTests.mutate(module, edits: 6, seed: 42)),
            ("60 KB, a function inserted", module,
             Array(module[..<30_000]) + BSDiffCreateTests.codeLike(700, seed: 43) + Array(module[30_000...])),
            ("60 KB, many edits", module, BSDiffCreateTests.mutate(module, edits: 120, seed: 44)),
        ]
    }

    @Test func rechosenTablesMakeModulePatchesSmaller() throws {
        for pair in Self.modulePairs() {
            let recoded = try BSDiff.makePatch(old: pair.old, new: pair.new)
            let libbz2 = try BSDiff.makePatch(old: pair.old, new: pair.new, options: BSDiffOptions(recodesBZip2Tables: false))
            #expect(recoded.count < libbz2.count, "\(pair.name): \(recoded.count) bytes, \(libbz2.count) with libbz2's tables")
            #expect(try BSPatch.apply(old: pair.old, patch: recoded) == pair.new, "\(pair.name)")
        }
    }
}
