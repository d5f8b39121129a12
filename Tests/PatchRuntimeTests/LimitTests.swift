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

    @Test func tableBombHitsTheElementCap() throws {
        // Issue 16's bomb grows by 50M elements a step: refused at the first, before WasmKit allocates.
        let report = try #require(try trap("table_bomb", ["50000000"]))
        #expect(report.kind == .tableLimit)
        #expect(report.message.contains("--max-table-elements limit of \(RuntimeLimits.defaultMaxTableElements)"), "\(report.message)")
        #expect(RuntimeError.trapped(report).category == .tableLimit)
        // Small steps add up to the cap as well.
        var options = testOptions()
        options.limits.maxTableElements = 1000
        #expect(try trap("table_bomb", ["64"], options: options)?.kind == .tableLimit)
    }

    @Test func tablesTogetherHitTheTotalCap() throws {
        let bytes = try GuestBuilder.wat("""
            (module (memory (export "memory") 1) (table $a 0 funcref) (table $b 0 funcref)
              (func (export "grow_a") (param i32) (result i32) (table.grow $a (ref.null func) (local.get 0)))
              (func (export "grow_b") (param i32) (result i32) (table.grow $b (ref.null func) (local.get 0))))
            """)
        var options = testOptions()
        options.limits.maxTableElements = 100
        options.limits.maxTotalTableElements = 150
        let running = try session(bytes, options)
        #expect(try running.callScalar("grow_a", arguments: ["100"]).values.first?.value == "0")
        #expect(try running.callScalar("grow_b", arguments: ["50"]).values.first?.value == "0")
        guard case .trapped(let total)? = runtimeError({ _ = try running.callScalar("grow_b", arguments: ["1"]) }) else {
            Issue.record("expected the total cap to stop the growth"); return
        }
        #expect(total.kind == .tableLimit)
        #expect(total.message.contains("151 elements, over the --max-total-table-elements limit of 150"), "\(total.message)")
        guard case .trapped(let single)? = runtimeError({ _ = try session(bytes, options).callScalar("grow_a", arguments: ["101"]) }) else {
            Issue.record("expected the per-table cap to stop the growth"); return
        }
        #expect(single.message.contains("--max-table-elements limit of 100"), "\(single.message)")
    }

    @Test func declaredTablesOverTheCapsAreRefusedBeforeInstantiation() throws {
        var options = testOptions()
        options.limits.maxTableElements = 1000
        options.limits.maxTotalTableElements = 1500
        let one = try GuestBuilder.wat(#"(module (memory (export "memory") 1) (table 2000 funcref))"#)
        guard case .initialTableExceedsLimit(0, 0?, 2000, 1000)? = runtimeError({ _ = try session(one, options) }) else {
            Issue.record("expected the declared table to be refused"); return
        }
        let two = try GuestBuilder.wat(#"(module (memory (export "memory") 1) (table 800 funcref) (table 800 funcref))"#)
        let error = runtimeError { _ = try session(two, options) }
        guard case .initialTableExceedsLimit(0, nil, 1600, 1500)? = error else {
            Issue.record("expected the declared tables to be refused together, got \(String(describing: error))"); return
        }
        #expect(error?.category == .tableLimit)
        _ = try session(GuestBuilder.wat(#"(module (memory (export "memory") 1) (table 700 funcref) (table 800 funcref))"#), options)
    }

    /// WasmKit charges table.grow (and fill, copy, init) by the bytes of the elements it touches, so
    /// a large growth within the caps still costs fuel in proportion.
    @Test func tableGrowthIsChargedInFuel() throws {
        let running = try session(limits)
        let small = try #require(try running.callScalar("table_grow", arguments: ["1"]).fuelUsed)
        let large = try #require(try running.callScalar("table_grow", arguments: ["100000"]).fuelUsed)
        #expect(large >= small + 100_000 / 8, "growing by 1 cost \(small), by 100000 cost \(large)")
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
        let invalid = [RuntimeLimits(maxMemoryPages: 0), RuntimeLimits(timeoutSeconds: .nan), RuntimeLimits(fuel: 0),
                       RuntimeLimits(maxTableElements: 0), RuntimeLimits(maxTotalTableElements: Int(UInt32.max) + 1)]
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
