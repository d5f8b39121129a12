/// The resource caps every guest call runs under. Devices run modules without caps; `patchcli run` is
/// a CI smoke test, so the defaults are chosen to stop a runaway module quickly while leaving real
/// modules (a multi-MB Swift/WASI module's `_initialize` included) ample headroom.
public struct RuntimeLimits: Sendable, Equatable {
    /// Fuel per guest entry (`_initialize` and each export call get a fresh budget); `nil` = unmetered.
    /// One unit is roughly one executed wasm operator.
    public var fuel: UInt64?
    /// Largest linear memory any module may reach, in 64 KiB pages.
    public var maxMemoryPages: Int
    /// Most elements any one table may hold, declared or grown.
    public var maxTableElements: Int
    /// Most elements all tables of one module may hold together (reference types allow several).
    public var maxTotalTableElements: Int
    /// Interpreter stack (wasm locals and call frames) in bytes; deep recursion traps past it.
    public var stackSizeBytes: Int
    /// Wall-clock budget for loading, initializing and calling, in seconds.
    public var timeoutSeconds: Double

    public static let defaultFuel: UInt64 = 1_000_000_000
    /// 4096 pages = 256 MiB.
    public static let defaultMaxMemoryPages = 4096
    /// 2^20 elements = 8 MiB of WasmKit's 8-byte table slots. A Swift module's one table holds its
    /// address-taken functions, thousands even in a multi-MB module.
    public static let defaultMaxTableElements = 1 << 20
    /// 2^22 elements = 32 MiB, an eighth of the default memory cap.
    public static let defaultMaxTotalTableElements = 1 << 22
    /// A wasm32 table cannot hold more elements than a 32-bit index reaches.
    public static let wasm32MaximumTableElements = Int(UInt32.max)
    /// WasmKit's own default, which is what the device runtime uses.
    public static let defaultStackSizeBytes = 512 * 1024
    public static let defaultTimeoutSeconds = 30.0
    /// wasm32 linear memories cannot exceed 65536 pages (4 GiB).
    public static let wasm32MaximumPages = 65536

    public init(fuel: UInt64? = defaultFuel, maxMemoryPages: Int = defaultMaxMemoryPages,
                maxTableElements: Int = defaultMaxTableElements, maxTotalTableElements: Int = defaultMaxTotalTableElements,
                stackSizeBytes: Int = defaultStackSizeBytes, timeoutSeconds: Double = defaultTimeoutSeconds) {
        self.fuel = fuel
        self.maxMemoryPages = maxMemoryPages
        self.maxTableElements = maxTableElements
        self.maxTotalTableElements = maxTotalTableElements
        self.stackSizeBytes = stackSizeBytes
        self.timeoutSeconds = timeoutSeconds
    }

    /// Rejects caps that cannot work, naming the offending one.
    public func validated() throws(RuntimeError) -> RuntimeLimits {
        guard (1...Self.wasm32MaximumPages).contains(maxMemoryPages) else {
            throw .invalidLimit(name: "max-memory-pages", value: "\(maxMemoryPages)", allowed: "1…\(Self.wasm32MaximumPages)")
        }
        for (name, value) in [("max-table-elements", maxTableElements), ("max-total-table-elements", maxTotalTableElements)] {
            guard (1...Self.wasm32MaximumTableElements).contains(value) else {
                throw .invalidLimit(name: name, value: "\(value)", allowed: "1…\(Self.wasm32MaximumTableElements)")
            }
        }
        guard (16 * 1024...(256 << 20)).contains(stackSizeBytes) else {
            throw .invalidLimit(name: "stack-size", value: "\(stackSizeBytes)", allowed: "16384…268435456 bytes")
        }
        guard timeoutSeconds.isFinite, timeoutSeconds > 0, timeoutSeconds <= 86_400 else {
            throw .invalidLimit(name: "timeout", value: "\(timeoutSeconds)", allowed: "more than 0 and at most 86400 seconds")
        }
        if let fuel, fuel == 0 {
            throw .invalidLimit(name: "fuel", value: "0", allowed: "at least 1 (omit the cap with --no-fuel-limit)")
        }
        return self
    }
}
