import PatchManifest
import Testing

/// Target paths are built and read back in one place (`ReleasePaths`): `serve` reads which content
/// a served diff or module is from its path.
struct ReleasePathsTests {
    @Test func diffAndModulePathsReadBack() {
        let from = String(repeating: "a", count: 64)
        let to = String(repeating: "b", count: 64)
        #expect(ReleasePaths.moduleContent(ofDiff: ReleasePaths.diff(from: from, to: to)) == to)
        #expect(ReleasePaths.content(ofModule: ReleasePaths.module(sha256: to)) == to)
        for other in [ReleasePaths.module(sha256: to), ReleasePaths.channelHead("production"), ReleasePaths.record(channel: "production", counter: 3), "diffs/\(to)"] {
            #expect(ReleasePaths.moduleContent(ofDiff: other) == nil, "\(other)")
        }
        #expect(ReleasePaths.content(ofModule: ReleasePaths.diff(from: from, to: to)) == nil)
    }
}

/// The one rounding of `--json` ratios and times and of `run`'s view timings.
struct RoundingTests {
    @Test func roundsToTheGivenDecimals() {
        #expect(0.123456.rounded(toPlaces: 3) == 0.123)
        #expect(2.0005.rounded(toPlaces: 2) == 2.0)
        #expect(1234.5678.rounded(toPlaces: 1) == 1234.6)
    }
}
