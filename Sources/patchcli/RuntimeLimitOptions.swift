import ArgumentParser
import PatchRuntime

/// The caps every guest entry runs under: one set of flags and defaults for `run` and for the proof
/// `release` and `verify` run, so a module proven under them behaves the same in both.
struct RuntimeLimitOptions: ParsableArguments {
    @Option(help: "Fuel per guest entry (~ wasm operators).")
    var fuel: UInt64 = RuntimeLimits.defaultFuel

    @Flag(help: "Do not meter fuel (only --timeout stops a runaway guest).")
    var noFuelLimit = false

    @Option(help: "Largest linear memory, in 64 KiB pages.")
    var maxMemoryPages: Int = RuntimeLimits.defaultMaxMemoryPages

    @Option(help: "Most elements one table may hold, declared or grown.")
    var maxTableElements: Int = RuntimeLimits.defaultMaxTableElements

    @Option(help: "Most elements all tables of a module may hold together.")
    var maxTotalTableElements: Int = RuntimeLimits.defaultMaxTotalTableElements

    @Option(help: "Interpreter stack size in bytes.")
    var stackSize: Int = RuntimeLimits.defaultStackSizeBytes

    @Option(help: "Wall-clock limit in seconds for activation plus the call(s).")
    var timeout: Double = RuntimeLimits.defaultTimeoutSeconds

    /// The limits, refused (exit 2, naming the flag) when one cannot work.
    func limits() throws -> RuntimeLimits {
        try RuntimeLimits(fuel: noFuelLimit ? nil : fuel, maxMemoryPages: maxMemoryPages,
                          maxTableElements: maxTableElements, maxTotalTableElements: maxTotalTableElements,
                          stackSizeBytes: stackSize, timeoutSeconds: timeout).validated()
    }
}
