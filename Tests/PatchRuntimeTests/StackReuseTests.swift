@testable import PatchRuntime
import Testing

/// A module instance runs its guest calls on one reused interpreter stack (`GuestStack`). These pin
/// what that must not change: a host bridge that calls back into the guest during a call, traps and
/// exhausted limits in between calls, and the stack limit itself.
@Suite struct StackReuseTests {
    /// `ask` keeps a value in a local across `patch.locale_identifier`, whose stand-in calls back into
    /// the guest's `patch_malloc` (which fills locals of its own) to hand back the string. Were the
    /// nested call to run on the stack the outer call is using, its frame would land on `ask`'s.
    static let module = """
        (module
          (import "patch" "locale_identifier" (func $locale (result i64)))
          (memory (export "memory") 1)
          (global $top (mut i32) (i32.const 1024))
          (global $depth (mut i32) (i32.const 0))
          (func (export "patch_malloc") (param $n i32) (result i32)
            (local $p i32) (local $a i64) (local $b i64)
            (local.set $a (i64.const -1)) (local.set $b (i64.const -1))
            (local.set $p (global.get $top))
            (global.set $top (i32.add (global.get $top) (i32.and (i32.add (local.get $n) (i32.const 15)) (i32.const -16))))
            (local.get $p))
          (func (export "patch_free") (param i32))
          (func (export "add") (param i32 i32) (result i32) (i32.add (local.get 0) (local.get 1)))
          (func (export "ask") (param $x i32) (result i32)
            (local $keep i32)
            (local.set $keep (i32.mul (local.get $x) (i32.const 1000)))
            (i32.add (local.get $keep) (i32.wrap_i64 (call $locale))))
          (func (export "ask_then_boom") (drop (call $locale)) unreachable)
          (func $dive (export "dive") (param i32) (result i32)
            (global.set $depth (i32.add (global.get $depth) (i32.const 1)))
            (call $dive (local.get 0)))
          (func (export "depth") (result i32) (global.get $depth))
          (func (export "reset_depth") (global.set $depth (i32.const 0)))
          (func (export "spin") (loop $again (br $again)))
          (func (export "boom") unreachable))
        """

    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.wat(Self.module), testOptions(fuel: 200_000))
    }

    func int(_ export: String, _ arguments: [String] = []) throws -> Int? {
        try guest.callScalar(export, arguments: arguments).values.first.flatMap { Int($0.value) }
    }

    func trapKind(_ export: String, _ arguments: [String] = []) -> TrapReport.Kind? {
        guard case .trapped(let report)? = runtimeError({ _ = try guest.callScalar(export, arguments: arguments) }) else { return nil }
        return report.kind
    }

    /// What `ask(x)` returns when its frame survived the bridge's call back into the guest.
    func asked(_ x: Int) -> Int {
        x * 1000 + HostBridgeConfiguration().localeIdentifier.utf8.count
    }

    /// Whether the instance's stack is back in its slot, ready for the next call.
    func stackIsKept() throws -> Bool {
        try guest.route("add").member.stack.holdsSpare
    }

    @Test func aBridgeCallingBackIntoTheGuestLeavesTheOuterFrameIntact() throws {
        #expect(!HostBridgeConfiguration().localeIdentifier.isEmpty, "the stand-in must hand back bytes, or patch_malloc is never called")
        for x in 1...3 {
            #expect(try int("ask", ["\(x)"]) == asked(x))
            #expect(try int("add", ["\(x)", "2"]) == x + 2)
        }
        #expect(try stackIsKept())
    }

    @Test func callsAfterATrapStillWork() throws {
        for _ in 0..<2 {
            #expect(trapKind("boom") == .unreachable)
            #expect(try stackIsKept())
            #expect(try int("add", ["40", "2"]) == 42)
            #expect(trapKind("ask_then_boom") == .unreachable)
            #expect(try int("ask", ["5"]) == asked(5))
        }
    }

    @Test func fuelStillRunsOutPerCallAndTheNextCallGetsAFreshBudget() throws {
        for _ in 0..<2 {
            #expect(trapKind("spin") == .fuelExhausted)
            #expect(try int("add", ["1", "2"]) == 3)
        }
    }

    /// The reused stack has the engine's configured size: recursion runs out at the same depth on the
    /// first call, on the reused stack, and after other calls in between.
    @Test func theStackLimitIsTheSameOnEveryCall() throws {
        var depths: [Int] = []
        for _ in 0..<3 {
            #expect(try int("reset_depth") == nil)
            #expect(trapKind("dive", ["0"]) == .stackExhausted)
            depths.append(try int("depth") ?? 0)
            #expect(try int("ask", ["1"]) == asked(1))
        }
        #expect(depths[0] > 100)
        #expect(Set(depths).count == 1, "depths \(depths)")
        #expect(try stackIsKept())
    }
}
