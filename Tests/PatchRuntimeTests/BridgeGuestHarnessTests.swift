import Foundation
import Testing
import WAT
import WasmKit

@testable import PatchRuntime

/// A real wasm guest wired to the stand-ins, for the bridge tests.
///
/// The generated module imports every served bridge (exact signatures) and re-exports each one as
/// `module.name` through a wrapper that forwards its parameters, so a test drives a bridge the way a
/// guest does: guest code calls the import, the stand-in reads and writes guest memory, and results
/// come back through the guest. Strings are placed with the guest's own bump `patch_malloc`;
/// `patch_free` counts its calls in the exported `frees` global.
struct BridgeGuest {
    let store: Store
    let instance: Instance
    let state: BridgeState

    init(configuration: HostBridgeConfiguration = HostBridgeConfiguration()) throws {
        try self.init(wat: BridgeGuest.forwardingModule(for: configuration.servedImports.imports), configuration: configuration)
    }

    init(wat: String, configuration: HostBridgeConfiguration = HostBridgeConfiguration()) throws {
        let module = try parseWasm(bytes: try wat2wasm(wat))
        store = Store(engine: Engine())
        state = BridgeState(configuration: configuration)
        var imports = Imports()
        HostBridges.define(into: &imports, store: store, state: state)
        if configuration.allowMissingImports {
            let unserved = HostBridges.unservedImports(
                HostBridges.declaredFunctionImports(of: module), table: configuration.servedImports)
            HostBridges.defineTrappingStandIns(for: unserved, into: &imports, store: store, state: state)
        }
        instance = try module.instantiate(store: store, imports: imports)
    }

    /// Guest memory, a bump allocator from 64 KiB up, and a free counter.
    static let runtimeSupport = """
          (memory (export "memory") 4)
          (global $heap (mut i32) (i32.const 65536))
          (global $frees (export "frees") (mut i32) (i32.const 0))
          (func (export "patch_malloc") (param $size i32) (result i32)
            (local $pointer i32)
            (local.set $pointer (global.get $heap))
            (global.set $heap (i32.add (global.get $heap) (i32.add (local.get $size) (i32.const 8))))
            (local.get $pointer))
          (func (export "patch_free") (param i32)
            (global.set $frees (i32.add (global.get $frees) (i32.const 1))))
        """

    static func forwardingModule(for imports: [ServedImport]) -> String {
        var text = "(module\n"
        for (index, entry) in imports.enumerated() {
            text += "  (import \"\(entry.module)\" \"\(entry.name)\" (func $f\(index)\(signature(entry))))\n"
        }
        text += runtimeSupport + "\n"
        for (index, entry) in imports.enumerated() {
            let forward = entry.parameters.indices.map { "(local.get \($0))" }.joined(separator: " ")
            text += "  (func (export \"\(entry.module).\(entry.name)\")\(signature(entry)) (call $f\(index) \(forward)))\n"
        }
        return text + ")\n"
    }

    private static func signature(_ entry: ServedImport) -> String {
        let parameters = entry.parameters.map { " \(ServedImport.valueTypeName($0))" }.joined()
        let results = entry.results.map { " \(ServedImport.valueTypeName($0))" }.joined()
        return (parameters.isEmpty ? "" : " (param\(parameters))") + (results.isEmpty ? "" : " (result\(results))")
    }

    @discardableResult
    func call(_ export: String, _ arguments: [Value] = []) throws -> [Value] {
        guard let function = instance.exports[function: export] else {
            throw HarnessError.missingExport(export)
        }
        return try function.invoke(arguments)
    }

    /// Copies `bytes` into guest memory through the guest's allocator; returns `[ptr, len]` arguments.
    func put(_ bytes: [UInt8]) throws -> [Value] {
        let results = try call("patch_malloc", [.i32(UInt32(bytes.count))])
        guard case .i32(let pointer)? = results.first else { throw HarnessError.badAllocation }
        try memory().write(bytes, at: pointer)
        return [.i32(pointer), .i32(UInt32(bytes.count))]
    }

    func put(_ text: String) throws -> [Value] { try put(Array(text.utf8)) }

    func memory() throws -> PatchRuntime.GuestMemory { try PatchRuntime.GuestMemory(instance: instance, site: "test") }

    /// The bytes a packed i64 result points at ([] for 0).
    func bytes(_ results: [Value]) throws -> [UInt8] {
        guard case .i64(let packed)? = results.first else { throw HarnessError.notPacked(results) }
        return try memory().read(packed: packed)
    }

    func text(_ results: [Value]) throws -> String? {
        guard case .i64(let packed)? = results.first else { throw HarnessError.notPacked(results) }
        if packed == 0 { return nil }
        return String(decoding: try memory().read(packed: packed), as: UTF8.self)
    }

    var frees: Int32 {
        guard case .i32(let raw)? = instance.exports[global: "frees"]?.value else { return -1 }
        return Int32(bitPattern: raw)
    }

    enum HarnessError: Error {
        case missingExport(String)
        case badAllocation
        case notPacked([Value])
    }
}

/// Result decoding shared by the bridge tests.
extension Array where Element == Value {
    var int32: Int32? {
        guard case .i32(let raw)? = first else { return nil }
        return Int32(bitPattern: raw)
    }

    var int64: Int64? {
        guard case .i64(let raw)? = first else { return nil }
        return Int64(bitPattern: raw)
    }

    /// An f64 returned as its bit pattern in an i64.
    var doubleFromBits: Double? {
        guard case .i64(let raw)? = first else { return nil }
        return Double(bitPattern: raw)
    }
}

@Suite struct BridgeGuestHarnessTests {
    @Test func generatedGuestImportsEveryServedBridgeOnEachProfile() throws {
        for platform in PlatformProfile.allCases {
            let configuration = HostBridgeConfiguration(platform: platform, serveOptInBridges: true)
            let guest = try BridgeGuest(configuration: configuration)
            for entry in configuration.servedImports.imports {
                #expect(guest.instance.exports[function: "\(entry.module).\(entry.name)"] != nil)
            }
        }
    }
}
