import Foundation

/// `patch.json`: how a project is set up for Patch. Written by `patchcli init`, read by every later
/// command. Schema: docs/patch-config.schema.json; each field is documented there and in docs/prepare.md.
public struct ProjectConfig: Codable, Sendable, Equatable {
    public static let fileName = "patch.json"
    public static let currentVersion = 1
    /// The update server and channel the SDK uses when `PatchConfiguration` does not name them.
    public static let defaultAPIBaseURL = "https://api.patchrelease.com/api/v1"
    public static let defaultChannel = "production"

    public enum ProjectKind: String, Codable, Sendable {
        case swiftPackage = "swiftpm"
        case xcodeProject = "xcode"
    }

    public struct Project: Codable, Sendable, Equatable {
        public var kind: ProjectKind
        /// `Package.swift` or the `.xcodeproj` directory, relative to the config file.
        public var path: String

        public init(kind: ProjectKind, path: String) {
            self.kind = kind
            self.path = path
        }
    }

    public struct Target: Codable, Sendable, Equatable {
        public var name: String
        /// Folders holding the target's Swift sources, relative to the config file.
        public var sourceRoots: [String]
        /// The target's Info.plist, when it has one (Xcode app targets).
        public var infoPlist: String?
        /// The Package.swift declaring the target, relative to the config file, when that is not
        /// `project.path` (a target of a local package); `init` adds the SDK products there.
        public var manifest: String?

        enum CodingKeys: String, CodingKey {
            case name, sourceRoots, infoPlist, manifest
        }

        public init(name: String, sourceRoots: [String], infoPlist: String? = nil, manifest: String? = nil) {
            self.name = name
            self.sourceRoots = sourceRoots
            self.infoPlist = infoPlist
            self.manifest = manifest
        }
    }

    /// `sdk`: the PatchSDK package `init` adds to the app. Absent means the public package at the
    /// version this patchcli's generated code is written against.
    public struct SDKPackage: Codable, Sendable, Equatable {
        public static let defaultURL = "https://github.com/patch-release/patch-swift"
        public static let defaultVersion = "1.4.0"

        /// The package's repository.
        public var url: String
        /// The lowest version accepted (`.package(url:from:)`).
        public var version: String

        public init(url: String = defaultURL, version: String = defaultVersion) {
            self.url = url
            self.version = version
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decodeIfPresent(String.self, forKey: .url) ?? Self.defaultURL
            version = try container.decodeIfPresent(String.self, forKey: .version) ?? Self.defaultVersion
        }
    }

    /// `signing`: where the release store's signing keys live and where the app embeds its trust anchor.
    public struct Signing: Codable, Sendable, Equatable {
        /// The folder of the store's keys, one `<role>.key` per TUF role (docs/release.md "Keys"),
        /// outside the repository (mode 0700, keys 0600); `~` is the home folder. Nil only in a
        /// patch.json written before the key directory (`privateKeyPath`).
        public var keyDirectory: String?
        /// The generated Swift file embedding the root public key, relative to the config file.
        public var publicKeyFile: String
        /// The single Ed25519 key of patchcli before the key directory, which no release ever
        /// signed with. Read so that `init` can migrate it (it becomes the root key, so an app
        /// that embeds its public half keeps a matching trust anchor); never written.
        public var privateKeyPath: String?

        public init(keyDirectory: String, publicKeyFile: String) {
            self.keyDirectory = keyDirectory
            self.publicKeyFile = publicKeyFile
        }
    }

    /// `build`: how `patchcli build` compiles guests. Absent means every default.
    public struct BuildSettings: Codable, Sendable, Equatable {
        /// Whether `build` runs binaryen's `wasm-opt` (`--code-folding -Oz`) on the linked module.
        public enum WasmOpt: String, Codable, Sendable {
            /// When wasm-opt is installed (the default): smaller modules, no new requirement.
            case auto
            /// Fail (exit 31) when it is not installed, so every build of a team is optimized alike.
            case always
            /// Never: the module is exactly what wasm-ld wrote (minus custom sections).
            case never
        }

        /// Id of a Swift SDK for WASI (`swift sdk list`) to compile guests against instead of the
        /// toolchain's freestanding `wasm32-unknown-none-wasm` target.
        public var swiftSDK: String?
        /// Where that SDK is installed when not SwiftPM's default folder (`swift sdk install --swift-sdks-path`).
        public var swiftSDKsPath: String?
        public var wasmOpt: WasmOpt?

        public init(swiftSDK: String? = nil, swiftSDKsPath: String? = nil, wasmOpt: WasmOpt? = nil) {
            self.swiftSDK = swiftSDK
            self.swiftSDKsPath = swiftSDKsPath
            self.wasmOpt = wasmOpt
        }
    }

    /// `routing`: which functions `prepare` routes (docs/prepare.md "Routing").
    public enum Routing: String, Codable, Sendable, CaseIterable {
        /// Every function it can, unless excluded by `routingExclude` or `// @native`: `init` writes
        /// this for new projects.
        case all
        /// Only those marked `// @patchable` or listed in `patchableFunctions`: what a config without
        /// `routing` means, so that upgrading patchcli never changes what an existing project routes.
        case marked

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            let value = try container.decode(String.self)
            guard let routing = Routing(rawValue: value) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "is \"\(value)\"; use \"all\" (prepare routes every function it can) or \"marked\" (only functions marked `// @patchable` or listed in \"patchableFunctions\")")
            }
            self = routing
        }
    }

    public var schema: String?
    public var version: Int
    public var appKey: String
    public var appID: String?
    public var apiBaseURL: String
    public var channel: String
    public var project: Project
    public var targets: [Target]
    /// The target that ships the app binary: it receives the fingerprint constant.
    public var appTarget: String
    /// Globs (relative to the config file; `**` crosses folders) of the sources `prepare` reads.
    public var include: [String]
    public var exclude: [String]
    /// Functions opted in to patching by key (`PatchNames.functionKey`), besides `// @patchable`.
    public var patchableFunctions: [String]
    /// Nil in a config written before `routing` existed: such a project keeps `marked` (`routingMode`).
    public var routing: Routing?
    /// Globs (as `include`) of sources whose functions `routing: all` never routes; a function marked
    /// `// @patchable` or listed in `patchableFunctions` is routed wherever it is.
    public var routingExclude: [String]
    public var signing: Signing
    public var build: BuildSettings?
    public var sdk: SDKPackage?
    /// The platforms the app ships a build for, the default (`build`'s) first; nil: `prepare` reads
    /// them from the project (docs/prepare.md "Platforms").
    public var platforms: [AppPlatform]?
    /// `assets`: where `prepare`/`build` read the app's asset sources and which JSON config files ship
    /// (docs/assets.md). Absent: the app target's source roots, no config files.
    public var assets: AssetSettings?

    /// `assets` of patch.json.
    public struct AssetSettings: Codable, Sendable, Equatable {
        /// Folders (relative to the config file) searched for `*.xcassets`, `*.lproj/*.strings` and
        /// `*.xcstrings`; absent: the app target's `sourceRoots`.
        public var roots: [String]?
        /// JSON files (relative to the config file) that ship as inline byte entries named by their
        /// file name (`features.json`), read on device with `Patch.overlayImageBytes(named:)`.
        public var configFiles: [ConfigFile]

        public init(roots: [String]? = nil, configFiles: [ConfigFile] = []) {
            self.roots = roots
            self.configFiles = configFiles
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            roots = try container.decodeIfPresent([String].self, forKey: .roots)
            configFiles = try container.decodeIfPresent([ConfigFile].self, forKey: .configFiles) ?? []
        }
    }

    /// One JSON config file, with the JSON Schema it must satisfy when there is one.
    public struct ConfigFile: Codable, Sendable, Equatable {
        public var path: String
        public var schema: String?

        public init(path: String, schema: String? = nil) {
            self.path = path
            self.schema = schema
        }
    }

    /// The SDK package to depend on: `sdk`, or the defaults.
    public var sdkPackage: SDKPackage { sdk ?? SDKPackage() }

    /// `routing`, or `marked` when the config predates it.
    public var routingMode: Routing { routing ?? .marked }

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, appKey, appID, apiBaseURL, channel, project, targets, appTarget, include, exclude,
             patchableFunctions, routing, routingExclude, signing, build, sdk, platforms, assets
    }

    public init(appKey: String, appID: String?, apiBaseURL: String, channel: String, project: Project,
                targets: [Target], appTarget: String, include: [String], exclude: [String],
                patchableFunctions: [String], routing: Routing? = .all, routingExclude: [String] = [], signing: Signing,
                schema: String? = nil) {
        self.schema = schema
        self.version = Self.currentVersion
        self.appKey = appKey
        self.appID = appID
        self.apiBaseURL = apiBaseURL
        self.channel = channel
        self.project = project
        self.targets = targets
        self.appTarget = appTarget
        self.include = include
        self.exclude = exclude
        self.patchableFunctions = patchableFunctions
        self.routing = routing
        self.routingExclude = routingExclude
        self.signing = signing
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decodeIfPresent(String.self, forKey: .schema)
        version = try container.decode(Int.self, forKey: .version)
        appKey = try container.decode(String.self, forKey: .appKey)
        appID = try container.decodeIfPresent(String.self, forKey: .appID)
        apiBaseURL = try container.decode(String.self, forKey: .apiBaseURL)
        channel = try container.decode(String.self, forKey: .channel)
        project = try container.decode(Project.self, forKey: .project)
        targets = try container.decode([Target].self, forKey: .targets)
        appTarget = try container.decode(String.self, forKey: .appTarget)
        include = try container.decodeIfPresent([String].self, forKey: .include) ?? ["**/*.swift"]
        exclude = try container.decodeIfPresent([String].self, forKey: .exclude) ?? []
        patchableFunctions = try container.decodeIfPresent([String].self, forKey: .patchableFunctions) ?? []
        routing = try container.decodeIfPresent(Routing.self, forKey: .routing)
        routingExclude = try container.decodeIfPresent([String].self, forKey: .routingExclude) ?? []
        signing = try container.decode(Signing.self, forKey: .signing)
        build = try container.decodeIfPresent(BuildSettings.self, forKey: .build)
        sdk = try container.decodeIfPresent(SDKPackage.self, forKey: .sdk)
        platforms = try container.decodeIfPresent([AppPlatform].self, forKey: .platforms)
        assets = try container.decodeIfPresent(AssetSettings.self, forKey: .assets)
    }

    public enum LoadError: Error, CustomStringConvertible {
        case malformed(path: String, reason: String)
        case invalid(path: String, field: String, reason: String)

        public var description: String {
            switch self {
            case let .malformed(path, reason):
                return "\(path): not a valid Patch config (\(reason)); fix it or run `patchcli init --force` to write a new one"
            case let .invalid(path, field, reason):
                return "\(path): field \"\(field)\" \(reason)"
            }
        }
    }

    /// Decodes and checks a config file's bytes; `path` only labels the errors.
    public static func decode(_ bytes: [UInt8], path: String) throws(LoadError) -> ProjectConfig {
        let config: ProjectConfig
        do {
            config = try JSONDecoder().decode(ProjectConfig.self, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformed(path: path, reason: "missing field \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformed(path: path, reason: "wrong type at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\"")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .malformed(path: path, reason: "null at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\"")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            // A value of the right type that the field does not accept (an unknown `routing`).
            throw .invalid(path: path, field: context.codingPath.map(\.stringValue).joined(separator: "."), reason: context.debugDescription)
        } catch {
            throw .malformed(path: path, reason: "invalid JSON")
        }
        guard config.version <= currentVersion else {
            throw .invalid(path: path, field: "version", reason: "is \(config.version); this patchcli reads version \(currentVersion) (update patchcli)")
        }
        guard !config.targets.isEmpty else { throw .invalid(path: path, field: "targets", reason: "is empty; list at least one target") }
        for (index, target) in config.targets.enumerated() where target.sourceRoots.isEmpty {
            throw .invalid(path: path, field: "targets[\(index)].sourceRoots", reason: "is empty; list the folders of target \(target.name)'s sources")
        }
        // Target names prefix the baseline's declaration ids: two targets of one name would share ids.
        for (index, target) in config.targets.enumerated() where config.targets[..<index].contains(where: { $0.name == target.name }) {
            throw .invalid(path: path, field: "targets[\(index)].name", reason: "repeats \"\(target.name)\"; give each target its own name (a package's as \"<package>/<target>\")")
        }
        if let platforms = config.platforms {
            guard !platforms.isEmpty else { throw .invalid(path: path, field: "platforms", reason: "is empty; list the platforms the app ships for (\(AppPlatform.list(AppPlatform.allCases))), or leave it out to read them from the project") }
            for (index, platform) in platforms.enumerated() where platforms[..<index].contains(platform) {
                throw .invalid(path: path, field: "platforms[\(index)]", reason: "repeats \"\(platform.rawValue)\"")
            }
        }
        guard config.signing.keyDirectory != nil || config.signing.privateKeyPath != nil else {
            throw .invalid(path: path, field: "signing.keyDirectory", reason: "is missing; run `patchcli init` to create the signing keys and record their folder")
        }
        guard config.targets.contains(where: { $0.name == config.appTarget }) else {
            throw .invalid(path: path, field: "appTarget", reason: "names \"\(config.appTarget)\", which is not in \"targets\"")
        }
        return config
    }

    /// A path of the config with a leading `~` standing for `home` (key folders are stored so, to
    /// stay valid on every machine of a team).
    public static func expandingHome(_ path: String, home: String) -> String {
        path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
    }

    /// The file's bytes: pretty-printed with sorted keys, so the file diffs well under version control.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and arrays cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return [UInt8](data) + [UInt8(ascii: "\n")]
    }
}
