@testable import PatchBuild
import PatchManifest
import Testing

/// Golden tests: for each kind of view declaration, the exact user-file edit and generated thunk.
@Suite struct ViewRoutingTests {
    @Test func plainViewRenamesBodyAndAddsViewBuilderAndMainActor() {
        let source = """
            import SwiftUI

            /// Greets.
            struct Greeting: View {
                let name: String

                var body: some View {   // trailing comment kept
                    Text("Hello, \\(name)")
                }
            }

            """
        let project = PreparedProject(source)
        #expect(project.userFile == source.replacingOccurrences(
            of: "    var body: some View {   // trailing", with: "    @ViewBuilder @MainActor var __patch_native_body: some View {   // trailing"))
        #expect(project.routingThunks == expectedViewThunk("Greeting", "Greeting", hashOf: "{\n        Text(\"Hello, \\(name)\")\n    }") + "\n")
        #expect(project.routingFile?.contains("import SwiftUI\n") == true)
        #expect(project.routingFile?.contains("import PatchSwiftUI\n") == true)
        #expect(project.routingFile?.contains("import PatchSDK\n") == true)
        #expect(project.plan.views.map(\.typeName) == ["Greeting"])
        assertParses(project.userFile, "user file")
        assertParses(project.routingFile ?? "", "routing file")
    }

    @Test func nestedTypesUseDottedExtensionAndUnderscoredName() {
        let project = PreparedProject("""
            struct Outer {
                struct Inner: View {
                    var body: some View { Text("inner") }
                }
            }
            extension Outer.Inner {
                struct Deeper: View {
                    var body: some View { Text("deeper") }
                }
            }
            """)
        #expect(project.routingThunks == [
            expectedViewThunk("Outer.Inner", "Outer_Inner", hashOf: "{ Text(\"inner\") }"),
            expectedViewThunk("Outer.Inner.Deeper", "Outer_Inner_Deeper", hashOf: "{ Text(\"deeper\") }"),
        ].joined(separator: "\n\n") + "\n")
        #expect(project.userFile.contains("        @ViewBuilder @MainActor var __patch_native_body: some View { Text(\"inner\") }"))
    }

    @Test func genericViewDropsParametersAndConditionalExtensionKeepsWhereClause() {
        let project = PreparedProject("""
            struct Row<Trailing: View>: View {
                let trailing: Trailing
                var body: some View { trailing }
            }
            struct Box<Value> { let value: Value }
            extension Box: View where Value: View {
                var body: some View { value }
            }
            """)
        let thunks = project.routingThunks
        #expect(thunks.contains("extension Row {\n"))
        #expect(thunks.contains("typeName: \"Row\""))
        #expect(thunks.contains("extension Box where Value: View {\n"))
        #expect(thunks.contains("typeName: \"Box\""))
        assertParses(project.routingFile ?? "", "routing file")
    }

    @Test func ifConfigClausesCarryTheirConditions() {
        let project = PreparedProject("""
            #if os(iOS)
            struct Phone: View {
                var body: some View { Text("phone") }
            }
            #elseif os(macOS)
            struct Desk: View {
                var body: some View { Text("desk") }
            }
            #else
            struct Other: View {
                #if DEBUG
                var body: some View { Text("debug") }
                #else
                var body: some View { Text("release") }
                #endif
            }
            #endif
            """)
        let thunks = project.routingThunks
        #expect(thunks.contains("#if (os(iOS))\nextension Phone {"))
        #expect(thunks.contains("#if !(os(iOS)) && (os(macOS))\nextension Desk {"))
        #expect(thunks.contains("#if !(os(iOS)) && !(os(macOS)) && (DEBUG)\nextension Other {"))
        #expect(thunks.contains("#if !(os(iOS)) && !(os(macOS)) && !(DEBUG)\nextension Other {"))
        #expect(thunks.components(separatedBy: "#endif").count == 5)
        #expect(project.plan.views.count == 4)
        assertParses(project.routingFile ?? "", "routing file")
        assertParses(project.userFile, "user file")
    }

    @Test func aTypeDeclaredInTwoClausesGetsOneThunkPerClause() {
        let project = PreparedProject("""
            #if os(iOS)
            struct Screen: View {
                var body: some View { Text("touch") }
            }
            #else
            struct Screen: View {
                var body: some View { Text("pointer") }
            }
            #endif
            #if DEBUG
            struct Probe {}
            #endif
            #if DEBUG
            extension Probe: View {
                var body: some View { Text("probe") }
            }
            #endif
            """)
        let thunks = project.routingThunks
        #expect(thunks.contains("#if (os(iOS))\nextension Screen {"))
        #expect(thunks.contains("#if !(os(iOS))\nextension Screen {"))
        // The extension's clause and the type's clause are the same condition: written once.
        #expect(thunks.contains("#if (DEBUG)\nextension Probe {"))
        #expect(project.plan.collisions.isEmpty)
        #expect(project.plan.views.count == 3)
    }

    @Test func availabilityIsCarriedFromTypeExtensionAndProperty() {
        let project = PreparedProject("""
            @available(iOS 17, macOS 14, *)
            struct Fresh: View {
                var body: some View { Text("new") }
            }
            struct Later {}
            @available(iOS 18, *)
            extension Later: View {
                var body: some View { Text("later") }
            }
            """)
        let thunks = project.routingThunks
        #expect(thunks.contains("@available(iOS 17, macOS 14, *)\nextension Fresh {"))
        #expect(thunks.contains("@available(iOS 18, *)\nextension Later {"))
    }

    @Test func bodyInExtensionExplicitGetViewBuilderAndMainActor() {
        let source = """
            struct Card {}
            extension Card: View {
                @ViewBuilder var body: some View {
                    get {
                        Text("a")
                        Text("b")
                    }
                }
            }
            struct Badge: SwiftUI.View {
                @MainActor public var body: some View { Text("b") }
            }
            """
        let project = PreparedProject(source)
        // Card has @ViewBuilder: it only gets @MainActor. Badge has @MainActor: it gets @ViewBuilder
        // (before its modifiers).
        #expect(project.userFile == source
            .replacingOccurrences(of: "@ViewBuilder var body", with: "@ViewBuilder @MainActor var __patch_native_body")
            .replacingOccurrences(of: "@MainActor public var body", with: "@MainActor @ViewBuilder public var __patch_native_body"))
        #expect(project.routingThunks.contains(expectedViewThunk("Badge", "Badge", hashOf: "{ Text(\"b\") }", access: "public ")))
        #expect(project.plan.views.map(\.typeName) == ["Badge", "Card"])
    }

    @Test func privateViewsGetTheirThunkInTheSameFile() {
        let source = """
            import SwiftUI

            private struct Secret: View {
                var body: some View { Text("s") }
            }
            fileprivate extension Outer {
                struct Hidden: View { var body: some View { Text("h") } }
            }
            struct Outer {}
            """
        let project = PreparedProject(source)
        #expect(project.routingFile == nil)
        let expectedSection = "\n" + PreparedNames.sectionBegin + "\nimport PatchSDK\nimport PatchSwiftUI\n\n"
            + expectedViewThunk("Secret", "Secret", hashOf: "{ Text(\"s\") }") + "\n\n"
            + expectedViewThunk("Outer.Hidden", "Outer_Hidden", hashOf: "{ Text(\"h\") }") + "\n"
            + PreparedNames.sectionEnd + "\n"
        #expect(project.userFile.hasSuffix(expectedSection))
        assertParses(project.userFile, "user file")
        // The generated section is replaced, not appended again.
        let again = project.rerun(targets: ["App"])
        #expect(again.plan.updates.isEmpty)
    }

    @Test func viewsInSeveralTargetsGetOneRoutingFileEach() {
        let project = PreparedProject(targets: [
            "App": ["Home.swift": "struct Home: View { var body: some View { Text(\"home\") } }"],
            "Feature": ["Panel.swift": "public struct Panel: View { public var body: some View { Text(\"p\") } }"],
        ], appTarget: "App")
        #expect(project.files[Preparer.routingFilePath(sourceRoot: "Sources/App")]?.contains("extension Home {") == true)
        #expect(project.files[Preparer.routingFilePath(sourceRoot: "Sources/Feature")]?.contains("public var body") == true)
        #expect(project.files["Sources/App/Patch/\(Preparer.fingerprintFileName)"]?.contains(project.plan.fingerprint) == true)
        #expect(project.files["Sources/Feature/Patch/\(Preparer.fingerprintFileName)"] == nil)
    }

    @Test func unsupportedBodiesAreSkippedWithReasonsAndLeftUntouched() {
        let source = """
            struct Concrete: View {
                var body: Text { Text("t") }
            }
            struct Stored: View {
                let body = Text("t")
            }
            struct Isolated: View {
                nonisolated var body: some View { Text("n") }
            }
            struct NotAView {
                var body: some View { Text("x") }
            }
            """
        let project = PreparedProject(source)
        #expect(project.userFile == source)
        #expect(project.routingFile == nil)
        #expect(project.plan.skipped.map(\.declaration) == ["Concrete.body", "Isolated.body"])
        #expect(project.plan.skipped.first?.reason.contains("not `some View`") == true)
        #expect(project.plan.skipped.last?.reason.contains("nonisolated") == true)
    }

    @Test func filesThatDoNotParseAreLeftUntouched() {
        let source = "struct Broken: View {\n    var body: some View { Text(\"x\" }\n"
        let project = PreparedProject(source)
        #expect(project.userFile == source)
        #expect(project.plan.skipped.first?.reason.contains("does not parse") == true)
    }

    @Test func collidingNamesAreReportedAndNotRouted() {
        let project = PreparedProject("""
            struct Outer { struct Inner: View { var body: some View { Text("a") } } }
            struct Outer_Inner: View { var body: some View { Text("b") } }
            struct Fine: View { var body: some View { Text("c") } }
            """)
        #expect(project.plan.collisions == [PatchNames.Collision(name: "Outer_Inner", claimants: [
            "Sources/App/View.swift:1: Outer.Inner (target App)", "Sources/App/View.swift:2: Outer_Inner (target App)",
        ])])
        #expect(project.plan.views.map(\.typeName) == ["Fine"])
        #expect(project.plan.skipped.count == 2)
        #expect(!project.userFile.contains("struct Outer_Inner: View { @ViewBuilder"))
    }

    /// An app and two of its packages each declare `Row` (and `Outer.Row`): all are routed, each named
    /// with its target, and `build` derives the same names from the baseline alone.
    @Test func sameNamedViewsOfDifferentTargetsAreQualifiedWithTheirTarget() throws {
        let row = "import SwiftUI\nstruct Row: View { var body: some View { Text(\"row\") } }\nenum Outer { struct Row: View { var body: some View { Text(\"o\") } } }\n"
        let project = PreparedProject(targets: [
            "App": ["Row.swift": row, "Home.swift": "import SwiftUI\nstruct Home: View { var body: some View { Text(\"home\") } }\n"],
            "Kit/UI": ["Row.swift": row],
            "Cards": ["Row.swift": row],
        ], appTarget: "App")
        #expect(project.plan.collisions.isEmpty)
        #expect(project.plan.skipped.isEmpty)
        let names = project.plan.views.map { "\($0.target) \($0.declaredName) \($0.typeName)" }.sorted()
        #expect(names == [
            "App Home Home", "App Outer.Row App_Outer_Row", "App Row App_Row",
            "Cards Outer.Row Cards_Outer_Row", "Cards Row Cards_Row",
            "Kit/UI Outer.Row Kit_u2F_UI_Outer_Row", "Kit/UI Row Kit_u2F_UI_Row",
        ])
        for target in ["App", "Kit/UI", "Cards"] {
            let routing = project.files[Preparer.routingFilePath(sourceRoot: "Sources/\(target)")] ?? ""
            for view in project.plan.views where view.target == target {
                #expect(routing.contains("thunkBody(typeName: \"\(view.typeName)\", instance: self)"), "\(target): \(view.typeName)")
            }
        }
        // `build` names the shipped binary's views from its baseline: the same names.
        let shipped = PatchNames.viewTypeNames(PatchNames.viewClaims(in: project.plan.baseline))
        #expect(shipped.collisions.isEmpty)
        for view in project.plan.views {
            let path = view.declaredName.split(separator: ".").map(String.init)
            #expect(shipped.typeName(of: .init(target: view.target, path: path)) == view.typeName)
        }
    }

    /// Qualifying with the target cannot separate a qualified name from a view that is written that
    /// way: both are reported with where they are, and neither is routed.
    @Test func aQualifiedNameThatMeetsAnotherViewIsACollision() {
        let project = PreparedProject(targets: [
            "App": ["Row.swift": "struct Row: View { var body: some View { Text(\"a\") } }\n",
                    "Odd.swift": "struct Kit_Row: View {\n    var body: some View { Text(\"b\") }\n}\n"],
            "Kit": ["Row.swift": "struct Row: View { var body: some View { Text(\"c\") } }\n"],
        ], appTarget: "App")
        #expect(project.plan.collisions == [PatchNames.Collision(name: "Kit_Row", claimants: [
            "Sources/App/Odd.swift:2: Kit_Row (target App)", "Sources/Kit/Row.swift:1: Row (target Kit)",
        ])])
        #expect(project.plan.views.map(\.typeName) == ["App_Row"])
        #expect(project.plan.skipped.map { "\($0.file):\($0.line)" }.sorted() == ["Sources/App/Odd.swift:2", "Sources/Kit/Row.swift:1"])
        #expect(project.plan.skipped.allSatisfy { $0.reason.contains("\"Kit_Row\" is also claimed by another view") })
    }

    /// `View` through protocols that refine it (in chains, declared in another target, qualified with
    /// its module) and through typealiases: each conforming type's own `body` is routed.
    @Test func viewsThroughRefiningProtocolsAndTypealiasesAreRouted() {
        let ui = """
            import SwiftUI
            public protocol ThemedView: View { var title: String { get } }
            public typealias Screen = SwiftUI.View
            public protocol Titled { var title: String { get } }
            """
        let app = """
            import SwiftUI
            import UI
            protocol BrandedView: ThemedView {}
            typealias Card = Titled & BrandedView
            struct Badge: ThemedView { let title = "b"; var body: some View { Text(title) } }
            struct Banner: BrandedView { let title = "n"; var body: some View { Text(title) } }
            struct Page: Screen { var body: some View { Text("p") } }
            struct Tile: UI.ThemedView { let title = "t"; var body: some View { Text(title) } }
            struct Deck { let title = "d" }
            extension Deck: Card { var body: some View { Text(title) } }
            struct Plain: Titled { let title = "x"; var body: Int { 1 } }
            struct Generic<Content: View>: ThemedView { let title = "g"; let content: Content; var body: some View { content } }
            """
        let project = PreparedProject(targets: ["UI": ["Protocols.swift": ui], "App": ["Views.swift": app]], appTarget: "App")
        #expect(project.plan.views.map(\.declaredName).sorted() == ["Badge", "Banner", "Deck", "Generic", "Page", "Tile"])
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        let views = project.files["Sources/App/Views.swift"] ?? ""
        #expect(views.contains("struct Plain: Titled { let title = \"x\"; var body: Int { 1 } }"))
        #expect(views.components(separatedBy: "@ViewBuilder @MainActor var __patch_native_body").count == 7)
        assertParses(views, "user file")
        // The baseline records them as view bodies; `Plain.body` stays a computed property.
        let kinds = Dictionary(uniqueKeysWithValues: project.plan.baseline.declarations.map { ($0.id, $0.kind) })
        #expect(kinds["App:Banner.body"] == .viewBody && kinds["App:Deck.body"] == .viewBody && kinds["App:Plain.body"] == .computedProperty)
    }

    /// A protocol extension that declares `body` gives it to every conforming type: such a type has
    /// no body of its own to route, and is reported where it is declared; a conforming type that
    /// declares its own `body` is routed.
    @Test func aBodyFromAProtocolExtensionIsReportedNotRouted() {
        let source = """
            import SwiftUI
            protocol PlatformView: View {
                var phoneView: Text { get }
            }
            extension PlatformView {
                var body: some View { phoneView }
            }
            struct Selector: PlatformView {
                var phoneView: Text { Text("s") }
            }
            struct Custom: PlatformView {
                var phoneView: Text { Text("c") }
                var body: some View { phoneView.bold() }
            }
            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.views.map(\.declaredName) == ["Custom"])
        #expect(project.plan.skipped.count == 1)
        let skip = project.plan.skipped.first
        #expect(skip?.declaration == "Selector.body" && skip?.file == "Sources/App/View.swift" && skip?.line == 8)
        #expect(skip?.reason.contains("comes from `extension PlatformView` (Sources/App/View.swift:6)") == true, "\(skip?.reason ?? "")")
        #expect(skip?.reason.contains("no body of its own to route") == true)
        // The protocol extension's `body` is left as written.
        #expect(project.userFile.contains("extension PlatformView {\n    var body: some View { phoneView }"))
    }

    @Test func prepareIsIdempotent() {
        let first = PreparedProject(targets: [
            "App": [
                "A.swift": "struct A: View {\n    var body: some View { Text(\"a\") }\n}\nprivate struct P: View { var body: some View { Text(\"p\") } }\n",
                "Logic.swift": "enum Math {\n    // @patchable\n    static func double(_ x: Int) -> Int { x * 2 }\n}\n",
            ],
        ])
        #expect(!first.plan.updates.isEmpty)
        let second = first.rerun(targets: ["App"])
        #expect(second.plan.updates.isEmpty)
        #expect(second.plan.fingerprint == first.plan.fingerprint)
        #expect(second.plan.views == first.plan.views)
    }

    @Test func aPreparedBodyThatCanNoLongerBeRoutedGetsItsNameBack() {
        // Prepared earlier, but now a second view claims the same name: without the generated `body`
        // the type would not compile, so the rename is undone.
        let project = PreparedProject("""
            struct Outer { struct Inner: View { @ViewBuilder var __patch_native_body: some View { Text("a") } } }
            struct Outer_Inner: View { var body: some View { Text("b") } }
            """)
        #expect(project.userFile.contains("@ViewBuilder var body: some View { Text(\"a\") }"))
        #expect(project.routingFile == nil)
    }
}
