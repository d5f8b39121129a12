@testable import PatchRuntime
import Testing

@Suite struct SmokeAndFallbackTests {
    let limits = try! GuestBuilder.wat(named: "limits.wat")

    @Test func manifestProbesPassFailAndExpectTraps() throws {
        let manifest = try RunManifest.parse(Array(#"""
            {"sha256": "\#(String(repeating: "a", count: 64))",
             "probes": [
               {"name": "divides", "export": "divide", "args": [9, "3"], "expected": 3},
               {"name": "wrong", "export": "divide", "args": [9, 3], "expected": 4},
               {"name": "traps", "export": "boom", "expect_trap": "unreachable"},
               {"name": "loops", "export": "spin", "expect_trap": "fuel_exhausted"}
             ]}
            """#.utf8), source: "manifest.json")
        #expect(manifest.sha256 == String(repeating: "a", count: 64))
        let results = SmokeRunner.run(manifest.probes, in: try session(limits, testOptions(fuel: 100_000)))
        #expect(results.map(\.passed) == [true, false, true, true])
        #expect(results[1].detail == "expected 4, got 3")
        let xml = SmokeRunner.junitXML(results, suite: "limits.wasm")
        #expect(xml.contains(#"<testsuite name="limits.wasm" tests="4" failures="1" errors="0">"#))
        #expect(xml.contains(#"<failure message="expected 4, got 3">"#))
    }

    @Test func malformedProbesNameTheField() {
        guard case .invalidProbes(_, let detail)? = runtimeError({
            _ = try RunManifest.parse(Array(#"{"probes":[{"export":"f","colour":1}]}"#.utf8), source: "p.json")
        }) else { Issue.record("expected invalidProbes"); return }
        #expect(detail.contains("probes[0]") && detail.contains("colour"))
    }

    @Test func ladderSkipsABrokenCurrentAndPromotesPrevious() throws {
        let good = try GuestBuilder.wat(named: "member_primary.wat")
        let broken = try GuestBuilder.wat(#"(module (memory 1))"#)
        let report = FallbackLadder.replay([
            .init(slot: .current, source: "current.wasm", bytes: .success(broken)),
            .init(slot: .previous, source: "previous.wasm", bytes: .success(good)),
            .init(slot: .bundled, source: "bundled.wasm", bytes: .success(good)),
        ], options: testOptions(), probes: [])
        #expect(report.winner == .previous)
        #expect(report.steps.map(\.outcome) == ["failed", "activated", "not_tried"])
        #expect(report.steps[0].reason.contains("missing_memory_export"))
        #expect(report.steps[0].storageEffect == "the current module is cleared from disk")
        #expect(report.steps[1].storageEffect == "previous is promoted to current")
    }

    @Test func aFailingProbeMakesARungLoseAndNoWinnerIsReported() throws {
        let good = try GuestBuilder.wat(named: "member_primary.wat")
        let probe = SmokeProbe(name: "shared is 2", request: CallRequest(export: "shared"), expected: .int(2), expectedTrap: nil)
        let report = FallbackLadder.replay([
            .init(slot: .current, source: "a", bytes: .success(good)),
            .init(slot: .bundled, source: "b", bytes: .success(good), expectedSHA256: String(repeating: "0", count: 64)),
        ], options: testOptions(), probes: [probe])
        #expect(report.winner == nil)
        #expect(report.steps[0].reason.contains("probe failed"))
        #expect(report.steps[1].reason.contains("SHA-256 mismatch"))
    }
}
