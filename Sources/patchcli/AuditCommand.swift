import ArgumentParser
import Foundation
import PatchBuild
import PatchManifest

/// `patchcli audit --history N`: replays the project's last N Swift-changing commits (prepare the
/// parent in a scratch work tree, apply the commit, build) and reports what share would have shipped
/// as a patch and what kept the rest native. The work is `HistoryAudit` (PatchBuild).
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Replay the project's last N commits as patches: what would have shipped, what stayed native and why.",
        discussion: """
            For each of the last N first-parent commits of HEAD that change Swift files of the project (merges
            included, judged by their change against the first parent), a scratch git work tree of the parent is
            prepared as the shipped release (its patch.json, or the one `init` would write), the commit's files are
            put on top and `build` reports each changed declaration as patched, native-only (with its reason) or
            informational. Nothing in your work tree, index or branches changes; the scratch tree is removed
            afterwards, also on error or Ctrl-C. Guest builds run per commit: expect a few seconds to minutes each.

            Exit codes: 0 the audit ran (whatever it found), 2 usage (N < 1), 3 no such project folder,
            31 no toolchain, 60 not a git repository or git failed, 61 fewer Swift-changing commits than N.
            Details: docs/cli.md "audit".
            """)

    @Option(help: "The project folder (holding patch.json, Package.swift or the .xcodeproj) inside a git repository.")
    var project: String = "."

    @Option(help: "How many Swift-changing commits of HEAD to replay, newest first.")
    var history: Int

    @Option(help: "Swift toolchain to use (its root, usr or usr/bin); default: $SWIFT_TOOLCHAIN, then swiftc on PATH.")
    var toolchain: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if history < 1 { throw ValidationError("--history must be at least 1 (the number of commits to replay)") }
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("audit") {
            let options = HistoryAudit.Options(
                project: project, history: history,
                toolchain: discoverToolchain,
                write: { updates, root in try PrepareCommand.apply(updates, root: root) },
                progress: { commit in console.progress("\(commit.shortHash)  \(Self.summary(commit))  \(commit.subject)") })
            let report: HistoryAuditReport
            do {
                report = try HistoryAudit.run(options)
            } catch let error as HistoryAuditError {
                throw Self.failure(error)
            }
            printReport(report, to: console)
            return report
        }
    }

    private func discoverToolchain(_ settings: ProjectConfig.BuildSettings) throws(GuestBuildError) -> Toolchain {
        do {
            return try Toolchain.discover(explicitPath: toolchain, settings: settings)
        } catch {
            throw .toolchain(error)
        }
    }

    private static func failure(_ error: HistoryAuditError) -> CommandFailure {
        switch error {
        case .projectMissing:
            return CommandFailure(kind: "input_unavailable", message: error.description, exitStatus: .inputUnavailable,
                                  hint: "pass --project with the folder of the app's Package.swift or .xcodeproj")
        case .notGitRepository:
            return CommandFailure(kind: "not_a_git_repository", message: error.description, exitStatus: .historyUnavailable,
                                  hint: "run audit in a clone of the app's repository (its history is what is replayed), or pass --project inside one")
        case let .historyTooShort(_, _, _, found, shallow):
            let hint = shallow ? "fetch the older commits (`git fetch --unshallow`)" + (found > 0 ? " or pass --history \(found)" : "")
                : found > 0 ? "pass --history \(found) or less" : "there is no Swift-changing commit with a parent to replay"
            return CommandFailure(kind: "history_too_short", message: error.description, exitStatus: .historyTooShort, hint: hint)
        case .git, .scratchUnwritable:
            return CommandFailure(kind: "git_failed", message: error.description, exitStatus: .historyUnavailable,
                                  hint: "check that git works in this repository (`git status`, `git worktree list`) and that the temporary folder is writable")
        case let .guest(error):
            return CommandFailure(error)
        }
    }

    /// The outcome of one commit in a few words: what `--json` says in `outcome` and the counts.
    static func summary(_ commit: AuditedCommit) -> String {
        if let failure = commit.failure { return "failed (\(failure.kind))" }
        let counts = "\(commit.patched) patched, \(commit.nativeOnly) native-only, \(commit.informational) informational"
        let platforms = commit.platforms.map { " (built for \(AppPlatform.list($0)))" } ?? ""
        return "\(commit.outcome.rawValue.replacingOccurrences(of: "_", with: " ")): \(counts)\(platforms)"
    }

    private func printReport(_ report: HistoryAuditReport, to console: Console) {
        for commit in report.commits {
            console.line("\(commit.shortHash)  \(commit.merge ? "(merge) " : "")\(commit.subject)")
            console.line("         \(Self.summary(commit))")
            if let failure = commit.failure { console.line("         \(failure.message)") }
            for change in commit.changes where change.status == .nativeOnly {
                console.line("         native-only  \(change.location)  \(change.id) (\(change.reason ?? ""))")
            }
        }
        let totals = report.totals
        console.line("")
        console.line("commits: \(totals.commits) replayed, \(totals.behaviourChangingCommits) change behaviour, \(totals.fullyPatchedCommits) fully patched "
            + "(\(totals.fullyPatchedCommitShare)%)" + (totals.failedCommits > 0 ? ", \(totals.failedCommits) could not be replayed" : ""))
        console.line("declarations: \(totals.patched) patched, \(totals.nativeOnly) native-only (\(totals.patchedShare)% patched), \(totals.informational) informational")
        for reason in report.reasons {
            console.line("  \(reason.reason.padding(toLength: 28, withPad: " ", startingAt: 0))\(reason.count) (\(reason.share)%)  e.g. \(reason.examples.joined(separator: ", "))")
        }
    }
}
