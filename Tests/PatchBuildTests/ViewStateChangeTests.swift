import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// How `build` judges a changed stored layout (docs/views.md "Changing a view's state"): a routed
/// view's `@State` added, removed or re-initialised ships with its body; any other property change
/// stays `stored_layout_changed`, each property named with why. The end-to-end build and run are
/// ViewStateCLITests.
@Suite struct ViewStateChangeTests {
    static let view = """
        import SwiftUI

        struct Counter: View {
            let title: String
            @State private var count = 0
            @AppStorage("compact") private var compact = false

            var body: some View {
                VStack {
                    Text(title)
                    Text("\\(count)")
                }
            }
        }

        struct Money {
            var cents: Int
        }

        """

    struct Judged {
        var byID: [String: DeclarationChange]
        var bodies: [String: String]
        var reinitialized: [String: [String]]
        var requests: [GuestViewRequest]
    }

    /// The changes of `edits` applied to `view`, judged as `ChangeDetector.detect` judges them.
    static func judge(_ edits: [(String, String)], shipped: Baseline? = nil) -> Judged {
        var source = view
        for (old, new) in edits {
            if !source.contains(old) { Issue.record("the fixture does not contain \(old)") }
            source = source.replacingOccurrences(of: old, with: new)
        }
        let baseline = shipped ?? PreparedProject(view).plan.baseline
        let current = PreparedProject(source).plan
        let changes = ChangeDetector.compare(baseline: baseline, current: current, shippedExports: [])
        let carried = ViewStateShipping.carriers(of: changes, baseline: baseline, current: current)
        return Judged(byID: Dictionary(uniqueKeysWithValues: changes.map { ($0.id, $0) }), bodies: carried.bodies,
                      reinitialized: carried.reinitialized,
                      requests: ChangeDetector.viewCandidates(in: changes, baseline: baseline, helperBodies: carried.bodies,
                                                              reinitializedState: carried.reinitialized))
    }

    @Test func anAddedStateShipsWithTheBodyThatUsesIt() throws {
        let judged = Self.judge([
            ("@State private var count = 0\n", "@State private var count = 0\n    @State private var taps: Int = 0\n"),
            ("Text(\"\\(count)\")", "Button(\"Tapped \\(taps)\") { taps += 1 }"),
        ])
        let layout = try #require(judged.byID["App:Counter"])
        #expect(layout.status == .patched && layout.reason == nil, "\(layout)")
        #expect(layout.detail == "`@State taps: Int` added: state the guest view holds; it ships inside its view's body patch (`view_body__Counter`): the module lowers `Counter.body` again with it")
        #expect(judged.byID["App:Counter.body"]?.status == .patched)
        #expect(judged.bodies == ["App:Counter": "App:Counter.body"])
        // The body changed itself: one request, with no state to re-initialise.
        #expect(judged.requests == [GuestViewRequest(declarationID: "App:Counter.body", typeName: "Counter", path: ["Counter"])])
    }

    /// The body did not change: it is lowered again to carry the new default, which the guest takes
    /// over the native field's old one.
    @Test func aReinitialisedStateCarriesTheUnchangedBody() throws {
        let judged = Self.judge([("@State private var count = 0", "@State private var count = 10")])
        let layout = try #require(judged.byID["App:Counter"])
        #expect(layout.status == .patched, "\(layout)")
        #expect(layout.detail?.contains("`@State count: Int` re-initialised: the guest view starts it from its new default") == true, "\(layout)")
        #expect(judged.byID["App:Counter.init"] == nil, "\(judged.byID.keys.sorted())")
        #expect(judged.byID["App:Counter.body"] == nil)
        #expect(judged.reinitialized == ["App:Counter.body": ["count"]])
        #expect(judged.requests == [GuestViewRequest(declarationID: "App:Counter.body", typeName: "Counter", path: ["Counter"],
                                                     reinitializedState: ["count"])])
    }

    /// A body that does not lower keeps the state change native with the body's reason, its
    /// properties still named.
    @Test func aStateChangeSharesItsBodysGuestOutcome() throws {
        let judged = Self.judge([("@State private var count = 0", "@State private var count = 10")])
        let changeSet = ChangeSet(baselineFingerprint: "", changes: Array(judged.byID.values), candidates: [], viewCandidates: judged.requests,
                                  helperBodies: judged.bodies, sourceRoots: [], missingSourceRoots: [], buildSettings: .init())
        let failed = changeSet.applying(unpatchable: [GuestUnpatchable(declarationID: "App:Counter.body", reason: .viewNotLowerable,
                                                                       detail: "cannot find 'Gauge' in scope", location: nil)])
        let layout = try #require(failed.first { $0.id == "App:Counter" })
        #expect(layout.status == .nativeOnly && layout.reason == "view_not_lowerable")
        #expect(layout.detail == "`@State count: Int` re-initialised: the guest view starts it from its new default; it ships inside `Counter.body`, which does not lower: cannot find 'Gauge' in scope")
    }

    /// An `init` of the view may set the state from its arguments, which the guest's new default
    /// would wrongly replace: the type's initializers are judged as for any other default.
    @Test func aReinitialisedStateOfAViewWithAnInitializerStaysWithTheInitializer() {
        let judged = Self.judge([("@State private var count = 0", "@State private var count = 10"),
                                 ("    var body: some View {", "    init(title: String) { self.title = title }\n\n    var body: some View {")])
        #expect(judged.byID["App:Counter"] == nil && judged.bodies.isEmpty, "\(judged.byID.keys.sorted())")
        let verdict = ViewStateShipping.verdict(previous: PreparedProject(Self.view).plan.baseline.declarations.first { $0.id == "App:Counter" }?.behaviour,
                                                current: PreparedProject(Self.view.replacingOccurrences(of: "count = 0", with: "count = 10")).plan
                                                    .baseline.declarations.first { $0.id == "App:Counter" }?.behaviour,
                                                isView: true, declaresInitializer: true)
        #expect(verdict?.isGuestState == false && verdict?.items == ["`@State count: Int` re-initialised: the view declares an `init`, which may set it from its arguments (native layout)"])
    }

    @Test func removedStateAndAppStorageShipAndOtherPropertiesStayNativeNamed() throws {
        let removed = Self.judge([("    @State private var count = 0\n", ""), ("    @AppStorage(\"compact\") private var compact = false\n", ""),
                                      ("Text(\"\\(count)\")", "Text(\"none\")")])
        let layout = try #require(removed.byID["App:Counter"])
        #expect(layout.status == .patched, "\(layout)")
        #expect(layout.detail?.contains("`@State count: Int` removed: the host still passes it and the guest view ignores it") == true)
        #expect(layout.detail?.contains("`@AppStorage compact: Bool` removed") == true, "\(layout)")

        let passed = Self.judge([("    let title: String\n", "    let title: String\n    let subtitle: String\n")])
        let native = try #require(passed.byID["App:Counter"])
        #expect(native.status == .nativeOnly && native.reason == DeclarationChange.NativeReason.storedLayoutChanged)
        #expect(native.detail == "`subtitle: String` added: passed in by the parent (native layout); the native binary owns the memory layout, so this needs an app release")
        #expect(passed.bodies.isEmpty && passed.requests.isEmpty)
        let constant = Self.judge([("    let title: String\n", "    let title: String\n    let limit = 3\n")])
        #expect(constant.byID["App:Counter"]?.detail?.hasPrefix("`limit: Int` added: a stored property of the native view, which its initializers set (native layout)") == true,
                "\(constant.byID["App:Counter"]?.detail ?? "")")

        // One native property keeps the whole change native, each difference named.
        let mixed = Self.judge([("@State private var count = 0\n", "@State private var count = 0\n    @State private var taps = 0\n    @Binding var isOn: Bool\n    @Environment(\\.dismiss) private var dismiss\n")])
        let mixedLayout = try #require(mixed.byID["App:Counter"])
        #expect(mixedLayout.status == .nativeOnly, "\(mixedLayout)")
        for part in ["`@State taps: Int` added: state the guest view holds", "`@Binding isOn: Bool` added: a binding the parent passes in (native layout)",
                     "`@Environment dismiss` added: a native `@Environment` that SwiftUI fills, which the host does not pass to the guest (native layout)"] {
            #expect(mixedLayout.detail?.contains(part) == true, "\(mixedLayout.detail ?? "")")
        }
        // Set by an `init` the guest does not run; an optional one starts as nil.
        let unset = Self.judge([("@State private var count = 0\n", "@State private var count = 0\n    @State private var total: Int\n    @State private var picked: String?\n")])
        #expect(unset.byID["App:Counter"]?.detail?.hasPrefix("`@State total: Int` added: it has no default value, so the view's `init` sets it, which the guest view does not run (native layout); `@State picked: String?` added: state the guest view holds") == true,
                "\(unset.byID["App:Counter"]?.detail ?? "")")
        let removedTitle = Self.judge([("    let title: String\n", ""), ("Text(title)", "Text(\"t\")")])
        #expect(removedTitle.byID["App:Counter"]?.detail?.hasPrefix("`title: String` removed: the shipped binary's view still has it (native layout)") == true)
    }

    /// `@AppStorage` lives in the native wrapper's store, and a retyped `@State` is written back into
    /// the native type: both stay native.
    @Test func appStorageAddedOrReinitialisedAndRetypedStateStayNative() throws {
        let added = Self.judge([("@State private var count = 0\n", "@State private var count = 0\n    @AppStorage(\"sort\") private var sort = \"name\"\n")])
        #expect(added.byID["App:Counter"]?.status == .nativeOnly)
        #expect(added.byID["App:Counter"]?.detail?.hasPrefix("`@AppStorage sort: String` added: the native wrapper reads and writes its store, which a patch cannot add (native layout)") == true,
                "\(added.byID["App:Counter"]?.detail ?? "")")
        // A re-initialised `@AppStorage` is an initialization change as any other default's: the
        // type's implicit initializer sets it.
        let reinitialised = Self.judge([("private var compact = false", "private var compact = true")])
        #expect(reinitialised.byID["App:Counter"] == nil && reinitialised.byID["App:Counter.init"]?.reason == "not_routed", "\(reinitialised.byID.keys.sorted())")
        let retyped = Self.judge([("@State private var count = 0", "@State private var count = 0.5")])
        #expect(retyped.byID["App:Counter"]?.status == .nativeOnly)
        #expect(retyped.byID["App:Counter"]?.detail?.hasPrefix("`@State count: Double` was `Int`: the host writes the state back into the native `Int` (native layout)") == true,
                "\(retyped.byID["App:Counter"]?.detail ?? "")")
    }

    @Test func aTypeThatIsNoViewNamesItsPropertiesPlainly() throws {
        let judged = Self.judge([("    var cents: Int\n", "    var cents: Int\n    var currency: String\n")])
        #expect(judged.byID["App:Money"]?.detail == "`currency: String` added; the native binary owns the memory layout, so this needs an app release")
        #expect(judged.bodies.isEmpty)
    }

    /// A baseline written before patchcli recorded stored properties: today's verdict, and how to
    /// get the detail. Its layout hash is unchanged, so nothing else differs.
    @Test func aBaselineWithoutPropertiesFallsBackAndSaysHowToGetDetail() throws {
        let old = Baseline(declarations: PreparedProject(Self.view).plan.baseline.declarations.map { declaration in
            var declaration = declaration
            declaration.behaviour?.properties = nil
            return declaration
        })
        let reread = try Baseline(json: JSONValue.parse(old.canonicalJSON))
        #expect(reread == old && !String(decoding: old.canonicalJSON, as: UTF8.self).contains("properties"))
        let judged = Self.judge([("@State private var count = 0\n", "@State private var count = 0\n    @State private var taps = 0\n")], shipped: reread)
        let layout = try #require(judged.byID["App:Counter"])
        #expect(layout.status == .nativeOnly && layout.reason == DeclarationChange.NativeReason.storedLayoutChanged)
        #expect(layout.detail?.contains("re-run `patchcli prepare` for the build you ship to get per-property detail") == true, "\(layout)")
        #expect(judged.byID.count == 1, "\(judged.byID.keys.sorted())")
    }

    @Test func propertiesAreWrittenCanonicallyAndReadBack() throws {
        let baseline = PreparedProject(Self.view).plan.baseline
        let text = String(decoding: baseline.canonicalJSON, as: UTF8.self)
        #expect(text.contains(#""properties":[{"layout":""#), "\(text)")
        #expect(text.contains(#"{"attributes":["State"],"default":true,"layout":""#), "\(text)")
        #expect(try Baseline(json: JSONValue.parse(baseline.canonicalJSON)) == baseline)
        let counter = try #require(baseline.declarations.first { $0.id == "App:Counter" }?.behaviour?.properties)
        #expect(counter.map(\.name) == ["title", "count", "compact"])
        #expect(counter.map(\.type) == ["String", "Int", "Bool"])
        #expect(counter.map(\.attributes) == [[], ["State"], ["AppStorage"]])
        #expect(counter.map(\.hasDefault) == [false, true, true])
        #expect(counter.allSatisfy { $0.layout.count == 16 && $0.value.count == 16 })
    }
}
