import Foundation
import PatchManifest

/// One replayed commit of `patchcli audit --history N`: what `build` reports for it against a
/// baseline prepared at its first parent.
public struct AuditedCommit: Sendable, Encodable {
    public enum Outcome: String, Sendable, Encodable {
        /// Every behaviour-changing declaration change is patched: the commit would have shipped as a patch.
        case fullyPatched = "fully_patched"
        /// Some changes are patched, some stay native: it would have needed an app release.
        case partlyPatched = "partly_patched"
        /// Behaviour changes, none of them patched.
        case nativeOnly = "native_only"
        /// Only informational changes (added or removed code) or none at all (comments, formatting,
        /// files outside the configured targets): nothing to ship.
        case noBehaviourChange = "no_behaviour_change"
        /// The replay could not judge it (`failure` says why): prepare or the guest build failed.
        case failed
    }

    public struct Failure: Sendable, Encodable {
        public var kind: String
        public var message: String
    }

    public var commit: String
    public var shortHash: String
    public var subject: String
    /// The first parent: the release the commit is judged against.
    public var parent: String
    /// A merge, judged by its change against its first parent (what the main line received).
    public var merge: Bool
    public var outcome: Outcome
    public var patched: Int
    public var nativeOnly: Int
    public var informational: Int
    /// Native-only changes per reason.
    public var nativeOnlyByReason: [String: Int]
    /// At least one change is patched or native-only (informational changes do not count).
    public var behaviourChanging: Bool
    public var fullyPatched: Bool
    /// Every declaration change, as `build --json` reports it (`result.changes`); in an app that
    /// ships for several platforms, merged over the platforms' builds (`mergingPlatforms`).
    public var changes: [DeclarationChange]
    public var failure: Failure?
    /// The platforms whose module the replay built, the default first, when it built more than the
    /// default one's (a change only another platform's build compiles).
    public var platforms: [AppPlatform]? = nil
}

/// What `patchcli audit --history N` found.
public struct HistoryAuditReport: Sendable, Encodable {
    public struct Totals: Sendable, Encodable {
        public var commits: Int
        public var behaviourChangingCommits: Int
        public var fullyPatchedCommits: Int
        public var failedCommits: Int
        /// Percent of the behaviour-changing commits that are fully patched (one decimal; 100 when none).
        public var fullyPatchedCommitShare: Double
        public var patched: Int
        public var nativeOnly: Int
        public var informational: Int
        /// Percent of the behaviour-changing declaration changes that are patched (as `build`'s coverage).
        public var patchedShare: Double
    }

    /// One reason changes stay native, with how many and a few of the declarations it kept native.
    public struct Reason: Sendable, Encodable {
        public var reason: String
        public var count: Int
        /// Percent of all native-only changes.
        public var share: Double
        /// Up to three `id (short hash)` examples, newest commit first.
        public var examples: [String]
    }

    /// The repository's top folder.
    public var repository: String
    /// The project's folder inside it (`.` for the top).
    public var project: String
    public var head: String
    /// Newest first, as `git log --first-parent` lists them.
    public var commits: [AuditedCommit]
    public var totals: Totals
    /// Most frequent first.
    public var reasons: [Reason]
}

public enum HistoryAuditError: Error, CustomStringConvertible {
    case projectMissing(path: String)
    case notGitRepository(path: String, reason: String)
    case historyTooShort(repository: String, project: String, requested: Int, found: Int, shallow: Bool)
    case git(command: String, message: String)
    case scratchUnwritable(path: String, reason: String)
    /// No toolchain or guest templates: every commit would fail the same way.
    case guest(GuestBuildError)

    public var description: String {
        switch self {
        case let .projectMissing(path): return "\(path): no such folder"
        case let .notGitRepository(path, reason): return "\(path): not in a git repository (\(reason)); audit replays the project's git history"
        case let .historyTooShort(repository, project, requested, found, shallow):
            let folder = project == "." ? "" : " under \(project)"
            return "\(repository): \(found) first-parent commit(s) of HEAD change Swift files\(folder) and have a parent to prepare; --history asked for \(requested)"
                + (shallow ? " (the clone is shallow: older commits are not here)" : "")
        case let .git(command, message): return "`\(command)` failed: \(message)"
        case let .scratchUnwritable(path, reason): return "\(path): cannot create the scratch work tree (\(reason))"
        case let .guest(error): return error.description
        }
    }
}

/// `patchcli audit --history N`: replays the last N first-parent commits of HEAD that change Swift
/// files of the project. For each, a scratch work tree (`git worktree add --detach` in a temporary
/// folder; the user's work tree, index and branches are never touched) is checked out at the first
/// parent and prepared as the shipped release (its patch.json, or the one `init` would write), the
/// commit's files are put on top, and `build` (no probes, nothing published, native changes
/// allowed) reports what would have shipped as a patch.
///
/// Applying the commit: prepared files differ from the parent's by `dynamic`, renamed bodies and
/// generated sections, so a text patch of the commit often conflicts with them. Change detection
/// ignores `dynamic` and the body rename by design (docs/prepare.md "Baseline"), so the commit's
/// files are checked out as they are, and only what the shipped build consists of is kept from the
/// prepared parent: generated files, each file's generated section (it holds the thunks of private
/// functions, which `build` reads as shipped exports), `.patch/` and, in an Xcode project, the
/// generated files' registration (done again after the commit's project file is checked out, as a
/// merge of the commit into a wired project keeps it). `build` then gives the answer it would give a
/// user who made the commit's change on the prepared release.
public enum HistoryAudit {
    public struct Options {
        public var project: String
        public var history: Int
        public var toolchain: (ProjectConfig.BuildSettings) throws(GuestBuildError) -> Toolchain
        /// Writes prepare's and wiring's file updates under a root (the CLI's writer for `prepare`).
        public var write: ([PreparePlan.FileUpdate], String) throws -> Void
        /// Called after each commit, for progress.
        public var progress: (AuditedCommit) -> Void

        public init(project: String, history: Int, toolchain: @escaping (ProjectConfig.BuildSettings) throws(GuestBuildError) -> Toolchain,
                    write: @escaping ([PreparePlan.FileUpdate], String) throws -> Void, progress: @escaping (AuditedCommit) -> Void) {
            self.project = project
            self.history = history
            self.toolchain = toolchain
            self.write = write
            self.progress = progress
        }
    }

    /// A commit to replay.
    struct Replay {
        var commit: String
        var parent: String
        var merge: Bool
        var subject: String
    }

    public static func run(_ options: Options) throws(HistoryAuditError) -> HistoryAuditReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.project, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .projectMissing(path: options.project)
        }
        let located = GitRepository(directory: options.project)
        let top: String
        let prefix: String
        do {
            top = try located.run(["rev-parse", "--show-toplevel"]).trimmingCharacters(in: .newlines)
            prefix = try located.run(["rev-parse", "--show-prefix"]).trimmingCharacters(in: .newlines)
        } catch let HistoryAuditError.git(_, message) {
            throw .notGitRepository(path: options.project, reason: message)
        }
        let repository = GitRepository(directory: top)
        let projectFolder = prefix.isEmpty ? "." : String(prefix.dropLast())
        let replays = try commits(in: repository, under: prefix, count: options.history)
        guard replays.count == options.history else {
            let shallow = (try? repository.run(["rev-parse", "--is-shallow-repository"]))?.hasPrefix("true") ?? false
            throw .historyTooShort(repository: top, project: projectFolder, requested: options.history, found: replays.count, shallow: shallow)
        }
        let head = try repository.run(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)

        let scratch = try ScratchWorktree(repository: repository)
        defer { scratch.remove() }
        var audited: [AuditedCommit] = []
        var scanCache: [UInt8]?
        for replay in replays {
            let commit = try audit(replay, in: scratch, prefix: prefix, options: options, scanCache: &scanCache)
            options.progress(commit)
            audited.append(commit)
        }
        return report(audited, repository: top, project: projectFolder, head: head)
    }

    /// The newest `count` first-parent commits of HEAD that change a Swift file under `prefix` and
    /// have a parent (the first commit, or a shallow clone's oldest, ends the history).
    static func commits(in repository: GitRepository, under prefix: String, count: Int) throws(HistoryAuditError) -> [Replay] {
        guard let log = try? repository.run(["log", "--first-parent", "--format=%H %P%x09%s", "HEAD"]) else { return [] }
        var replays: [Replay] = []
        for line in log.split(separator: "\n") where replays.count < count {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let hashes = fields[0].split(separator: " ").map(String.init)
            guard hashes.count >= 2 else { break }
            var arguments = ["diff-tree", "-r", "--no-commit-id", "--name-only", "--no-renames", "-z", hashes[1], hashes[0]]
            if !prefix.isEmpty { arguments += ["--", prefix] }
            let files = try repository.run(arguments).split(separator: "\0")
            guard files.contains(where: { $0.hasSuffix(".swift") }) else { continue }
            replays.append(Replay(commit: hashes[0], parent: hashes[1], merge: hashes.count > 2, subject: fields.count > 1 ? String(fields[1]) : ""))
        }
        return replays
    }

    private static func audit(_ replay: Replay, in scratch: ScratchWorktree, prefix: String, options: Options,
                              scanCache: inout [UInt8]?) throws(HistoryAuditError) -> AuditedCommit {
        let tree = scratch.treeRepository
        try tree.run(["checkout", "--quiet", "--force", "--detach", replay.parent])
        try tree.run(["clean", "--quiet", "-ffdx"])
        let root = Preparer.join(scratch.tree, prefix.isEmpty ? "." : String(prefix.dropLast()))
        func failed(_ kind: String, _ message: String) -> AuditedCommit {
            outcome(of: replay, changes: [], failure: .init(kind: kind, message: message))
        }
        do {
            try prepareRelease(root: root, scratch: scratch, scanCache: &scanCache, write: options.write)
        } catch {
            return failed("prepare_failed", "preparing the parent \(replay.parent.prefix(7)): \(error)")
        }
        do {
            try applyCommit(replay, to: tree, projectPrefix: prefix)
            try registerGeneratedFiles(root: root, write: options.write)
        } catch let error as HistoryAuditError {
            throw error
        } catch {
            return failed("apply_failed", "applying \(replay.commit.prefix(7)) to the prepared parent: \(error)")
        }
        do {
            let build = try ProjectBuilder.build(root: root, outputDirectory: Preparer.join(scratch.folder, "build"), toolchain: options.toolchain)
            var builds = [(platform: build.platform, changes: build.changes)]
            for platform in otherPlatformsToBuild(build) {
                // The default platform's build succeeded with this toolchain: another's failure
                // leaves its changes as the default build reported them.
                guard let other = try? ProjectBuilder.build(root: root, platform: platform, outputDirectory: Preparer.join(scratch.folder, "build-" + platform.rawValue),
                                                            toolchain: options.toolchain) else { continue }
                builds.append((platform, other.changes))
            }
            var audited = outcome(of: replay, changes: mergingPlatforms(builds), failure: nil)
            if builds.count > 1 { audited.platforms = builds.map(\.platform) }
            return audited
        } catch {
            switch error {
            case let .guest(error):
                switch error {
                case .toolchain, .templatesMissing: throw .guest(error)
                case .compileFailed: return failed("compile_failed", error.description)
                default: return failed("build_failed", error.description)
                }
            case let .changeDetection(error):
                return failed("build_failed", error.description)
            case .assets, .artifactTooLarge:
                return failed("build_failed", error.description)
            }
        }
    }

    /// `prepare` in the scratch tree as the release would have been prepared: with the parent's
    /// patch.json, or the one `init` would write (no keys, no wiring of the SDK), and the generated
    /// files registered in the Xcode targets as a project `init` wired has them.
    private static func prepareRelease(root: String, scratch: ScratchWorktree, scanCache: inout [UInt8]?,
                                       write: ([PreparePlan.FileUpdate], String) throws -> Void) throws {
        let configPath = Preparer.join(root, ProjectConfig.fileName)
        if !FileManager.default.fileExists(atPath: configPath) {
            // Keys are generated in memory only, under the scratch folder as home: nothing of the
            // user's key folder is read or written.
            let initPlan = try ProjectInitializer.plan(InitOptions(root: root, keyDirectory: Preparer.join(scratch.folder, "keys")),
                                                       homeDirectory: scratch.folder)
            try write([.init(path: ProjectConfig.fileName, before: nil, after: initPlan.config.encoded())], root)
        }
        // The scans of files no commit changed are reused (the cache is keyed by content).
        if let scanCache { try write([.init(path: ScanCache.path, before: nil, after: scanCache)], root) }
        let session = try PrepareSession.run(root: root)
        try write(session.updatesInWriteOrder, root)
        scanCache = try ProjectSources.readIfPresent(Preparer.join(root, ScanCache.path))
        try registerGeneratedFiles(root: root, write: write)
    }

    /// In an Xcode project, the generated files in the targets that compile them (what `init`'s
    /// wiring and every later `prepare` keep registered); nothing in a Swift package. Which SDK
    /// products the targets get does not matter to `build`, so no view targets are passed.
    private static func registerGeneratedFiles(root: String, write: ([PreparePlan.FileUpdate], String) throws -> Void) throws {
        let config = try ProjectSources.loadConfig(root: root)
        guard config.project.kind == .xcodeProject else { return }
        try write(try AppWiring.plan(config: config, root: root, viewTargets: [], projectFileOnly: true).updates, root)
    }

    /// Puts the commit's version of every file it changes into the prepared tree, keeping what the
    /// shipped build consists of: generated files, generated sections and the project's `.patch/`.
    static func applyCommit(_ replay: Replay, to tree: GitRepository, projectPrefix: String) throws {
        let status = try tree.run(["diff-tree", "-r", "--no-commit-id", "--name-status", "--no-renames", "-z", replay.parent, replay.commit])
        let fields = status.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        var checkouts: [String] = []
        var prepared: [String: [UInt8]] = [:]
        var index = 0
        while index + 1 < fields.count {
            let (change, path) = (fields[index], fields[index + 1])
            index += 2
            guard !path.hasPrefix(projectPrefix + PrepareState.directory + "/") else { continue }
            let location = Preparer.join(tree.directory, path)
            let current = try ProjectSources.readIfPresent(location)
            if let current, Preparer.isGenerated(current) { continue }
            if change == "D" {
                if current != nil { try FileManager.default.removeItem(atPath: location) }
                continue
            }
            checkouts.append(path)
            if let current { prepared[path] = current }
        }
        guard !checkouts.isEmpty else { return }
        let pathspecs = Preparer.join(tree.directory, "../pathspecs")
        try Data(checkouts.joined(separator: "\0").utf8).write(to: URL(fileURLWithPath: pathspecs))
        try tree.run(["--literal-pathspecs", "checkout", "--quiet", replay.commit, "--pathspec-from-file=" + pathspecs, "--pathspec-file-nul"])
        for path in checkouts where prepared[path] == nil {
            // A generated file the commit adds (a project that commits prepare's output) is not part of the shipped build.
            let location = Preparer.join(tree.directory, path)
            if let bytes = try ProjectSources.readIfPresent(location), Preparer.isGenerated(bytes) { try FileManager.default.removeItem(atPath: location) }
        }
        for (path, before) in prepared {
            guard let section = GeneratedSection.section(of: before) else { continue }
            let location = Preparer.join(tree.directory, path)
            guard var bytes = try ProjectSources.readIfPresent(location), GeneratedSection.section(of: bytes) == nil else { continue }
            if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            try Data(bytes + section).write(to: URL(fileURLWithPath: location))
        }
    }

    /// The platforms besides the default one whose build could ship a change its build does not:
    /// one only they compile (`other_platform`), or one whose declaration the default build's
    /// `#if` branches do not hold (`not_found`).
    static func otherPlatformsToBuild(_ build: ProjectBuildReport) -> [AppPlatform] {
        let unshipped = build.changes.filter { $0.reason == DeclarationChange.NativeReason.otherPlatform || $0.reason == GuestUnpatchable.Reason.notFound.rawValue }
        return build.platforms.filter { platform in
            platform != build.platform && unshipped.contains { $0.platforms?.contains(platform) ?? false }
        }
    }

    /// One report of a commit over its platforms' builds (the default first): a change ships when
    /// some platform's module patches it, the default's if it does, else the first other's, whose
    /// detail says which module ships it. A change only other platforms compile and none patches
    /// is reported as the first of them reports it.
    static func mergingPlatforms(_ builds: [(platform: AppPlatform, changes: [DeclarationChange])]) -> [DeclarationChange] {
        guard let primary = builds.first else { return [] }
        let others = builds.dropFirst().map { build in
            (build.platform, Dictionary(build.changes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        return primary.changes.map { change in
            guard change.status != .patched else { return change }
            if let (platform, shipped) = others.lazy.compactMap({ platform, changes in
                changes[change.id].flatMap { $0.status == .patched ? (platform, $0) : nil }
            }).first {
                var merged = shipped
                merged.detail = "ships in the \(platform.displayName) module (`patchcli build --platform \(platform.rawValue)`)"
                return merged
            }
            guard change.reason == DeclarationChange.NativeReason.otherPlatform else { return change }
            return others.lazy.compactMap { _, changes in changes[change.id] }.first { $0.reason != DeclarationChange.NativeReason.otherPlatform } ?? change
        }
    }

    static func outcome(of replay: Replay, changes: [DeclarationChange], failure: AuditedCommit.Failure?) -> AuditedCommit {
        let patched = changes.filter { $0.status == .patched }.count
        let native = changes.filter { $0.status == .nativeOnly }
        var byReason: [String: Int] = [:]
        for change in native { byReason[change.reason ?? "unknown", default: 0] += 1 }
        let behaviourChanging = patched + native.count > 0
        let outcome: AuditedCommit.Outcome = failure != nil ? .failed
            : !behaviourChanging ? .noBehaviourChange
            : native.isEmpty ? .fullyPatched
            : patched > 0 ? .partlyPatched : .nativeOnly
        return AuditedCommit(
            commit: replay.commit, shortHash: String(replay.commit.prefix(7)), subject: replay.subject, parent: replay.parent, merge: replay.merge,
            outcome: outcome, patched: patched, nativeOnly: native.count, informational: changes.count - patched - native.count,
            nativeOnlyByReason: byReason, behaviourChanging: behaviourChanging, fullyPatched: outcome == .fullyPatched, changes: changes,
            failure: failure)
    }

    static func report(_ commits: [AuditedCommit], repository: String, project: String, head: String) -> HistoryAuditReport {
        func percent(_ part: Int, of whole: Int) -> Double {
            whole == 0 ? 100 : (Double(part) * 1000 / Double(whole)).rounded() / 10
        }
        let judged = commits.filter { $0.failure == nil }
        let behaviourChanging = judged.filter(\.behaviourChanging).count
        let fullyPatched = judged.filter(\.fullyPatched).count
        let patched = judged.reduce(0) { $0 + $1.patched }
        let native = judged.reduce(0) { $0 + $1.nativeOnly }
        var reasons: [String: HistoryAuditReport.Reason] = [:]
        for commit in judged {
            for change in commit.changes where change.status == .nativeOnly {
                let reason = change.reason ?? "unknown"
                var entry = reasons[reason] ?? .init(reason: reason, count: 0, share: 0, examples: [])
                entry.count += 1
                if entry.examples.count < 3 { entry.examples.append("\(change.id) (\(commit.shortHash))") }
                reasons[reason] = entry
            }
        }
        let ranked = reasons.values.map { reason in
            var reason = reason
            reason.share = percent(reason.count, of: native)
            return reason
        }.sorted { ($0.count, $1.reason) > ($1.count, $0.reason) }
        let totals = HistoryAuditReport.Totals(
            commits: commits.count, behaviourChangingCommits: behaviourChanging, fullyPatchedCommits: fullyPatched,
            failedCommits: commits.count - judged.count, fullyPatchedCommitShare: percent(fullyPatched, of: behaviourChanging),
            patched: patched, nativeOnly: native, informational: judged.reduce(0) { $0 + $1.informational },
            patchedShare: percent(patched, of: patched + native))
        return HistoryAuditReport(repository: repository, project: project, head: head, commits: commits, totals: totals, reasons: ranked)
    }
}

/// `git` in one folder, with the user's hooks off (a checkout in the scratch tree must not run them).
struct GitRepository {
    let directory: String
    /// The scratch work tree's gate for commands that write it (an interrupt waits for the one under
    /// way); a gate of its own, never closed, otherwise.
    var gate = CommandGate()

    @discardableResult
    func run(_ arguments: [String]) throws(HistoryAuditError) -> String {
        let command = "git " + arguments.joined(separator: " ")
        let result: ProcessRunner.Result?
        do {
            result = try gate.run { try ProcessRunner.run("/usr/bin/env", ["git", "-c", "core.hooksPath=/dev/null", "-C", directory] + arguments, in: nil) }
        } catch {
            throw .git(command: command, message: "git could not be started (\(error)); install git")
        }
        guard let result else { throw .git(command: command, message: "interrupted") }
        guard result.status == 0 else {
            throw .git(command: command, message: result.standardError.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result.standardOutput
    }
}

/// Runs commands one at a time until closed. Children ignore SIGINT (its ignored disposition is
/// inherited) and outlive an exiting patchcli: a `git worktree add` or checkout under way when the
/// scratch tree is deleted would write it back. Closing waits for the command under way.
final class CommandGate: @unchecked Sendable {
    private let lock = NSLock()
    private var closed = false

    /// `body`'s result, or nil once closed (the command does not run).
    func run<T>(_ body: () throws -> T) rethrows -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return nil }
        return try body()
    }

    func close() {
        lock.lock()
        closed = true
        lock.unlock()
    }
}

/// A detached work tree of the user's repository in a temporary folder. `remove()` deletes it and
/// its registration; so do SIGINT and SIGTERM (then the process exits 130 or 143), so an interrupted
/// audit leaves nothing behind.
final class ScratchWorktree: @unchecked Sendable {
    /// The temporary folder: the work tree and the build outputs.
    let folder: String
    let tree: String
    private let repository: GitRepository
    /// Every command that writes the tree runs through it, so an interrupt deletes nothing under way.
    private let gate = CommandGate()
    private let lock = NSLock()
    /// Signalled when the replay's thread reaches `remove()`: from then on it writes nothing.
    private let unwound = DispatchSemaphore(value: 0)
    private var interrupted = false
    private var removed = false
    private var signalSources: [DispatchSourceSignal] = []

    init(repository: GitRepository) throws(HistoryAuditError) {
        self.repository = repository
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-audit-\(UUID().uuidString)").path
        tree = Preparer.join(folder, "tree")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .scratchUnwritable(path: folder, reason: "\(error)")
        }
        for (number, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { exit(status) }
                self.removeThenExit(status)
            }
            source.resume()
            signalSources.append(source)
        }
        do {
            var gated = repository
            gated.gate = gate
            try gated.run(["worktree", "add", "--quiet", "--detach", "--no-checkout", tree, "HEAD"])
        } catch {
            remove()
            throw error
        }
    }

    /// git in the work tree, through the gate.
    var treeRepository: GitRepository { GitRepository(directory: tree, gate: gate) }

    func remove() {
        gate.close()
        lock.lock()
        guard !interrupted else {
            // The signal handler deletes and exits with the signal's status; this thread waits for it.
            lock.unlock()
            unwound.signal()
            DispatchSemaphore(value: 0).wait()
            fatalError("the signal handler ends the process")
        }
        deleteOnce()
        lock.unlock()
    }

    /// The replay keeps writing the tree (prepare, the commit's files) until its next git command,
    /// which the closed gate fails, unwinds it to `remove()`: deleting before then would leave what it
    /// writes next. A compile can take longer than a user waits after Ctrl-C: 2 s at most, then the
    /// compiler's outputs have no folder to go to.
    private func removeThenExit(_ status: Int32) -> Never {
        gate.close()
        lock.lock()
        interrupted = true
        let done = removed
        lock.unlock()
        if !done { _ = unwound.wait(timeout: .now() + .seconds(2)) }
        lock.lock()
        deleteOnce()
        exit(status)
    }

    private func deleteOnce() {
        guard !removed else { return }
        removed = true
        if (try? repository.run(["worktree", "remove", "--force", tree])) == nil {
            // Interrupted mid-checkout (a lock file in the tree): delete the folder, then drop its registration.
            try? FileManager.default.removeItem(atPath: folder)
            _ = try? repository.run(["worktree", "prune"])
        }
        try? FileManager.default.removeItem(atPath: folder)
        for source in signalSources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
