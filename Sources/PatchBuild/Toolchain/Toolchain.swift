import Foundation

/// The compilers and linker a guest build runs, found once per build.
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
    /// Set when a WASI Swift SDK was asked for and found (`swift sdk list`).
    public var wasiSDK: String?

    public static let embeddedTarget = "wasm32-unknown-none-wasm"

    /// `libswiftUnicodeDataTables.a`: needed by String operations that normalize or break graphemes.
    public var unicodeDataTables: String {
        (embeddedWasmLibrary as NSString).appendingPathComponent("libswiftUnicodeDataTables.a")
    }
}

public enum ToolchainError: Error, CustomStringConvertible, Equatable {
    /// No toolchain directory could be found at all.
    case notFound(searched: [String])
    /// A toolchain was found but lacks a piece the guest build needs.
    case incomplete(toolchain: String, missing: [String])
    /// `--wasi-sdk NAME` was requested but `swift sdk list` does not show it.
    case wasiSDKMissing(requested: String, installed: [String])

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
        case let .wasiSDKMissing(requested, installed):
            let list = installed.isEmpty ? "none installed" : "installed: \(installed.joined(separator: ", "))"
            return "the Swift SDK '\(requested)' asked for by the configuration is not installed (\(list)); "
                + "install it with `swift sdk install <bundle>` or drop the setting to build with Embedded Swift"
        }
    }
}

extension Toolchain {
    /// Finds a toolchain: `explicitPath` (the `--toolchain` flag: a toolchain root, its `usr`, or its
    /// `usr/bin`) when given, else `$SWIFT_TOOLCHAIN`, else the directory of `swiftc` on `PATH`.
    public static func discover(
        explicitPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        wasiSDK: String? = nil
    ) throws(ToolchainError) -> Toolchain {
        let candidates: [String]
        if let explicitPath {
            candidates = [explicitPath]
        } else {
            var found: [String] = []
            if let variable = environment["SWIFT_TOOLCHAIN"], !variable.isEmpty { found.append(variable) }
            for directory in (environment["PATH"] ?? "").split(separator: ":") where !directory.isEmpty {
                let swiftc = (String(directory) as NSString).appendingPathComponent("swiftc")
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
            do throws(ToolchainError) {
                var toolchain = try inspect(candidate)
                if let wasiSDK { toolchain.wasiSDK = try findWASISDK(named: wasiSDK, swift: toolchain.binDirectory) }
                return toolchain
            } catch {
                if case .wasiSDKMissing = error { throw error }
                if firstFailure == nil { firstFailure = error }
            }
        }
        throw firstFailure ?? .notFound(searched: candidates)
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
        return Toolchain(binDirectory: bin, swiftc: swiftc, clang: clang, wasmLinker: linker, embeddedWasmLibrary: library, wasiSDK: nil)
    }

    /// Looks `name` up in `swift sdk list`. Only called when the configuration asks for a WASI SDK.
    static func findWASISDK(named name: String, swift binDirectory: String) throws(ToolchainError) -> String {
        let swift = (binDirectory as NSString).appendingPathComponent("swift")
        let installed: [String]
        if let result = try? ProcessRunner.run(swift, ["sdk", "list"], in: nil), result.status == 0 {
            installed = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("No Swift SDKs") }
        } else {
            installed = []
        }
        guard installed.contains(name) else { throw .wasiSDKMissing(requested: name, installed: installed) }
        return name
    }
}
