import Foundation
import WASI
@_spi(Fuzzing) import WasmKit
import WasmKitWASI
import WasmParser

/// One instantiated module of an artifact, with its own store, resource cap (memory, tables), WASI and `_initialize`
/// (sdk-contract §1.2: every PMOD member is an independent instance).
final class ModuleInstance {
    let index: Int
    let scan: ModuleScan
    let store: Store
    let instance: Instance
    let cap: ResourceCap
    /// The stack this instance's guest calls run on, reused across calls.
    let stack: GuestStack
    /// Memory, `patch_malloc` and `patch_free`, looked up once for the packed ABI; nil without a
    /// `memory` export.
    let guestMemory: GuestMemory?
    /// The WASI host, made only for a module that imports WASI.
    private let wasi: WASIBridgeToHost?
    private let fuelBudget: UInt64?

    /// Validates, instantiates and initializes module `index`; nothing of it runs before the parity
    /// rules have passed and every function body has been validated.
    init(index: Int, bytes: [UInt8], engine: Engine, options: RuntimeOptions, bridgeState: BridgeState,
         validator: ParityValidator, progress: ProgressMarker) throws(RuntimeError) {
        self.index = index
        self.fuelBudget = options.limits.fuel
        progress.set("validating module \(index)")
        let scan: ModuleScan
        do {
            scan = try ModuleScan.scan(bytes)
        } catch {
            throw .parityRejected(moduleIndex: index, violations: [
                ParityViolation(rule: .malformedModule, item: "module \(index)", detail: "\(error)")])
        }
        self.scan = scan
        if options.enforceParity {
            var violations = validator.violations(in: scan)
            if options.bridges.allowMissingImports { violations.removeAll(where: \.isImportProblem) }
            guard violations.isEmpty else { throw .parityRejected(moduleIndex: index, violations: violations) }
        }
        if let initialPages = scan.memories.map(\.min).max(), initialPages > UInt64(options.limits.maxMemoryPages) {
            throw .initialMemoryExceedsLimit(moduleIndex: index, pages: initialPages, limit: options.limits.maxMemoryPages)
        }
        if let violation = ResourceCap.declaredTablesViolation(scan.tables, limits: options.limits, moduleIndex: index) {
            throw violation
        }

        var module: Module
        do {
            module = try parseWasm(bytes: bytes, features: options.enforceParity ? RuntimeSession.deviceFeatures : .all)
        } catch {
            throw .parityRejected(moduleIndex: index, violations: [
                ParityViolation(rule: .malformedModule, item: "module \(index)", detail: "\(error)")])
        }

        let cap = ResourceCap(limits: options.limits, tableCount: scan.tables.count)
        self.cap = cap
        // Only what the module imports from is made and linked: defining every WASI function and
        // every bridge as a host function was a third of a small module's activation
        // (benchmarks/run), and a definition nothing imports changes nothing.
        let importedModules = Set(scan.functionImports.map(\.module))
        let linksBridges = importedModules.contains { !HostBridges.externallyServedModules.contains($0) }
        let wasi: WASIBridgeToHost?
        do {
            wasi = importedModules.contains(ParityValidator.wasiModule) ? try ModuleInstance.makeWASI(options: options) : nil
        } catch {
            throw .instantiationFailed(moduleIndex: index, detail: "WASI could not be set up: \(error)")
        }
        self.wasi = wasi
        let store = Store(engine: engine)
        self.store = store
        let stack = GuestStack(engine: engine)
        self.stack = stack
        store.resourceLimiter = cap
        func linkServed(into imports: inout Imports, store: Store) {
            wasi?.link(to: &imports, store: store)
            if linksBridges { HostBridges.define(into: &imports, store: store, state: bridgeState, stack: stack) }
        }
        var imports = Imports()
        linkServed(into: &imports, store: store)
        if options.bridges.allowMissingImports {
            let unserved = HostBridges.unservedImports(
                HostBridges.declaredFunctionImports(of: module), table: options.bridges.servedImports)
            HostBridges.defineTrappingStandIns(for: unserved, into: &imports, store: store, state: bridgeState)
        }

        do {
            // A start function would run inside instantiate, before the eager translation validates
            // the bodies; validate a start-less copy first so that nothing runs unvalidated.
            if scan.hasStartFunction {
                var startless = module
                startless.dropStartFunction()
                let scratch = Store(engine: engine)
                scratch.resourceLimiter = ResourceCap(limits: options.limits, tableCount: scan.tables.count)
                var scratchImports = Imports()
                linkServed(into: &scratchImports, store: scratch)
                _ = try startless.instantiate(store: scratch, imports: scratchImports)
            }
            progress.set(scan.hasStartFunction ? "running the start function of module \(index)" : "instantiating module \(index)")
            let fuelBudget = self.fuelBudget
            instance = try ModuleInstance.metered(store: store, budget: fuelBudget) {
                try module.instantiate(store: store, imports: imports)
            }.value
        } catch let error as RuntimeError {
            try? wasi?.close()
            throw error
        } catch let error as WasmKitError {
            try? wasi?.close()
            throw ModuleInstance.instantiationError(error, scan: scan, index: index)
        } catch {
            try? wasi?.close()
            // Without a start function, what trapped is the module's own setup (a data or element segment out of bounds).
            let phase = scan.hasStartFunction ? "(start)" : "(instantiation)"
            throw .trapped(TrapReport.classify(error, export: phase, moduleIndex: index, limitHit: cap.exceeded,
                                               name: scan.displayName(ofFunction:)))
        }
        guestMemory = try? GuestMemory(instance: instance, site: "module \(index)", stack: stack)
        if let guestMemory { cap.observe(bytes: guestMemory.memory.byteCount) }

        if let initialize = instance.exports[function: "_initialize"] {
            progress.set("running _initialize of module \(index)")
            do {
                _ = try ModuleInstance.metered(store: store, budget: fuelBudget) { try initialize.invoke([], reusing: stack) }
            } catch {
                try? wasi?.close()
                throw .trapped(TrapReport.classify(error, export: "_initialize", moduleIndex: index,
                                                   limitHit: cap.exceeded, name: scan.displayName(ofFunction:)))
            }
        }
    }

    func function(named name: String) -> Function? {
        instance.exports[function: name]
    }

    /// Runs `body` (a guest entry) with a fresh fuel budget and reports the fuel it used.
    func metered<T>(_ body: () throws -> T) throws -> (value: T, fuelUsed: UInt64?) {
        try ModuleInstance.metered(store: store, budget: fuelBudget, body)
    }

    static func metered<T>(store: Store, budget: UInt64?, _ body: () throws -> T) throws -> (value: T, fuelUsed: UInt64?) {
        guard let budget else { return (try body(), nil) }
        store.fuel = Fuel(remaining: budget)
        defer { store.fuel = nil }
        let value = try body()
        return (value, budget - (store.fuel?.remaining ?? 0))
    }

    /// Turns a link or validation failure into the parity violation it is, naming the function
    /// whose body failed when WasmKit reports an offset inside one.
    static func instantiationError(_ error: WasmKitError, scan: ModuleScan, index: Int) -> RuntimeError {
        let text = String(describing: error)
        if let offset = reportedOffset(in: text), let function = scan.function(containing: offset) {
            return .parityRejected(moduleIndex: index, violations: [
                ParityViolation(rule: .invalidFunction, item: function, detail: "fails validation: \(text)")])
        }
        if text.hasPrefix("unknown import") || text.hasPrefix("incompatible import") {
            return .parityRejected(moduleIndex: index, violations: [
                ParityViolation(rule: .unservedImport, item: text, detail: "the import cannot be linked")])
        }
        return .instantiationFailed(moduleIndex: index, detail: text)
    }

    /// WasmKit appends `at offset 0x…` to validation messages.
    static func reportedOffset(in text: String) -> Int? {
        guard let range = text.range(of: "at offset 0x", options: .backwards) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isHexDigit }
        return Int(digits, radix: 16)
    }

    /// WASI as the device grants it: args ["patch"], no environment, no preopened directories; stdin
    /// reads as empty; stdout and stderr go to `guestOutputDescriptor`.
    static func makeWASI(options: RuntimeOptions) throws -> WASIBridgeToHost {
        let fileSystem = WASIBridgeToHost.FileSystemOptions.memory(try MemoryFileSystem())
            .withStdio(stdin: ModuleInstance.emptyInputDescriptor, stdout: options.guestOutputDescriptor,
                       stderr: options.guestOutputDescriptor)
        guard let seed = options.seed else {
            return try WASIBridgeToHost(args: ["patch"], environment: [:], fileSystem: fileSystem)
        }
        let clock = DeterministicClock(epochMillis: options.bridges.epochMillis)
        return try WASIBridgeToHost(args: ["patch"], environment: [:], fileSystem: fileSystem,
                                    wallClock: clock, monotonicClock: clock, randomGenerator: SeededRandomSource(seed: seed))
    }

    /// `/dev/null`, opened once per process and never closed: WASI borrows stdio descriptors.
    static let emptyInputDescriptor: Int32 = open("/dev/null", O_RDONLY)

    func close() {
        try? wasi?.close()
    }
}
