import ArgumentParser
import Foundation
import PatchAssets
import PatchBuild
import PatchManifest

struct PrepareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepare",
        abstract: "Make the app's views and opted-in functions patchable (rewrites sources minimally).",
        discussion: """
            Reads patch.json, renames each SwiftUI view's `body` to `__patch_native_body` and generates a
            routing `body` per view, adds `dynamic` and a replacement to functions marked `// @patchable`,
            and writes .patch/baseline.json plus the fingerprint constant. Details: docs/prepare.md.
            --check exit codes: 30 prepare needed, 50 not prepared, 51 baseline stale, 52 sources changed
            since the baseline (a patch: use `patchcli build`), 53 a generated file does not parse, 54 the
            Xcode project does not compile a generated file in exactly the targets that need it.
            """)

    @Option(name: .long, help: "The project folder holding patch.json.")
    var project: String = "."

    @Flag(help: "Change nothing; fail (exit 30, 50-54) unless the project is prepared as committed (the CI gate).")
    var check = false

    @Flag(name: .customLong("dry-run"), help: "Change nothing; print the changes as a unified diff.")
    var dryRun = false

    @Flag(help: "Undo prepare: restore the original sources (byte-identical when unchanged since) and delete generated files.")
    var revert = false

    @Flag(help: "List every skipped declaration with its file:line (by default, beyond \(Self.skipsListedSeparately) they are counted by reason).")
    var verbose = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard [check, dryRun, revert].filter({ $0 }).count <= 1 else {
            throw ValidationError("--check, --dry-run and --revert exclude each other")
        }
    }

    func run() async throws {
        let console = Console(output)
        try await console.perform("prepare") {
            if revert { return try revertProject(console) }
            console.progress("preparing \(project)")
            let start = ContinuousClock.now
            let session = try PrepareSession.run(root: project)
            let plan = session.plan
            var result = PrepareResult(plan: plan, updates: session.updates, mode: check ? "check" : dryRun ? "dry_run" : "apply")
            result.routing = session.config.routingMode.rawValue
            result.invalidAssets = session.invalidAssets
            for issue in session.invalidAssets { console.line("warning: invalid asset (recorded as it is; fix it before a patch edits it): \(issue)") }
            result.planSeconds = Self.seconds(since: start)
            if check {
                if let finding = try session.checkFinding() { throw Self.failure(finding) }
                result.seconds = Self.seconds(since: start)
                console.line("prepared: nothing would change (\(plan.views.count) views, \(plan.functions.count) functions routed)")
                return result
            }
            if dryRun {
                let diff = session.updates.map { UnifiedDiff.make(path: $0.path, old: $0.before, new: $0.after) }.joined()
                result.diff = diff
                result.seconds = Self.seconds(since: start)
                // Through the console, which takes a terminal's progress line down first.
                if !diff.isEmpty { console.line(String(diff.dropLast(diff.hasSuffix("\n") ? 1 : 0))) }
                return result
            }
            try Self.apply(session.updatesInWriteOrder, root: project)
            // The generated files exist now: a project init wired lists the new ones and forgets the
            // deleted ones, and registers again those its targets no longer compile as they must.
            if try session.createsOrDeletesGeneratedFiles || !session.registrationMismatches().isEmpty,
               let registration = try AppWiring.registration(root: project, viewTargets: Set(plan.views.map(\.target))) {
                try Self.apply(registration.updates, root: project)
                result.changedFiles += registration.wired.map(\.path)
            }
            result.seconds = Self.seconds(since: start)
            report(result, console: console)
            return result
        }
    }

    /// Each `--check` finding as its own error kind and exit code (docs/cli.md): a patch branch must
    /// never be told to run `prepare`, which would re-baseline and lose the patch.
    static func failure(_ finding: PrepareCheckFinding) -> CommandFailure {
        switch finding {
        case let .generatedUnparsable(path, line, message):
            return CommandFailure(
                kind: "generated_unparsable", message: "\(path):\(line): generated code does not parse: \(message)",
                exitStatus: .generatedUnparsable,
                hint: "the file was edited by hand or damaged; restore it from the commit that ran `patchcli prepare`")
        case .notPrepared:
            return CommandFailure(
                kind: "not_prepared", message: "\(PrepareState.baselinePath) is missing: this project was never prepared (or its baseline was not committed)",
                exitStatus: .notPrepared,
                hint: "on the commit you ship as an app release, run `patchcli prepare` and commit its output, .patch/baseline.json included")
        case let .baselineStale(reason):
            return CommandFailure(
                kind: "baseline_stale", message: reason, exitStatus: .baselineStale,
                hint: "regenerate the baseline on the commit of the shipped release (check it out, run `patchcli prepare`, commit); the sources' declarations are what it records")
        case let .sourcesChanged(changed):
            let listed = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? ", … (\(changed.count) in all)" : "")
            return CommandFailure(
                kind: "sources_changed",
                message: "\(changed.count) declaration(s) or asset(s) differ from the shipped baseline (\(listed)): this branch is a patch of that release",
                exitStatus: .sourcesChangedSinceBaseline,
                hint: "build the patch with `patchcli build`; keep the release's baseline and generated files as committed (they describe the binary on devices)")
        case let .prepareNeeded(paths):
            return CommandFailure(
                kind: "prepare_needed",
                message: "prepare would change \(paths.count) file(s) although the baseline matches the sources: \(paths.joined(separator: ", "))",
                exitStatus: .prepareWouldChange, hint: "run `patchcli prepare` and commit the result (the baseline stays as it is)")
        case let .generatedFilesUnregistered(mismatches):
            let listed = mismatches.prefix(5).map(\.description).joined(separator: "; ") + (mismatches.count > 5 ? "; … (\(mismatches.count) files in all)" : "")
            return CommandFailure(
                kind: "generated_unregistered",
                message: "the Xcode project does not compile \(mismatches.count) generated file(s) in exactly the targets that need them: \(listed)",
                exitStatus: .generatedUnregistered,
                hint: "`patchcli prepare` registers it (in a project `patchcli init` wired; otherwise set the file's target membership in Xcode), then commit the project file")
        }
    }

    /// Up to this many skips are listed one per line; beyond, `routing: all` on an app (hundreds of
    /// functions that cannot be routed) would bury the rest of the output.
    static let skipsListedSeparately = 20

    /// The human lines of the skips: each one, or, when there are many and not `--verbose`, one line
    /// per kind of reason (`reasonKind`), most frequent first, with a count and the first example's
    /// reason and place.
    static func skipLines(_ skips: [PrepareResult.Skipped], verbose: Bool) -> [String] {
        guard !verbose, skips.count > skipsListedSeparately else {
            return skips.map { "skipped \($0.declaration) (\($0.file):\($0.line)): \($0.reason)" }
        }
        var groups: [String: [PrepareResult.Skipped]] = [:]
        for skip in skips { groups[reasonKind(skip.reason), default: []].append(skip) }
        let sorted = groups.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
        let width = String(sorted.first?.value.count ?? 0).count
        return ["skipped \(skips.count) declaration(s), by reason (`--verbose` or `--json` lists each with its file:line):"]
            + sorted.map { _, members in
                let example = members[0]
                let count = String(repeating: " ", count: width - String(members.count).count) + String(members.count)
                return "  \(count)  \(example.reason) (e.g. \(example.declaration), \(example.file):\(example.line))"
            }
    }

    /// A reason with what names one declaration (`code`, "names") blanked out, so `parameter `a`:
    /// `Item` is not Codable` and `parameter `b`: `Order` is not Codable` count as one kind.
    static func reasonKind(_ reason: String) -> String {
        var kind = ""
        var closing: Character?
        for character in reason {
            if let close = closing {
                if character == close {
                    kind.append(close)
                    closing = nil
                }
            } else {
                kind.append(character)
                if character == "`" || character == "\"" {
                    kind.append("…")
                    closing = character
                }
            }
        }
        return kind
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).inSeconds.rounded(toPlaces: 3)
    }

    private func revertProject(_ console: Console) throws -> PrepareResult {
        let revert = try PrepareSession.revert(root: project)
        let updates = revert.updates
        try Self.apply(updates, root: project)
        try Self.removeEmptyDirectories(revert.directoriesToRemove, root: project)
        let restored = updates.filter { !$0.path.hasPrefix(".patch/") }.map(\.path)
        console.line(updates.isEmpty ? "nothing to revert: no prepare state in \(project)/.patch" : "reverted \(restored.count) file(s)")
        for path in restored { console.line("  \(path)") }
        return PrepareResult(mode: "revert", changedFiles: restored)
    }

    /// Writes or deletes each file, in the given order; paths are relative to `root`. Every new
    /// content is staged (written and flushed to a temporary file) before the first file changes, so
    /// a failure while writing leaves the project exactly as it was; only renames and deletions
    /// follow, in order. A rewritten file keeps its permissions (an executable script stays one).
    static func apply(_ updates: [PreparePlan.FileUpdate], root: String) throws {
        func fullPath(_ update: PreparePlan.FileUpdate) -> String { root == "." ? update.path : root + "/" + update.path }
        var staged: [String: AtomicFileWriter] = [:]
        for update in updates {
            guard let bytes = update.after else { continue }
            let path = fullPath(update)
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw FileAccessError.unwritable(path: directory, reason: FileAccess.reason(error))
            }
            let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
            staged[path] = try FileAccess.stage(bytes, at: path, permissions: mode)
        }
        for update in updates {
            let path = fullPath(update)
            if let writer = staged[path] {
                try writer.commit()
            } else if FileManager.default.fileExists(atPath: path) {
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    throw FileAccessError.unwritable(path: path, reason: FileAccess.reason(error))
                }
            }
        }
    }

    /// Removes each folder (relative to `root`, deepest first) that is empty; one still holding files
    /// (the user's, added since) stays.
    static func removeEmptyDirectories(_ directories: [String], root: String) throws {
        for directory in directories {
            let path = root == "." ? directory : root + "/" + directory
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path), entries.isEmpty else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw FileAccessError.unwritable(path: path, reason: FileAccess.reason(error))
            }
        }
    }

    private func report(_ result: PrepareResult, console: Console) {
        if result.changedFiles.isEmpty {
            console.line("already prepared: nothing changed")
        } else {
            console.line("changed \(result.changedFiles.count) file(s):")
            for path in result.changedFiles { console.line("  \(path)") }
        }
        console.line("routed \(result.views) view(s) and \(result.functions) function(s) in \(result.filesScanned) file(s) (routing: \(result.routing ?? "")); fingerprint \(result.fingerprint ?? "")")
        if let platforms = result.platforms, platforms.count > 1, let fingerprints = result.fingerprints {
            console.line("platforms: " + platforms.map { "\($0) \(fingerprints[$0] ?? "")" }.joined(separator: ", "))
        }
        for line in Self.skipLines(result.skipped, verbose: verbose) { console.line(line) }
        for collision in result.collisions { console.line("collision: \(collision)") }
        for added in result.addedSourceRoots { console.line("note: \(added)") }
    }
}

/// The `--json` result of `prepare`.
struct PrepareResult: Encodable {
    struct Skipped: Encodable {
        var file: String
        var line: Int
        var declaration: String
        var reason: String
    }

    var mode: String
    /// patch.json's `routing` as applied (`marked` when the file has none).
    var routing: String?
    var filesScanned = 0
    var changedFiles: [String] = []
    var views = 0
    var functions = 0
    var skipped: [Skipped] = []
    var collisions: [String] = []
    var fingerprint: String?
    /// The platforms the app ships for (the baseline's, the default first) and each one's
    /// fingerprint (`fingerprint` is the first's): docs/prepare.md "Platforms".
    var platforms: [String]?
    var fingerprints: [String: String]?
    /// Folders the Xcode project gives a target that patch.json does not record: prepared all the same.
    var addedSourceRoots: [ProjectSources.AddedSourceRoot] = []
    /// The app's broken assets, recorded as they are (docs/assets.md "Validation").
    var invalidAssets: [AssetIssue] = []
    var diff: String?
    /// Files parsed (the others came from the scan cache) and the time swift-syntax's parser took:
    /// on the wall clock (files parse on every core) and summed over files (on one core).
    var filesParsed = 0
    var parseSeconds = 0.0
    var parseCPUSeconds = 0.0
    /// Reading, parsing, scanning and planning: everything before the first write.
    var planSeconds = 0.0
    /// Wall time of the whole command, writing (atomic, synced files) included.
    var seconds = 0.0

    init(mode: String, changedFiles: [String]) {
        self.mode = mode
        self.changedFiles = changedFiles
    }

    init(plan: PreparePlan, updates: [PreparePlan.FileUpdate], mode: String) {
        self.mode = mode
        filesScanned = plan.filesScanned
        changedFiles = updates.map(\.path)
        views = plan.views.count
        functions = plan.functions.count
        skipped = plan.skipped.map { Skipped(file: $0.file, line: $0.line, declaration: $0.declaration, reason: $0.reason) }
        collisions = plan.collisions.map(\.description)
        fingerprint = plan.fingerprint
        platforms = plan.platforms.map(\.rawValue)
        fingerprints = Dictionary(uniqueKeysWithValues: plan.platforms.map {
            ($0.rawValue, BuildFingerprint.compute(canonicalBaseline: plan.baselineBytes, platform: $0))
        })
        addedSourceRoots = plan.addedSourceRoots
        filesParsed = plan.filesParsed
        parseSeconds = plan.parseSeconds.rounded(toPlaces: 3)
        parseCPUSeconds = plan.parseCPUSeconds.rounded(toPlaces: 3)
    }
}
