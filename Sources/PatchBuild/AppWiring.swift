import Foundation
import PatchManifest
import ProjectWiring

/// What `init` wired, kept under `.patch/` so `init --revert` undoes it: per file the hash of the
/// wired bytes and what was added (the original is saved next to it, under `.patch/wiring-originals/`).
public struct WiringState: Codable, Sendable, Equatable {
    public static let path = ".patch/wiring-state.json"
    public static let originalsDirectory = ".patch/wiring-originals"

    public enum FileKind: String, Codable, Sendable {
        /// A Package.swift: the SDK package and products.
        case manifest
        /// The app's entry point: the launch code.
        case launchCode
        /// A project.pbxproj: the SDK package and products of each Xcode target, and the generated files.
        case xcodeProject
    }

    public struct FileRecord: Codable, Sendable, Equatable {
        public var kind: FileKind
        /// SHA-256 of the file as wiring left it: when it still matches, `--revert` restores the saved original.
        public var wiredSHA256: String
        /// What wiring added (the editors' markers), so a revert takes out only that.
        public var markers: [String]
    }

    /// The SDK package as wired, to recognise it when unwiring after patch.json changed.
    public var sdk: ProjectConfig.SDKPackage
    public var files: [String: FileRecord] = [:]

    public static func originalPath(for file: String) -> String { originalsDirectory + "/" + file }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and arrays only: encoding cannot fail.
        return [UInt8]((try? encoder.encode(self)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    static func decode(_ bytes: [UInt8], path: String) throws(ProjectError) -> WiringState {
        do {
            return try JSONDecoder().decode(WiringState.self, from: Data(bytes))
        } catch {
            throw .unreadable(path: path, reason: "not a wiring state file; delete it only if init's wiring was undone by hand")
        }
    }

    /// `bytes` of a file with what wiring added taken out.
    func unwired(_ bytes: [UInt8], record: FileRecord) -> [UInt8] {
        switch record.kind {
        case .manifest: return PackageManifestEditor.unwiring(bytes, sdk: sdk, markers: record.markers)
        case .launchCode: return LaunchCodeEditor.unwiring(bytes, markers: record.markers)
        case .xcodeProject: return XcodeWiring.unwiring(bytes, sdk: sdk, markers: record.markers)
        }
    }
}

/// What wiring changes in one `init` run.
public struct WiringPlan: Sendable {
    public struct WiredFile: Sendable, Equatable, Encodable {
        public var path: String
        public var kind: WiringState.FileKind
        /// The targets given the SDK products (manifests).
        public var targets: [String]
    }

    /// Saved originals first, then the wired files, then the state (PrepareSession's write order).
    public var updates: [PreparePlan.FileUpdate]
    /// The files this run wired (empty when everything already was).
    public var wired: [WiredFile]
    /// The file holding the launch code, nil when the app target declares no entry point.
    public var launchFile: String?
    /// What `init` could not wire and the user adds by hand (launch code without an entry point).
    public var manualSteps: [String]
}

/// `init`'s wiring: the SDK package and products in each target's Package.swift, and the launch code
/// in the app's entry point (docs/prepare.md, "init").
public enum AppWiring {
    /// The products `target` needs: PatchSDK, and PatchSwiftUI for its routed views' thunks.
    public static func products(for target: String, viewTargets: Set<String>) -> [String] {
        [PackageManifestEditor.sdkProduct] + (viewTargets.contains(target) ? [PackageManifestEditor.swiftUIProduct] : [])
    }

    /// The Package.swift declaring `target`, nil for a target of an Xcode project.
    static func manifest(of target: ProjectConfig.Target, in config: ProjectConfig) -> String? {
        target.manifest ?? (config.project.kind == .swiftPackage ? config.project.path : nil)
    }

    /// - Parameter projectFileOnly: wire the Xcode project file alone (what `prepare` does when init
    ///   wired it: register the files it generated since), leaving manifests and the launch code as they are.
    public static func plan(config: ProjectConfig, root: String, viewTargets: Set<String>, projectFileOnly: Bool = false) throws -> WiringPlan {
        let statePath = Preparer.join(root, WiringState.path)
        let stateBytes = try ProjectSources.readIfPresent(statePath)
        var state = try stateBytes.map { bytes throws(ProjectError) in try WiringState.decode(bytes, path: statePath) } ?? WiringState(sdk: config.sdkPackage)
        var originals: [PreparePlan.FileUpdate] = []
        var files: [PreparePlan.FileUpdate] = []
        var wired: [WiringPlan.WiredFile] = []
        var manualSteps: [String] = []

        func record(_ path: String, kind: WiringState.FileKind, current: [UInt8], wired after: [UInt8], markers: [String], targets: [String]) {
            guard after != current else { return }
            let previous = state.files[path]
            if previous == nil {
                originals.append(.init(path: WiringState.originalPath(for: path), before: nil, after: current))
            } else if let previous, SHA256Hasher.hex(of: current) != previous.wiredSHA256 {
                // Edited since it was wired: the original to restore is the user's current text unwired.
                originals.append(.init(path: WiringState.originalPath(for: path), before: nil, after: state.unwired(current, record: previous)))
            }
            let allMarkers = (previous?.markers ?? []) + markers.filter { !(previous?.markers ?? []).contains($0) }
            state.files[path] = .init(kind: kind, wiredSHA256: SHA256Hasher.hex(of: after), markers: allMarkers)
            files.append(.init(path: path, before: current, after: after))
            wired.append(.init(path: path, kind: kind, targets: targets))
        }

        var targetsByManifest: [String: [ProjectConfig.Target]] = [:]
        var xcodeTargets: [ProjectConfig.Target] = []
        for target in config.targets {
            if let manifest = manifest(of: target, in: config) {
                targetsByManifest[manifest, default: []].append(target)
            } else {
                xcodeTargets.append(target)
            }
        }
        if !xcodeTargets.isEmpty {
            let pbxproj = Preparer.join(config.project.path, "project.pbxproj")
            let current = try ProjectSources.read(Preparer.join(root, pbxproj))
            let prepareStatePath = Preparer.join(root, PrepareState.path)
            let sourceRoots = try ProjectSources.sourceRoots(config: config, root: root)
            var compilers = try ProjectSources.readIfPresent(prepareStatePath)
                .map { bytes throws(ProjectError) in try PrepareState.decode(bytes, path: prepareStatePath) }?.generatedFileTargets ?? [:]
            // init writes the public key for the app's launch code: the app target compiles it.
            compilers[config.signing.publicKeyFile] = [config.appTarget]
            let requirements = xcodeTargets.map { target in
                // The roots the project gives the target now, including those added since init.
                let roots = sourceRoots[target.name] ?? target.sourceRoots
                let generated = XcodeWiring.generatedFiles(under: roots, root: root)
                let compiled = generated.filter { compilers[$0.path]?.contains(target.name) ?? true }
                // A target compiling view thunks routed in another target (a file both compile) needs
                // PatchSwiftUI as much as the target the views were counted in.
                let compilesViews = viewTargets.contains(target.name) || compiled.contains { $0.importsSwiftUIRouting }
                return XcodeWiring.TargetWiring(target: target.name, products: products(for: target.name, viewTargets: compilesViews ? [target.name] : []),
                                                generatedFiles: compiled.map(\.path),
                                                excludedFiles: generated.filter { !compiled.contains($0) }.map(\.path))
            }
            let result = try XcodeWiring.wiring(current, projectPath: config.project.path, sdk: config.sdkPackage, targets: requirements,
                                                registered: state.files[pbxproj]?.markers ?? []) { path in
                FileManager.default.fileExists(atPath: Preparer.join(root, path))
            }
            record(pbxproj, kind: .xcodeProject, current: current, wired: result.bytes, markers: result.markers, targets: xcodeTargets.map(\.name))
        }
        func finished(launchFile: String?, manualSteps: [String]) -> WiringPlan {
            var bookkeeping: [PreparePlan.FileUpdate] = []
            if !files.isEmpty { bookkeeping.append(.init(path: WiringState.path, before: stateBytes, after: state.encoded())) }
            return WiringPlan(updates: originals + files + bookkeeping, wired: wired, launchFile: launchFile, manualSteps: manualSteps)
        }
        if projectFileOnly { return finished(launchFile: nil, manualSteps: []) }
        for (manifest, targets) in targetsByManifest.sorted(by: { $0.key < $1.key }) {
            let current = try ProjectSources.read(Preparer.join(root, manifest))
            let requirements = targets.map { PackageManifestEditor.TargetProducts(target: $0.name, products: products(for: $0.name, viewTargets: viewTargets)) }
            let result = try PackageManifestEditor.wiring(current, path: manifest, sdk: config.sdkPackage, targets: requirements)
            record(manifest, kind: .manifest, current: current, wired: result.bytes, markers: result.markers, targets: targets.map(\.name))
        }

        let code = LaunchCode(config)
        var launchFile: String?
        let appFiles = try ProjectSources.targets(config: config, root: root).first { $0.name == config.appTarget }?.files ?? []
        for file in appFiles where LaunchCodeEditor.mayDeclareEntryPoint(file.bytes) {
            guard let result = try LaunchCodeEditor.wiring(file.bytes, path: file.path, code: code) else { continue }
            launchFile = file.path
            record(file.path, kind: .launchCode, current: file.bytes, wired: result.bytes, markers: result.markers, targets: [])
            break
        }
        if launchFile == nil {
            manualSteps.append("target \(config.appTarget) declares no @main App or app delegate: add the launch code to the app's launch")
        }
        return finished(launchFile: launchFile, manualSteps: manualSteps)
    }

    /// What `prepare` wires after writing its files, in a project `init` wired: the Xcode project file
    /// registers the generated files that are new (a new folder's routing file) in the targets that
    /// compile them, and forgets those `prepare` deleted, recorded in the same wiring state, so
    /// `init --revert` undoes it with the rest. Nil when there is nothing to wire this way (a Swift
    /// package, a project wired by hand or with `--no-wire`).
    public static func registration(root: String, viewTargets: Set<String>) throws -> WiringPlan? {
        let config = try ProjectSources.loadConfig(root: root)
        let statePath = Preparer.join(root, WiringState.path)
        guard config.project.kind == .xcodeProject, let stateBytes = try ProjectSources.readIfPresent(statePath),
              try WiringState.decode(stateBytes, path: statePath).files.values.contains(where: { $0.kind == .xcodeProject })
        else { return nil }
        return try plan(config: config, root: root, viewTargets: viewTargets, projectFileOnly: true)
    }

    /// The updates of `init --revert`: each wired file back to its original (exactly, when untouched
    /// since), and the saved originals and state removed.
    public static func revert(root: String) throws(ProjectError) -> [PreparePlan.FileUpdate] {
        let statePath = Preparer.join(root, WiringState.path)
        guard let stateBytes = try ProjectSources.readIfPresent(statePath) else { return [] }
        let state = try WiringState.decode(stateBytes, path: statePath)
        var restores: [PreparePlan.FileUpdate] = []
        var removals: [PreparePlan.FileUpdate] = []
        for (path, record) in state.files.sorted(by: { $0.key < $1.key }) {
            let originalPath = WiringState.originalPath(for: path)
            let original = try ProjectSources.readIfPresent(Preparer.join(root, originalPath))
            if let original { removals.append(.init(path: originalPath, before: original, after: nil)) }
            guard let current = try ProjectSources.readIfPresent(Preparer.join(root, path)) else { continue }
            let restored = SHA256Hasher.hex(of: current) == record.wiredSHA256 ? original ?? state.unwired(current, record: record)
                : state.unwired(current, record: record)
            if restored != current { restores.append(.init(path: path, before: current, after: restored)) }
        }
        return restores + removals + [.init(path: WiringState.path, before: stateBytes, after: nil)]
    }

    /// What to add by hand when wiring is skipped (`init --no-wire`): the package, each target's
    /// products and the launch code.
    public static func manualInstructions(config: ProjectConfig, viewTargets: Set<String>) -> String {
        let identity = PackageManifestEditor.packageIdentity(config.sdkPackage.url)
        var lines = ["Add the Patch SDK package (Package.swift `dependencies:`, or Xcode: File > Add Package Dependencies):",
                     "    " + PackageManifestEditor.packageDependency(config.sdkPackage),
                     "and its products to each target's dependencies:"]
        for target in config.targets {
            let products = products(for: target.name, viewTargets: viewTargets)
            lines.append("    \(target.name): " + products.map { PackageManifestEditor.productDependency($0, packageIdentity: identity) }.joined(separator: ", "))
        }
        lines += ["", LaunchCode(config).snippet]
        return lines.joined(separator: "\n")
    }
}
