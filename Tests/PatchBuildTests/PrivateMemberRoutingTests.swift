import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import Testing

/// `private` members of types are routed by widening them to `fileprivate` (PrivateMemberWidening,
/// docs/prepare.md "Private members").
struct PrivateMemberRoutingTests {
    static let source = """
        struct Meter {
            var value: Int

            /// Scaled for display.
            private   func scaled(by factor: Int) -> Int { value * factor }

            private var doubled: Int { value * 2 }

            private(set) var clamped: Int {
                get { max(value, 0) }
                set { value = newValue }
            }

            private init(raw: Int) { value = raw }

            fileprivate func shown() -> Int { value }
        }

        """

    @Test func prepareInsertsFileBeforePrivateAndKeepsTheTrivia() throws {
        let project = PreparedProject(Self.source)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        let user = project.userFile.components(separatedBy: "\n" + PreparedNames.sectionBegin)[0]
        #expect(user == """
            struct Meter {
                var value: Int

                /// Scaled for display.
                fileprivate   dynamic func scaled(by factor: Int) -> Int { value * factor }

                fileprivate dynamic var doubled: Int { value * 2 }

                private(set) dynamic var clamped: Int {
                    get { max(value, 0) }
                    set { value = newValue }
                }

                fileprivate dynamic init(raw: Int) { value = raw }

                fileprivate dynamic func shown() -> Int { value }
            }

            """)
        // The thunks go in the file's own section: only its file may name a `fileprivate` member.
        #expect(project.routingFile == nil || !project.routingThunks.contains("scaled"))
        #expect(project.userFile.contains("@_dynamicReplacement(for: scaled(by:))"))
        let insertions = try #require(project.plan.insertions["Sources/App/View.swift"])
        #expect(insertions.widenedMembers == ["Meter.scaled(by:)", "Meter.doubled", "Meter.init(raw:)"])
    }

    @Test func thePreparedFileHasTheOriginalsBaselineAndARerunChangesNothing() throws {
        let project = PreparedProject(Self.source)
        let original = PreparedProject(Self.source, routing: .marked)
        #expect(project.plan.baseline == original.plan.baseline)
        let rerun = project.rerun(targets: ["App"])
        #expect(rerun.plan.updates.isEmpty, "\(rerun.plan.updates.map(\.path))")
        #expect(rerun.plan.functions == project.plan.functions)
        // The scan prepare caches for the prepared file is what parsing it gives.
        let after = try #require(project.plan.updates.first { $0.path == "Sources/App/View.swift" }?.after)
        let user = GeneratedSection.split(after).user
        let fresh = SourceScanner.scan(Parser.parse(source: String(decoding: user, as: UTF8.self)), source: user)
        #expect(project.plan.cache.scans[SHA256Hasher.hex(of: after)] == fresh)
    }

    @Test func revertTakesOutExactlyTheInsertedBytesAfterAnEdit() throws {
        let project = PreparedProject(Self.source)
        let insertions = try #require(project.plan.insertions["Sources/App/View.swift"])
        // The user edits a widened member's body and adds a member of their own that is `fileprivate`.
        let edited = project.userFile.replacingOccurrences(of: "value * factor", with: "value * factor + 1")
            .replacingOccurrences(of: "    fileprivate dynamic func shown()", with: "    fileprivate func mine() -> Int { 1 }\n    fileprivate dynamic func shown()")
        let reverted = String(decoding: Unpreparer.unprepare(Array(edited.utf8), insertions: insertions), as: UTF8.self)
        #expect(reverted == Self.source.replacingOccurrences(of: "value * factor", with: "value * factor + 1")
            .replacingOccurrences(of: "    fileprivate func shown()", with: "    fileprivate func mine() -> Int { 1 }\n    fileprivate func shown()"))
    }

    @Test func aMemberNoLongerRoutedIsPrivateAgain() throws {
        let project = PreparedProject(Self.source)
        let insertions = try #require(project.plan.insertions["Sources/App/View.swift"])
        let marked = project.userFile.replacingOccurrences(of: "    fileprivate dynamic var doubled", with: "    // @native\n    fileprivate dynamic var doubled")
        let target = PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: [SourceFile(path: "Sources/App/View.swift", bytes: Array(marked.utf8))])
        let plan = Preparer.plan(targets: [target], appTarget: "App", routing: .all, previousInsertions: ["Sources/App/View.swift": insertions],
                                 existingFile: { _ in nil })
        let bytes = try #require(plan.updates.first { $0.path == "Sources/App/View.swift" }?.after)
        let after = String(decoding: bytes, as: UTF8.self)
        #expect(after.contains("    // @native\n    private var doubled: Int { value * 2 }"))
        #expect(after.contains("fileprivate   dynamic func scaled"))
        // The cached scan follows the narrowing back as a fresh parse sees it.
        let user = GeneratedSection.split(bytes).user
        #expect(plan.cache.scans[SHA256Hasher.hex(of: bytes)] == SourceScanner.scan(Parser.parse(source: String(decoding: user, as: UTF8.self)), source: user))
    }

    @Test func aSubclassInTheFileDeclaringTheNameRefusesIt() throws {
        let project = PreparedProject("""
            class Base {
                static func run() -> Int { step() }
                private static func step() -> Int { 1 }
                private static func other() -> Int { 2 }
            }
            final class Derived: Base {
                private static func step() -> Int { 3 }
            }

            """)
        let skip = try #require(project.plan.skipped.first { $0.declaration == "Base.step()" })
        #expect(skip.line == 3)
        #expect(skip.reason.hasPrefix("its subclass `Derived` (line 6) declares a member named `step`: widening this `private` member to `fileprivate`"))
        #expect(project.userFile.contains("    private static func step() -> Int { 1 }"))
        // The subclass's own `step` and the base's other private method are widened.
        #expect(project.userFile.contains("    fileprivate static dynamic func other()"))
        #expect(project.userFile.contains("    fileprivate static dynamic func step() -> Int { 3 }"))
    }

    /// Code of the file calling `Card().summary()` outside `Card` runs the protocol's extension; with
    /// `summary` widened it would run `Card`'s.
    @Test func aMemberNamedLikeAProtocolExtensionMemberIsRefused() throws {
        let project = PreparedProject(targets: ["App": [
            "Describing.swift": "protocol Describing {}\nextension Describing {\n    func summary() -> String { \"any\" }\n}\n",
            "Card.swift": "struct Card: Describing {\n    private func summary() -> String { \"card\" }\n}\nfunc show() -> String { Card().summary() }\n",
        ]])
        let skip = try #require(project.plan.skipped.first { $0.file == "Sources/App/Card.swift" && $0.line == 2 })
        #expect(skip.reason == "`Card` conforms to `Describing`, whose extension declares `Describing.summary()` at Sources/App/Describing.swift:3: widening this `private` member to `fileprivate` (how prepare routes it) would make code of Sources/App/Card.swift that calls that one on a `Card` call this one instead; rename one of them")
        #expect(project.files["Sources/App/Card.swift"]?.contains("    private func summary()") == true)
    }

    @Test func aMemberDeclaredAgainWithTheSameNameAndLabelsIsRefused() throws {
        let project = PreparedProject(targets: ["App": [
            "Model.swift": "struct Model {\n    func tag(_ x: Double) -> String { \"d\" }\n}\n",
            "Model+Tags.swift": "extension Model {\n    private func tag(_ x: Int) -> String { \"i\" }\n    func both() -> String { tag(1) }\n}\n",
        ]])
        let skip = try #require(project.plan.skipped.first { $0.file == "Sources/App/Model+Tags.swift" && $0.line == 2 })
        #expect(skip.reason == "`Model.tag(_:)` is declared again at Sources/App/Model.swift:2: widening this `private` member to `fileprivate` (how prepare routes it) would let code of Sources/App/Model+Tags.swift that calls that one by scope see this one too; rename one of them")
        #expect(project.files["Sources/App/Model+Tags.swift"]?.contains("    private func tag(_ x: Int)") == true)
    }
}

/// The prepared private members compiled against the SDK stand-in and run: the replacement of a
/// widened member really replaces it.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct PrivateMemberRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimePrivateMembers")

    @Test func widenedPrivateMembersRouteToTheModule() throws {
        let sources = try ["Ledger.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .all, existingFile: { _ in nil })
        #expect(plan.functions.map(\.export).contains("_pf_Ledger_apply__fee"))
        let files = SDKStandIn.prepared(sources, by: plan)
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("""
            native: 280 after fees 20 | 25 | 0 1
            module: 999 after module label | 77 | 0 0

            """), "\(result.output)")
    }
}
