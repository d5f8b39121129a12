import Foundation
import PatchManifest

/// The compilers, linker and optimizer a guest build runs (and the Swift SDK it may use), found
/// once per build.
///
/// Guests are compiled with Embedded Swift for `wasm32-unknown-none-wasm`, which needs nothing
/// beyond a Swift toolchain that ships the embedded wasm32 standard library (Swift 6.x release
/// toolchains from swift.org do) plus that toolchain's `clang` and `wasm-ld`. A Swift SDK for WASI
/// is an alternative the project config may ask for; it is looked up, never required.
public struct Toolchain: Sendable, Equatable {
    /// `<toolchain>/usr/bin` (or the directory that holds `swiftc`).
    public var binDirectory: String
    public var swiftc: String
    public var clang: String
    public var wasmLinker: String
    /// `<toolchain>/usr/lib/swift/embedded/wasm32-unknown-none-wasm`.
    public var embeddedWasmLibrary: String
    /// Set when the project config asks for a Swift SDK for WASI (`build.swiftSDK`) and it is installed.
    public var swiftSDK: SwiftSDK?
    /// binaryen's `wasm-opt` (beside swiftc, else on `PATH`), when installed and `build.wasmOpt` is not
    /// `never`: `build` runs it on every module (`GuestCommands.wasmOpt`).
    public var wasmOpt: String?

    public static let embeddedTarget = "wasm32-unknown-none-wasm"

    /// `<toolchain>/usr/lib/swift`: where a Swift SDK may find the toolchain's own libraries.
    public var swiftLibrary: String {
        URL(fileURLWithPath: binDirectory).deletingLastPathComponent().appendingPathComponent("lib/swift").path
    }

    /// The guest's target triple: the WASI SDK's when one is used.
    public var guestTarget: String { swiftSDK?.targetTriple ?? Self.embeddedTarget }

    /// `libswiftUnicodeDataTables.a`: needed by String operations that normalize or break graphemes.
    public var unicodeDataTables: String {
        ((swiftSDK?.embeddedLibrary ?? embeddedWasmLibrary) as NSString).appendingPathComponent("libswiftUnicodeDataTables.a")
    }
}

public enum ToolchainError: Error, CustomStringConvertible, Equatable {
    /// No toolchain directory could be found at all.
    case notFound(searched: [String])
    /// A toolchain was found but lacks a piece the guest build needs.
    case incomplete(toolchain: String, missing: [String])
    /// The config asks for a Swift SDK (`build.swiftSDK`) that is not installed in `directory`.
    case swiftSDKMissing(requested: String, directory: String, installed: [String])
    /// The SDK is installed but its swift-sdk.json cannot be used.
    case swiftSDKInvalid(id: String, path: String, reason: String)
    /// The SDK has no Embedded Swift standard library for its WASI triple (a non-embedded variant).
    case swiftSDKWithoutEmbedded(id: String, triple: String, searched: [String])
    /// The config says `"wasmOpt": "always"` but binaryen's wasm-opt is not installed.
    case wasmOptMissing(searched: [String])

    public var description: String {
        switch self {
        case let .notFound(searched):
            return "no Swift toolchain found (looked in: \(searched.joined(separator: ", "))); "
                + "install a Swift 6.x toolchain from swift.org (it ships Embedded Swift for wasm32, clang and wasm-ld) "
                + "and put its usr/bin on PATH, or pass --toolchain /path/to/toolchain"
        case let .incomplete(toolchain, missing):
            return "the Swift toolchain at \(toolchain) cannot build guest modules: missing \(missing.joined(separator: ", ")); "
                + "use a swift.org release toolchain (Swift 6.1 or newer) that ships usr/lib/swift/embedded/wasm32-unknown-none-wasm, "
                + "clang and wasm-ld, and pass it with --toolchain"
        case let .swiftSDKMissing(requested, directory, installed):
            let list = installed.isEmpty ? "none is installed" : "installed: \(installed.joined(separator: ", "))"
            return "patch.json asks for the Swift SDK '\(requested)' (build.swiftSDK) but it is not installed in \(directory) (\(list)); "
                + "install a Swift SDK for WASI with `swift sdk install <bundle URL> --checksum <checksum>` (swift.org, \"Getting Started with Swift SDKs for WebAssembly\"; "
                + "its `swift sdk list` id goes in build.swiftSDK, a custom --swift-sdks-path in build.swiftSDKsPath), "
                + "or remove build.swiftSDK to build with the toolchain's Embedded Swift for \(Toolchain.embeddedTarget)"
        case let .swiftSDKInvalid(id, path, reason):
            return "the Swift SDK '\(id)' cannot be used: \(path): \(reason); reinstall it with `swift sdk remove \(id)` and `swift sdk install`"
        case let .swiftSDKWithoutEmbedded(id, triple, searched):
            return "the Swift SDK '\(id)' has no Embedded Swift standard library for \(triple) (looked in: \(searched.joined(separator: ", "))); "
                + "patch modules are Embedded Swift: install the SDK's embedded variant (its id ends in -embedded) and name it in build.swiftSDK"
        case let .wasmOptMissing(searched):
            return "patch.json sets build.wasmOpt to \"always\" but binaryen's wasm-opt was not found (looked in: \(searched.joined(separator: ", "))); "
                + "install binaryen (apt-get install binaryen, brew install binaryen) or set build.wasmOpt to \"auto\""
        }
    }
}

extension Toolchain {
    /// Finds a toolchain: `explicitPath` (the `--toolchain` flag: a toolchain root, its `usr`, or its
    /// `usr/bin`) when given, else `$SWIFT_TOOLCHAIN`, else the directory of `swiftc` on `PATH`.
    /// `settings` (patch.json's `build`) may ask for a Swift SDK for WASI and for wasm-opt.
    public static func discover(
        explicitPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        settings: ProjectConfig.BuildSettings = .init()
    ) throws(ToolchainError) -> Toolchain {
        let candidates: [String]
        if let explicitPath {
            candidates = [explicitPath]
        } else {
            var found: [String] = []
            if let variable = environment["SWIFT_TOOLCHAIN"], !variable.isEmpty { found.append(variable) }
            for directory in searchPath(environment) {
                let swiftc = (directory as NSString).appendingPathComponent("swiftc")
                if FileManager.default.isExecutableFile(atPath: swiftc) {
                    // Follow symlinks such as /usr/bin/swiftc -> /opt/swift/usr/bin/swiftc.
                    let resolved = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent().path
                    found.append(resolved)
                }
            }
            guard !found.isEmpty else { throw .notFound(searched: ["$SWIFT_TOOLCHAIN", "swiftc on PATH"]) }
            candidates = found
        }
        var firstFailure: ToolchainError?
        for candidate in candidates {
            var toolchain: Toolchain
            do throws(ToolchainError) {
                toolchain = try inspect(candidate)
            } catch {
                if firstFailure == nil { firstFailure = error }
                continue
            }
            // A missing SDK or wasm-opt is the configuration's problem, not this candidate's: say so at once.
            if let id = settings.swiftSDK {
                toolchain.swiftSDK = try SwiftSDK.find(id, in: settings.swiftSDKsPath ?? SwiftSDK.defaultDirectory(environment: environment),
                                                       toolchainLibrary: toolchain.swiftLibrary)
            }
            if settings.wasmOpt != .never {
                let optimizerPlaces = [toolchain.binDirectory] + searchPath(environment)
                toolchain.wasmOpt = optimizerPlaces.map { ($0 as NSString).appendingPathComponent("wasm-opt") }
                    .first { FileManager.default.isExecutableFile(atPath: $0) }
                if settings.wasmOpt == .always, toolchain.wasmOpt == nil { throw .wasmOptMissing(searched: optimizerPlaces) }
            }
            return toolchain
        }
        throw firstFailure ?? .notFound(searched: candidates)
    }

    private static func searchPath(_ environment: [String: String]) -> [String] {
        (environment["PATH"] ?? "").split(separator: ":").filter { !$0.isEmpty }.map(String.init)
    }

    /// Checks one directory for the pieces a guest build needs.
    static func inspect(_ path: String) throws(ToolchainError) -> Toolchain {
        let fileManager = FileManager.default
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        let binCandidates = [
            standardized,
            (standardized as NSString).appendingPathComponent("bin"),
            (standardized as NSString).appendingPathComponent("usr/bin"),
        ]
        guard let bin = binCandidates.first(where: { fileManager.isExecutableFile(atPath: ($0 as NSString).appendingPathComponent("swiftc")) })
        else {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: standardized, isDirectory: &isDirectory), isDirectory.boolValue {
                throw .incomplete(toolchain: standardized, missing: ["swiftc (looked in ., bin and usr/bin)"])
            }
            throw .notFound(searched: [standardized])
        }
        let usr = URL(fileURLWithPath: bin).deletingLastPathComponent().path
        let library = (usr as NSString).appendingPathComponent("lib/swift/embedded/\(embeddedTarget)")
        let swiftc = (bin as NSString).appendingPathComponent("swiftc")
        let clang = (bin as NSString).appendingPathComponent("clang")
        let linker = (bin as NSString).appendingPathComponent("wasm-ld")
        var missing: [String] = []
        if !fileManager.isExecutableFile(atPath: clang) { missing.append("clang (\(clang))") }
        if !fileManager.isExecutableFile(atPath: linker) { missing.append("wasm-ld (\(linker))") }
        var isDirectory: ObjCBool = false
        if !(fileManager.fileExists(atPath: library, isDirectory: &isDirectory) && isDirectory.boolValue) {
            missing.append("the Embedded Swift wasm32 standard library (\(library))")
        }
        guard missing.isEmpty else { throw .incomplete(toolchain: usr, missing: missing) }
        return Toolchain(binDirectory: bin, swiftc: swiftc, clang: clang, wasmLinker: linker, embeddedWasmLibrary: library, swiftSDK: nil, wasmOpt: nil)
    }
}
