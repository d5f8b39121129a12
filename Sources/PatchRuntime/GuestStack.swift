import WasmKit

/// The interpreter stack one module instance's guest calls run on, kept from one call to the next.
///
/// WasmKit's `Function.invoke(_:)` allocates and frees a stack of the engine's configured size
/// (512 KiB by default) for every call, and a packed round trip makes four calls (benchmarks/run
/// measures what reusing one saves). The size, and so the stack limit a deep recursion traps at, is
/// still the engine's (`RuntimeLimits.stackSizeBytes`).
///
/// Reentrancy: a host bridge running inside a guest call may call back into the guest (`patch_malloc`
/// to hand back bytes). A call takes the stack out of its slot for its whole duration, so a nested
/// call finds the slot empty and runs on a fresh stack of its own; the last one back stays in the
/// slot for the next call. Nothing of a call outlives it on the stack (every call lays its frames from the
/// bottom again), so a stack that a trap, an exhausted fuel budget or a stack overflow unwound is as
/// good as new. A call the watchdog abandons keeps its stack, and nothing calls into that session again.
final class GuestStack {
    private let engine: Engine
    private var spare: ExecutionStack?

    init(engine: Engine) {
        self.engine = engine
    }

    /// Whether a stack is waiting in the slot (none during a call, or before the first).
    var holdsSpare: Bool { spare != nil }

    @discardableResult
    func invoke(_ function: Function, _ arguments: [Value]) throws -> [Value] {
        var stack = spare.take() ?? ExecutionStack(engine: engine)
        do {
            let results = try function.invoke(arguments, on: &stack)
            spare = consume stack
            return results
        } catch {
            spare = consume stack
            throw error
        }
    }
}

extension Function {
    /// Runs the function on `stack` when there is one, else on a stack of its own for this call.
    @discardableResult
    func invoke(_ arguments: [Value], reusing stack: GuestStack?) throws -> [Value] {
        guard let stack else { return try invoke(arguments) }
        return try stack.invoke(self, arguments)
    }
}
