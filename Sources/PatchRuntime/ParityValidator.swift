import WasmKit
import WasmKitWASI
import WasmParser

/// Applies the device runtime's loadability rules (sdk-contract §1.1) to one module before anything
/// runs: exactly one memory, exported as `memory`; no proposal outside the SDK's feature set; every
/// import a WASI Preview 1 function or a served `patch.*` / `patch_host.*` bridge with its exact
/// signature. Function bodies are validated later, by WasmKit's eager translation at instantiation.
public struct ParityValidator: Sendable {
    let bridges: ServedImportTable

    public static let wasiModule = "wasi_snapshot_preview1"

    /// Import name → signature of every WASI Preview 1 function. A constant of the linked WasmKit,
    /// built once per process: building it sets up a whole WASI bridge, which was a tenth of a small
    /// module's activation when done per session (benchmarks/run).
    static let wasiSignatures = wasiPreview1Signatures()

    public init(bridges: ServedImportTable) {
        self.bridges = bridges
    }

    /// The WASI Preview 1 functions WasmKitWASI links, with their exact types, read from WasmKit itself
    /// so the table cannot drift from what the device serves.
    static func wasiPreview1Signatures() -> [String: FunctionType] {
        // An in-memory file system: building the table must not open any host file.
        guard let bridge = try? WASIBridgeToHost(fileSystem: .memory(try MemoryFileSystem())) else { return [:] }
        defer { try? bridge.close() }
        return bridge.hostFunctions(capabilities: WASICapability.all).mapValues(\.type)
    }

    /// All violations of `module` (index `moduleIndex` in its container), or none.
    func violations(in scan: ModuleScan) -> [ParityViolation] {
        var violations: [ParityViolation] = []
        if scan.memories.count > 1 {
            violations.append(ParityViolation(
                rule: .multipleMemories, item: "memory",
                detail: "the module defines \(scan.memories.count) memories; the device runtime permits exactly one"))
        }
        if !scan.memoryExportNames.contains("memory") {
            let found = scan.memoryExportNames.isEmpty ? "no memory is exported" : "memory is exported as \(scan.memoryExportNames.map { "\"\($0)\"" }.joined(separator: ", "))"
            violations.append(ParityViolation(
                rule: .missingMemoryExport, item: "memory",
                detail: "\(found); the device requires a memory export named \"memory\" (link with --export-memory or keep wasm-ld's default)"))
        }
        for (feature, location) in scan.features {
            violations.append(ParityViolation(
                rule: .unsupportedFeature, item: feature,
                detail: "used by \(location); the device's WasmKit accepts only mutable-globals, sign-ext, non-trapping float-to-int, bulk-memory, reference-types and multi-value (rebuild without this feature)"))
        }
        for (item, kind) in scan.nonFunctionImports {
            violations.append(ParityViolation(
                rule: .unsupportedImportKind, item: item,
                detail: "imports a \(kind); the device only provides function imports (export the \(kind) from the module instead)"))
        }
        for entry in scan.functionImports {
            if let violation = importViolation(entry) { violations.append(violation) }
        }
        return violations
    }

    private func importViolation(_ entry: ModuleScan.FunctionImport) -> ParityViolation? {
        let item = "\(entry.module).\(entry.name)"
        guard let type = entry.type else {
            return ParityViolation(rule: .importSignatureMismatch, item: item, detail: "its type index does not name a function type")
        }
        let found = ServedImport.signatureText(parameters: type.parameters, results: type.results)
        let expected: FunctionType
        switch entry.module {
        case Self.wasiModule:
            guard let wasi = Self.wasiSignatures[entry.name] else {
                return ParityViolation(rule: .unservedImport, item: item, detail: "not a WASI Preview 1 function")
            }
            expected = wasi
        case "patch", "patch_host":
            guard let served = bridges.lookup(module: entry.module, name: entry.name) else {
                return ParityViolation(
                    rule: .unservedImport, item: item,
                    detail: "no \(entry.module) bridge of this name is served on \(bridges.platform) (see sdk-contract §3)")
            }
            expected = FunctionType(parameters: served.parameters, results: served.results)
        default:
            return ParityViolation(
                rule: .unservedImport, item: item,
                detail: "import module \"\(entry.module)\" is not served; devices serve only wasi_snapshot_preview1, patch and patch_host")
        }
        guard expected == type else {
            let wanted = ServedImport.signatureText(parameters: expected.parameters, results: expected.results)
            return ParityViolation(rule: .importSignatureMismatch, item: item, detail: "imported as \(found) but served as \(wanted)")
        }
        return nil
    }
}
