@testable import PatchRuntime
import Testing

/// The buffer ABI of `run --input` (sdk-contract §2.1, the SDK's typed call of one String/Data
/// argument): the input in a fresh `patch_malloc` buffer passed as `(ptr, len)`, freed after the
/// call, also when the call traps; the export's own values returned.
struct BufferCallTests {
    static let guest = """
        (module
          (memory (export "memory") 1)
          (global $top (mut i32) (i32.const 1024))
          (global $frees (mut i32) (i32.const 0))
          (func (export "patch_malloc") (param $size i32) (result i32)
            (local $pointer i32)
            (local.set $pointer (global.get $top))
            (global.set $top (i32.add (global.get $top) (local.get $size)))
            (local.get $pointer))
          (func (export "patch_free") (param i32)
            (global.set $frees (i32.add (global.get $frees) (i32.const 1))))
          (func (export "frees") (result i32) (global.get $frees))
          (func (export "byte_sum") (param $pointer i32) (param $length i32) (result i32)
            (local $sum i32)
            (block $done
              (loop $next
                (br_if $done (i32.eqz (local.get $length)))
                (local.set $sum (i32.add (local.get $sum) (i32.load8_u (local.get $pointer))))
                (local.set $pointer (i32.add (local.get $pointer) (i32.const 1)))
                (local.set $length (i32.sub (local.get $length) (i32.const 1)))
                (br $next)))
            (local.get $sum))
          (func (export "null_or_length") (param $pointer i32) (param $length i32) (result f64)
            (if (result f64) (i32.eqz (local.get $pointer))
              (then (f64.const -1))
              (else (f64.convert_i32_u (local.get $length)))))
          (func (export "fails") (param i32 i32) (result i32) unreachable)
          (func (export "one_int") (param i32) (result i32) (local.get 0)))
        """

    func frees(_ guest: RuntimeSession) throws -> String? {
        try guest.callScalar("frees", arguments: []).values.first?.value
    }

    @Test func theInputIsWrittenPassedAndFreedAndTheValuesReturned() throws {
        let guest = try session(try GuestBuilder.wat(Self.guest))
        let result = try guest.perform(CallRequest(export: "byte_sum", input: Array("abc".utf8)))
        #expect(result.outcome.abi == .buffer)
        #expect(result.outcome.signature == "(i32, i32) -> i32")
        #expect(result.outcome.values == [TypedValue(type: "i32", value: "294")])
        #expect(result.decoded == nil)
        #expect(try frees(guest) == "1")
        // Any scalar result: an f64 here.
        #expect(try guest.perform(CallRequest(export: "null_or_length", input: Array("four".utf8))).outcome.values
            == [TypedValue(type: "f64", value: "4.0")])
    }

    @Test func emptyInputIsNullAndAllocatesNothing() throws {
        let guest = try session(try GuestBuilder.wat(Self.guest))
        #expect(try guest.perform(CallRequest(export: "null_or_length", input: [])).outcome.values == [TypedValue(type: "f64", value: "-1.0")])
        #expect(try frees(guest) == "0")
    }

    @Test func aTrapStillFreesTheInput() throws {
        let guest = try session(try GuestBuilder.wat(Self.guest))
        let error = runtimeError { _ = try guest.perform(CallRequest(export: "fails", input: Array("x".utf8))) }
        #expect(error?.category == .trap)
        #expect(try frees(guest) == "1")
    }

    @Test func anExportNotTakingABufferIsRefused() throws {
        let guest = try session(try GuestBuilder.wat(Self.guest))
        guard case let .unsupportedSignature(_, signature, detail)? = runtimeError({
            _ = try guest.perform(CallRequest(export: "one_int", input: Array("x".utf8)))
        }) else {
            Issue.record("expected unsupportedSignature"); return
        }
        #expect(signature == "(i32) -> i32")
        #expect(detail.contains("(i32 ptr, i32 len)"))
    }
}
