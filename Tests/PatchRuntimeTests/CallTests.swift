import PatchManifest
@testable import PatchRuntime
import Testing

@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's clang/wasm-ld (required under CI=true)"))
struct CGuestCallTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.cGuest())
    }

    @Test func scalarArgumentsAreTypedFromTheSignature() throws {
        #expect(try guest.callScalar("add", arguments: ["2", "-7"]).values == [TypedValue(type: "i32", value: "-5")])
        #expect(try guest.callScalar("add", arguments: ["0xFFFFFFFF", "1"]).values.first?.value == "0")
        #expect(try guest.callScalar("mul64", arguments: ["-3", "4000000000"]).values.first?.value == "-12000000000")
        #expect(try guest.callScalar("half", arguments: ["3"]).values == [TypedValue(type: "f64", value: "1.5")])
    }

    @Test func badArgumentsAreUsageErrors() {
        guard case .argumentCountMismatch(_, _, 2, 1)? = runtimeError({ _ = try guest.callScalar("add", arguments: ["1"]) }) else {
            Issue.record("expected a count mismatch"); return
        }
        guard case .invalidArgument(_, 2, "x", "i32")? = runtimeError({ _ = try guest.callScalar("add", arguments: ["1", "x"]) }) else {
            Issue.record("expected an invalid argument"); return
        }
        #expect(runtimeError({ _ = try guest.callScalar("add", arguments: ["1", "x"]) })?.category == .usage)
    }

    @Test func packedCallRoundTripsAndFreesBothBuffers() throws {
        let before = try guest.callScalar("free_count", arguments: []).values.first?.value
        let result = try guest.perform(CallRequest(export: "greet", input: Array("Ann".utf8), decoding: .text))
        #expect(result.decoded?.rendered == "Hello, Ann")
        #expect(result.outcome.abi == .packed)
        let after = try guest.callScalar("free_count", arguments: []).values.first?.value
        #expect(Int(after ?? "") == Int(before ?? "")! + 2)
    }

    @Test func emptyInputPassesNullAndAllocatesNothing() throws {
        let result = try guest.perform(CallRequest(export: "echo"))
        #expect(result.outcome.output == [])
    }

    @Test func messagePackRoundTripThroughTheGuest() throws {
        let json = #"{"name":"Ann","tags":["a",null,true],"n":-200,"big":70000,"x":1.5}"#
        let result = try guest.perform(CallRequest(export: "echo", input: Array(json.utf8), encoding: .msgpack, decoding: .msgpack))
        #expect(result.decoded?.encoding == "msgpack")
        #expect(result.decoded?.value == MessagePackValue.parseJSON(Array(json.utf8)))
    }

    @Test func unknownExportListsWhatExists() {
        guard case .exportNotFound(_, let available)? = runtimeError({ _ = try guest.callScalar("nope", arguments: []) }) else {
            Issue.record("expected exportNotFound"); return
        }
        #expect(available.contains("greet"))
    }
}

@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct EmbeddedSwiftGuestTests {
    @Test func scalarAndPackedExportsOfAnEmbeddedSwiftModule() throws {
        let guest = try session(try GuestBuilder.embeddedSwiftGuest())
        #expect(try guest.callScalar("double_it", arguments: ["21"]).values.first?.value == "42")
        let result = try guest.perform(CallRequest(export: "shout", input: Array("hello, swift".utf8)))
        #expect(result.decoded?.rendered == "HELLO, SWIFT")
    }
}

@Suite struct LifecycleAndRoutingTests {
    @Test func initializeRunsOnceAndStartNever() throws {
        let running = try session(try GuestBuilder.wat(named: "lifecycle.wat"))
        #expect(try running.callScalar("init_count", arguments: []).values.first?.value == "1")
        #expect(try running.callScalar("init_count", arguments: []).values.first?.value == "1")
    }

    @Test func containerRoutesToTheFirstMemberExportingTheName() throws {
        let container = try ModuleContainer(modules: [
            try GuestBuilder.wat(named: "member_primary.wat"), try GuestBuilder.wat(named: "member_additional.wat"),
        ]).encode()
        let running = try RuntimeSession(artifact: try ArtifactLoader.load(container, expectedSHA256: nil), options: testOptions())
        let shared = try running.callScalar("shared", arguments: [])
        #expect(shared.values.first?.value == "1" && shared.moduleIndex == 0)
        let additional = try running.callScalar("only_additional", arguments: [])
        // 21: member 1 ran its own _initialize.
        #expect(additional.values.first?.value == "21" && additional.moduleIndex == 1)
        #expect(running.exportedFunctions == ["shared", "only_primary", "_initialize", "only_additional"])
    }

    @Test func oneBadMemberRejectsTheWholeContainer() throws {
        let container = try ModuleContainer(modules: [
            try GuestBuilder.wat(named: "member_primary.wat"), try GuestBuilder.wat(#"(module (memory 1))"#),
        ]).encode()
        guard case .parityRejected(1, _)? = runtimeError({
            _ = try RuntimeSession(artifact: try ArtifactLoader.load(container, expectedSHA256: nil), options: testOptions())
        }) else { Issue.record("expected member 1 to be rejected"); return }
    }

    @Test func seedMakesWASIRandomDeterministic() throws {
        let wat = #"""
            (module (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
              (memory (export "memory") 1)
              (func (export "draw") (result i64) (drop (call $random (i32.const 0) (i32.const 8))) (i64.load (i32.const 0))))
            """#
        let first = try session(try GuestBuilder.wat(wat)).callScalar("draw", arguments: []).values
        let second = try session(try GuestBuilder.wat(wat)).callScalar("draw", arguments: []).values
        #expect(first == second)
    }
}
