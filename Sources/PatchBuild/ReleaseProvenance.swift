import Foundation
import PatchManifest

extension ReleaseSource {
    /// The commit, branch and dirty flag of the git work tree holding `path` (a module file), read
    /// the moment `release` publishes it; nil outside a work tree, before its first commit, or
    /// without git, so a store never records a guess.
    public static func of(path: String) -> ReleaseSource? {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let folder = exists && isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
        let git = GitRepository(directory: folder.isEmpty ? "." : folder)
        func read(_ arguments: [String]) -> String? {
            (try? git.run(arguments)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        // Untracked files are left out: build outputs and scratch files are untracked, and a new
        // source file the build compiled is also named by the project file that is tracked.
        guard let commit = read(["rev-parse", "--verify", "--quiet", "HEAD"]), !commit.isEmpty,
              let status = read(["status", "--porcelain", "--untracked-files=no"]) else { return nil }
        let branch = read(["symbolic-ref", "--quiet", "--short", "HEAD"]).flatMap { $0.isEmpty ? nil : $0 }
        return ReleaseSource(commit: commit, branch: branch, dirty: !status.isEmpty)
    }
}
