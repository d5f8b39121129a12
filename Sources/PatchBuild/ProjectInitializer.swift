import Crypto
import Foundation
import PatchManifest
import ProjectWiring

/// Why `init` could not set a project up.
public enum InitError: Error, CustomStringConvertible {
    case noProject(root: String)
    case noTargets(path: String)
    case malformedProject(path: String, reason: String)
    case unreadable(path: String)
    case malformedPrivateKey(path: String)
    case noInfoPlist(target: String)
    case malformedInfoPlist(path: String, reason: String)
    case existingConfig(ProjectError)

    public var description: String {
        switch self {
        case let .noProject(root): return "\(root): no Package.swift and no .xcodeproj here"
        case let .noTargets(path): return "\(path): no app or library target with Swift sources found"
        case let .malformedProject(path, reason): return "\(path): cannot read the project (\(reason))"
        case let .unreadable(path): return "\(path): cannot be read"
        case let .malformedPrivateKey(path): return "\(path): not a Patch Ed25519 private key (expected one base64 line of 32 bytes)"
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
        case .malformedPrivateKey: return "malformed_key"
        case .noInfoPlist: return "no_info_plist"
        case .malformedInfoPlist: return "malformed_info_plist"
        case .existingConfig: return "malformed_config"
        }
    }

    public var hint: String? {
        switch self {
        case .noProject: return "run init in the folder holding Package.swift or the .xcodeproj, or pass --project"
        case .noInfoPlist: return "pass --info-plist PATH"
        case .malformedPrivateKey: return "restore the key file, or delete it to generate a new key pair (modules signed with the old key will no longer verify)"
        case .existingConfig: return "fix patch.json, or run `patchcli init --force` to write a new one"
        default: return nil
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
    /// Where the private key goes when the config does not name one yet (`~` is the home folder).
    public var keyDirectory: String
    public var backgroundUpdates: Bool
    public var silentPush: Bool
    public var backgroundTaskIdentifier: String
    public var infoPlist: String?
    public var force: Bool

    public static let defaultAPIBaseURL = ProjectConfig.defaultAPIBaseURL
    public static let defaultKeyDirectory = "~/.config/patch/keys"
    public static let defaultBackgroundTaskIdentifier = "com.patchrelease.background-check"

    public init(root: String, appKey: String? = nil, appID: String? = nil, apiBaseURL: String = defaultAPIBaseURL,
                channel: String = ProjectConfig.defaultChannel, keyDirectory: String = defaultKeyDirectory, backgroundUpdates: Bool = false,
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
        /// Relative to the project root, or absolute (the private key).
        public var path: String
        public var bytes: [UInt8]
        /// POSIX permissions for a new file (0600 for the private key); nil keeps the default.
        public var permissions: Int?
    }

    public var writes: [FileWrite]
    public var config: ProjectConfig
    public var detected: DetectedProject
    public var createdKeyPair: Bool
    /// The code that starts Patch at launch (sdk-contract §11), inserted by wiring or added by hand.
    public var launchCode: LaunchCode
}

/// `patchcli init`: detects the project, writes `patch.json`, the signing key pair, `.gitignore`
/// entries and (optionally) background-update Info.plist keys. Pure apart from reading: the caller
/// writes `InitPlan.writes`, then wires the app (`AppWiring`) and runs `prepare`. Running it again
/// plans no writes.
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
        let appKey = options.appKey ?? existingConfig?.appKey ?? defaultAppKey(detected.name)
        let appRoot = detected.targets.first { $0.name == detected.appTarget }?.sourceRoots.first ?? "."
        let config = existingConfig ?? ProjectConfig(
            appKey: appKey, appID: options.appID, apiBaseURL: options.apiBaseURL, channel: options.channel,
            project: detected.project, targets: detected.targets, appTarget: detected.appTarget,
            include: ["**/*.swift"], exclude: ["**/Tests/**", "**/*Tests/**", "**/.build/**"],
            patchableFunctions: [],
            signing: .init(privateKeyPath: options.keyDirectory + "/" + appKey + ".ed25519",
                           publicKeyFile: Preparer.join(Preparer.generatedFolder(forSourceRoot: appRoot), publicKeyFileName)))

        var writes: [InitPlan.FileWrite] = []
        let configBytes = config.encoded()
        if (try? ProjectSources.readIfPresent(configPath)) ?? nil != configBytes {
            writes.append(.init(path: ProjectConfig.fileName, bytes: configBytes, permissions: nil))
        }

        // The key pair: reuse the private key when it exists, so a re-run never rotates it.
        let privateKeyPath = expandHome(config.signing.privateKeyPath, home: homeDirectory)
        let privateKey: Curve25519.Signing.PrivateKey
        var createdKeyPair = false
        if let key = try readPrivateKey(at: privateKeyPath) {
            privateKey = key
        } else {
            privateKey = Curve25519.Signing.PrivateKey()
            createdKeyPair = true
            writes.append(.init(path: privateKeyPath, bytes: Array((privateKey.rawRepresentation.base64EncodedString() + "\n").utf8), permissions: 0o600))
        }
        let publicKeyBytes = Array(publicKeyFile(privateKey.publicKey).utf8)
        if (try? ProjectSources.readIfPresent(Preparer.join(options.root, config.signing.publicKeyFile))) ?? nil != publicKeyBytes {
            writes.append(.init(path: config.signing.publicKeyFile, bytes: publicKeyBytes, permissions: nil))
        }

        let gitignorePath = Preparer.join(options.root, ".gitignore")
        let gitignore = (try? ProjectSources.readIfPresent(gitignorePath)) ?? nil
        if let updated = gitignoreAdding(gitignoreEntries, to: gitignore) {
            writes.append(.init(path: ".gitignore", bytes: updated, permissions: nil))
        }

        if options.backgroundUpdates {
            let target = config.targets.first { $0.name == config.appTarget }
            guard let plistPath = options.infoPlist ?? target?.infoPlist else { throw .noInfoPlist(target: config.appTarget) }
            let fullPath = Preparer.join(options.root, plistPath)
            guard let current = FileManager.default.contents(atPath: fullPath) else { throw .unreadable(path: fullPath) }
            let updated = try InfoPlistEditor.addingBackgroundUpdates(
                to: [UInt8](current), path: plistPath, taskIdentifier: options.backgroundTaskIdentifier, silentPush: options.silentPush)
            if updated != [UInt8](current) { writes.append(.init(path: plistPath, bytes: updated, permissions: nil)) }
        }
        return InitPlan(writes: writes, config: config, detected: detected, createdKeyPair: createdKeyPair,
                        launchCode: LaunchCode(config))
    }

    /// The private key file `init` writes (base64 of the raw 32 bytes); nil when there is none.
    package static func readPrivateKey(at path: String) throws(InitError) -> Curve25519.Signing.PrivateKey? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let raw = Data(base64Encoded: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw .malformedPrivateKey(path: path) }
        return key
    }

    /// The Swift the app embeds to verify signed releases.
    static func publicKeyFile(_ key: Curve25519.Signing.PublicKey) -> String {
        """
        \(PreparedNames.generatedHeader)

        /// The Ed25519 public key (raw 32 bytes, base64) that verifies this app's signed Patch releases.
        /// Its private half stays on the release machine (`signing.privateKeyPath` in patch.json).
        enum PatchSigningKey {
            static let publicKeyBase64 = \(SwiftLiteral.string(key.rawRepresentation.base64EncodedString()))
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

    public static func expandHome(_ path: String, home: String) -> String {
        path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
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
