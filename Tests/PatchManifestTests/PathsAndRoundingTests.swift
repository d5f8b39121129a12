import Foundation
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

/// Fixed decimals without Foundation's formatter: what `String(format: "%.Nf")` prints, ties to
/// even included (`1.25` → `1.2`).
struct FixedDecimalsTests {
    @Test(arguments: [0.0, 0.0004, 0.412, 1.5, 1.25, 2.05, 59.99, 60.0, 1024.25, 123_456.789, 0.1 + 0.2])
    func matchesPrintf(value: Double) {
        for places in 0...3 {
            #expect(value.fixed(places: places) == String(format: "%.\(places)f", value), "\(value) to \(places)")
        }
    }
}
