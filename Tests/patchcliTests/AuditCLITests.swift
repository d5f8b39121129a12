import Foundation
import Testing

/// `patchcli audit --history N` on git repositories made here: each replayed commit's outcome, a
/// user's work tree left as it was (also after Ctrl-C), and the documented errors.
@Suite(.serialized) struct AuditCLITests {
    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(name: "Shop", targets: [.target(name: "Lib")])

        """
    static let pricing = """
        public struct Item: Codable {
            public var cents: Int
        }

        public enum Pricing {
            // @patchable
            public static func fee(cents: Int) -> Int {
                cents >= 5_000 ? 0 : 490
            }
        }

        """

    /// Runs git in `repository` with a fixed identity (the machine may have none configured).
    @discardableResult
    static func git(_ arguments: [String], in repository: URL) throws -> String {
        let result = try CLI.run(["git"] + arguments, in: repository, environment: [
            "GIT_AUTHOR_NAME": "Audit Test", "GIT_AUTHOR_EMAIL": "audit@example.com",
            "GIT_COMMITTER_NAME": "Audit Test", "GIT_COMMITTER_EMAIL": "audit@example.com",
        ], executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard result.status == 0 else { throw AuditTestFailure(description: "git \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    static func commit(_ repository: URL, _ files: [String: String], message: String) throws {
        for (path, text) in files {
            let url = repository.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try git(["add", "-A"], in: repository)
        try git(["commit", "-q", "-m", message], in: repository)
    }

    /// Commit 1 the base, 2 a changed `// @patchable` body, 3 a comment only, 4 a stored property added.
    static func shop(in directory: URL) throws -> URL {
        let repository = directory.appendingPathComponent("shop")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: repository)
        try commit(repository, ["Package.swift": manifest, "Sources/Lib/Pricing.swift": pricing], message: "base")
        let cheaper = pricing.replacingOccurrences(of: "5_000", with: "3_000")
        try commit(repository, ["Sources/Lib/Pricing.swift": cheaper], message: "free shipping from 30.00")
        let documented = cheaper.replacingOccurrences(of: "    // @patchable", with: "    // The fee in cents.\n    // @patchable")
        try commit(repository, ["Sources/Lib/Pricing.swift": documented], message: "document the fee")
        let quantity = documented.replacingOccurrences(of: "    public var cents: Int\n", with: "    public var cents: Int\n    public var quantity: Int = 1\n")
        try commit(repository, ["Sources/Lib/Pricing.swift": quantity], message: "add a quantity")
        return repository
    }

    /// What the user's repository must look like after any audit: as it was, no scratch work tree.
    static func expectUntouched(_ repository: URL, head: String) throws {
        #expect(try git(["status", "--porcelain", "--ignored"], in: repository).isEmpty)
        #expect(try git(["worktree", "list", "--porcelain"], in: repository).components(separatedBy: "worktree ").count == 2)
        #expect(try git(["rev-parse", "HEAD"], in: repository) == head)
        #expect(try git(["branch", "--list"], in: repository) == "* main\n")
    }

    @Test func eachCommitIsReplayedAsAPatchOfItsParent() throws {
        try withScratchDirectory { directory in
            let repository = try Self.shop(in: directory)
            let head = try Self.git(["rev-parse", "HEAD"], in: repository)
            let audit = try CLI.run(["audit", "--history", "3", "--project", repository.path, "--json"])
            #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
            let result = try #require(audit.result)
            let commits = try #require(result["commits"] as? [[String: Any]])
            #expect(commits.compactMap { $0["subject"] as? String } == ["add a quantity", "document the fee", "free shipping from 30.00"])
            #expect(commits.compactMap { $0["outcome"] as? String } == ["native_only", "no_behaviour_change", "fully_patched"])
            #expect(commits.compactMap { $0["fully_patched"] as? Bool } == [false, false, true])
            #expect(commits.compactMap { $0["behaviour_changing"] as? Bool } == [true, false, true])
            func changes(_ index: Int) -> [[String: Any]] { commits[index]["changes"] as? [[String: Any]] ?? [] }
            #expect(changes(0).map { "\($0["id"] ?? "") \($0["status"] ?? "") \($0["reason"] ?? "")" } == ["Lib:Item native_only stored_layout_changed"])
            #expect(changes(1).isEmpty, "a comment is no declaration change")
            #expect(changes(2).map { "\($0["id"] ?? "") \($0["status"] ?? "")" } == ["Lib:Pricing.fee(cents:Int) patched"])
            #expect(commits[0]["native_only_by_reason"] as? [String: Int] == ["stored_layout_changed": 1])

            let totals = try #require(result["totals"] as? [String: Any])
            #expect(totals["commits"] as? Int == 3)
            #expect(totals["behaviour_changing_commits"] as? Int == 2)
            #expect(totals["fully_patched_commits"] as? Int == 1)
            #expect(totals["fully_patched_commit_share"] as? Double == 50)
            #expect(totals["patched_share"] as? Double == 50)
            let reasons = try #require(result["reasons"] as? [[String: Any]])
            #expect(reasons.count == 1 && reasons.first?["reason"] as? String == "stored_layout_changed")
            #expect(reasons.first?["examples"] as? [String] == ["Lib:Item (\(commits[0]["short_hash"] as? String ?? ""))"])
            try Self.expectUntouched(repository, head: head)

            // The text report says the same.
            let text = try CLI.run(["audit", "--history", "3"], in: repository)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("fully patched: 1 patched, 0 native-only, 0 informational"))
            #expect(text.stdout.contains("commits: 3 replayed, 2 change behaviour, 1 fully patched (50.0%)"))
            try Self.expectUntouched(repository, head: head)
        }
    }

    /// A file-private function's thunk lives in a section prepare appends to its own file: the commit's
    /// version of that file has none, and the replay must keep the shipped one or the function would
    /// read as not routed.
    @Test func aPrivateFunctionsThunkSectionSurvivesTheCommit() throws {
        try withScratchDirectory { directory in
            let repository = directory.appendingPathComponent("greeting")
            try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
            try Self.git(["init", "-q", "-b", "main"], in: repository)
            let greeting = """
                public enum Greeting {
                    public static func text(for name: String) -> String { salutation(name: name) }

                    // @patchable
                    fileprivate static func salutation(name: String) -> String {
                        "Hello, " + name
                    }
                }

                """
            try Self.commit(repository, ["Package.swift": Self.manifest, "Sources/Lib/Greeting.swift": greeting], message: "base")
            try Self.commit(repository, ["Sources/Lib/Greeting.swift": greeting.replacingOccurrences(of: "Hello, ", with: "Hi, ")], message: "say hi")
            let audit = try CLI.run(["audit", "--history", "1", "--project", repository.path, "--json"])
            #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
            let commits = try #require(audit.result?["commits"] as? [[String: Any]])
            let change = try #require((commits.first?["changes"] as? [[String: Any]])?.first)
            #expect(change["id"] as? String == "Lib:Greeting.salutation(name:String)")
            #expect(change["reason"] as? String != "not_routed", "the shipped build routes it: \(change)")
        }
    }

    @Test func ctrlCRemovesTheScratchWorkTree() throws {
        try withScratchDirectory { directory in
            let repository = try Self.shop(in: directory)
            let head = try Self.git(["rev-parse", "HEAD"], in: repository)
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["audit", "--history", "3", "--project", repository.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Interrupted once the scratch work tree exists (the replay takes seconds after that).
            var scratch: String?
            for _ in 0..<400 where scratch == nil {
                scratch = try Self.git(["worktree", "list", "--porcelain"], in: repository).split(separator: "\n")
                    .filter { $0.hasPrefix("worktree ") }.dropFirst().first.map { String($0.dropFirst("worktree ".count)) }
                if scratch == nil { Thread.sleep(forTimeInterval: 0.02) }
            }
            let tree = try #require(scratch, "no scratch work tree appeared")
            process.interrupt()
            process.waitUntilExit()
            #expect(process.terminationStatus == 130)
            #expect(!FileManager.default.fileExists(atPath: tree))
            try Self.expectUntouched(repository, head: head)
        }
    }

    @Test func badInputGetsTheDocumentedErrors() throws {
        try withScratchDirectory { directory in
            let repository = try Self.shop(in: directory)
            let tooMany = try CLI.run(["audit", "--history", "5", "--project", repository.path, "--json"])
            #expect(tooMany.status == 61)
            #expect(tooMany.error?["kind"] as? String == "history_too_short")
            // The first commit has no parent to prepare: three commits can be replayed.
            #expect((tooMany.error?["message"] as? String)?.contains("3 first-parent commit(s) of HEAD change Swift files") == true,
                    "\(tooMany.stdout)")
            #expect(tooMany.error?["hint"] as? String == "pass --history 3 or less")

            let zero = try CLI.run(["audit", "--history", "0", "--project", repository.path, "--json"])
            #expect(zero.status == 2)
            #expect(zero.error?["kind"] as? String == "usage")

            let plain = directory.appendingPathComponent("plain")
            try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
            let notARepository = try CLI.run(["audit", "--history", "1", "--project", plain.path, "--json"])
            #expect(notARepository.status == 60)
            #expect(notARepository.error?["kind"] as? String == "not_a_git_repository")
            #expect((notARepository.error?["message"] as? String)?.hasPrefix(plain.path) == true)

            let missing = try CLI.run(["audit", "--history", "1", "--project", directory.appendingPathComponent("nowhere").path, "--json"])
            #expect(missing.status == 3)
            try Self.expectUntouched(repository, head: try Self.git(["rev-parse", "HEAD"], in: repository))
        }
    }
}

struct AuditTestFailure: Error, CustomStringConvertible {
    var description: String
}
