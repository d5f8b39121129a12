import Foundation

/// A Swift SDK for WASI as `swift sdk install` leaves it, resolved to the paths a guest build passes
/// to swiftc, clang and wasm-ld.
///
/// Installed SDKs are artifact bundles in SwiftPM's Swift SDKs directory: each `*.artifactbundle`
/// has an `info.json` whose `artifacts` of `"type": "swiftSDK"` are the ids `swift sdk list` prints,
/// each variant a directory holding `swift-sdk.json` (schema 4.0: `targetTriples`, each with
/// `sdkRootPath`, `swiftResourcesPath`, `swiftStaticResourcesPath`, `includeSearchPaths`,
/// `librarySearchPaths`, `toolsetPaths`, paths relative to that file). Guests stay Embedded Swift
/// with either SDK layout; the WASI SDK contributes its sysroot (wasi-libc) and, when it ships one,
/// its Embedded standard library for the WASI triple.
public struct SwiftSDK: Sendable, Equatable {
    /// The artifact id, e.g. `swift-6.2-RELEASE_wasm-embedded`.
    public var id: String
    /// `wasm32-unknown-wasi` or `wasm32-unknown-wasip1`.
    public var targetTriple: String
    /// The WASI sysroot (`sdkRootPath`): wasi-libc's headers, `crt1-reactor.o` and `libc.a`.
    public var sdkRoot: String
    /// `swiftResourcesPath` (the resource directory swiftc uses), when the SDK sets one.
    public var swiftResources: String?
    /// `<resources>/embedded/<triple>`: the Embedded Swift standard library for the WASI triple.
    public var embeddedLibrary: String
    public var includeSearchPaths: [String]
    public var librarySearchPaths: [String]

    public init(id: String, targetTriple: String, sdkRoot: String, swiftResources: String?, embeddedLibrary: String,
                includeSearchPaths: [String], librarySearchPaths: [String]) {
        self.id = id
        self.targetTriple = targetTriple
        self.sdkRoot = sdkRoot
        self.swiftResources = swiftResources
        self.embeddedLibrary = embeddedLibrary
        self.includeSearchPaths = includeSearchPaths
        self.librarySearchPaths = librarySearchPaths
    }

    /// wasi-libc's library folder in the sysroot: the triple without its vendor (`lib/wasm32-wasi`).
    public var libcDirectory: String {
        let parts = targetTriple.split(separator: "-")
        let short = parts.count == 3 ? "\(parts[0])-\(parts[2])" : targetTriple
        return (sdkRoot as NSString).appendingPathComponent("lib/\(short)")
    }

    /// Where `swift sdk install` puts bundles unless told otherwise (`--swift-sdks-path`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if os(macOS)
        return (home as NSString).appendingPathComponent("Library/org.swift.swiftpm/swift-sdks")
        #else
        return (home as NSString).appendingPathComponent(".swiftpm/swift-sdks")
        #endif
    }

    /// Every Swift SDK id installed in `directory` with the variant folder holding its swift-sdk.json,
    /// sorted by id. Bundles whose info.json does not parse are skipped: `find` reports the id list.
    public static func installed(in directory: String) -> [(id: String, variant: String)] {
        let fileManager = FileManager.default
        guard let bundles = try? fileManager.contentsOfDirectory(atPath: directory) else { return [] }
        var found: [(id: String, variant: String)] = []
        for bundle in bundles.sorted() where bundle.hasSuffix(".artifactbundle") {
            let root = (directory as NSString).appendingPathComponent(bundle)
            guard let data = fileManager.contents(atPath: (root as NSString).appendingPathComponent("info.json")),
                  let info = try? JSONDecoder().decode(BundleInfo.self, from: data)
            else { continue }
            for (id, artifact) in info.artifacts where artifact.type == "swiftSDK" {
                for variant in artifact.variants {
                    found.append((id, (root as NSString).appendingPathComponent(variant.path)))
                }
            }
        }
        return found.sorted { $0.id < $1.id }
    }

    /// Resolves `id` in `directory`: its swift-sdk.json must describe a wasm32 WASI triple with an
    /// Embedded Swift standard library, either in the SDK or in `toolchainLibrary`
    /// (`<toolchain>/usr/lib/swift`).
    public static func find(_ id: String, in directory: String, toolchainLibrary: String) throws(ToolchainError) -> SwiftSDK {
        let candidates = installed(in: directory)
        guard let variant = candidates.first(where: { $0.id == id })?.variant else {
            throw .swiftSDKMissing(requested: id, directory: directory, installed: Array(Set(candidates.map(\.id))).sorted())
        }
        let manifestPath = (variant as NSString).appendingPathComponent("swift-sdk.json")
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw .swiftSDKInvalid(id: id, path: manifestPath, reason: "the file is missing")
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw .swiftSDKInvalid(id: id, path: manifestPath, reason: "not a swift-sdk.json (\(error))")
        }
        guard manifest.schemaVersion.hasPrefix("4.") else {
            throw .swiftSDKInvalid(id: id, path: manifestPath, reason: "schemaVersion \(manifest.schemaVersion); patchcli reads 4.0")
        }
        guard let entry = manifest.targetTriples.sorted(by: { $0.key < $1.key })
            .first(where: { $0.key.hasPrefix("wasm32-") && $0.key.contains("-wasi") })
        else {
            throw .swiftSDKInvalid(id: id, path: manifestPath,
                                   reason: "no wasm32 WASI target triple (it has: \(manifest.targetTriples.keys.sorted().joined(separator: ", ")))")
        }
        let (triple, properties) = (entry.key, entry.value)
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : URL(fileURLWithPath: variant).appendingPathComponent(path).standardizedFileURL.path
        }
        let resources = properties.swiftResourcesPath.map(resolve)
        let libraries = ([resources, toolchainLibrary].compactMap { $0 }).map { ($0 as NSString).appendingPathComponent("embedded/\(triple)") }
        guard let embedded = libraries.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw .swiftSDKWithoutEmbedded(id: id, triple: triple, searched: libraries)
        }
        return SwiftSDK(
            id: id, targetTriple: triple, sdkRoot: resolve(properties.sdkRootPath), swiftResources: resources, embeddedLibrary: embedded,
            includeSearchPaths: (properties.includeSearchPaths ?? []).map(resolve), librarySearchPaths: (properties.librarySearchPaths ?? []).map(resolve))
    }

    /// `info.json` of an artifact bundle (SE-0305).
    private struct BundleInfo: Decodable {
        struct Artifact: Decodable {
            struct Variant: Decodable { var path: String }
            var type: String
            var variants: [Variant]
        }
        var artifacts: [String: Artifact]
    }

    /// `swift-sdk.json`, schema 4.0 (SE-0387); toolsets are not read (see docs/cli.md "build").
    private struct Manifest: Decodable {
        struct Triple: Decodable {
            var sdkRootPath: String
            var swiftResourcesPath: String?
            var includeSearchPaths: [String]?
            var librarySearchPaths: [String]?
        }
        var schemaVersion: String
        var targetTriples: [String: Triple]
    }
}
