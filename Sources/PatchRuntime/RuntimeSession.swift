import WasmKit
import WasmParser

/// An activated artifact: every module instantiated and initialized, calls routed the way the SDK
/// routes them (sdk-contract §1.2: the first module, in container order, exporting the name).
///
/// Not thread-safe and bound to the thread that created it; `RuntimeSession.withSession` creates one
/// on a watchdog thread and closes it again.
public final class RuntimeSession {
    let members: [ModuleInstance]
    public let bridgeState: BridgeState
    public let options: RuntimeOptions
    let progress: ProgressMarker
    /// Every export routed so far: exports cannot change after activation, so the lookup, the
    /// signature text and the argument checks are done once per export, not on every call.
    private var routes: [String: RoutedExport] = [:]
    private var closed = false

    /// Activates `artifact`: all modules or none (a failure closes what was already instantiated).
    public init(artifact: LoadedArtifact, options: RuntimeOptions, progress: ProgressMarker = ProgressMarker()) throws(RuntimeError) {
        let limits = try options.limits.validated()
        self.options = options
        self.progress = progress
        bridgeState = BridgeState(configuration: options.bridges)
        let engine = Engine(configuration: Self.engineConfiguration(limits: limits))
        let validator = ParityValidator(bridges: options.bridges.servedImports)
        var members: [ModuleInstance] = []
        for (index, bytes) in artifact.modules.enumerated() {
            do {
                members.append(try ModuleInstance(index: index, bytes: bytes, engine: engine, options: options,
                                                  bridgeState: bridgeState, validator: validator, progress: progress))
            } catch {
                members.forEach { $0.close() }
                throw error
            }
        }
        self.members = members
    }

    /// The engine every activation runs on: *eager* translation, so every function body is validated
    /// before anything runs (a broken function that is never called is still caught), the stack and
    /// fuel metering from `limits`. Public so that a benchmark's bare-WasmKit peer runs on exactly
    /// this configuration.
    public static func engineConfiguration(limits: RuntimeLimits) -> EngineConfiguration {
        EngineConfiguration(compilationMode: .eager, stackSize: limits.stackSizeBytes, features: .all,
                            fuelMetering: limits.fuel != nil)
    }

    /// The proposals the device's WasmKit parses with: reference types only (sdk-contract §1.1; bulk
    /// memory needs no flag). The parity scan has already named any other proposal in use.
    public static let deviceFeatures: WasmFeatureSet = [.referenceTypes]

    /// Creates a session on a watchdog thread, runs `body` with it there and closes it, all under
    /// the options' wall-clock timeout.
    public static func withSession<Value: Sendable>(
        artifact: LoadedArtifact, options: RuntimeOptions,
        _ body: @escaping @Sendable (RuntimeSession) throws(RuntimeError) -> Value
    ) throws(RuntimeError) -> Value {
        let progress = ProgressMarker()
        return try Watchdog.run(timeoutSeconds: options.limits.timeoutSeconds, progress: progress) { () throws(RuntimeError) in
            let session = try RuntimeSession(artifact: artifact, options: options, progress: progress)
            defer { session.close() }
            return try body(session)
        }
    }

    /// The module that serves `export`, the function itself and what calling it needs.
    func route(_ export: String) throws(RuntimeError) -> RoutedExport {
        if let routed = routes[export] { return routed }
        for member in members {
            if let function = member.function(named: export) {
                let routed = RoutedExport(member: member, function: function)
                routes[export] = routed
                return routed
            }
        }
        let available = Set(members.flatMap(\.scan.functionExports)).sorted()
        throw .exportNotFound(name: export, available: available)
    }

    /// The exported functions of all modules, in routing order, without duplicates.
    public var exportedFunctions: [String] {
        var seen: Set<String> = []
        return members.flatMap(\.scan.functionExports).filter { seen.insert($0).inserted }
    }

    /// Highest linear-memory size any module reached, in bytes.
    public var memoryHighWaterBytes: Int {
        members.map(\.cap.highWaterBytes).max() ?? 0
    }

    /// Runs one guest entry of `member`, turning every failure into a trap report.
    func invoke<T>(_ member: ModuleInstance, export: String, _ body: () throws -> T) throws(RuntimeError) -> (value: T, fuelUsed: UInt64?) {
        progress.setCalling(export, moduleIndex: member.index)
        do {
            return try member.metered(body)
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw .trapped(TrapReport.classify(error, export: export, moduleIndex: member.index,
                                               limitHit: member.cap.exceeded, name: member.scan.displayName(ofFunction:)))
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        members.forEach { $0.close() }
    }

    deinit {
        close()
    }
}
