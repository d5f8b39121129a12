@testable import PatchRuntime
import Testing

@Suite struct ParityTests {
    /// The violations a module is rejected with, or [] when it activates.
    func violations(_ wat: String, allowMissingImports: Bool = false, names: [UInt32: String] = [:]) throws -> [ParityViolation] {
        let bytes = GuestBuilder.naming(try GuestBuilder.wat(wat), names)
        switch runtimeError({ _ = try session(bytes, testOptions(allowMissingImports: allowMissingImports)) }) {
        case nil: return []
        case let .parityRejected(_, violations)?: return violations
        case let other?: Issue.record("unexpected \(other)"); return []
        }
    }

    @Test func multipleMemoriesAreRejected() throws {
        let found = try violations(#"(module (memory (export "memory") 1) (memory 1))"#)
        #expect(found.map(\.rule) == [.multipleMemories])
    }

    @Test func missingMemoryExportIsRejected() throws {
        let found = try violations(#"(module (memory (export "heap") 1))"#)
        #expect(found.map(\.rule) == [.missingMemoryExport])
        #expect(found.first?.detail.contains("\"heap\"") == true)
    }

    @Test(arguments: [
        (#"(module (memory (export "memory") 1) (func (export "f") (result v128) (v128.const i32x4 0 0 0 0)))"#, "simd"),
        (#"(module (memory (export "memory") 1) (func $f (export "f") (return_call $f)))"#, "tail-call"),
        (#"(module (memory (export "memory") 1 1 shared))"#, "threads (shared memory)"),
        (#"(module (memory (export "memory") i64 1))"#, "memory64"),
    ])
    func featuresOutsideTheSDKSetAreNamed(wat: String, feature: String) throws {
        let found = try violations(wat)
        #expect(found.contains { $0.rule == .unsupportedFeature && $0.item == feature }, "got \(found)")
    }

    /// Bulk memory is in the device's feature set (sdk-contract §1.1) without a parser flag: guest.c's
    /// echo, and so benchmarks/run's round trip, relies on memory.copy activating under parity.
    @Test func bulkMemoryActivatesAndRuns() throws {
        let wat = #"""
        (module (memory (export "memory") 1)
          (func (export "copy") (result i32)
            (memory.fill (i32.const 0) (i32.const 7) (i32.const 4))
            (memory.copy (i32.const 100) (i32.const 0) (i32.const 4))
            (i32.load (i32.const 100))))
        """#
        #expect(try violations(wat).isEmpty)
        #expect(try session(try GuestBuilder.wat(wat)).callScalar("copy", arguments: []).values.first?.value == "\(0x0707_0707)")
    }

    @Test func unservedImportModuleIsNamed() throws {
        let found = try violations(#"(module (import "env" "helper" (func)) (memory (export "memory") 1))"#)
        #expect(found.map(\.item) == ["env.helper"])
        #expect(found.allSatisfy { $0.isImportProblem })
    }

    @Test func wasiImportWithWrongSignatureIsNamed() throws {
        let found = try violations(#"(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32))) (memory (export "memory") 1))"#)
        #expect(found.map(\.rule) == [.importSignatureMismatch])
        #expect(found.first?.detail.contains("(i32, i32, i32, i32) -> i32") == true)
    }

    @Test func servedImportsLinkAndUnknownBridgeIsRejected() throws {
        #expect(try violations(#"(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32))) (memory (export "memory") 1))"#).isEmpty)
        let served = try #require(ServedImports.table(for: .iOS).imports.first { $0.module == "patch" })
        let params = served.parameters.map { ServedImport.valueTypeName($0) }.joined(separator: " ")
        let results = served.results.map { ServedImport.valueTypeName($0) }.joined(separator: " ")
        let signature = (params.isEmpty ? "" : "(param \(params))") + (results.isEmpty ? "" : " (result \(results))")
        #expect(try violations("(module (import \"patch\" \"\(served.name)\" (func \(signature))) (memory (export \"memory\") 1))").isEmpty)
        let unknown = try violations(#"(module (import "patch" "no_such_bridge" (func)) (memory (export "memory") 1))"#)
        #expect(unknown.map(\.item) == ["patch.no_such_bridge"])
    }

    @Test func allowMissingImportsLinksATrappingStandIn() throws {
        let bytes = try GuestBuilder.wat(#"""
            (module (import "env" "helper" (func $helper)) (memory (export "memory") 1)
              (func (export "safe") (result i32) (i32.const 3))
              (func (export "calls") (call $helper)))
            """#)
        let running = try session(bytes, testOptions(allowMissingImports: true))
        #expect(try running.callScalar("safe", arguments: []).values == [TypedValue(type: "i32", value: "3")])
        guard case .trapped(let report)? = runtimeError({ _ = try running.callScalar("calls", arguments: []) }) else {
            Issue.record("expected a trap"); return
        }
        #expect(report.kind == .hostFailure)
        #expect(report.message.contains("env.helper"))
    }

    @Test func brokenFunctionNeverCalledIsStillCaughtAndNamed() throws {
        let found = try violations(#"""
            (module (memory (export "memory") 1)
              (func (export "fine") (result i32) (i32.const 1))
              (func $broken (result i32) (i64.const 1)))
            """#, names: [1: "broken"])
        #expect(found.map(\.rule) == [.invalidFunction])
        #expect(found.first?.item == "broken")
    }

    @Test func nonFunctionImportIsRejected() throws {
        let found = try violations(#"(module (import "env" "g" (global i32)) (memory (export "memory") 1))"#)
        #expect(found.map(\.rule) == [.unsupportedImportKind])
    }

    @Test func withoutParityTheModuleRuns() throws {
        let bytes = try GuestBuilder.wat(#"(module (memory (export "heap") 1) (func (export "f") (result i32) (i32.const 9)))"#)
        let running = try session(bytes, testOptions(parity: false))
        #expect(try running.callScalar("f", arguments: []).values.first?.value == "9")
    }
}

@Suite struct StartFunctionTests {
    @Test func bodiesAreValidatedBeforeAStartFunctionRuns() throws {
        let bytes = GuestBuilder.naming(try GuestBuilder.wat(#"""
            (module (memory (export "memory") 1)
              (func $start unreachable)
              (func $broken (result i32) (i64.const 1))
              (start $start))
            """#), [1: "broken"])
        guard case .parityRejected(_, let violations)? = runtimeError({ _ = try session(bytes) }) else {
            Issue.record("expected the broken body to be reported before the start function traps"); return
        }
        #expect(violations.map(\.item) == ["broken"])
    }

    @Test func aValidStartFunctionRunsOnceAndItsTrapIsReported() throws {
        let counting = try GuestBuilder.wat(#"""
            (module (memory (export "memory") 1) (global $runs (mut i32) (i32.const 0))
              (func $start (global.set $runs (i32.add (global.get $runs) (i32.const 1))))
              (func (export "runs") (result i32) (global.get $runs))
              (start $start))
            """#)
        #expect(try session(counting).callScalar("runs", arguments: []).values.first?.value == "1")
        let trapping = try GuestBuilder.wat(#"(module (memory (export "memory") 1) (func $start unreachable) (start $start))"#)
        guard case .trapped(let report)? = runtimeError({ _ = try session(trapping) }) else { Issue.record("expected a trap"); return }
        #expect(report.kind == .unreachable && report.export == "(start)")
    }
}
