import ArgumentParser
import Foundation
import PatchBuild
import PatchManifest

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Set a SwiftPM package or Xcode project up for Patch, then prepare it.",
        discussion: """
            Detects the project, writes patch.json (schema: docs/patch-config.schema.json), an Ed25519
            signing key pair (private key outside the repository, mode 0600; public key as a generated
            Swift file), .gitignore entries, optionally background-update Info.plist keys, runs
            `prepare` and prints the launch snippet. A second run changes nothing.
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

    @Option(name: .customLong("key-dir"), help: "Where a new private key is written (outside the repository; a relative path is taken from the current directory).")
    var keyDirectory: String = InitOptions.defaultKeyDirectory

    @Flag(name: .customLong("background-updates"), help: "Add the Info.plist keys for periodic background update checks.")
    var backgroundUpdates = false

    @Flag(name: .customLong("silent-push"), help: "With --background-updates: also allow silent-push-triggered checks.")
    var silentPush = false

    @Option(name: .customLong("info-plist"), help: "The Info.plist to edit (default: the app target's INFOPLIST_FILE).")
    var infoPlist: String?

    @Flag(help: "Write patch.json again from the detected project even if it exists (the key pair is kept).")
    var force = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if silentPush && !backgroundUpdates { throw ValidationError("--silent-push requires --background-updates") }
    }

    func run() async throws {
        let console = Console(output)
        try await console.perform("init") {
            let options = InitOptions(
                root: project, appKey: appKey, appID: appID, apiBaseURL: apiBaseURL, channel: channel,
                keyDirectory: Self.absoluteUnlessHome(keyDirectory), backgroundUpdates: backgroundUpdates, silentPush: silentPush,
                infoPlist: infoPlist, force: force)
            // $HOME first, as shells and CI set it; the account's home folder otherwise.
            let home = ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            let plan = try ProjectInitializer.plan(options, homeDirectory: home)
            for write in plan.writes {
                let path = write.path.hasPrefix("/") ? write.path : (project == "." ? write.path : project + "/" + write.path)
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                } catch {
                    throw FileAccessError.unwritable(path: directory, reason: FileAccess.reason(error))
                }
                try FileAccess.writeAtomically(write.bytes, to: path, permissions: write.permissions)
            }
            let session = try PrepareSession.run(root: project)
            try PrepareCommand.apply(session.updatesInWriteOrder, root: project)

            let changed = plan.writes.map(\.path) + session.updates.map(\.path)
            if changed.isEmpty {
                console.line("already set up: nothing changed")
            } else {
                console.line("set up \(plan.detected.project.kind == .swiftPackage ? "Swift package" : "Xcode project") \(plan.detected.name) (targets: \(plan.config.targets.map(\.name).joined(separator: ", ")); app: \(plan.config.appTarget))")
                for path in changed { console.line("  wrote \(path)") }
            }
            if plan.createdKeyPair { console.line("new signing key: \(plan.config.signing.privateKeyPath) (keep it secret; back it up)") }
            console.line("routed \(session.plan.views.count) view(s) and \(session.plan.functions.count) function(s); fingerprint \(session.plan.fingerprint)")
            console.line("\nAdd at launch:\n\n\(plan.launchSnippet)\n")
            return InitResult(
                project: plan.detected.project.path, kind: plan.detected.project.kind.rawValue,
                targets: plan.config.targets.map(\.name), appTarget: plan.config.appTarget, changedFiles: changed,
                createdKeyPair: plan.createdKeyPair, privateKeyPath: plan.config.signing.privateKeyPath,
                views: session.plan.views.count, functions: session.plan.functions.count,
                fingerprint: session.plan.fingerprint, launchSnippet: plan.launchSnippet)
        }
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
    var createdKeyPair: Bool
    var privateKeyPath: String
    var views: Int
    var functions: Int
    var fingerprint: String
    var launchSnippet: String
}

