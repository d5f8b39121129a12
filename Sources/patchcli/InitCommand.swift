import ArgumentParser
import Foundation
import PatchBuild
import PatchManifest

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Set a SwiftPM package or Xcode project up for Patch, wire the app, then prepare it.",
        discussion: """
            Detects the project, writes patch.json (schema: docs/patch-config.schema.json), the release
            store's signing keys (one Ed25519 key per TUF role in a key directory outside the repository,
            default ~/.config/patch/keys/<app key>, mode 0700, keys 0600; `release` and the other store
            commands use it when run in the project), the root public key as a generated Swift file (the
            app's trust anchor), .gitignore entries, optionally background-update Info.plist keys, wires the app
            (the PatchSDK package and products in Package.swift, the launch code in the @main App's
            init() or the app delegate's application(_:didFinishLaunchingWithOptions:)) and runs
            `prepare`. A second run changes nothing. --no-wire prints the wiring instead of doing it;
            --revert undoes the wiring and the preparation.
            """)

    @Option(name: .long, help: "The project folder (holding Package.swift or the .xcodeproj).")
    var project: String = "."

    @Option(name: .customLong("app-key"), help: "The app key devices send (default: the project name, lowercased).")
    var appKey: String?

    @Option(name: .customLong("app-id"), help: "The backend's app id (UUID), if registered.")
    var appID: String?

    @Option(name: .customLong("api-base-url"), help: "The update server.")
    var apiBaseURL: String = InitOptions.defaultAPIBaseURL

    @Option(help: "The release channel devices follow.")
    var channel: String = "production"

    @Option(name: .customLong("key-dir"), help: "The folder of the signing keys, outside the repository (default: patch.json's signing.keyDirectory, else ~/.config/patch/keys/<app key>; a relative path is taken from the current directory).")
    var keyDirectory: String?

    @Flag(name: .customLong("background-updates"), help: "Add the Info.plist keys for periodic background update checks.")
    var backgroundUpdates = false

    @Flag(name: .customLong("silent-push"), help: "With --background-updates: also allow silent-push-triggered checks.")
    var silentPush = false

    @Option(name: .customLong("info-plist"), help: "The Info.plist to edit (default: the app target's INFOPLIST_FILE).")
    var infoPlist: String?

    @Flag(help: "Write patch.json again from the detected project even if it exists (the keys in the key directory are kept).")
    var force = false

    @Flag(name: .customLong("no-wire"), help: "Change no Package.swift or app source: print the SDK dependency, products and launch code to add by hand.")
    var noWire = false

    @Flag(help: "Undo the wiring and the preparation (`prepare --revert`); patch.json and the keys stay.")
    var revert = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if silentPush && !backgroundUpdates { throw ValidationError("--silent-push requires --background-updates") }
        if revert && noWire { throw ValidationError("--revert and --no-wire cannot be combined") }
    }

    func run() async throws {
        let console = Console(output)
        if revert {
            try await console.perform("init") { try revertWiring(console) }
            return
        }
        try await console.perform("init") {
            let options = InitOptions(
                root: project, appKey: appKey, appID: appID, apiBaseURL: apiBaseURL, channel: channel,
                keyDirectory: keyDirectory.map(Self.absoluteUnlessHome), backgroundUpdates: backgroundUpdates, silentPush: silentPush,
                infoPlist: infoPlist, force: force)
            let plan = try ProjectInitializer.plan(options, homeDirectory: FileAccess.homeDirectory)
            // The keys first: the public key file among the writes embeds the root key.
            try plan.keyDirectory.write(plan.newKeys)
            for write in plan.writes {
                let path = project == "." ? write.path : project + "/" + write.path
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                } catch {
                    throw FileAccessError.unwritable(path: directory, reason: FileAccess.reason(error))
                }
                try FileAccess.writeAtomically(write.bytes, to: path)
            }
            var session = try PrepareSession.run(root: project)
            let viewTargets = Set(session.plan.views.map(\.target))
            var wiring: WiringPlan?
            if !noWire {
                let wiringPlan = try AppWiring.plan(config: plan.config, root: project, viewTargets: viewTargets)
                try PrepareCommand.apply(wiringPlan.updates, root: project)
                // Prepare reads the sources as wired: the entry point's file may hold views too.
                if wiringPlan.wired.contains(where: { $0.kind == .launchCode }) { session = try PrepareSession.run(root: project) }
                wiring = wiringPlan
            }
            try PrepareCommand.apply(session.updatesInWriteOrder, root: project)
            if var wiringPlan = wiring, plan.config.project.kind == .xcodeProject {
                // An Xcode target compiles only the files its project lists: the generated files exist
                // now, so wiring runs once more to register them (the rest is already wired).
                let registration = try AppWiring.plan(config: plan.config, root: project, viewTargets: viewTargets)
                try PrepareCommand.apply(registration.updates, root: project)
                wiringPlan.wired += registration.wired.filter { !wiringPlan.wired.contains($0) }
                wiring = wiringPlan
            }

            let wired = wiring?.wired ?? []
            let newKeyFiles = plan.newKeys.map { plan.keyDirectory.privateKeyPath($0.role) }
            let changed = plan.writes.map(\.path) + newKeyFiles + wired.map(\.path) + session.updates.map(\.path)
            if changed.isEmpty {
                console.line("already set up: nothing changed")
            } else {
                console.line("set up \(plan.detected.project.kind == .swiftPackage ? "Swift package" : "Xcode project") \(plan.detected.name) (targets: \(plan.config.targets.map(\.name).joined(separator: ", ")); app: \(plan.config.appTarget))")
                for path in changed { console.line("  wrote \(path)") }
            }
            if let migrated = plan.migratedKey {
                console.line("moved signing to the key directory \(plan.keyDirectory.path): \(migrated) is its root key now (delete it once root.key is backed up)")
            }
            if !plan.newKeys.isEmpty {
                console.line("new signing keys (\(plan.newKeys.map(\.role.rawValue).joined(separator: ", "))) in \(plan.keyDirectory.path): keep them secret and backed up; keep root.key offline once the store exists")
            }
            console.line("routed \(session.plan.views.count) view(s) and \(session.plan.functions.count) function(s); fingerprint \(session.plan.fingerprint)")
            var manualSteps = wiring?.manualSteps ?? []
            if let wiring {
                for file in wired {
                    switch file.kind {
                    case .manifest: console.line("wired \(file.path): the Patch SDK for \(file.targets.joined(separator: ", "))")
                    case .xcodeProject: console.line("wired \(file.path): the Patch SDK and the generated files for \(file.targets.joined(separator: ", "))")
                    case .launchCode: console.line("wired \(file.path): the launch code")
                    }
                }
                for step in wiring.manualSteps { console.line("to do by hand: \(step)") }
                if wiring.launchFile == nil { console.line("\nAdd at launch:\n\n\(plan.launchCode.snippet)\n") }
            } else {
                let instructions = AppWiring.manualInstructions(config: plan.config, viewTargets: viewTargets)
                manualSteps = [instructions]
                console.line("\nNot wired (--no-wire). \(instructions)\n")
            }
            return InitResult(
                project: plan.detected.project.path, kind: plan.detected.project.kind.rawValue,
                targets: plan.config.targets.map(\.name), appTarget: plan.config.appTarget, changedFiles: changed,
                keyDirectory: plan.keyDirectory.path, createdKeys: plan.newKeys.map(\.role.rawValue), migratedKey: plan.migratedKey,
                views: session.plan.views.count, functions: session.plan.functions.count,
                fingerprint: session.plan.fingerprint, launchCode: plan.launchCode.snippet, wired: wired, manualSteps: manualSteps)
        }
    }

    /// `init --revert`: prepare's changes out first (they were made on the wired files, so this gives
    /// the wired files back exactly), then the wiring's.
    private func revertWiring(_ console: Console) throws -> InitRevertResult {
        let prepareRevert = try PrepareSession.revert(root: project)
        let prepareUpdates = prepareRevert.updates
        try PrepareCommand.apply(prepareUpdates, root: project)
        try PrepareCommand.removeEmptyDirectories(prepareRevert.directoriesToRemove, root: project)
        let wiringUpdates = try AppWiring.revert(root: project)
        try PrepareCommand.apply(wiringUpdates, root: project)
        let restored = (prepareUpdates + wiringUpdates).filter { $0.before != nil && $0.after != nil }.map(\.path)
        let removed = (prepareUpdates + wiringUpdates).filter { $0.after == nil }.map(\.path)
        if restored.isEmpty && removed.isEmpty {
            console.line("nothing to revert")
        } else {
            for path in restored { console.line("restored \(path)") }
            console.line("removed \(removed.count) generated or bookkeeping file(s); patch.json and the keys stay")
        }
        return InitRevertResult(restoredFiles: restored, removedFiles: removed)
    }

    /// patch.json is read from the project folder, so a key directory given relative to where the
    /// user stands is stored absolute; `~/…` stays portable across machines.
    static func absoluteUnlessHome(_ path: String) -> String {
        if path.hasPrefix("/") || path.hasPrefix("~") { return path }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// The `--json` result of `init`.
struct InitResult: Encodable {
    var project: String
    var kind: String
    var targets: [String]
    var appTarget: String
    var changedFiles: [String]
    /// The folder of the signing keys, and the roles whose key this run created there.
    var keyDirectory: String
    var createdKeys: [String]
    /// The older patchcli's key (`signing.privateKeyPath`) this run took as the root key.
    var migratedKey: String?
    var views: Int
    var functions: Int
    var fingerprint: String
    /// The launch code (what wiring inserts, or what to add by hand).
    var launchCode: String
    /// The files this run wired.
    var wired: [WiringPlan.WiredFile]
    /// What is left to add by hand (everything with --no-wire).
    var manualSteps: [String]
}

/// The `--json` result of `init --revert`.
struct InitRevertResult: Encodable {
    var restoredFiles: [String]
    var removedFiles: [String]
}

