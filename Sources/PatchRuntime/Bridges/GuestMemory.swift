import WasmKit

/// A failure inside a host bridge or the async pump's host side. Thrown from a host function it aborts
/// the guest call like a trap and reaches the caller of the export unchanged.
public enum BridgeTrap: Error, CustomStringConvertible, Equatable {
    /// The guest passed (or its allocator returned) a range outside its linear memory.
    case memoryOutOfBounds(bridge: String, offset: UInt64, length: UInt64, memorySize: Int)
    /// The calling module has no `memory` export to read arguments from / write results into.
    case noMemoryExport(bridge: String)
    /// A bridge had to hand bytes to the guest but the module exports no `patch_malloc(i32) -> i32`.
    case noAllocator(bridge: String)
    /// `patch_malloc` answered with something other than one non-zero i32.
    case allocatorFailed(bridge: String, requested: Int, detail: String)
    /// A host function was called with an argument of the wrong type (only possible when invoked
    /// directly by the host, never through a validated import).
    case argumentTypeMismatch(bridge: String, index: Int, expected: String)
    /// The bridge was invoked directly by the host, so there is no calling instance whose memory to use.
    case noCallingInstance(bridge: String)
    /// An import no stand-in serves was called (only defined under `--allow-missing-imports`).
    case importNotProvided(module: String, name: String, declared: String, served: String?)

    public var description: String {
        switch self {
        case .memoryOutOfBounds(let bridge, let offset, let length, let memorySize):
            return "\(bridge): guest memory range [\(offset), \(offset + length)) (\(length) bytes) is outside the module's \(memorySize)-byte memory"
        case .noMemoryExport(let bridge):
            return "\(bridge): the calling module exports no \"memory\"; bridges that pass strings or bytes need it"
        case .noAllocator(let bridge):
            return "\(bridge): the module exports no patch_malloc(i32) -> i32, which the host needs to hand back bytes (export it from the guest)"
        case .allocatorFailed(let bridge, let requested, let detail):
            return "\(bridge): patch_malloc(\(requested)) failed: \(detail)"
        case .argumentTypeMismatch(let bridge, let index, let expected):
            return "\(bridge): argument \(index) must be \(expected)"
        case .noCallingInstance(let bridge):
            return "\(bridge) was called without a calling module instance, so it has no guest memory to use"
        case .importNotProvided(let module, let name, let declared, let served):
            var text = "import \(module).\(name) is not provided by patchcli run's stand-ins"
            if let served {
                text += " with the declared signature \(declared) (the device serves \(served))"
            }
            return text + "; it was allowed by --allow-missing-imports and trapped when called"
        }
    }
}

/// Bounds-checked access to one instance's linear memory plus its `patch_malloc`/`patch_free`.
/// Every read and write is checked against the current memory size first: WasmKit's own accessors
/// `precondition` on out-of-range access, which would crash the CLI instead of failing the guest.
struct GuestMemory {
    let memory: Memory
    /// The module's `patch_malloc` and `patch_free` exports, looked up once (nil when not exported).
    let allocator: Function?
    let deallocator: Function?
    /// The module instance's reusable stack for the allocator calls; nil runs each on a stack of its own.
    let stack: GuestStack?
    /// `module.name` of the bridge (or pump step) doing the access, for messages.
    var site: String

    init(instance: Instance, site: String, stack: GuestStack? = nil) throws(BridgeTrap) {
        guard let memory = instance.exports[memory: "memory"] else {
            throw .noMemoryExport(bridge: site)
        }
        self.memory = memory
        allocator = instance.exports[function: "patch_malloc"]
        deallocator = instance.exports[function: "patch_free"]
        self.stack = stack
        self.site = site
    }

    private func checkRange(offset: UInt64, length: UInt64) throws(BridgeTrap) {
        let size = memory.byteCount
        guard offset <= UInt64(size), length <= UInt64(size) - offset else {
            throw .memoryOutOfBounds(bridge: site, offset: offset, length: length, memorySize: size)
        }
    }

    func read(offset: UInt32, length: UInt32) throws(BridgeTrap) -> [UInt8] {
        try checkRange(offset: UInt64(offset), length: UInt64(length))
        guard length > 0 else { return [] }
        return memory.withUnsafeBufferPointer(offset: UInt(offset), count: Int(length)) { Array($0) }
    }

    func write(_ bytes: [UInt8], at offset: UInt32) throws(BridgeTrap) {
        try checkRange(offset: UInt64(offset), length: UInt64(bytes.count))
        guard !bytes.isEmpty else { return }
        memory.withUnsafeMutableBufferPointer(offset: UInt(offset), count: bytes.count) { destination in
            destination.copyBytes(from: bytes)
        }
    }

    /// Copies `bytes` into a fresh `patch_malloc` buffer the guest will own and returns its pointer.
    /// A buffer the allocator placed out of bounds is freed again before failing (§2.3).
    func allocate(_ bytes: [UInt8]) throws -> UInt32 {
        guard let malloc = allocator else {
            throw BridgeTrap.noAllocator(bridge: site)
        }
        guard let length = UInt32(exactly: bytes.count) else {
            throw BridgeTrap.allocatorFailed(
                bridge: site, requested: bytes.count, detail: "the result does not fit a 32-bit length")
        }
        let results = try malloc.invoke([.i32(length)], reusing: stack)
        guard results.count == 1, case .i32(let pointer) = results[0] else {
            throw BridgeTrap.allocatorFailed(
                bridge: site, requested: bytes.count, detail: "it returned \(results) instead of one i32")
        }
        guard pointer != 0 else {
            throw BridgeTrap.allocatorFailed(bridge: site, requested: bytes.count, detail: "it returned 0 (out of memory)")
        }
        do {
            try write(bytes, at: pointer)
        } catch {
            try free(pointer)
            throw error
        }
        return pointer
    }

    /// `patch_free(pointer)` when the module exports it (it is optional in the contract).
    func free(_ pointer: UInt32) throws {
        guard pointer != 0, let free = deallocator else { return }
        try free.invoke([.i32(pointer)], reusing: stack)
    }

    /// The packed-i64 bridge result for `bytes` (§2.2): `(ptr << 32) | len`, 0 for empty.
    func packedResult(_ bytes: [UInt8]) throws -> UInt64 {
        guard !bytes.isEmpty else { return 0 }
        let pointer = try allocate(bytes)
        return (UInt64(pointer) << 32) | UInt64(bytes.count)
    }

    /// Reads the bytes a packed i64 points at (a guest export's result).
    func read(packed: UInt64) throws(BridgeTrap) -> [UInt8] {
        try read(offset: UInt32(truncatingIfNeeded: packed >> 32), length: UInt32(truncatingIfNeeded: packed))
    }
}

/// One call of a stand-in: its arguments, the calling instance and the shared state.
struct BridgeInvocation {
    let served: ServedImport
    let arguments: [Value]
    let state: BridgeState
    private let instance: Instance?
    /// The calling module instance's stack slot, so that a bridge calling back into the guest
    /// (`patch_malloc`) goes through it (and, the outer call holding the stack, runs on a fresh one).
    private let stack: GuestStack?

    init(served: ServedImport, arguments: [Value], state: BridgeState, instance: Instance?, stack: GuestStack?) {
        self.served = served
        self.arguments = arguments
        self.state = state
        self.instance = instance
        self.stack = stack
    }

    var configuration: HostBridgeConfiguration { state.configuration }
    var site: String { "\(served.module).\(served.name)" }

    func guestMemory() throws(BridgeTrap) -> GuestMemory {
        guard let instance else { throw .noCallingInstance(bridge: site) }
        return try GuestMemory(instance: instance, site: site, stack: stack)
    }

    func i32(_ index: Int) throws(BridgeTrap) -> Int32 {
        guard index < arguments.count, case .i32(let raw) = arguments[index] else {
            throw .argumentTypeMismatch(bridge: site, index: index, expected: "i32")
        }
        return Int32(bitPattern: raw)
    }

    func i64(_ index: Int) throws(BridgeTrap) -> Int64 {
        guard index < arguments.count, case .i64(let raw) = arguments[index] else {
            throw .argumentTypeMismatch(bridge: site, index: index, expected: "i64")
        }
        return Int64(bitPattern: raw)
    }

    /// An f64 passed as its bit pattern in an i64 (the `patch_host` convention).
    func f64Bits(_ index: Int) throws(BridgeTrap) -> Double {
        Double(bitPattern: UInt64(bitPattern: try i64(index)))
    }

    /// The `(ptr, len)` pair at argument `index` and `index + 1`.
    func bytes(_ index: Int) throws(BridgeTrap) -> [UInt8] {
        let pointer = UInt32(bitPattern: try i32(index))
        let length = UInt32(bitPattern: try i32(index + 1))
        return try guestMemory().read(offset: pointer, length: length)
    }

    /// UTF-8 string at `(ptr, len)`; invalid sequences decode lossily, as on the device.
    func string(_ index: Int) throws(BridgeTrap) -> String {
        String(decoding: try bytes(index), as: UTF8.self)
    }

    func packed(_ bytes: [UInt8]) throws -> [Value] {
        guard !bytes.isEmpty else { return [.i64(0)] }
        return [.i64(try guestMemory().packedResult(bytes))]
    }

    /// nil and "" both pack to 0 (the contract cannot tell them apart).
    func packed(_ string: String?) throws -> [Value] {
        try packed(Array((string ?? "").utf8))
    }

    func record(_ arguments: [String]) {
        state.record(BridgeCallRecord(module: served.module, name: served.name, arguments: arguments))
    }
}

extension Value {
    static func int32(_ value: Int32) -> Value { .i32(UInt32(bitPattern: value)) }
    static func int64(_ value: Int64) -> Value { .i64(UInt64(bitPattern: value)) }
    static func bool(_ value: Bool) -> Value { .i32(value ? 1 : 0) }
    /// A Double returned as its IEEE bit pattern inside an i64 (`patch_host` has no f64 results).
    static func f64Bits(_ value: Double) -> Value { .i64(value.bitPattern) }
}
