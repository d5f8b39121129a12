@testable import PatchBuild
import PatchManifest
import Testing

/// How `build` judges changes no thunk routes by itself: a view's helpers (shipped inside the body
/// patch when the routed body uses them), Scene and widget bodies (prepare's reason), and preview
/// code (informational). The end-to-end build is ViewHelperBuildCLITests.
@Suite struct ViewHelperChangeTests {
    static let view = """
        import SwiftUI

        struct Menu: View {
            var body: some View {
                VStack { title; item("Tea") }
            }

            var title: some View { Text("Menu") }

            @ViewBuilder func item(_ name: String) -> some View {
                Text(name)
            }

            var unused: some View { Text("old") }

            static func chip() -> some View { Text("chip") }
        }

        extension Text {
            func emphasized() -> some View { self.bold() }
        }

        struct ShowMenu {
            func perform() async throws -> some IntentResult & ShowsSnippetView { .result(view: Menu()) }
        }

        """

    /// The changes of `edited` against `shipped`'s baseline, with the helpers judged as `detect` does.
    static func changes(_ shipped: PreparedProject, _ edited: PreparedProject) -> (changes: [DeclarationChange], bodies: [String: String]) {
        var changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        let target = PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: edited.files.sorted { $0.key < $1.key }.map {
            SourceFile(path: $0.key, bytes: Array($0.value.utf8))
        })
        let bodies = ViewHelperShipping.apply(to: &changes, baseline: shipped.plan.baseline, current: edited.plan, targets: [target])
        return (changes, bodies)
    }

    @Test func helpersTheRoutedBodyUsesShipWithItAndTheOthersSayWhyNot() throws {
        let shipped = PreparedProject(Self.view)
        var source = Self.view
        for (old, new) in [(#"Text("Menu")"#, #"Text("Today")"#), ("        Text(name)", "        Text(name).italic()"),
                           (#"Text("old")"#, #"Text("new")"#), (#"Text("chip")"#, #"Text("chips")"#), ("self.bold()", "self.italic()"),
                           ("view: Menu()", "view: Menu().padding()")] {
            source = source.replacingOccurrences(of: old, with: new)
        }
        // The helpers are read from the prepared file (as `build` reads them), whose body prepare renamed.
        let (changes, bodies) = Self.changes(shipped, PreparedProject(source))
        let byID = Dictionary(uniqueKeysWithValues: changes.map { ($0.id, $0) })
        #expect(bodies == ["App:Menu.title": "App:Menu.body", "App:Menu.item(_:String)": "App:Menu.body"])
        for id in ["App:Menu.title", "App:Menu.item(_:String)"] {
            #expect(byID[id]?.status == .patched && byID[id]?.reason == nil, "\(byID[id].map { "\($0)" } ?? id)")
            #expect(byID[id]?.detail?.contains("(`view_body__Menu`)") == true)
        }
        #expect(ChangeDetector.viewCandidates(in: changes, baseline: shipped.plan.baseline, helperBodies: bodies)
            == [GuestViewRequest(declarationID: "App:Menu.body", typeName: "Menu", path: ["Menu"])])
        for id in ["App:Menu.unused", "App:Menu.chip()"] {
            #expect(byID[id]?.status == .nativeOnly && byID[id]?.reason == "not_routed")
            #expect(byID[id]?.detail?.contains("`Menu.body` does not use it") == true, "\(byID[id].map { "\($0)" } ?? id)")
        }
        let foreign = try #require(byID["App:Text.emphasized()"])
        #expect(foreign.status == .nativeOnly && foreign.detail?.contains("`Text` has no `body` the shipped binary routes") == true, "\(foreign)")
        #expect(foreign.detail?.hasPrefix("no thunk routes a view helper by itself (a view cannot travel as JSON)") == true)
        // An intent's result type ends in `View` but is no view: prepare's reason stays.
        #expect(byID["App:ShowMenu.perform()"]?.detail?.hasPrefix("prepare does not route it") == true, "\(byID["App:ShowMenu.perform()"].map { "\($0)" } ?? "")")
    }

    /// The body reaches a helper of a third file through a helper of a second one.
    @Test func aHelperReachedThroughAnotherFileShips() {
        func project(_ subtitle: String) -> PreparedProject {
            PreparedProject(targets: ["App": [
                "Menu.swift": "import SwiftUI\nstruct Menu: View {\n    var body: some View { title }\n}\n",
                "Menu+Title.swift": "import SwiftUI\nextension Menu {\n    var title: some View { VStack { Text(\"Menu\"); subtitle } }\n}\n",
                "Menu+Subtitle.swift": "import SwiftUI\nextension Menu {\n    var subtitle: some View { Text(\"\(subtitle)\") }\n}\n",
            ]])
        }
        let (changes, bodies) = Self.changes(project("Today"), project("Tonight"))
        #expect(changes.map(\.id) == ["App:Menu.subtitle"])
        #expect(bodies == ["App:Menu.subtitle": "App:Menu.body"], "\(changes)")
    }

    /// A `ViewModifier`'s `body(content:)` carries its helpers as a view's body does.
    @Test func aModifiersHelperShipsWithItsBody() {
        let source = """
            import SwiftUI

            struct Flagged: ViewModifier {
                func body(content: Content) -> some View {
                    content.overlay(alignment: .topTrailing) { flag }
                }

                private var flag: some View { Text("!") }
            }

            """
        let shipped = PreparedProject(source)
        let (changes, bodies) = Self.changes(shipped, PreparedProject(source.replacingOccurrences(of: #"Text("!")"#, with: #"Text("New")"#)))
        #expect(bodies == ["App:Flagged.flag": "App:Flagged.body"])
        #expect(changes.first?.status == .patched && changes.first?.detail?.contains("(`view_body__Flagged`)") == true, "\(changes)")
    }

    /// A helper whose body changed too, and does not lower, shares its outcome once the guest says so.
    @Test func aHelperSharesItsBodysGuestOutcome() {
        let location = GuestSourceLocation(file: "Sources/App/View.swift", line: 8)
        let set = ChangeSet(
            baselineFingerprint: "f",
            changes: [DeclarationChange(id: "App:Menu.title", kind: .computedProperty, change: .modified, status: .patched, reason: nil,
                                        detail: "ships inside its view's body patch", location: location)],
            candidates: [], viewCandidates: [GuestViewRequest(declarationID: "App:Menu.body", typeName: "Menu", path: ["Menu"])],
            helperBodies: ["App:Menu.title": "App:Menu.body"], sourceRoots: ["Sources/App"], missingSourceRoots: [], buildSettings: .init())
        let problem = GuestSourceLocation(file: "Sources/App/View.swift", line: 9)
        let folded = set.applying(unpatchable: [GuestUnpatchable(declarationID: "App:Menu.body", reason: .viewNotLowerable,
                                                                detail: "`.antialiased` has no IR case", location: problem)])
        #expect(folded.first?.status == .nativeOnly && folded.first?.reason == "view_not_lowerable")
        #expect(folded.first?.detail == "it ships inside `Menu.body`, which does not lower: `.antialiased` has no IR case")
        #expect(folded.first?.location == location && folded.first?.problemLocation == problem)
    }

    @Test func sceneAndWidgetBodiesHavePreparesReason() throws {
        let source = """
            import SwiftUI
            import WidgetKit

            @main
            struct ShopApp: App {
                var body: some Scene { WindowGroup { Text("Shop") } }
            }

            struct StockWidget: Widget {
                var body: some WidgetConfiguration {
                    StaticConfiguration(kind: "stock", provider: Provider()) { _ in Text("Stock") }
                }
            }

            """
        let shipped = PreparedProject(source)
        #expect(shipped.plan.skipped.map(\.declarationID) == ["App:ShopApp.body", "App:StockWidget.body"])
        let edited = PreparedProject(source.replacingOccurrences(of: #"Text("Shop")"#, with: #"Text("Shop").padding()"#)
            .replacingOccurrences(of: #"Text("Stock")"#, with: #"Text("In stock")"#))
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        #expect(changes.map(\.id) == ["App:ShopApp.body", "App:StockWidget.body"])
        #expect(changes.allSatisfy { $0.status == .nativeOnly && $0.reason == "not_routed" })
        #expect(changes[0].detail?.hasPrefix("prepare does not route it: a Scene body (`some Scene`) is not a view") == true, "\(changes[0])")
        #expect(changes[1].detail?.hasPrefix("prepare does not route it: a widget's `body` (`some WidgetConfiguration`) is not a view") == true, "\(changes[1])")
    }

    @Test func previewCodeIsInformational() throws {
        let source = """
            import SwiftUI

            struct Card: View {
                var body: some View { Text("Card") }
            }

            struct Card_Previews: PreviewProvider {
                static var previews: some View { Card() }
                struct Sample { var count = 1 }
            }

            #Preview { Card() }

            """
        let shipped = PreparedProject(source)
        #expect(shipped.plan.previewTypes == ["App:Card_Previews"])
        let edited = PreparedProject(source.replacingOccurrences(of: "{ Card() }\n    struct", with: "{ Card().padding() }\n    struct")
            .replacingOccurrences(of: "var count = 1", with: "var count = 1; var name = \"\"")
            .replacingOccurrences(of: "#Preview { Card() }", with: "#Preview { Card().frame(width: 200) }"))
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        // `#Preview` is a macro, no declaration of the baseline: it changes nothing.
        #expect(changes.map(\.id) == ["App:Card_Previews.Sample", "App:Card_Previews.previews"])
        #expect(changes.allSatisfy { $0.status == .informational && $0.detail?.hasPrefix("preview code (a `PreviewProvider`)") == true }, "\(changes)")
    }
}
