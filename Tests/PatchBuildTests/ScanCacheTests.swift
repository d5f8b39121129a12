import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import Testing

/// The scan cache must hold, for every file prepare rewrites, exactly what scanning the rewritten
/// file would give: otherwise a re-run would plan edits at wrong offsets.
@Suite struct ScanCacheTests {
    private static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/PatchShop/Sources").standardizedFileURL

    private func sources(of target: String) throws -> [SourceFile] {
        let folder = Self.example.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            SourceFile(path: "Sources/\(target)/\(name)", bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    @Test func cachedScansOfPreparedFilesEqualFreshScans() throws {
        let extra = SourceFile(path: "Sources/PatchShop/Extra.swift", bytes: Array("""
            struct A: View {
                @ViewBuilder var body: some View { Text("a") }
                @MainActor struct B: View { public var body: some View { Text("b") } }
            }
            enum Tools {
                // @patchable
                static func f(_ x: Int) -> Int { x }
                // @patchable
                public static dynamic func g(_ x: Int) -> Int { x }
            }
            struct Outer { struct Inner: View { var body: some View { Text("1") } } }
            struct Outer_Inner: View { @ViewBuilder var __patch_native_body: some View { Text("2") } }
            """.utf8))
        let targets = [
            PrepareTarget(name: "ShopCore", sourceRoots: ["Sources/ShopCore"], files: try sources(of: "ShopCore")),
            PrepareTarget(name: "PatchShop", sourceRoots: ["Sources/PatchShop"], files: try sources(of: "PatchShop") + [extra]),
        ]
        let plan = Preparer.plan(targets: targets, appTarget: "PatchShop", routing: .all, existingFile: { _ in nil })
        var checked = 0
        for update in plan.updates where update.before != nil {
            let after = try #require(update.after)
            let cached = try #require(plan.cache.scans[SHA256Hasher.hex(of: after)], "no cached scan for \(update.path)")
            let user = GeneratedSection.split(after).user
            let fresh = SourceScanner.scan(Parser.parse(source: String(decoding: user, as: UTF8.self)), source: user)
            #expect(cached == fresh, "cached scan of \(update.path) differs from a fresh scan")
            checked += 1
        }
        #expect(checked == 16)

        // A re-run over the prepared files with that cache parses nothing and changes nothing.
        let prepared = targets.map { target in
            PrepareTarget(name: target.name, sourceRoots: target.sourceRoots, files: target.files.map { file in
                SourceFile(path: file.path, bytes: plan.updates.first { $0.path == file.path }?.after ?? file.bytes)
            })
        }
        let generated = Dictionary(uniqueKeysWithValues: plan.updates.filter { $0.before == nil }.map { ($0.path, $0.after) })
        // Through the cache file: every scan survives encoding and decoding unchanged.
        let stored = ScanCache(bytes: plan.cache.encoded())
        #expect(stored.scans == plan.cache.scans)
        let rerun = Preparer.plan(targets: prepared, appTarget: "PatchShop", routing: .all, cache: stored,
                                  existingFile: { generated[$0] ?? nil })
        #expect(rerun.filesParsed == 0)
        #expect(rerun.updates.isEmpty)
        #expect(rerun.baseline == plan.baseline)
    }

    @Test func aCacheFromAnotherVersionOrDamagedIsIgnored() throws {
        var cache = ScanCache()
        cache.insert(FileScan(imports: ["import Foundation"]), hash: "x")
        let bytes = cache.encoded()
        #expect(ScanCache(bytes: bytes).scans == cache.scans)
        // The version follows the magic line.
        var otherVersion = bytes
        otherVersion[ScanCache.magic.count] = UInt8(ScanCache.formatVersion + 1)
        #expect(ScanCache(bytes: otherVersion) == ScanCache())
        #expect(ScanCache(bytes: Array(#"{"scans":{},"version":2}"#.utf8)) == ScanCache())
        // Cut anywhere or followed by anything, the file is not trusted at all.
        for length in 0..<bytes.count {
            #expect(ScanCache(bytes: Array(bytes[..<length])) == ScanCache(), "a cache cut to \(length) bytes was read")
        }
        #expect(ScanCache(bytes: bytes + [0]) == ScanCache())
    }
}
