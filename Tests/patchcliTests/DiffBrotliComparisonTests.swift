import Foundation
import Testing

/// `patchcli diff`'s brotli(NEW) comparison is opt-in (it costs many times the diff itself), and the
/// `--json` report keeps one shape either way: the three brotli keys are null when not asked for.
@Suite struct DiffBrotliComparisonTests {
    static let brotliKeys = ["new_brotli_bytes", "brotli_quality", "ratio_to_brotli"]

    @Test func withoutTheFlagTheReportHasNullBrotliKeys() throws {
        try withScratchDirectory { directory in
            try writePair(in: directory)
            let create = try CLI.run(["diff", "old", "new", "-o", "p", "--json"], in: directory)
            #expect(create.status == 0, "\(create.stderr)")
            let result = try #require(create.result)
            for key in Self.brotliKeys {
                #expect(result.keys.contains(key), "\(key) must stay in the report")
                #expect(result[key] is NSNull, "\(key) must be null without --compare-brotli, got \(String(describing: result[key]))")
            }
        }
    }

    @Test func compareBrotliReportsTheRatioAtTheDefaultQuality() throws {
        try withScratchDirectory { directory in
            let new = try writePair(in: directory)
            let create = try CLI.run(["diff", "old", "new", "-o", "p", "--compare-brotli", "--json"], in: directory)
            #expect(create.status == 0, "\(create.stderr)")
            let result = try #require(create.result)
            let brotliBytes = try #require(result["new_brotli_bytes"] as? Int)
            #expect(brotliBytes > 0 && brotliBytes < new.count)
            #expect(result["brotli_quality"] as? Int == 11)
            let patchBytes = try #require(result["patch_bytes"] as? Int)
            let ratio = try #require(result["ratio_to_brotli"] as? Double)
            #expect(abs(ratio - Double(patchBytes) / Double(brotliBytes)) < 0.001)

            let human = try CLI.run(["diff", "old", "new", "-o", "p2", "--compare-brotli"], in: directory)
            #expect(human.status == 0)
            #expect(human.stdout.contains("of brotli(new)"))
        }
    }

    @Test func brotliQualityImpliesTheComparisonAndIsChecked() throws {
        try withScratchDirectory { directory in
            try writePair(in: directory)
            let create = try CLI.run(["diff", "old", "new", "-o", "p", "--brotli-quality", "3", "--json"], in: directory)
            #expect(create.status == 0, "\(create.stderr)")
            #expect(create.result?["brotli_quality"] as? Int == 3)
            #expect((create.result?["new_brotli_bytes"] as? Int ?? 0) > 0)

            let outOfRange = try CLI.run(["diff", "old", "new", "-o", "p", "--brotli-quality", "12", "--json"], in: directory)
            #expect(outOfRange.status == 2)
            #expect(outOfRange.error?["kind"] as? String == "usage")
        }
    }

    /// Writes DiffCommandTests' module-like pair as `old` and `new`; returns NEW.
    @discardableResult
    private func writePair(in directory: URL) throws -> [UInt8] {
        let (old, new) = DiffCommandTests.samplePair()
        try Data(old).write(to: directory.appendingPathComponent("old"))
        try Data(new).write(to: directory.appendingPathComponent("new"))
        return new
    }
}
