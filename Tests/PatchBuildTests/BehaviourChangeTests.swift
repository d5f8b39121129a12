import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// Change detection judges behaviour, not text (issue 18): edits devices would not notice are
/// informational, a stored property's default value is an initializer change, and a changed calling
/// convention is `signature_changed`. The shapes are those of real commits (Swiftfin, ACHNBrowserUI,
/// enchanted): `var` → `private var`, `private(set)`, `nonisolated init`, `@MainActor` on a
/// synchronous method, `-> Int` → `-> Int?`, `CGFloat = 50` → `= 200`.
@Suite struct BehaviourChangeTests {
    static let shipped = """
        struct Player {
            var retries = 3
            let panDamping: CGFloat = 50
            var url: URL
            var speed: Double = 1 {
                didSet { clamp() }
            }
        }

        struct Session {
            var timeout: Int = 30
            init(timeout: Int) { self.timeout = timeout }
        }

        public enum Pricing {
            // @patchable
            public static func fee(_ cents: Int) -> Int { cents / 10 }

            static func tax(_ cents: Int) -> Int { cents / 5 }

            // @patchable
            static func imageIndex(for seconds: Int) -> Int { seconds / 10 }

            static func load() async -> Int { 1 }

            static var rate: Int { 5 }
        }

        class Store {
            func reload() -> Int { 1 }
        }

        struct Counter {
            var count: Int
            func next(by step: Int) -> Int { count + step }
        }
        """

    private func edited(_ replacements: [(String, String)]) throws -> String {
        var text = Self.shipped
        for (old, new) in replacements {
            guard text.contains(old) else { throw BehaviourTestFailure(description: "the fixture has no `\(old)`") }
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    private func changes(_ replacements: (String, String)...) throws -> [String: DeclarationChange] {
        Dictionary(uniqueKeysWithValues: ChangeDetectionTests.changes(from: Self.shipped, to: try edited(replacements)).map { ($0.id, $0) })
    }

    // MARK: - Informational

    @Test func accessControlOnlyIsInformationalAndNeverACandidate() throws {
        let byID = try changes(("public static func fee", "static func fee"), ("static func tax", "private static func tax"),
                               ("    var url: URL", "    private(set) var url: URL"))
        let fee = try #require(byID["App:Pricing.fee(_:Int)"])
        #expect(fee.status == .informational && fee.change == .modified && fee.reason == nil)
        #expect(fee.detail == "access control only: `public` removed; no behaviour changes, devices keep the shipped code")
        #expect(byID["App:Pricing.tax(_:Int)"]?.status == .informational)
        #expect(byID["App:Pricing.tax(_:Int)"]?.detail?.hasPrefix("access control only: `private` added") == true)
        let layout = try #require(byID["App:Player"])
        #expect(layout.status == .informational && layout.kind == .storedLayout)
        #expect(layout.detail?.hasPrefix("access control only: `private(set)` on `url` added") == true)
        #expect(byID.count == 3)
    }

    @Test func isolationOfSynchronousCodeIsInformationalButOfAsyncCodeIsBehaviour() throws {
        let sync = try changes(("static func tax", "nonisolated static func tax"), ("static func imageIndex", "@MainActor static func imageIndex"))
        #expect(sync["App:Pricing.tax(_:Int)"]?.status == .informational)
        #expect(sync["App:Pricing.tax(_:Int)"]?.detail?.hasPrefix("isolation of synchronous code only: `nonisolated` added") == true)
        #expect(sync["App:Pricing.imageIndex(for:Int)"]?.status == .informational)
        // An async function runs on the executor its isolation names: that is behaviour.
        let async = try changes(("static func load() async", "@MainActor static func load() async"))
        #expect(async["App:Pricing.load()"]?.status == .nativeOnly && async["App:Pricing.load()"]?.change == .modified)
    }

    @Test func attributesWithoutRuntimeEffectAreInformationalOthersAreNot() throws {
        let inert = try changes(("    static func tax", "    @discardableResult @available(*, deprecated, message: \"use fee\")\n    static func tax"),
                                ("    func reload()", "    final func reload()"))
        let tax = try #require(inert["App:Pricing.tax(_:Int)"])
        #expect(tax.status == .informational)
        #expect(tax.detail?.hasPrefix("attributes without runtime effect only: `@discardableResult`, `@available(*, deprecated, message: \"use fee\")` added") == true)
        #expect(inert["App:Store.reload()"]?.detail?.hasPrefix("`final` only: `final` added") == true)
        let objc = try changes(("    static func tax", "    @objc static func tax"), ("static func imageIndex", "@inline(never) static func imageIndex"))
        #expect(objc["App:Pricing.tax(_:Int)"]?.status == .nativeOnly)
        #expect(objc["App:Pricing.imageIndex(for:Int)"]?.status == .patched)
    }

    @Test func commentsFormattingAndModifierOrderAreNoChange() throws {
        #expect(try changes(("{ cents / 10 }", "{\n        // a tenth\n        cents/10\n    }")).isEmpty)
        #expect(try changes(("public static func fee", "static public func fee")).isEmpty)
        // Swiftfin f2af5dbb5: `@State private var isPresentingCustomSpeed = false` → `…: Bool = false`.
        #expect(try changes(("var retries = 3", "var retries: Int = 3")).isEmpty)
    }

    @Test func aChangedBodyWithChangedAccessIsBehaviour() throws {
        let byID = try changes(("public static func fee(_ cents: Int) -> Int { cents / 10 }", "static func fee(_ cents: Int) -> Int { cents / 8 }"))
        let fee = try #require(byID["App:Pricing.fee(_:Int)"])
        #expect(fee.status == .patched && fee.change == .modified)
    }

    // MARK: - Stored properties

    @Test func aChangedDefaultValueIsAnInitializerChangeNotALayoutChange() throws {
        // No initializer declared: the implicit ones set it, which nothing routes.
        let implicit = try changes(("var retries = 3", "var retries = 5"), ("CGFloat = 50", "CGFloat = 200"))
        let player = try #require(implicit["App:Player.init"])
        #expect(player.kind == .initializer && player.status == .nativeOnly && player.reason == DeclarationChange.NativeReason.notRouted)
        #expect(player.detail?.contains("default value") == true)
        #expect(player.location.line == 1)
        #expect(implicit.count == 1)
        // A declared initializer is judged as a changed initializer (patched once initializers are routed).
        let explicit = try changes(("var timeout: Int = 30", "var timeout: Int = 60"))
        let session = try #require(explicit["App:Session.init(timeout:Int)"])
        #expect(session.kind == .initializer && session.change == .modified)
        #expect(session.detail?.hasPrefix("a stored property's default value") == true)
        #expect(explicit.count == 1)
        // An observed property's default is reported with the type, not as a change of its observers.
        #expect(try changes(("var speed: Double = 1 {", "var speed: Double = 2 {")).keys.sorted() == ["App:Player.init"])
        // `let` → `var` changes which properties the memberwise and Decodable initializers take.
        #expect(try changes(("let panDamping", "var panDamping")).keys.sorted() == ["App:Player.init"])
    }

    @Test func aDefaultValueThatChangesTheInferredTypeOrAWrittenTypeIsALayoutChange() throws {
        for edit in [("var retries = 3", "var retries = 3.5"), ("var retries = 3", "var retries = Int64(3)"), ("CGFloat = 50", "Double = 50"),
                     ("var retries = 3", "var retries: Int64 = 3"),
                     ("    var url: URL\n", "    var url: URL\n    var title: String\n"), ("var url: URL", "@State var url: URL"),
                     ("var url: URL", "lazy var url: URL")] {
            let byID = try changes(edit)
            #expect(byID["App:Player"]?.reason == DeclarationChange.NativeReason.storedLayoutChanged, "\(edit)")
            #expect(byID["App:Player.init"] == nil, "\(edit)")
        }
    }

    @Test func aChangedObserverIsReportedWithItsPropertyNotAsTheLayout() throws {
        let byID = try changes(("didSet { clamp() }", "didSet { clamp(); save() }"))
        #expect(byID.keys.sorted() == ["App:Player.speed"])
        #expect(byID["App:Player.speed"]?.status == .nativeOnly)
    }

    // MARK: - Signatures

    /// The shipped thunk decodes the old result type (`__PatchResult { let value: Int }`): patching
    /// with a module returning `Int?` could never work, so the change needs an app release.
    @Test func aChangedResultTypeIsSignatureChanged() throws {
        let byID = try changes(("static func imageIndex(for seconds: Int) -> Int { seconds / 10 }",
                                "static func imageIndex(for seconds: Int) -> Int? { seconds > 0 ? seconds / 10 : nil }"))
        let change = try #require(byID["App:Pricing.imageIndex(for:Int)"])
        #expect(change.change == .signatureChanged && change.status == .nativeOnly)
        #expect(change.reason == DeclarationChange.NativeReason.signatureChanged)
        #expect(change.detail?.hasPrefix("`static (seconds) -> Int` → `static (seconds) -> Int?`") == true)
        // The bug this fixes: judged by the id and the full hash alone (as a baseline of an older
        // patchcli still is), it reads as a modified body and becomes a module candidate.
        let before = PreparedProject(Self.shipped)
        let unknown = Self.writtenBeforeBehaviour(before.plan.baseline)
        let after = PreparedProject(try edited([("-> Int { seconds / 10 }", "-> Int? { seconds > 0 ? seconds / 10 : nil }")]))
        let judgedByText = ChangeDetector.compare(baseline: unknown, current: after.plan, shippedExports: Set(before.plan.functions.map(\.export)))
        #expect(judgedByText.map(\.status) == [.patched])
    }

    @Test func effectsStaticMutatingParameterNamesAndPropertyTypesAreSignatures() throws {
        let edits: [(String, String, String)] = [
            ("static func tax(_ cents: Int) -> Int", "static func tax(_ cents: Int) throws -> Int", "App:Pricing.tax(_:Int)"),
            ("static func tax(_ cents: Int)", "func tax(_ cents: Int)", "App:Pricing.tax(_:Int)"),
            ("func next(by step: Int) -> Int { count + step }", "mutating func next(by step: Int) -> Int { count += step; return count }",
             "App:Counter.next(by:Int)"),
            // The thunk sends arguments under their internal names.
            ("static func imageIndex(for seconds: Int) -> Int { seconds / 10 }",
             "static func imageIndex(for time: Int) -> Int { time / 10 }", "App:Pricing.imageIndex(for:Int)"),
            ("static var rate: Int { 5 }", "static var rate: Double { 5 }", "App:Pricing.rate"),
        ]
        for (old, new, id) in edits {
            let byID = try changes((old, new))
            #expect(byID[id]?.change == .signatureChanged, "\(new)")
            #expect(byID[id]?.status == .nativeOnly, "\(new)")
        }
    }

    // MARK: - Baselines

    /// The baseline as a patchcli that did not record behaviour wrote it.
    static func writtenBeforeBehaviour(_ baseline: Baseline) -> Baseline {
        Baseline(declarations: baseline.declarations.map { declaration in
            var declaration = declaration
            declaration.behaviour = nil
            return declaration
        })
    }

    /// A baseline written before behaviour was recorded judges every token change as behaviour, as
    /// patchcli always did (and still reads).
    @Test func aBaselineWithoutBehaviourComparesTheFullHash() throws {
        let before = PreparedProject(Self.shipped)
        let old = Self.writtenBeforeBehaviour(before.plan.baseline)
        let reread = try Baseline(json: JSONValue.parse(old.canonicalJSON))
        #expect(reread == old)
        #expect(!String(decoding: old.canonicalJSON, as: UTF8.self).contains("behaviour"))
        let after = PreparedProject(try edited([("static func tax", "private static func tax"), ("var retries = 3", "var retries = 5")]))
        let byID = Dictionary(uniqueKeysWithValues: ChangeDetector.compare(baseline: reread, current: after.plan,
                                                                           shippedExports: Set(before.plan.functions.map(\.export))).map { ($0.id, $0) })
        // Judged by its tokens: a change to ship (a `private` member is still routed, widened to `fileprivate`).
        #expect(byID["App:Pricing.tax(_:Int)"]?.change == .modified && byID["App:Pricing.tax(_:Int)"]?.status == .patched)
        #expect(byID["App:Player"]?.reason == DeclarationChange.NativeReason.storedLayoutChanged)
    }

    @Test func behaviourIsWrittenCanonicallyAndReadBack() throws {
        let baseline = PreparedProject(Self.shipped).plan.baseline
        let bytes = baseline.canonicalJSON
        #expect(try Baseline(json: JSONValue.parse(bytes)) == baseline)
        #expect(CanonicalJSON.serialize(try JSONValue.parse(bytes)) == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        // Nothing inert: the behaviour hash is the hash, and is not written twice.
        #expect(text.contains(#"{"behaviour":{"signature":"(step) -> Int"},"file":"Sources/App/View.swift","hash":"#))
        #expect(text.contains(#"{"behaviour":{"hash":""#))
        #expect(text.contains(#""inert":["public"],"signature":"static (cents) -> Int"}"#))
        let player = try #require(baseline.declarations.first { $0.id == "App:Player" }?.behaviour)
        #expect(player.layout != nil && player.layout != player.hash)
    }
}

struct BehaviourTestFailure: Error, CustomStringConvertible {
    var description: String
}
