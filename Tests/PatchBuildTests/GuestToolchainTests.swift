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

    @Test func aMissingWASISDKIsReportedWhenAskedFor() {
        #expect {
            try Toolchain.discover(wasiSDK: "no-such-wasi-sdk")
        } throws: { error in
            guard case .wasiSDKMissing(let requested, _) = error as? ToolchainError else { return false }
            return requested == "no-such-wasi-sdk"
        }
    }

    @Test func declarationIDsMapToTheConventionsExportNames() throws {
        let cases = [
            ("PriceCalculator.total(items:discount:)", "_pf_PriceCalculator_total__items_discount"),
            ("formatPrice(_:currency:)", "_pf_formatPrice____currency"),
            ("Checkout.Validator.isValid(_:)", "_pf_Checkout_Validator_isValid___"),
            ("reset()", "_pf_reset__"),
        ]
        for (id, symbol) in cases {
            let name = try #require(GuestExportName(declarationID: id))
            #expect(name.jsonSymbol == symbol)
            #expect(name.declarationID == id)
        }
        for invalid in ["total", "total(items)", ".total()", "a..b()", "f(a b:)"] {
            #expect(GuestExportName(declarationID: invalid) == nil)
        }
    }
}
