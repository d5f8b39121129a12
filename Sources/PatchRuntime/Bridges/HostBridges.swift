// Entry points for `patchcli run` (names as they exist with WasmKit 0.4.2):
//
//   let state = BridgeState(configuration: HostBridgeConfiguration(platform: .iOS, fixtures: …))
//   var imports = Imports()
//   HostBridges.define(into: &imports, store: store, state: state)        // every served stand-in
//   let declared = try HostBridges.declaredFunctionImports(of: module)
//   let unserved = HostBridges.unservedImports(declared, table: state.configuration.servedImports)
//   if state.configuration.allowMissingImports {
//       HostBridges.defineTrappingStandIns(for: unserved, into: &imports, store: store, state: state)
//   }   // else: report `unserved` and refuse to instantiate
//   // define WASI (wasi_snapshot_preview1) separately, then instantiate
//
// `HostBridges.served` / `ServedImports.table(for:)` list what a device serves; `AsyncPump` drives async guests.
// Stand-ins are table-driven: each `StandIn` pairs the exact served signature with its deterministic body,
// and the served-import list is derived from the same table.

@_spi(OnlyForCLI) import WasmKit

/// A deterministic replacement for one device bridge.
struct StandIn: Sendable {
    typealias Body = @Sendable (BridgeInvocation) throws -> [Value]

    let served: ServedImport
    let body: Body

    init(
        _ module: String, _ name: String, _ parameters: [ValueType], _ results: [ValueType] = [],
        _ availability: ImportAvailability = .allPlatforms, body: @escaping Body
    ) {
        self.served = ServedImport(
            module: module, name: name, parameters: parameters, results: results, availability: availability)
        self.body = body
    }
}

/// A function import a module declares, with its signature.
public struct DeclaredFunctionImport: Sendable, Hashable, CustomStringConvertible {
    public let module: String
    public let name: String
    public let parameters: [ValueType]
    public let results: [ValueType]

    public init(module: String, name: String, parameters: [ValueType], results: [ValueType]) {
        self.module = module
        self.name = name
        self.parameters = parameters
        self.results = results
    }

    public var signatureText: String { ServedImport.signatureText(parameters: parameters, results: results) }
    public var description: String { "\(module).\(name)\(signatureText)" }
}

/// Why a declared import has no stand-in.
public struct UnservedImport: Sendable, Hashable, CustomStringConvertible {
    public let declared: DeclaredFunctionImport
    /// The device's signature when the name is served but declared with another signature.
    public let served: ServedImport?

    public var description: String {
        if let served {
            return "\(declared.module).\(declared.name) is declared as \(declared.signatureText) but the device serves \(ServedImport.signatureText(parameters: served.parameters, results: served.results))"
        }
        return "\(declared.module).\(declared.name)\(declared.signatureText) is not served by the device SDK"
    }
}

public enum HostBridges {
    /// Modules whose imports other host code serves (WASI comes from WasmKitWASI, not from here).
    public static let externallyServedModules: Set<String> = ["wasi_snapshot_preview1"]

    /// Every stand-in, both platform profiles and the opt-in bridges included.
    static let standIns: [StandIn] =
        coreStandIns + deviceStandIns + foundationStandIns + hostABIStandIns + asyncStandIns

    /// What a device with the state's configuration serves.
    public static func served(for configuration: HostBridgeConfiguration) -> [ServedImport] {
        configuration.servedImports.imports
    }

    /// Defines the stand-in of every import the configured device serves into `imports`.
    public static func define(into imports: inout Imports, store: Store, state: BridgeState) {
        define(into: &imports, store: store, state: state, stack: nil)
    }

    /// As above, with the guest calls a bridge makes (`patch_malloc`) going through the calling module
    /// instance's stack slot (`GuestStack`); nil runs each on a stack of its own.
    static func define(into imports: inout Imports, store: Store, state: BridgeState, stack: GuestStack?) {
        let table = state.configuration.servedImports
        for standIn in standIns where table.lookup(module: standIn.served.module, name: standIn.served.name) != nil {
            let served = standIn.served
            let body = standIn.body
            let function = Function(store: store, parameters: served.parameters, results: served.results) {
                caller, arguments in
                try body(BridgeInvocation(served: served, arguments: arguments, state: state, instance: caller.instance, stack: stack))
            }
            imports.define(module: served.module, name: served.name, function)
        }
    }

    /// The function imports `module` declares, with their signatures.
    public static func declaredFunctionImports(of module: Module) -> [DeclaredFunctionImport] {
        module.imports.compactMap { entry in
            guard case .function(let typeIndex) = entry.descriptor,
                let type = module.functionType(at: typeIndex)
            else { return nil }
            return DeclaredFunctionImport(
                module: entry.module, name: entry.name, parameters: type.parameters, results: type.results)
        }
    }

    /// The declared imports that neither the stand-ins (for `table`) nor `externallyServedModules` answer,
    /// including served names declared with a different signature.
    public static func unservedImports(
        _ declared: [DeclaredFunctionImport], table: ServedImportTable
    ) -> [UnservedImport] {
        declared.compactMap { entry in
            if externallyServedModules.contains(entry.module) { return nil }
            guard let served = table.lookup(module: entry.module, name: entry.name) else {
                return UnservedImport(declared: entry, served: nil)
            }
            if served.parameters == entry.parameters && served.results == entry.results { return nil }
            return UnservedImport(declared: entry, served: served)
        }
    }

    /// `--allow-missing-imports`: gives each unserved import a function of its declared signature that
    /// records the call and traps with `BridgeTrap.importNotProvided`. Replaces a same-named stand-in
    /// whose signature differs, so the module instantiates and fails only if it really calls it.
    public static func defineTrappingStandIns(
        for unserved: [UnservedImport], into imports: inout Imports, store: Store, state: BridgeState
    ) {
        for entry in unserved {
            let declared = entry.declared
            let servedSignature = entry.served.map {
                ServedImport.signatureText(parameters: $0.parameters, results: $0.results)
            }
            let function = Function(store: store, parameters: declared.parameters, results: declared.results) {
                _, arguments in
                state.record(
                    BridgeCallRecord(
                        module: declared.module, name: declared.name, arguments: arguments.map { "\($0)" }))
                throw BridgeTrap.importNotProvided(
                    module: declared.module, name: declared.name, declared: declared.signatureText,
                    served: servedSignature)
            }
            imports.define(module: declared.module, name: declared.name, function)
        }
    }
}
