import Foundation
import PatchBuild
import PatchManifest
@testable import PatchRuntime
import WAT

/// Builds the test guests from the sources in Fixtures/ at test time (no committed binaries).
enum GuestBuilder {
    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The toolchain directory holding clang, wasm-ld and swiftc: next to the `swiftc` on PATH.
    static let toolchainBin: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory))
            if ["swiftc", "clang", "wasm-ld"].allSatisfy({ FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent($0).path) }) {
                return candidate
            }
        }
        return nil
    }()

    /// Tests that compile guests run when the toolchain is there, and always under CI=true, where a
    /// missing toolchain must fail them rather than skip them.
    static let canCompile = toolchainBin != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    static func wat(named name: String) throws -> [UInt8] {
        try wat(String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8))
    }

    static func wat(_ text: String) throws -> [UInt8] {
        try wat2wasm(text, features: .all)
    }

    /// Appends a `name` section naming functions by index (WasmKit's WAT encoder writes none).
    static func naming(_ module: [UInt8], _ names: [UInt32: String]) -> [UInt8] {
        func leb(_ value: Int) -> [UInt8] {
            var value = value, bytes: [UInt8] = []
            repeat {
                var byte = UInt8(value & 0x7F); value >>= 7
                if value != 0 { byte |= 0x80 }
                bytes.append(byte)
            } while value != 0
            return bytes
        }
        func name(_ text: String) -> [UInt8] { leb(text.utf8.count) + Array(text.utf8) }
        var map = leb(names.count)
        for (index, text) in names.sorted(by: { $0.key < $1.key }) { map += leb(Int(index)) + name(text) }
        let subsection = [UInt8(1)] + leb(map.count) + map
        let payload = name("name") + subsection
        return module + [0] + leb(payload.count) + payload
    }

    /// The guest support runtime `patchcli build` links into every Swift guest.
    static let templateSupport = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("templates/guest/support.c")

    /// A freestanding C fixture (guest.c, view_guest.c) compiled to wasm, with `linking` C files.
    static func cGuest(_ fixture: String = "guest.c", linking: [URL] = []) throws -> [UInt8] {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("guest.wasm")
        // -mbulk-memory: guest.c's echo copies with memory.copy, stated rather than left to clang's default CPU.
        try run("clang", ["--target=wasm32", "-O1", "-mbulk-memory", "-nostdlib", "-Wl,--no-entry", "-Wl,--export-dynamic",
                          "-o", output.path, fixtures.appendingPathComponent(fixture).path] + linking.map(\.path))
        return [UInt8](try Data(contentsOf: output))
    }

    static func embeddedSwiftGuest() throws -> [UInt8] {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let object = directory.appendingPathComponent("guest.o").path
        let support = directory.appendingPathComponent("support.o").path
        let output = directory.appendingPathComponent("embedded.wasm")
        try run("swiftc", ["-target", "wasm32-unknown-none-wasm", "-enable-experimental-feature", "Embedded", "-wmo",
                           "-parse-as-library", "-Osize", "-Xfrontend", "-disable-stack-protector", "-module-name", "Guest",
                           fixtures.appendingPathComponent("embedded.swift").path, "-c", "-o", object])
        try run("clang", ["--target=wasm32-unknown-unknown", "-O2", "-c", fixtures.appendingPathComponent("support.c").path, "-o", support])
        try run("wasm-ld", ["--no-entry", "--export=double_it", "--export=shout", "--export=patch_malloc",
                            "--export=patch_free", "--gc-sections", object, support, "-o", output.path])
        return [UInt8](try Data(contentsOf: output))
    }

    static let templates = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("templates/guest")

    /// The Foundation layer and templates/guest/ViewDSL.swift with its `ViewDSL+<Part>.swift` files,
    /// as `patchcli build` lists them for the view DSL's library.
    static var viewDSLFiles: [String] {
        GuestTemplates.viewDSLLibraryFiles(in: templates.path).map { templates.appendingPathComponent($0).path }
    }

    /// A view guest: `fixture` compiled with the prelude and view DSL `patchcli build` puts in view
    /// modules, linked with the template support runtime.
    static func viewDSLGuest(_ fixture: String, exports: [String]) throws -> [UInt8] {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let object = directory.appendingPathComponent("guest.o").path
        let support = directory.appendingPathComponent("support.o").path
        let output = directory.appendingPathComponent("view.wasm")
        try run("swiftc", ["-target", "wasm32-unknown-none-wasm", "-enable-experimental-feature", "Embedded", "-wmo",
                           "-parse-as-library", "-Osize", "-Xfrontend", "-disable-stack-protector", "-module-name", "PatchGuest",
                           "-import-objc-header", templates.appendingPathComponent("PatchGuestSupport.h").path,
                           templates.appendingPathComponent("Prelude.swift").path] + viewDSLFiles + [
                           fixtures.appendingPathComponent(fixture).path, "-c", "-o", object])
        try run("clang", ["--target=wasm32-unknown-unknown", "-ffreestanding", "-fno-builtin", "-Oz", "-mbulk-memory",
                          "-c", templateSupport.path, "-o", support])
        let unicodeTables = toolchainBin!.deletingLastPathComponent()
            .appendingPathComponent("lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a").path
        try run("wasm-ld", ["--no-entry", "--export-memory", "--gc-sections"] + (exports + ["patch_malloc", "patch_free"]).map { "--export=\($0)" }
                + [object, support, unicodeTables, "-o", output.path])
        return [UInt8](try Data(contentsOf: output))
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchruntime-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        guard let bin = toolchainBin else {
            throw BuildFailure(description: "\(tool) not found on PATH (a Swift toolchain with wasm support is required)")
        }
        let process = Process()
        process.executableURL = bin.appendingPathComponent(tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BuildFailure(description: "\(tool) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}

/// Shorthands for the tests.
extension LoadedArtifact {
    static func module(_ bytes: [UInt8]) throws -> LoadedArtifact {
        try ArtifactLoader.load(bytes, expectedSHA256: nil)
    }
}

/// Options with small limits, so the failure-mode tests end quickly.
func testOptions(fuel: UInt64? = 50_000_000, maxMemoryPages: Int = 64, timeout: Double = 60,
                 parity: Bool = true, allowMissingImports: Bool = false) -> RuntimeOptions {
    RuntimeOptions(
        limits: RuntimeLimits(fuel: fuel, maxMemoryPages: maxMemoryPages, stackSizeBytes: 64 * 1024, timeoutSeconds: timeout),
        enforceParity: parity, seed: 7,
        bridges: HostBridgeConfiguration(allowMissingImports: allowMissingImports))
}

func session(_ bytes: [UInt8], _ options: RuntimeOptions = testOptions()) throws -> RuntimeSession {
    try RuntimeSession(artifact: .module(bytes), options: options)
}

/// The error a throwing expression ends with, for pattern matching in #expect.
func runtimeError(_ body: () throws -> Void) -> RuntimeError? {
    do {
        try body()
        return nil
    } catch let error as RuntimeError {
        return error
    } catch {
        return nil
    }
}
