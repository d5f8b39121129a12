import Foundation
import Testing
import WAT
import WasmKit

@testable import PatchRuntime

/// Unserved imports: listing, refusal by default, lazy traps under `--allow-missing-imports`.
@Suite struct BridgeMissingImportTests {
    static let wat = """
        (module
          (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
          (import "patch" "navigate" (func $navigate (param i32 i32)))
          (import "patch" "teleport" (func $teleport (param i32) (result i64)))
          (import "patch" "log" (func $log_wrong (param i32)))
          (import "patch" "device_info" (func $device_info (result i64)))
          (memory (export "memory") 1)
          (data (i32.const 16) "home")
          (func (export "go_home") (call $navigate (i32.const 16) (i32.const 4)))
          (func (export "teleport") (result i64) (call $teleport (i32.const 5)))
          (func (export "log_wrong") (call $log_wrong (i32.const 1))))
        """

    @Test func unservedImportsAreListedWithTheReason() throws {
        let module = try parseWasm(bytes: try wat2wasm(Self.wat))
        let declared = HostBridges.declaredFunctionImports(of: module)
        #expect(declared.map(\.description) == [
            "wasi_snapshot_preview1.fd_write(i32, i32, i32, i32) -> i32",
            "patch.navigate(i32, i32)",
            "patch.teleport(i32) -> i64",
            "patch.log(i32)",
            "patch.device_info() -> i64",
        ])
        let onIOS = HostBridges.unservedImports(declared, table: ServedImports.table(for: .iOS))
        #expect(onIOS.map(\.description) == [
            "patch.teleport(i32) -> i64 is not served by the device SDK",
            "patch.log is declared as (i32) but the device serves (i32, i32, i32)",
        ])
        let onMac = HostBridges.unservedImports(declared, table: ServedImports.table(for: .macOS))
        #expect(onMac.map(\.declared.name) == ["teleport", "log", "device_info"])
    }

    @Test func withoutTheFlagTheModuleDoesNotInstantiate() throws {
        let module = try parseWasm(bytes: try wat2wasm(Self.wat))
        let store = Store(engine: Engine())
        var imports = Imports()
        HostBridges.define(into: &imports, store: store, state: BridgeState())
        #expect(throws: (any Error).self) { try module.instantiate(store: store, imports: imports) }
    }

    @Test func withTheFlagOnlyCallingAnUnservedImportTraps() throws {
        let withoutWASI = Self.wat.replacingOccurrences(
            of: #"(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))"#,
            with: "")
        let guest = try BridgeGuest(wat: withoutWASI, configuration: HostBridgeConfiguration(allowMissingImports: true))
        try guest.call("go_home")
        #expect(guest.state.navigations == ["home"])

        let missing = #expect(throws: BridgeTrap.self) { try guest.call("teleport") }
        #expect(missing == .importNotProvided(module: "patch", name: "teleport", declared: "(i32) -> i64", served: nil))
        #expect(missing?.description.hasPrefix("import patch.teleport is not provided by patchcli run's stand-ins") == true)

        let mismatched = #expect(throws: BridgeTrap.self) { try guest.call("log_wrong") }
        #expect(mismatched?.description.contains("(the device serves (i32, i32, i32))") == true)
        #expect(guest.state.calls.map(\.description) == ["patch.navigate(home)", "patch.teleport(i32(5))", "patch.log(i32(1))"])
    }
}
