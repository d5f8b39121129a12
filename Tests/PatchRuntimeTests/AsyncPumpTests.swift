import Foundation
import Testing
import WasmKit

@testable import PatchRuntime

/// The async pump (sdk-contract §4) against a guest that implements the contract by hand: a job queue
/// (a counter), a state machine for the task, and suspensions through `patch_host.async_request` and
/// `patch_host.http_get`.
@Suite struct AsyncPumpTests {
    static let quoteURL = "https://api.example.com/quote"

    /// Task `compute(x)`: 300 queued tick jobs (more than one pump budget); the last tick awaits
    /// `async_request(3)`; once resolved a job fetches `quoteURL` with token 9; once that resolves a
    /// job finishes with x + value + status + bodyLength + firstBodyByte.
    static let guestWAT = """
        (module
          (import "patch_host" "async_request" (func $async_request (param i32)))
          (import "patch_host" "http_get" (func $http_get (param i32 i32 i32)))
          \(BridgeGuest.runtimeSupport)
          (data (i32.const 64) "\(quoteURL)")
          (data (i32.const 200) "done")
          (global $queued (mut i32) (i32.const 0))
          (global $phase (mut i32) (i32.const 0))
          (global $x (mut i32) (i32.const 0))
          (global $value (mut i32) (i32.const 0))
          (global $status (mut i32) (i32.const 0))
          (global $length (mut i32) (i32.const 0))
          (global $first (mut i32) (i32.const 0))
          (global $done (mut i32) (i32.const 0))
          (global $inits (export "inits") (mut i32) (i32.const 0))
          (func (export "patch_init") (global.set $inits (i32.add (global.get $inits) (i32.const 1))))
          (func (export "patch_start_compute") (param $x i32)
            (global.set $x (local.get $x))
            (global.set $phase (i32.const 0))
            (global.set $done (i32.const 0))
            (global.set $queued (i32.const 300)))
          (func (export "patch_start_blob") (param $pointer i32) (param $length i32)
            (global.set $x (i32.load8_u (local.get $pointer)))
            (global.set $phase (i32.const 0))
            (global.set $done (i32.const 0))
            (global.set $queued (i32.const 300)))
          (func $job
            (if (i32.eqz (global.get $phase)) (then
              (if (i32.eqz (global.get $queued)) (then
                (global.set $phase (i32.const 1))
                (call $async_request (i32.const 3))))
              (return)))
            (if (i32.eq (global.get $phase) (i32.const 2)) (then
              (global.set $phase (i32.const 3))
              (call $http_get (i32.const 64) (i32.const \(quoteURL.utf8.count)) (i32.const 9))
              (return)))
            (if (i32.eq (global.get $phase) (i32.const 4)) (then
              (global.set $done (i32.const 1)))))
          (func (export "patch_pump") (param $budget i32) (result i32)
            (local $ran i32)
            (block $exit
              (loop $next
                (br_if $exit (i32.ge_u (local.get $ran) (local.get $budget)))
                (br_if $exit (i32.eqz (global.get $queued)))
                (global.set $queued (i32.sub (global.get $queued) (i32.const 1)))
                (local.set $ran (i32.add (local.get $ran) (i32.const 1)))
                (call $job)
                (br $next)))
            (local.get $ran))
          (func (export "patch_pending") (result i32) (global.get $queued))
          (func (export "patch_done") (result i32) (global.get $done))
          (func (export "patch_resolve") (param $token i32) (param $value i32)
            (if (i32.ne (local.get $token) (i32.const 3)) (then unreachable))
            (global.set $value (local.get $value))
            (global.set $phase (i32.const 2))
            (global.set $queued (i32.add (global.get $queued) (i32.const 1))))
          (func (export "patch_resolve_http") (param $token i32) (param $pointer i32) (param $length i32) (param $status i32)
            (if (i32.ne (local.get $token) (i32.const 9)) (then unreachable))
            (global.set $status (local.get $status))
            (global.set $length (local.get $length))
            (if (i32.gt_u (local.get $length) (i32.const 0)) (then
              (global.set $first (i32.load8_u (local.get $pointer)))))
            (global.set $phase (i32.const 4))
            (global.set $queued (i32.add (global.get $queued) (i32.const 1))))
          (func (export "patch_result") (result i32)
            (i32.add (global.get $x) (i32.add (global.get $value)
              (i32.add (global.get $status) (i32.add (global.get $length) (global.get $first))))))
          (func (export "patch_result_blob") (result i64)
            (i64.or (i64.shl (i64.const 200) (i64.const 32)) (i64.const 4))))
        """

    static let quoteFixture = NetworkFixtures(responses: [quoteURL: .init(status: 200, body: Array("OK!".utf8))])

    @Test func pumpsQueuedJobsAndAnswersHostAwaitedWork() throws {
        let guest = try BridgeGuest(wat: Self.guestWAT, configuration: HostBridgeConfiguration(fixtures: Self.quoteFixture))
        let pump = AsyncPump(instance: guest.instance, state: guest.state)
        #expect(AsyncPump.supportsAsyncPump(guest.instance))
        let (result, report) = try pump.runScalar(kickoff: "patch_start_compute", arguments: [.i32(1000)])
        // 1000 + (3*100+7) + 200 + 3 + "O"
        #expect(result == 1000 + 307 + 200 + 3 + 79)
        #expect(report.jobsRun == 302)
        #expect(report.resolvedAsyncRequests == [OwedAsyncRequest(token: 3, value: 307)])
        #expect(report.resolvedHTTPRequests == [
            ResolvedHTTPRequest(
                request: OwedHTTPRequest(token: 9, method: "GET", url: Self.quoteURL, body: []), status: 200,
                bodyByteCount: 3),
        ])
        #expect(guest.instance.exports[global: "inits"]?.value == .i32(1))
        #expect(guest.state.calls.map(\.name) == ["async_request", "http_get"])
    }

    @Test func configuredValuesAndMissingFixturesReachTheGuest() throws {
        let configuration = HostBridgeConfiguration(asyncRequestValues: [3: -7])
        let guest = try BridgeGuest(wat: Self.guestWAT, configuration: configuration)
        let (result, report) = try AsyncPump(instance: guest.instance, state: guest.state)
            .runScalar(kickoff: "patch_start_compute", arguments: [.i32(10)])
        // No fixture: transport failure (status 0, empty body).
        #expect(result == 10 - 7)
        #expect(report.resolvedHTTPRequests.first?.status == 0)
        #expect(guest.state.unansweredRequests == ["GET \(Self.quoteURL)"])
    }

    @Test func packedVariantWritesInputAndFreesBothBuffers() throws {
        let guest = try BridgeGuest(wat: Self.guestWAT, configuration: HostBridgeConfiguration(fixtures: Self.quoteFixture))
        let framesBefore = guest.frees
        let (output, report) = try AsyncPump(instance: guest.instance, state: guest.state)
            .runPacked(kickoff: "patch_start_blob", input: [42, 1, 2], resultExport: "patch_result_blob")
        #expect(String(decoding: output, as: UTF8.self) == "done")
        #expect(report.jobsRun == 302)
        #expect(try guest.call("patch_result").int32 == 42 + 307 + 200 + 3 + 79)
        #expect(guest.frees == framesBefore + 2)
    }

    @Test func aGuestWaitingOnNothingIsReportedStuck() throws {
        let guest = try BridgeGuest(wat: """
            (module
              \(BridgeGuest.runtimeSupport)
              (func (export "patch_start_idle"))
              (func (export "patch_pump") (param i32) (result i32) (i32.const 0))
              (func (export "patch_pending") (result i32) (i32.const 2))
              (func (export "patch_done") (result i32) (i32.const 0)))
            """)
        let error = #expect(throws: AsyncPumpError.self) {
            try AsyncPump(instance: guest.instance, state: guest.state).run(kickoff: "patch_start_idle")
        }
        #expect(error == .stuck(pending: 2, rounds: 1))
        #expect(error?.description.contains("2 job(s) still queued") == true)
    }

    @Test func aGuestThatNeverFinishesHitsTheRoundCap() throws {
        let guest = try BridgeGuest(wat: """
            (module
              \(BridgeGuest.runtimeSupport)
              (func (export "patch_start_spin"))
              (func (export "patch_pump") (param i32) (result i32) (i32.const 1))
              (func (export "patch_done") (result i32) (i32.const 0)))
            """)
        var contract = AsyncPumpContract()
        contract.maxRounds = 50
        contract.timeLimit = nil
        #expect(throws: AsyncPumpError.neverCompleted(rounds: 50)) {
            try AsyncPump(instance: guest.instance, state: guest.state, contract: contract).run(kickoff: "patch_start_spin")
        }
    }

    @Test func missingOrMistypedContractExportsAreNamed() throws {
        let guest = try BridgeGuest(wat: """
            (module
              \(BridgeGuest.runtimeSupport)
              (func (export "patch_start_x"))
              (func (export "patch_pump") (param i64) (result i32) (i32.const 0))
              (func (export "patch_done") (result i32) (i32.const 0)))
            """)
        let pump = AsyncPump(instance: guest.instance, state: guest.state)
        #expect(throws: AsyncPumpError.wrongSignature(name: "patch_pump", expected: "(i32) -> i32", found: "(i64) -> i32")) {
            try pump.run(kickoff: "patch_start_x")
        }
        let bare = try BridgeGuest(wat: "(module \(BridgeGuest.runtimeSupport))")
        #expect(!AsyncPump.supportsAsyncPump(bare.instance))
        #expect(throws: AsyncPumpError.missingExport(name: "patch_pump", purpose: "to run queued jobs")) {
            try AsyncPump(instance: bare.instance, state: bare.state).run(kickoff: "patch_start_x")
        }
    }
}
