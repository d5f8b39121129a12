import Foundation
import PatchManifest
import PatchStore
import ProjectWiring

/// Why `init` could not set a project up.
public enum InitError: Error, CustomStringConvertible {
    case noProject(root: String)
    case noTargets(path: String)
    case malformedProject(path: String, reason: String)
    case unreadable(path: String)
    case keys(KeyDirectoryError)
    case noInfoPlist(target: String)
    case malformedInfoPlist(path: String, reason: String)
    case existingConfig(ProjectError)

    public var description: String {
        switch self {
        case let .noProject(root): return "\(root): no Package.swift and no .xcodeproj here"
        case let .noTargets(path): return "\(path): no app or library target with Swift sources found"
        case let .malformedProject(path, reason): return "\(path): cannot read the project (\(reason))"
        case let .unreadable(path): return "\(path): cannot be read"
        case let .keys(error): return error.description
        case let .noInfoPlist(target): return "target \(target) has no Info.plist to add background-update keys to"
        case let .malformedInfoPlist(path, reason): return "\(path): not a property list (\(reason))"
        case let .existingConfig(error): return error.description
        }
    }

    public var kind: String {
        switch self {
        case .noProject, .noTargets: return "no_project"
        case .malformedProject: return "malformed_project"
        case .unreadable: return "input_unavailable"
        case .keys: return "key_invalid"
        case .noInfoPlist: return "no_info_plist"
        case .malformedInfoPlist: return "malformed_info_plist"
        case .existingConfig: return "malformed_config"
        }
    }

    public var hint: String {
        switch self {
        case .noProject: return "run init in the folder holding Package.swift or the .xcodeproj, or pass --project"
        case .noTargets: return "point --project at the package or Xcode project of the app itself"
        case .malformedProject, .malformedInfoPlist: return "open the file in Xcode (or `plutil -lint` it) and fix it, then run init again"
        case .unreadable: return "check the path and its permissions"
        case .keys: return "check the key directory (--key-dir) and its permissions"
        case .noInfoPlist: return "pass --info-plist PATH"
        case .existingConfig: return "fix patch.json, or run `patchcli init --force` to write a new one"
        }
    }

    /// Whether the user asked for something impossible (usage) rather than the input being bad.
    public var isUsage: Bool {
        if case .noInfoPlist = self { return true }
        return false
    }

    /// Whether an input is missing or unreadable (no project in the folder, a file that cannot be
    /// read) rather than malformed.
    public var isMissingInput: Bool {
        switch self {
        case .noProject, .unreadable: return true
        default: return false
        }
    }
}

/// What `patchcli init` is asked to do.
public struct InitOptions: Sendable {
    public var root: String
    public var appKey: String?
    public var appID: String?
    public var apiBaseURL: String
    public var channel: String
    /// The folder of the signing keys (`~` is the home folder); nil keeps patch.json's
    /// `signing.keyDirectory`, or for a new project `~/.config/patch/keys/<app key>`.
    public var keyDirectory: String?
    public var backgroundUpdates: Bool
    public var silentPush: Bool
    public var backgroundTaskIdentifier: String
    public var infoPlist: String?
    public var force: Bool

    public static let defaultAPIBaseURL = ProjectConfig.defaultAPIBaseURL
    public static let defaultBackgroundTaskIdentifier = "com.patchrelease.background-check"

    public init(root: String, appKey: String? = nil, appID: String? = nil, apiBaseURL: String = defaultAPIBaseURL,
                channel: String = ProjectConfig.defaultChannel, keyDirectory: String? = nil, backgroundUpdates: Bool = false,
                silentPush: Bool = false, backgroundTaskIdentifier: String = defaultBackgroundTaskIdentifier,
                infoPlist: String? = nil, force: Bool = false) {
        self.root = root
        self.appKey = appKey
        self.appID = appID
        self.apiBaseURL = apiBaseURL
        self.channel = channel
        self.keyDirectory = keyDirectory
        self.backgroundUpdates = backgroundUpdates
        self.silentPush = silentPush
        self.backgroundTaskIdentifier = backgroundTaskIdentifier
        self.infoPlist = infoPlist
        self.force = force
    }
}

/// The files `init` writes and what it tells the user.
public struct InitPlan: Sendable {
    public struct FileWrite: Sendable, Equatable {
        /// Relative to the project root.
        public var path: String
        public var bytes: [UInt8]
    }

    public var writes: [FileWrite]
    public var config: ProjectConfig
    public var detected: DetectedProject
    /// The folder of the signing keys (`signing.keyDirectory` with `~` expanded).
    public var keyDirectory: KeyDirectory
    /// Keys to add to it, for the roles that have none there yet; the caller writes them
    /// (`KeyDirectory.write`) before `writes`, which embed the root key's public half.
    public var newKeys: [(role: TUFRole, key: SigningKey)]
    /// The pre-key-directory key (`signing.privateKeyPath`) taken over as the root key, if any.
    public var migratedKey: String?
    /// The code that starts Patch at launch (sdk-contract §11), inserted by wiring or added by hand.
    public var launchCode: LaunchCode
}

/// `patchcli init`: detects the project, writes `patch.json`, the release store's signing keys
/// (one per TUF role, in the key directory outside the repository), the root public key file,
/// `.gitignore` entries and (optionally) background-update Info.plist keys. Pure apart from reading:
/// the caller writes `InitPlan.newKeys` and `InitPlan.writes`, then wires the app (`AppWiring`) and
/// runs `prepare`. Running it again plans no writes.
public enum ProjectInitializer {
    public static let gitignoreEntries = [".patch/originals/", ".patch/prepare-state.json", ".patch/cache/",
                                          WiringState.originalsDirectory + "/", WiringState.path]
    public static let publicKeyFileName = "PatchPublicKey.generated.swift"

    public static func plan(_ options: InitOptions, homeDirectory: String) throws(InitError) -> InitPlan {
        let detected = try ProjectDetector.detect(root: options.root)
        let configPath = Preparer.join(options.root, ProjectConfig.fileName)
        var existingConfig: ProjectConfig?
        if FileManager.default.fileExists(atPath: configPath), !options.force {
            do {
                existingConfig = try ProjectSources.loadConfig(root: options.root)
            } catch {
                throw .existingConfig(error)
            }
        }
        // Read even under `--force`, which rewrites everything but the keys: a fresh root key would
        // not match the one shipped apps embed, so the old key directory (or older single key) stays.
        let previousKeys = PreviousKeys.read(configPath)
        let appKey = options.appKey ?? existingConfig?.appKey ?? defaultAppKey(detected.name)
        let appRoot = detected.targets.first { $0.name == detected.appTarget }?.sourceRoots.first ?? "."
        let keyDirectoryPath = options.keyDirectory ?? previousKeys?.keyDirectory ?? KeyDirectory.defaultParent + "/" + appKey
        var config = existingConfig ?? ProjectConfig(
            appKey: appKey, appID: options.appID, apiBaseURL: options.apiBaseURL, channel: options.channel,
            project: detected.project, targets: detected.targets, appTarget: detected.appTarget,
            include: ["**/*.swift"], exclude: ["**/Tests/**", "**/*Tests/**", "**/.build/**"],
            // A new project routes every function prepare can (an existing config keeps its choice).
            patchableFunctions: [], routing: .all, routingExclude: [],
            signing: .init(keyDirectory: keyDirectoryPath,
                           publicKeyFile: Preparer.join(Preparer.generatedFolder(forSourceRoot: appRoot), publicKeyFileName)))
        let legacyKeyPath = previousKeys?.privateKeyPath
        config.signing.keyDirectory = keyDirectoryPath
        config.signing.privateKeyPath = nil

        var writes: [InitPlan.FileWrite] = []
        let configBytes = config.encoded()
        if (try? ProjectSources.readIfPresent(configPath)) ?? nil != configBytes {
            writes.append(.init(path: ProjectConfig.fileName, bytes: configBytes))
        }

        // The keys: those in the folder are kept, so a re-run never rotates one; a role whose public
        // key is there without its private key is kept offline and never replaced.
        let keyDirectory = KeyDirectory(path: ProjectConfig.expandingHome(keyDirectoryPath, home: homeDirectory))
        var newKeys: [(role: TUFRole, key: SigningKey)] = []
        var migratedKey: String?
        var rootKey: TUFKey?
        do {
            for role in TUFRole.allCases {
                if let key = try keyDirectory.privateKey(role) {
                    if role == .root { rootKey = key.publicKey }
                    continue
                }
                if keyDirectory.isOffline(role) {
                    if role == .root { rootKey = try keyDirectory.publicKey(.root) }
                    continue
                }
                var key = SigningKey.generate()
                // The key an older patchcli made becomes the root key: the app may embed its public half.
                if role == .root, let legacyKeyPath, let legacy = try legacyKey(at: ProjectConfig.expandingHome(legacyKeyPath, home: homeDirectory)) {
                    key = legacy
                    migratedKey = legacyKeyPath
                }
                if role == .root { rootKey = key.publicKey }
                newKeys.append((role, key))
            }
        } catch {
            throw .keys(error)
        }
        if let rootKey {
            let publicKeyBytes = Array(publicKeyFile(root: rootKey).utf8)
            if (try? ProjectSources.readIfPresent(Preparer.join(options.root, config.signing.publicKeyFile))) ?? nil != publicKeyBytes {
                writes.append(.init(path: config.signing.publicKeyFile, bytes: publicKeyBytes))
            }
        }

        let gitignorePath = Preparer.join(options.root, ".gitignore")
        let gitignore = (try? ProjectSources.readIfPresent(gitignorePath)) ?? nil
        if let updated = gitignoreAdding(gitignoreEntries, to: gitignore) {
            writes.append(.init(path: ".gitignore", bytes: updated))
        }

        if options.backgroundUpdates {
            let target = config.targets.first { $0.name == config.appTarget }
            guard let plistPath = options.infoPlist ?? target?.infoPlist else { throw .noInfoPlist(target: config.appTarget) }
            let fullPath = Preparer.join(options.root, plistPath)
            guard let current = FileManager.default.contents(atPath: fullPath) else { throw .unreadable(path: fullPath) }
            let updated = try InfoPlistEditor.addingBackgroundUpdates(
                to: [UInt8](current), path: plistPath, taskIdentifier: options.backgroundTaskIdentifier, silentPush: options.silentPush)
            if updated != [UInt8](current) { writes.append(.init(path: plistPath, bytes: updated)) }
        }
        return InitPlan(writes: writes, config: config, detected: detected, keyDirectory: keyDirectory, newKeys: newKeys,
                        migratedKey: migratedKey, launchCode: LaunchCode(config))
    }

    /// Where an existing patch.json keeps the signing keys, read on its own so that `--force` finds
    /// them even when the rest of the file is what it replaces.
    struct PreviousKeys: Decodable {
        var keyDirectory: String?
        var privateKeyPath: String?

        /// The `signing` keys of the patch.json at `path`; nil when it has none or is not JSON.
        static func read(_ path: String) -> PreviousKeys? {
            struct File: Decodable { var signing: PreviousKeys? }
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return (try? JSONDecoder().decode(File.self, from: data))?.signing
        }
    }

    /// The key of `signing.privateKeyPath` (the seed in base64, the format of a role key); nil when
    /// the file is not on this machine.
    static func legacyKey(at path: String) throws(KeyDirectoryError) -> SigningKey? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try SigningKey(keyFileText: String(decoding: data, as: UTF8.self))
        } catch {
            throw .malformedKey(path: path, error)
        }
    }

    /// The Swift the app embeds as its trust anchor: the store's root key.
    package static func publicKeyFile(root key: TUFKey) -> String {
        let raw = Hex.decode(key.keyval.public) ?? []
        return """
        \(PreparedNames.generatedHeader)

        /// The trust anchor of this app's Patch releases: the root key of the release store (TUF,
        /// Ed25519), which metadata/1.root.json lists and whose private half stays in the key
        /// directory (`signing.keyDirectory` in patch.json). PatchSDK 1.4.0 checks each module's
        /// SHA-256 from the update response only; this key is for a client verifying the store's
        /// signed metadata.
        enum PatchSigningKey {
            /// The root key's TUF key id: SHA-256 of its canonical JSON key object.
            static let rootKeyID = \(SwiftLiteral.string(key.keyid))
            /// The root key's raw 32-byte Ed25519 public key, base64.
            static let publicKeyBase64 = \(SwiftLiteral.string(Data(raw).base64EncodedString()))
        }

        """
    }

    /// `.gitignore` with the missing entries appended (nil when none is missing).
    static func gitignoreAdding(_ entries: [String], to current: [UInt8]?) -> [UInt8]? {
        let text = current.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let present = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = entries.filter { !present.contains($0) }
        guard !missing.isEmpty else { return nil }
        var updated = text
        if !updated.isEmpty, !updated.hasSuffix("\n") { updated += "\n" }
        updated += "# Patch: prepare's and init's saved originals, state and cache (patchcli init)\n" + missing.joined(separator: "\n") + "\n"
        return Array(updated.utf8)
    }

    static func defaultAppKey(_ projectName: String) -> String {
        let key = projectName.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return String(key).isEmpty ? "app" : String(key)
    }
}

/// Adds the keys periodic background checks need to an Info.plist (seeds/002: BGTaskScheduler
/// identifier, `UIBackgroundModes` fetch + processing, plus remote-notification for silent pushes),
/// keeping every other key and the file's format (XML or binary).
enum InfoPlistEditor {
    static func addingBackgroundUpdates(to bytes: [UInt8], path: String, taskIdentifier: String, silentPush: Bool) throws(InitError) -> [UInt8] {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [.mutableContainersAndLeaves], format: &format)
        } catch {
            throw .malformedInfoPlist(path: path, reason: "\(error)")
        }
        guard var dictionary = plist as? [String: Any] else { throw .malformedInfoPlist(path: path, reason: "the top level is not a dictionary") }
        var changed = false
        func add(_ values: [String], to key: String) throws(InitError) {
            let existing: [String]
            if let value = dictionary[key] {
                guard let strings = value as? [String] else { throw .malformedInfoPlist(path: path, reason: "\(key) is not an array of strings") }
                existing = strings
            } else {
                existing = []
            }
            let missing = values.filter { !existing.contains($0) }
            guard !missing.isEmpty else { return }
            dictionary[key] = existing + missing
            changed = true
        }
        try add([taskIdentifier], to: "BGTaskSchedulerPermittedIdentifiers")
        try add(["fetch", "processing"] + (silentPush ? ["remote-notification"] : []), to: "UIBackgroundModes")
        guard changed else { return bytes }
        do {
            return [UInt8](try PropertyListSerialization.data(fromPropertyList: dictionary, format: format == .binary ? .binary : .xml, options: 0))
        } catch {
            throw .malformedInfoPlist(path: path, reason: "could not be written back (\(error))")
        }
    }
}
