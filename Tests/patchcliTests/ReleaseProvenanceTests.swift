import Foundation
import Testing

/// `release` records the git commit, branch and dirty flag of the module's work tree without being
/// told; promote and rollback carry it with the content; `release list` and `status` show it.
@Suite struct ReleaseProvenanceTests {
    @Test func aReleaseRecordsTheCommitItWasBuiltFrom() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            try AuditCLITests.git(["init", "-q", "-b", "main"], in: directory)
            try "store/\nkeys/\n".write(to: directory.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
            try AuditCLITests.git(["add", "-A"], in: directory)
            try AuditCLITests.git(["commit", "-q", "-m", "modules"], in: directory)
            let head = try AuditCLITests.git(["rev-parse", "HEAD"], in: directory).trimmingCharacters(in: .whitespacesAndNewlines)

            let clean = try ReleaseCommandTests.publish("a.wasm", in: directory)
            #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
            let cleanSource = try #require(((clean.result?["records"] as? [[String: Any]])?.first)?["source"] as? [String: Any], "\(clean.stdout)")
            #expect(cleanSource["commit"] as? String == head)
            #expect(cleanSource["branch"] as? String == "main")
            #expect(cleanSource["dirty"] as? Bool == false)

            // A tracked file changed since the commit: the module may hold code no commit has.
            try Data(ReleaseCommandTests.module(seed: 9)).write(to: directory.appendingPathComponent("b.wasm"))
            let dirty = try ReleaseCommandTests.publish("b.wasm", in: directory, extra: ["--channel", "beta"])
            #expect(dirty.status == 0, "\(dirty.stdout)\(dirty.stderr)")
            let dirtySource = try #require(((dirty.result?["records"] as? [[String: Any]])?.first)?["source"] as? [String: Any])
            #expect(dirtySource["dirty"] as? Bool == true)

            // A detached HEAD (a CI checkout) has no branch.
            try AuditCLITests.git(["checkout", "-q", "--detach"], in: directory)
            let detached = try ReleaseCommandTests.publish("c.wasm", in: directory, extra: ["--channel", "staging"])
            let detachedSource = try #require(((detached.result?["records"] as? [[String: Any]])?.first)?["source"] as? [String: Any])
            #expect(detachedSource["branch"] == nil && detachedSource["commit"] as? String == head)

            // Promote carries the content's source; the human listing names it.
            let promoted = try CLI.run(["release", "promote", "--from", "beta", "--to", "production", "--store", "store", "--key-dir", "keys", "--json"], in: directory)
            #expect(promoted.status == 0, "\(promoted.stdout)")
            let promotedSource = ((promoted.result?["records"] as? [[String: Any]])?.first)?["source"] as? [String: Any]
            #expect(promotedSource?["dirty"] as? Bool == true)
            let listing = try CLI.run(["release", "list", "--store", "store", "--channel", "production"], in: directory)
            #expect(listing.stdout.contains("from \(head.prefix(12)) (main)\n"), "\(listing.stdout)")
            #expect(listing.stdout.contains("from \(head.prefix(12)) (main), dirty"), "\(listing.stdout)")
        }
    }

    @Test func aModuleOutsideGitRecordsNoSource() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let published = try ReleaseCommandTests.publish("a.wasm", in: directory)
            #expect(published.status == 0, "\(published.stdout)")
            let record = try #require((published.result?["records"] as? [[String: Any]])?.first)
            #expect(record["source"] == nil)
        }
    }
}
