import Foundation

/// Where the running patchcli came from, found from the executable's own path (symlinks resolved,
/// since Homebrew links `bin/patchcli` into its prefix): an installed prefix (`make install`,
/// Homebrew) whose `share/patchcli` holds the guest templates and `build-info`, or a checkout's build
/// tree (`.build/…/debug/patchcli` below a `templates/guest`). Never the current directory, never
/// the path the sources were compiled at: an installed binary must not depend on the clone.
package struct Installation: Sendable {
    /// `patchcli --version`'s number; the commit comes from `build-info` or the checkout's git.
    package static let version = "0.1.0"
    /// The file `make install` writes beside the templates: `commit=<short hash>` lines of `key=value`.
    package static let buildInfoFileName = "build-info"

    package enum Layout: Sendable, Equatable {
        /// `<prefix>/bin/patchcli` with `<prefix>/share/patchcli`.
        case installed(share: String)
        /// A build product inside a checkout whose root holds `templates/`.
        case checkout(root: String)
        /// Neither: a copied binary without its share folder.
        case unknown
    }

    package var executable: String
    package var layout: Layout

    package init(executable: String) {
        let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath().standardizedFileURL
        self.executable = resolved.path
        let binDirectory = resolved.deletingLastPathComponent()
        let share = binDirectory.deletingLastPathComponent().appendingPathComponent("share/patchcli")
        if GuestTemplates.holdsTemplates(share.appendingPathComponent("templates").path) {
            layout = .installed(share: share.path)
            return
        }
        // `.build/<triple>/debug/patchcli` (or a test bundle inside it on macOS): a few levels below the root.
        var directory = binDirectory
        for _ in 0..<6 {
            directory.deleteLastPathComponent()
            if GuestTemplates.holdsTemplates(directory.appendingPathComponent("templates").path),
               FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                layout = .checkout(root: directory.path)
                return
            }
            if directory.path == "/" { break }
        }
        layout = .unknown
    }

    /// The running process's installation.
    package static var current: Installation { Installation(executable: runningExecutable()) }

    /// The templates folder (holding `guest/`) of this installation, if it has one.
    package var templatesDirectory: String? {
        switch layout {
        case let .installed(share): return share + "/templates"
        case let .checkout(root): return root + "/templates"
        case .unknown: return nil
        }
    }

    /// The commit this binary was built from: `build-info` of an installation, `git` in a checkout,
    /// else nil.
    package var commit: String? {
        switch layout {
        case let .installed(share):
            guard let text = try? String(contentsOfFile: share + "/" + Self.buildInfoFileName, encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("commit=") {
                let value = line.dropFirst("commit=".count).trimmingCharacters(in: .whitespaces)
                return value.isEmpty || value == "unknown" ? nil : value
            }
            return nil
        case let .checkout(root):
            return Self.gitCommit(in: root)
        case .unknown:
            return nil
        }
    }

    /// `patchcli 0.1.0 (abc1234)`, or `(unknown)` when the commit cannot be told.
    package var versionLine: String { "patchcli \(Self.version) (\(commit ?? "unknown"))" }

    private static func gitCommit(in root: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", root, "rev-parse", "--short", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let commit = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }

    /// The executable's real path: argv[0] is only a name when the binary was found through PATH.
    private static func runningExecutable() -> String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments.first ?? "patchcli"
    }
}
