@testable import PatchRuntime
import Testing

@Suite struct LimitTests {
    /// The WAT encoder writes no name section, so the function names come from a hand-made one.
    let limits = GuestBuilder.naming(try! GuestBuilder.wat(named: "limits.wat"), [0: "spin", 1: "recurse", 5: "inner"])

    func trap(_ export: String, _ arguments: [String] = [], options: RuntimeOptions = testOptions()) throws -> TrapReport? {
        let running = try session(limits, options)
        guard case .trapped(let report)? = runtimeError({ _ = try running.callScalar(export, arguments: arguments) }) else { return nil }
        return report
    }

    @Test func infiniteLoopRunsOutOfFuel() throws {
        let report = try #require(try trap("spin", options: testOptions(fuel: 100_000)))
        #expect(report.kind == .fuelExhausted)
        #expect(report.backtrace == ["spin"])
        #expect(RuntimeError.trapped(report).category == .fuelExhausted)
    }

    @Test func deepRecursionExhaustsTheStackWithAFoldedBacktrace() throws {
        let report = try #require(try trap("recurse", ["0"]))
        #expect(report.kind == .stackExhausted)
        #expect(report.backtrace.count == 1)
        #expect(report.backtrace.first?.hasPrefix("recurse (×") == true)
        // "boom" has no name-section entry: its export name stands in.
        #expect(try trap("boom")?.backtrace == ["inner", "boom"])
    }

    @Test func memoryBombHitsThePageCap() throws {
        let report = try #require(try trap("bomb"))
        #expect(report.kind == .memoryLimit)
        #expect(RuntimeError.trapped(report).category == .memoryLimit)
    }

    @Test func outOfBoundsUnreachableAndDivisionAreTraps() throws {
        #expect(try trap("oob")?.kind == .memoryOutOfBounds)
        let unreachable = try #require(try trap("boom"))
        #expect(unreachable.kind == .unreachable)
        #expect(unreachable.backtrace == ["inner", "boom"])
        #expect(try trap("divide", ["1", "0"])?.kind == .integerDivideByZero)
    }

    @Test func initialMemoryOverTheCapIsRefusedBeforeInstantiation() throws {
        let bytes = try GuestBuilder.wat(#"(module (memory (export "memory") 100))"#)
        guard case .initialMemoryExceedsLimit(0, 100, 64)? = runtimeError({ _ = try session(bytes) }) else {
            Issue.record("expected the initial memory to be refused"); return
        }
    }

    @Test func wallClockTimeoutEndsAGuestThatOutlivesIt() {
        // Finite fuel lets the abandoned worker stop on its own shortly after the timeout fires.
        let artifact = try! LoadedArtifact.module(limits)
        let options = testOptions(fuel: 20_000_000, timeout: 0.001)
        let error = runtimeError {
            _ = try RuntimeSession.withSession(artifact: artifact, options: options) { session throws(RuntimeError) in
                try session.callScalar("spin", arguments: []).values
            }
        }
        guard case .timedOut? = error else { Issue.record("expected a timeout, got \(String(describing: error))"); return }
        #expect(error?.category == .timeout)
    }

    /// The per-call phase is stored unrendered; a timeout still reads it as text.
    @Test func progressMarkerNamesTheCallATimeoutStruck() {
        let progress = ProgressMarker()
        progress.setCalling("spin", moduleIndex: 1)
        #expect(progress.current == "calling spin in module 1")
        progress.set("running _initialize of module 0")
        #expect(progress.current == "running _initialize of module 0")
    }

    @Test func limitsAreValidated() {
        let invalid = [RuntimeLimits(maxMemoryPages: 0), RuntimeLimits(timeoutSeconds: .nan), RuntimeLimits(fuel: 0)]
        for limits in invalid {
            let error = runtimeError { _ = try limits.validated() }
            #expect(error?.category == .usage)
        }
    }

    @Test func fuelUsedIsReported() throws {
        let running = try session(limits)
        let outcome = try running.callScalar("divide", arguments: ["9", "3"])
        #expect(outcome.values.first?.value == "3")
        #expect((outcome.fuelUsed ?? 0) > 0)
    }
}
