import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// Change detection against a baseline, without a toolchain: each kind of change gets its status
/// and reason.
@Suite struct ChangeDetectionTests {
    static let shipped = """
        public struct Money {
            public var cents: Int
        }

        public enum Pricing {
            // @patchable
            public static func fee(_ cents: Int) -> Int { cents / 10 }

            public static func tax(_ cents: Int) -> Int { cents / 5 }

            // @patchable
            public static func scale(_ cents: Int) -> Int { cents * 2 }

            public static func unused() -> Int { 1 }
        }
        """

    /// The changes `build` reports for `new` against the baseline `prepare` recorded for `old`, under
    /// `routing: marked`: the fixtures tell routed functions (marked) from native ones (unmarked).
    static func changes(from old: String, to new: String) -> [DeclarationChange] {
        let before = PreparedProject(old, routing: .marked)
        let after = PreparedProject(new, routing: .marked)
        return ChangeDetector.compare(baseline: before.plan.baseline, current: after.plan,
                                      shippedExports: Set(before.plan.functions.map(\.export)))
    }

    /// Under `routing: all`, a changed property or method prepare skipped says why, though its
    /// attribute sits on the line above its name (the skip is found by the declaration's baseline id);
    /// a changed default value whose type has no written initializer says what to write.
    @Test func unroutedPropertiesAndImplicitInitializersSayWhy() throws {
        let old = """
            struct Badge {
                var count = 1
                @available(iOS 17, *)
                var label: some Equatable { "n" }

                @MainActor
                func refresh(times: Int) async -> Int { times }
            }
            """
        let new = old.replacingOccurrences(of: "\"n\"", with: "\"m\"").replacingOccurrences(of: "count = 1", with: "count = 2")
            .replacingOccurrences(of: "{ times }", with: "{ times + 1 }")
        let before = PreparedProject(old, routing: .all)
        let changes = ChangeDetector.compare(baseline: before.plan.baseline, current: PreparedProject(new, routing: .all).plan,
                                             shippedExports: Set(before.plan.functions.map(\.export)))
        let label = try #require(changes.first { $0.id == "App:Badge.label" })
        #expect(label.reason == "not_routed")
        #expect(label.detail?.hasPrefix("prepare does not route it: the property's type") == true, "\(label.detail ?? "")")
        let refresh = try #require(changes.first { $0.id.hasPrefix("App:Badge.refresh(") }, "\(changes.map(\.id))")
        // Routed by its prologue (`AsyncPrologue`): its change ships.
        #expect(refresh.status == .patched, "\(refresh)")
        let initializer = try #require(changes.first { $0.id == "App:Badge.init" })
        #expect(initializer.reason == "not_routed")
        #expect(initializer.detail?.contains("the type's implicit initializers set it, and they have no declaration a thunk could route") == true, "\(initializer.detail ?? "")")
    }

    @Test func unchangedSourcesAndReformattingAreNoChange() {
        #expect(Self.changes(from: Self.shipped, to: Self.shipped).isEmpty)
        let reformatted = Self.shipped.replacingOccurrences(of: "{ cents / 10 }", with: "{\n        // ten percent\n        cents / 10\n    }")
        #expect(Self.changes(from: Self.shipped, to: reformatted).isEmpty)
    }

    @Test func everyKindOfChangeIsClassifiedWithItsReasonAndLine() throws {
        let edited = Self.shipped
            .replacingOccurrences(of: "public var cents: Int\n", with: "public var cents: Int\n    public var currency: String\n")
            .replacingOccurrences(of: "cents / 10", with: "cents / 8")
            .replacingOccurrences(of: "cents / 5", with: "cents / 4")
            .replacingOccurrences(of: "func scale(_ cents: Int) -> Int { cents * 2 }", with: "func scale(_ cents: Double) -> Int { Int(cents * 2) }")
            .replacingOccurrences(of: "    public static func unused() -> Int { 1 }\n", with: "    public static func helper() -> Int { 2 }\n")
        let byID = Dictionary(uniqueKeysWithValues: Self.changes(from: Self.shipped, to: edited).map { ($0.id, $0) })

        let layout = try #require(byID["App:Money"])
        #expect(layout.status == .nativeOnly && layout.reason == DeclarationChange.NativeReason.storedLayoutChanged)
        #expect(layout.location == GuestSourceLocation(file: "Sources/App/View.swift", line: 1))

        let fee = try #require(byID["App:Pricing.fee(_:Int)"])
        #expect(fee.status == .patched && fee.change == .modified && fee.reason == nil)
        #expect(fee.location.line == 8)

        let tax = try #require(byID["App:Pricing.tax(_:Int)"])
        #expect(tax.status == .nativeOnly && tax.reason == DeclarationChange.NativeReason.notRouted)

        let scale = try #require(byID["App:Pricing.scale(_:Double)"])
        #expect(scale.change == .signatureChanged && scale.status == .nativeOnly)
        #expect(scale.detail?.contains("App:Pricing.scale(_:Int)") == true)
        #expect(byID["App:Pricing.scale(_:Int)"] == nil)

        #expect(byID["App:Pricing.helper()"]?.change == .added && byID["App:Pricing.helper()"]?.status == .informational)
        #expect(byID["App:Pricing.unused()"]?.change == .removed && byID["App:Pricing.unused()"]?.status == .informational)
        #expect(byID.count == 6)
    }

    @Test func aFunctionMarkedPatchableAfterShippingHasNoThunkToRouteThrough() throws {
        let unmarked = Self.shipped.replacingOccurrences(of: "// @patchable\n    public static func fee", with: "public static func fee")
        let edited = Self.shipped.replacingOccurrences(of: "cents / 10", with: "cents / 8")
        let before = PreparedProject(unmarked, routing: .marked)
        let result = ChangeDetector.compare(baseline: before.plan.baseline, current: PreparedProject(edited, routing: .marked).plan,
                                            shippedExports: Set(before.plan.functions.map(\.export)))
        #expect(result.map(\.reason) == [DeclarationChange.NativeReason.notRouted])
    }

    /// A changed view body is a candidate for the module, named as the shipped binary's thunk names
    /// it to the SDK, which `build` derives from the baseline alone.
    @Test func aChangedViewBodyIsNamedAsTheShippedBinaryRoutesIt() throws {
        let row = "struct Row: View { var body: some View { Text(\"row\") } }\n"
        let shipped = PreparedProject(targets: ["App": ["Row.swift": row], "UI": ["Row.swift": row]], appTarget: "App")
        let edited = PreparedProject(targets: ["App": ["Row.swift": row.replacingOccurrences(of: "\"row\"", with: "\"edited\"")],
                                               "UI": ["Row.swift": row]], appTarget: "App")
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        let change = try #require(changes.first)
        #expect(changes.count == 1 && change.id == "App:Row.body")
        #expect(change.status == .patched && change.reason == nil)
        #expect(ChangeDetector.viewCandidates(in: changes, baseline: shipped.plan.baseline)
            == [GuestViewRequest(declarationID: "App:Row.body", typeName: "App_Row", path: ["Row"])])
        #expect(ChangeDetector.viewCandidates(in: changes, baseline: shipped.plan.baseline).first?.bodyExport == "view_body__App_Row")
        #expect(shipped.plan.views.contains { $0.target == "App" && $0.typeName == "App_Row" })
    }

    @Test func shippedExportsAreTheNamesTheGeneratedThunksCall() {
        let project = PreparedProject(Self.shipped, routing: .marked)
        let files = project.files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
        let exports = ChangeDetector.shippedExports([PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: files)])
        #expect(exports == ["_pf_Pricing_fee___", "_pf_Pricing_scale___"])
    }

    @Test func theGuestFoldsInWhatItCannotCompile() {
        let set = ChangeSet(
            baselineFingerprint: "f", changes: [DeclarationChange(id: "App:f(x:Int)", kind: .function, change: .modified, status: .patched,
                                                                   reason: nil, detail: nil, location: GuestSourceLocation(file: "Sources/App/A.swift", line: 3))],
            candidates: [PatchCandidate(declarationID: "App:f(x:Int)", functionKey: "f(x:)")], sourceRoots: ["Sources/App"], missingSourceRoots: [],
            buildSettings: .init())
        let folded = set.applying(unpatchable: [GuestUnpatchable(declarationID: "f(x:)", reason: .osFrameworkAPI, detail: "uses Date",
                                                                location: GuestSourceLocation(file: "Sources/App/A.swift", line: 4))])
        #expect(folded.first?.status == .nativeOnly)
        #expect(folded.first?.reason == "os_framework_api")
        // The change is reported where the changed declaration is; the problem's place comes beside it.
        #expect(folded.first?.location == GuestSourceLocation(file: "Sources/App/A.swift", line: 3))
        #expect(folded.first?.problemLocation == GuestSourceLocation(file: "Sources/App/A.swift", line: 4))
    }
}
