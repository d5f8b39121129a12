import Foundation
import PatchDiff
import PatchManifest
import PatchStore

/// One finding of `patchcli doctor`: what was checked, how it went, what was found and what to do.
package struct DoctorCheck: Sendable, Equatable, Encodable {
    package enum Status: String, Sendable, Encodable {
        case ok, warning, failure
    }

    package var name: String
    package var status: Status
    /// What was found (a path, a version, the problem).
    package var detail: String
    /// What to do about it; nil when the check passed.
    package var fix: String?

    package init(_ name: String, _ status: Status, _ detail: String, fix: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
    }
}

package struct DoctorReport: Sendable, Encodable {
    /// The project folder checked, nil when there was none (machine checks only).
    package var project: String?
    package var checks: [DoctorCheck]
    package var failures: Int { checks.filter { $0.status == .failure }.count }
    package var warnings: Int { checks.filter { $0.status == .warning }.count }

    enum CodingKeys: String, CodingKey { case project, checks, failures, warnings }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(project, forKey: .project)
        try container.encode(checks, forKey: .checks)
        try container.encode(failures, forKey: .failures)
        try container.encode(warnings, forKey: .warnings)
    }
}

/// `patchcli doctor`: whether this machine can build patches (toolchain, wasm-opt, guest templates,
/// codecs) and, in a project, whether `init` left it able to ship them (patch.json, signing keys, SDK
/// wiring, fingerprint). Reads only; every check reports instead of throwing.
package enum Doctor {
    package struct Options: Sendable {
        /// The project folder; nil checks the machine only.
        package var project: String?
        /// `--toolchain`, as `build` takes it.
        package var toolchain: String?
        package var environment: [String: String]
        package var homeDirectory: String
        package var installation: Installation

        package init(project: String?, toolchain: String?, environment: [String: String], homeDirectory: String, installation: Installation) {
            self.project = project
            self.toolchain = toolchain
            self.environment = environment
            self.homeDirectory = homeDirectory
            self.installation = installation
        }
    }

    /// The SDK's products and launch call as sdk-contract §9 and §11 name them.
    static let sdkProduct = "PatchSDK"
    static let launchCall = "Patch.configure("

    package static func run(_ options: Options) -> DoctorReport {
        var config: ProjectConfig?
        var projectChecks: [DoctorCheck] = []
        if let project = options.project {
            do {
                config = try ProjectSources.loadConfig(root: project)
                projectChecks.append(DoctorCheck("patch_json", .ok, Preparer.join(project, ProjectConfig.fileName)))
            } catch {
                let fix = if case .configMissing = error { "run `patchcli init` in the project folder, or pass --project" }
                    else { "correct patch.json (schema: docs/patch-config.schema.json), or run `patchcli init --force`" }
                projectChecks.append(DoctorCheck("patch_json", .failure, error.description, fix: fix))
            }
        }
        var checks = machineChecks(options, settings: config?.build ?? .init())
        checks += projectChecks
        if let project = options.project, let config {
            checks += signingChecks(config, root: project, home: options.homeDirectory)
            checks += wiringChecks(config, root: project)
        }
        return DoctorReport(project: options.project, checks: checks)
    }

    // MARK: The machine

    static func machineChecks(_ options: Options, settings: ProjectConfig.BuildSettings) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        // wasm-opt is reported on its own below, so the toolchain check never fails for it.
        var toolchainSettings = settings
        toolchainSettings.wasmOpt = .auto
        do {
            let toolchain = try Toolchain.discover(explicitPath: options.toolchain, environment: options.environment, settings: toolchainSettings)
            checks.append(DoctorCheck("toolchain", .ok, "swiftc, clang and wasm-ld in \(toolchain.binDirectory); Embedded Swift for \(toolchain.guestTarget) in \(toolchain.swiftSDK?.embeddedLibrary ?? toolchain.embeddedWasmLibrary)"))
            if let wasmOpt = toolchain.wasmOpt {
                checks.append(DoctorCheck("wasm_opt", settings.wasmOpt == .never ? .warning : .ok, wasmOpt + (settings.wasmOpt == .never ? " (unused: build.wasmOpt is \"never\")" : ""),
                                          fix: settings.wasmOpt == .never ? "remove build.wasmOpt from patch.json for smaller modules" : nil))
            } else {
                checks.append(DoctorCheck(
                    "wasm_opt", settings.wasmOpt == .always ? .failure : .warning,
                    "binaryen's wasm-opt is not beside swiftc or on PATH" + (settings.wasmOpt == .always ? " and patch.json sets build.wasmOpt to \"always\"" : ": modules are built larger"),
                    fix: "install binaryen (apt-get install binaryen, brew install binaryen)"))
            }
        } catch {
            checks.append(DoctorCheck("toolchain", .failure, error.description,
                                      fix: "install a Swift 6.3+ toolchain from swift.org and put its usr/bin on PATH, or pass --toolchain"))
            checks.append(DoctorCheck("wasm_opt", .warning, "not checked: no usable toolchain", fix: "fix the toolchain first"))
        }
        do {
            let templates = try GuestTemplates.locate(explicit: nil, environment: options.environment, installation: options.installation)
            checks.append(DoctorCheck("templates", .ok, templates))
        } catch {
            checks.append(DoctorCheck("templates", .failure, error.description,
                                      fix: "reinstall patchcli (`make install`), or set PATCHCLI_TEMPLATES to a templates directory"))
        }
        checks += CodecKind.allCases.map(codecCheck)
        return checks
    }

    /// A round trip through the system library behind the codec: a missing or broken library shows
    /// here rather than in the middle of a release.
    static func codecCheck(_ codec: CodecKind) -> DoctorCheck {
        let sample = Array("patchcli doctor \(codec.rawValue) round trip ".utf8) + [UInt8](repeating: 0x2A, count: 256)
        do {
            let compressed = try codec.compress(sample)
            let restored = try codec.decompress(compressed, maxOutputBytes: sample.count)
            guard restored == sample else {
                return DoctorCheck("codec_\(codec.rawValue)", .failure, "\(codec.rawValue) round trip returned other bytes",
                                   fix: "reinstall the system \(codec.rawValue) library and rebuild patchcli")
            }
            return DoctorCheck("codec_\(codec.rawValue)", .ok, "\(codec.rawValue) round trip (\(sample.count) -> \(compressed.count) bytes)")
        } catch {
            return DoctorCheck("codec_\(codec.rawValue)", .failure, "\(codec.rawValue): \(error)",
                               fix: "reinstall the system \(codec.rawValue) library and rebuild patchcli")
        }
    }

    // MARK: The project

    /// The store's signing keys `init` made: the key directory private to its owner, each role's key
    /// there (the root key may be kept offline with only its public half), mode 0600, readable and
    /// the private half of its `.pub.json`; and the app's embedded public key the root key.
    static func signingChecks(_ config: ProjectConfig, root: String, home: String) -> [DoctorCheck] {
        guard let configured = config.signing.keyDirectory else {
            let legacy = config.signing.privateKeyPath ?? "signing.privateKeyPath"
            return [DoctorCheck(
                "key_directory", .failure,
                "patch.json names only signing.privateKeyPath (\(legacy)), the single key of an older patchcli: no release is signed with it, and `release` finds no store keys for this project",
                fix: "run `patchcli init`: it creates the store's role keys in \(KeyDirectory.defaultParent)/\(config.appKey) (or --key-dir), takes \(legacy) as the root key and records signing.keyDirectory in patch.json")]
        }
        let directory = KeyDirectory(path: ProjectConfig.expandingHome(configured, home: home))
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue else {
            return [DoctorCheck(
                "key_directory", .warning,
                "\(directory.path) (signing.keyDirectory) is not on this machine: releases are signed here only with --key-dir, --key or PATCHCLI_KEY_<ROLE>",
                fix: "copy the key directory from the release machine (mode 0700, keys 0600), or run `patchcli init` to create the keys if no store was made with them yet")]
        }
        var checks: [DoctorCheck] = []
        if let mode = permissions(directory.path), mode & 0o077 != 0 {
            checks.append(DoctorCheck("key_directory", .failure, "\(directory.path) is open to others (mode \(String(mode, radix: 8)))", fix: "chmod 700 \(directory.path)"))
        } else {
            checks.append(DoctorCheck("key_directory", .ok, "\(directory.path) (mode 700)"))
        }
        var rootKey: TUFKey?
        for role in TUFRole.allCases {
            let name = "signing_key_\(role.rawValue)"
            let keyPath = directory.privateKeyPath(role)
            do {
                guard let key = try directory.privateKey(role) else {
                    if role == .root, let offline = try directory.publicKey(.root) {
                        rootKey = offline
                        checks.append(DoctorCheck(name, .ok, "kept offline: \(directory.publicKeyPath(.root)) only (bring root.key back for `release init` and `keys rotate`)"))
                    } else {
                        checks.append(DoctorCheck(
                            name, .failure, "\(keyPath) is missing: \(role == .root ? "`release init` and `keys rotate` need it" : "releases from this project cannot be signed")",
                            fix: "copy \(role.rawValue).key into \(directory.path) (mode 0600); if no store was created with these keys yet, `patchcli init` generates it"))
                    }
                    continue
                }
                if role == .root { rootKey = key.publicKey }
                if let published = try directory.publicKey(role), published != key.publicKey {
                    checks.append(DoctorCheck(name, .failure, "\(directory.publicKeyPath(role)) is not the public half of \(keyPath)",
                                              fix: "delete \(directory.publicKeyPath(role)) and run `patchcli init` to write it again from the private key"))
                } else if let mode = permissions(keyPath), mode & 0o077 != 0 {
                    checks.append(DoctorCheck(name, .failure, "\(keyPath) is readable by others (mode \(String(mode, radix: 8)))", fix: "chmod 600 \(keyPath)"))
                } else {
                    checks.append(DoctorCheck(name, .ok, "\(keyPath) (mode 600, keyid \(key.keyid.prefix(16))…)"))
                }
            } catch {
                checks.append(DoctorCheck(name, .failure, error.description, fix: "restore the key from its backup"))
            }
        }
        if let advice = directory.rootKeyBesideOnlineKeys() {
            checks.append(DoctorCheck("root_key_offline", .warning, advice, fix: "move \(directory.privateKeyPath(.root)) to offline storage; \(directory.publicKeyPath(.root)) stays"))
        }
        let publicPath = Preparer.join(root, config.signing.publicKeyFile)
        guard let rootKey else {
            checks.append(DoctorCheck("public_key", .failure, "\(config.signing.publicKeyFile) cannot be checked: no root key in \(directory.path)",
                                      fix: "restore root.key (or root.pub.json) in the key directory"))
            return checks
        }
        switch (try? ProjectSources.readIfPresent(publicPath)) ?? nil {
        case Array(ProjectInitializer.publicKeyFile(root: rootKey).utf8)?:
            checks.append(DoctorCheck("public_key", .ok, "\(config.signing.publicKeyFile) embeds the root key \(rootKey.keyid.prefix(16))…"))
        case nil:
            checks.append(DoctorCheck("public_key", .failure, "\(config.signing.publicKeyFile) is missing: the app has no trust anchor to build with",
                                      fix: "run `patchcli init` (it writes the file from the root key)"))
        case _?:
            checks.append(DoctorCheck("public_key", .failure, "\(config.signing.publicKeyFile) does not embed the root key of \(directory.path) (\(rootKey.keyid.prefix(16))…): the app would trust another store",
                                      fix: "run `patchcli init` to write it from the root key, before building the app you ship"))
        }
        return checks
    }

    /// A file's permission bits; nil when they cannot be read.
    private static func permissions(_ path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int).map { $0 & 0o777 }
    }

    /// What the app needs to compile against the SDK and start it: the package dependency, the launch
    /// call and a fingerprint file that matches the recorded baseline.
    static func wiringChecks(_ config: ProjectConfig, root: String) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let projectFile = config.project.kind == .swiftPackage ? config.project.path : Preparer.join(config.project.path, "project.pbxproj")
        let projectText = ((try? ProjectSources.readIfPresent(Preparer.join(root, projectFile))) ?? nil).map { String(decoding: $0, as: UTF8.self) }
        if projectText?.contains(sdkProduct) == true {
            checks.append(DoctorCheck("sdk_package", .ok, "\(projectFile) depends on \(sdkProduct)"))
        } else {
            checks.append(DoctorCheck("sdk_package", .failure, "\(projectFile) does not mention the \(sdkProduct) product: the generated code cannot compile",
                                      fix: "add the PatchSDK package (https://github.com/patch-release/patch-swift, from: \"1.4.0\") and its \(sdkProduct) product to \(config.appTarget)"))
        }

        let targets = (try? ProjectSources.targets(config: config, root: root)) ?? []
        let appFiles = (targets.first { $0.name == config.appTarget } ?? targets.first)?.files ?? []
        if let file = appFiles.first(where: { String(decoding: $0.bytes, as: UTF8.self).contains(launchCall) }) {
            checks.append(DoctorCheck("launch_code", .ok, "\(launchCall)…) in \(file.path)"))
        } else {
            checks.append(DoctorCheck("launch_code", .failure, "no \(launchCall)…) in the sources of \(config.appTarget): Patch never starts",
                                      fix: "add the launch snippet `patchcli init` prints to the App's init or application(_:didFinishLaunchingWithOptions:)"))
        }

        let appRoot = config.targets.first { $0.name == config.appTarget }?.sourceRoots.first ?? config.targets.first?.sourceRoots.first ?? ""
        let fingerprintPath = Preparer.fingerprintFilePath(appSourceRoot: appRoot)
        let baseline = (try? ProjectSources.readIfPresent(Preparer.join(root, PrepareState.baselinePath))) ?? nil
        let fingerprintFile = (try? ProjectSources.readIfPresent(Preparer.join(root, fingerprintPath))) ?? nil
        if let baseline, let fingerprintFile {
            // One fingerprint per platform the baseline records (an unreadable baseline: iOS alone).
            let platforms = ((try? JSONValue.parse(baseline)).flatMap { try? Baseline(json: $0) })?.platforms ?? [.iOS]
            let fingerprints = platforms.map { "\(platforms.count > 1 ? $0.rawValue + " " : "")\(BuildFingerprint.compute(canonicalBaseline: baseline, platform: $0))" }
            if fingerprintFile == Array(ThunkEmitter.fingerprintFile(canonicalBaseline: baseline, platforms: platforms).utf8) {
                checks.append(DoctorCheck("fingerprint", .ok, "\(fingerprintPath) is the baseline's (\(fingerprints.joined(separator: ", ")))"))
            } else {
                checks.append(DoctorCheck("fingerprint", .failure, "\(fingerprintPath) does not hold the fingerprint of \(PrepareState.baselinePath): devices would report a build no patch targets",
                                          fix: "run `patchcli prepare` before building the app you ship"))
            }
        } else {
            checks.append(DoctorCheck("fingerprint", .failure, "\(baseline == nil ? PrepareState.baselinePath : fingerprintPath) is missing: the project is not prepared",
                                      fix: "run `patchcli prepare`"))
        }
        return checks
    }
}
