import Foundation
import PatchBuild
import Testing

@Suite struct GuestToolchainTests {
    @Test func findsTheToolchainOnPath() throws {
        let toolchain = try Toolchain.discover()
        #expect(toolchain.swiftc.hasSuffix("/swiftc"))
        #expect(toolchain.embeddedWasmLibrary.hasSuffix("lib/swift/embedded/wasm32-unknown-none-wasm"))
        #expect(FileManager.default.fileExists(atPath: toolchain.unicodeDataTables))
    }

    @Test func acceptsTheToolchainRootTheUsrDirectoryAndTheBinDirectory() throws {
        let found = try Toolchain.discover()
        let bin = URL(fileURLWithPath: found.binDirectory)
        for path in [bin.path, bin.deletingLastPathComponent().path, bin.deletingLastPathComponent().deletingLastPathComponent().path] {
            #expect(try Toolchain.discover(explicitPath: path) == found)
        }
    }

    @Test func missingToolchainNamesWhatToInstall() {
        #expect {
            try Toolchain.discover(explicitPath: "/nonexistent/toolchain")
        } throws: { error in
            guard let error = error as? ToolchainError, case .notFound = error else { return false }
            return error.description.contains("--toolchain") && error.description.contains("swift.org")
        }
        #expect {
            try Toolchain.discover(environment: ["PATH": "/nonexistent"])
        } throws: { error in
            (error as? ToolchainError) == .notFound(searched: ["$SWIFT_TOOLCHAIN", "swiftc on PATH"])
        }
    }

    @Test func toolchainWithoutEmbeddedWasmIsIncomplete() throws {
        // A directory with an executable `swiftc` but nothing else, like a toolchain built without
        // the embedded wasm32 stdlib.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("patchbuild-fake-\(UUID().uuidString)")
        let bin = root.appendingPathComponent("usr/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let swiftc = bin.appendingPathComponent("swiftc").path
        #expect(FileManager.default.createFile(atPath: swiftc, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect {
            try Toolchain.discover(explicitPath: root.path)
        } throws: { error in
            guard case .incomplete(_, let missing) = error as? ToolchainError else { return false }
            return missing.count == 3 && missing.contains { $0.contains("wasm32-unknown-none-wasm") }
        }
    }

    @Test func aMissingSwiftSDKNamesWhatToInstall() throws {
        let sdks = try FakeSwiftSDKs()
        defer { sdks.remove() }
        try sdks.install(id: "other-sdk", triple: "wasm32-unknown-wasi", embedded: true)
        #expect {
            try Toolchain.discover(settings: .init(swiftSDK: "swift-6.2-RELEASE_wasm-embedded", swiftSDKsPath: sdks.directory.path))
        } throws: { error in
            guard let error = error as? ToolchainError,
                  case .swiftSDKMissing("swift-6.2-RELEASE_wasm-embedded", sdks.directory.path, ["other-sdk"]) = error
            else { return false }
            return error.description.contains("swift sdk install") && error.description.contains("build.swiftSDK")
        }
        // With nothing installed, the message says so rather than listing nothing.
        #expect(ToolchainError.swiftSDKMissing(requested: "x", directory: "/d", installed: []).description.contains("none is installed"))
    }

    @Test func anInstalledSwiftSDKBundleShapesTheGuestCommands() throws {
        let sdks = try FakeSwiftSDKs()
        defer { sdks.remove() }
        let variant = try sdks.install(id: "swift-6.2-RELEASE_wasm-embedded", triple: "wasm32-unknown-wasip1", embedded: true)
        let toolchain = try Toolchain.discover(settings: .init(swiftSDK: "swift-6.2-RELEASE_wasm-embedded", swiftSDKsPath: sdks.directory.path))
        let sdk = try #require(toolchain.swiftSDK)
        let resources = variant.appendingPathComponent("swift.xctoolchain/usr/lib/swift").path
        #expect(sdk == SwiftSDK(
            id: "swift-6.2-RELEASE_wasm-embedded", targetTriple: "wasm32-unknown-wasip1", sdkRoot: variant.appendingPathComponent("WASI.sdk").path,
            swiftResources: resources, embeddedLibrary: resources + "/embedded/wasm32-unknown-wasip1",
            includeSearchPaths: [], librarySearchPaths: []))
        #expect(sdk.libcDirectory == variant.appendingPathComponent("WASI.sdk/lib/wasm32-wasip1").path)

        let commands = GuestCommands(toolchain: toolchain, workDirectory: "/work/dir")
        #expect(commands.swiftc.starts(with: ["-target", "wasm32-unknown-wasip1", "-enable-experimental-feature", "Embedded"]))
        #expect(adjacent(commands.swiftc, "-sdk", sdk.sdkRoot) && adjacent(commands.swiftc, "-resource-dir", resources))
        #expect(commands.clang.starts(with: ["--target=wasm32-unknown-wasip1", "--sysroot=\(sdk.sdkRoot)", "-DPATCH_GUEST_LIBC"]))
        #expect(!commands.clang.contains("-ffreestanding"))
        let link = commands.link(exports: ["_pf_add____"])
        #expect(link.contains(sdk.libcDirectory + "/crt1-reactor.o") && link.contains("-L\(sdk.libcDirectory)") && link.last(where: { $0.hasPrefix("-l") }) == "-lc")
        #expect(link.contains("--export=_initialize") && link.contains("--export=_pf_add____") && link.contains("--export=patch_malloc"))
        #expect(link.contains(resources + "/embedded/wasm32-unknown-wasip1/libswiftUnicodeDataTables.a"))
    }

    @Test func withoutASwiftSDKGuestsTargetTheToolchainsEmbeddedWasm32() throws {
        let toolchain = try Toolchain.discover()
        #expect(toolchain.swiftSDK == nil)
        let commands = GuestCommands(toolchain: toolchain, workDirectory: "/work/dir")
        #expect(commands.swiftc.starts(with: ["-target", "wasm32-unknown-none-wasm"]))
        #expect(commands.swiftc.contains("-lto=llvm-full") && commands.swiftc.contains("-Osize") && !commands.swiftc.contains("-sdk"))
        // Only modules with views compile the prelude's faster input reading.
        #expect(!commands.swiftc.contains("PATCH_VIEWS"))
        #expect(commands.libraryCompile(.viewDSL, files: ["ViewDSL.swift"]).contains("PATCH_VIEWS"))
        #expect(!commands.libraryCompile(.foundation, files: ["Foundation.swift"]).contains("PATCH_VIEWS"))
        #expect(commands.clang.contains("-ffreestanding") && commands.clang.contains("-flto") && !commands.clang.contains("-DPATCH_GUEST_LIBC"))
        let link = commands.link(exports: ["_pf_add____"])
        #expect(!link.contains("-lc") && !link.contains("--export=_initialize") && link.contains(toolchain.unicodeDataTables))
    }

    @Test func aSwiftSDKWithoutAnEmbeddedStandardLibraryIsRefused() throws {
        let sdks = try FakeSwiftSDKs()
        defer { sdks.remove() }
        try sdks.install(id: "swift-6.2-RELEASE_wasm", triple: "wasm32-unknown-wasip1", embedded: false)
        #expect {
            try Toolchain.discover(settings: .init(swiftSDK: "swift-6.2-RELEASE_wasm", swiftSDKsPath: sdks.directory.path))
        } throws: { error in
            guard let error = error as? ToolchainError, case .swiftSDKWithoutEmbedded("swift-6.2-RELEASE_wasm", "wasm32-unknown-wasip1", _) = error
            else { return false }
            return error.description.contains("-embedded")
        }
    }

    @Test func wasmOptAlwaysRequiresBinaryen() throws {
        let found = try Toolchain.discover()
        let bin = found.binDirectory
        let withoutPath = ["PATH": "/nonexistent"]
        if FileManager.default.isExecutableFile(atPath: bin + "/wasm-opt") {
            // A toolchain that ships wasm-opt satisfies "always" by itself.
            #expect(try Toolchain.discover(explicitPath: bin, environment: withoutPath, settings: .init(wasmOpt: .always)).wasmOpt == bin + "/wasm-opt")
        } else {
            #expect(throws: ToolchainError.wasmOptMissing(searched: [bin, "/nonexistent"])) {
                try Toolchain.discover(explicitPath: bin, environment: withoutPath, settings: .init(wasmOpt: .always))
            }
            #expect(try Toolchain.discover(explicitPath: bin, environment: withoutPath).wasmOpt == nil)
        }
        #expect(try Toolchain.discover(settings: .init(wasmOpt: .never)).wasmOpt == nil)
    }

    /// Compiles a guest with a real Swift SDK for WASI: runs only where one with an Embedded standard
    /// library is installed in SwiftPM's default folder (none is on the project's CI machine).
    @Test(.enabled(if: installedEmbeddedWASISDK() != nil, "no Swift SDK for WASI with an Embedded standard library is installed"))
    func buildsAGuestWithAnInstalledWASISDKSkippedWhenNoneIsInstalled() throws {
        let id = try #require(installedEmbeddedWASISDK())
        let toolchain = try Toolchain.discover(settings: .init(swiftSDK: id))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("patchbuild-wasi-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: GuestHarness.fixtureApp, exports: ["add(_:_:)"], outputDirectory: output, toolchain: toolchain))
        #expect(result.manifest.exports.map(\.symbol) == ["_pf_add____"])
        let symbols = try String(contentsOfFile: output + "/symbols.json", encoding: .utf8)
        #expect(symbols.contains("_initialize") && symbols.contains("patch_malloc"))
    }

    @Test func declarationIDsMapToTheConventionsExportNames() throws {
        let cases = [
            ("PriceCalculator.total(items:discount:)", "_pf_PriceCalculator_total__items_discount"),
            ("formatPrice(_:currency:)", "_pf_formatPrice____currency"),
            ("Checkout.Validator.isValid(_:)", "_pf_Checkout_Validator_isValid___"),
            ("reset()", "_pf_reset__"),
            // Computed properties' getters: keys without parentheses.
            ("Cart.total", "_pf_Cart_total__get"),
            ("total", "_pf_total__get"),
        ]
        for (id, symbol) in cases {
            let name = try #require(GuestExportName(declarationID: id))
            #expect(name.jsonSymbol == symbol)
            #expect(name.declarationID == id)
        }
        for invalid in ["total items", "Cart..total", "total(items)", ".total()", "a..b()", "f(a b:)"] {
            #expect(GuestExportName(declarationID: invalid) == nil)
        }
    }
}

/// The first installed Swift SDK for WASI that `build` can use, if any.
private func installedEmbeddedWASISDK() -> String? {
    let toolchainLibrary = (try? Toolchain.discover())?.swiftLibrary ?? ""
    let directory = SwiftSDK.defaultDirectory()
    return SwiftSDK.installed(in: directory).first { (try? SwiftSDK.find($0.id, in: directory, toolchainLibrary: toolchainLibrary)) != nil }?.id
}

private func adjacent(_ arguments: [String], _ flag: String, _ value: String) -> Bool {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return false }
    return arguments[index + 1] == value
}

/// A Swift SDKs folder laid out as `swift sdk install` leaves it: `<id>.artifactbundle/info.json`
/// naming a `swiftSDK` artifact whose variant folder holds swift-sdk.json (schema 4.0), a WASI
/// sysroot and, for an embedded SDK, `embedded/<triple>` in its Swift resources.
private struct FakeSwiftSDKs {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchbuild-sdks-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    @discardableResult
    func install(id: String, triple: String, embedded: Bool) throws -> URL {
        let bundle = directory.appendingPathComponent("\(id).artifactbundle")
        let variant = bundle.appendingPathComponent("\(id)/\(triple)")
        let resources = variant.appendingPathComponent("swift.xctoolchain/usr/lib/swift")
        try FileManager.default.createDirectory(at: variant.appendingPathComponent("WASI.sdk/lib/\(triple.replacingOccurrences(of: "-unknown", with: ""))"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: resources.appendingPathComponent(embedded ? "embedded/\(triple)" : "wasi"), withIntermediateDirectories: true)
        try Data("""
            {"schemaVersion": "1.0", "artifacts": {"\(id)": {"type": "swiftSDK", "version": "0.0.1", "variants": [{"path": "\(id)/\(triple)"}]}}}
            """.utf8).write(to: bundle.appendingPathComponent("info.json"))
        try Data("""
            {"schemaVersion": "4.0", "targetTriples": {"\(triple)": {"sdkRootPath": "WASI.sdk", "swiftResourcesPath": "swift.xctoolchain/usr/lib/swift",
             "swiftStaticResourcesPath": "swift.xctoolchain/usr/lib/swift_static", "toolsetPaths": ["toolset.json"]}}}
            """.utf8).write(to: variant.appendingPathComponent("swift-sdk.json"))
        return variant
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
