import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import Testing

/// `prepare` routes async functions by a prologue at the top of their body (`AsyncPrologue`, docs/async.md
/// "The app side"): the edit, its idempotence and removal, and that hashes and the guest never see it.
struct AsyncRoutingTests {
    static let source = """
        import Foundation

        enum QuoteError: Error, Codable { case badStatus(code: Int) }

        enum Quotes {
            // @patchable
            static func fetch(id: Int) async throws -> String {
                try await Task.sleep(nanoseconds: 1)
                return "quote \\(id)"
            }

            // @patchable
            static func warm(_ count: Int) async { _ = count }
        }

        struct Shelf {
            var base: Int
            // @patchable
            func total(of extra: Int) async -> Int { base + extra }
        }
        """

    @Test func prepareInsertsOnePrologueOnTheBraceLine() throws {
        let project = PreparedProject(Self.source, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        let prepared = project.userFile
        #expect(prepared.contains("static func fetch(id: Int) async throws -> String { if let __patchAsync = await __patchAsync_fetch(id: id) { return try __patchAsync.get() };\n        try await Task.sleep"), "\(prepared)")
        #expect(prepared.contains("static func warm(_ count: Int) async { if let __patchAsync = await __patchAsync_warm(count) { return __patchAsync }; _ = count }"))
        // A single-expression body gets its `return`, and its prologue says so.
        #expect(prepared.contains("func total(of extra: Int) async -> Int { if let __patchAsyncReturn = await __patchAsync_total(of: extra) { return __patchAsyncReturn }; return base + extra }"))
        // No line moved, nothing became `dynamic`.
        #expect(prepared.split(separator: "\n", omittingEmptySubsequences: false).count == Self.source.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(!prepared.contains("dynamic"))
        // The kickoffs are what `build` finds the shipped binary calls.
        #expect(project.plan.functions.map(\.export) == ["patch_start__pf_Quotes_fetch__id", "patch_start__pf_Quotes_warm___", "patch_start__pf_Shelf_total__of"])
        let routing = project.routingFile ?? ""
        #expect(routing.contains("import Foundation"))
        #expect(routing.contains("static func __patchAsync_fetch(id: Int) async -> Result<String, any Error>? {"))
        #expect(routing.contains("guard Patch.shared.hasFunction(\"patch_start__pf_Quotes_fetch__id\"),"))
        #expect(ChangeDetector.shippedExports([PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: project.files.map {
            SourceFile(path: $0.key, bytes: Array($0.value.utf8))
        })]).isSuperset(of: project.plan.functions.map(\.export)))
    }

    @Test func thePrologueChangesNoHashAndRePreparingChangesNothing() throws {
        let first = PreparedProject(Self.source, routing: .marked)
        let again = PreparedProject(first.userFile, routing: .marked)
        #expect(again.userFile == first.userFile)
        #expect(again.plan.baseline == first.plan.baseline)
        // The baseline of the unprepared source: the prologue is not part of any hash.
        let unrouted = PreparedProject(Self.unmarked(Self.source), routing: .marked)
        #expect(unrouted.plan.baseline.declarations == first.plan.baseline.declarations)
    }

    @Test func aStalePrologueIsRewrittenAndAnUnroutedFunctionLosesIt() throws {
        let prepared = PreparedProject(Self.source, routing: .marked).userFile
        // The parameter renamed after prepare: the prologue passes the new name.
        let renamed = prepared.replacingOccurrences(of: "func total(of extra: Int)", with: "func total(of more: Int)")
            .replacingOccurrences(of: "return base + extra }", with: "return base + more }")
        let rewritten = PreparedProject(renamed, routing: .marked).userFile
        #expect(rewritten.contains("func total(of more: Int) async -> Int { if let __patchAsyncReturn = await __patchAsync_total(of: more) { return __patchAsyncReturn }; return base + more }"), "\(rewritten)")
        // No longer selected: the prologue goes, leaving the user's text as it was.
        let native = prepared.replacingOccurrences(of: "// @patchable\n    func total", with: "// @native\n    func total")
        let unrouted = PreparedProject(native, routing: .marked).userFile
        #expect(unrouted.contains("func total(of extra: Int) async -> Int { base + extra }"), "\(unrouted)")
        // `prepare --revert` of an edited file takes every prologue out.
        let reverted = String(decoding: Unpreparer.unprepare(Array(prepared.utf8), insertions: PreparedInsertions()), as: UTF8.self)
        #expect(reverted == Self.source)
    }

    /// The source with its functions no longer opted in (comments are not hashed).
    static func unmarked(_ source: String) -> String {
        source.replacingOccurrences(of: "// @patchable", with: "// (not patchable)")
    }

    /// Inserting, rewriting and removing prologues: the scan `prepare` caches for the file it leaves is
    /// the scan of that file.
    @Test func cachedScansOfPreparedFilesEqualFreshScans() throws {
        let prepared = PreparedProject(Self.source, routing: .marked).userFile
        let renamed = prepared.replacingOccurrences(of: "(of extra: Int)", with: "(of more: Int)").replacingOccurrences(of: "return base + extra }", with: "return base + more }")
        var checked = 0
        for source in [Self.source, Self.unmarked(prepared), renamed] {
            let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"],
                                                             files: [SourceFile(path: "Sources/App/A.swift", bytes: Array(source.utf8))])],
                                     appTarget: "App", routing: .marked, existingFile: { _ in nil })
            for update in plan.updates where update.before != nil {
                let after = try #require(update.after)
                let cached = try #require(plan.cache.scans[SHA256Hasher.hex(of: after)])
                let user = GeneratedSection.split(after).user
                #expect(cached == SourceScanner.scan(Parser.parse(source: String(decoding: user, as: UTF8.self)), source: user))
                checked += 1
            }
        }
        #expect(checked == 3)
    }

    @Test func theGuestSeesTheFunctionAsWritten() {
        let prepared = PreparedProject(Self.source, routing: .marked).userFile
        let guest = GuestSourceIndex.unprepared(Parser.parse(source: prepared)).description
        // Blanked, column for column; the inserted `return` stays (it means the same there).
        #expect(guest.replacingOccurrences(of: " ", with: "") == Self.source.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "{base+extra}", with: "{returnbase+extra}"))
        #expect(guest.utf8.count == prepared.utf8.count)
    }

    @Test func mutatingAsyncMethodsAreSkippedAndClassMethodsSendTheObject() {
        let project = PreparedProject("""
            struct Counter {
                var count = 0
                // @patchable
                mutating func bump() async { count += 1 }
            }
            final class Store {
                var items: [Int] = []
                // @patchable
                func load() async throws -> Int { items.count }
            }
            """, routing: .marked)
        #expect(project.plan.skipped.map(\.reason) == [SourceScanner.mutatingAsyncReason])
        #expect(project.plan.functions.map(\.export) == ["patch_start__pf_Store_load__"])
        // The object comes back with a value or a throw alike, and what changed is written back.
        let helper = project.routingThunks
        #expect(helper.contains("__self = try container.decode(__PatchSelf.self, forKey: .__self)"), "\(helper)")
        #expect(helper.contains("    if __PatchSelf.changed(__sent.items, __result.__self.items) { self.items = __result.__self.items }"), "\(helper)")
    }
}
