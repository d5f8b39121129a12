@testable import PatchBuild
import PatchManifest
import Testing

/// Bodies other than `View.body`: golden tests of `ViewModifier.body(content:)` routing (the
/// user-file edit, the generated method passing `content` as the `op_content` slot, the baseline
/// record, what is refused), and the bodies that are reported instead of routed (`ToolbarContent`,
/// a `ConnectedView`'s `body(props:)`).
@Suite struct OtherBodiesRoutingTests {
    static let card = """
        import SwiftUI

        struct CardStyle: ViewModifier {
            var radius: Double = 8

            func body(content: Content) -> some View {
                content
                    .padding()
                    .background(Color.white)
            }
        }

        """

    @Test func modifierBodyIsRenamedAndRoutedWithItsContentAsASlot() {
        let project = PreparedProject(Self.card)
        #expect(project.userFile == Self.card.replacingOccurrences(
            of: "    func body(content: Content) -> some View {", with: "    @ViewBuilder @MainActor func __patch_native_body(content: Content) -> some View {"))
        let hash = bodyHash("{\n        content\n            .padding()\n            .background(Color.white)\n    }")
        #expect(project.routingThunks == """
            extension CardStyle {
                // patch-body-sha256: \(hash)
                @ViewBuilder @MainActor func body(content: Content) -> some View {
                    if let __p = Patch.shared.thunkBody(typeName: "CardStyle", instance: self, slots: { ["op_content": { AnyView(content) }] }) {
                        __p
                    } else {
                        __patch_native_body(content: content)
                    }
                }
            }

            """)
        #expect(project.plan.views.map(\.typeName) == ["CardStyle"])
        // Recorded as the modifier's body, so `build` lowers a change of it like a view's.
        let body = project.plan.baseline.declarations.first { $0.id == "App:CardStyle.body" }
        #expect(body?.kind == .viewBody && body?.contentHash == hash)
        #expect(PatchNames.viewClaims(in: project.plan.baseline).map(\.view) == [.init(target: "App", path: ["CardStyle"])])
        assertParses(project.userFile, "user file")
        assertParses(project.routingFile ?? "", "routing file")
    }

    /// The generated method repeats the parameter's own name and written type, and public access.
    @Test func parameterNameTypeAndAccessAreRepeated() {
        let project = PreparedProject("""
            public struct Glow: SwiftUI.ViewModifier {
                public func body(content view: _ViewModifier_Content<Glow>) -> some View { view.opacity(0.5) }
            }
            """)
        #expect(project.routingThunks.contains("@ViewBuilder @MainActor public func body(content view: _ViewModifier_Content<Glow>) -> some View {"))
        #expect(project.routingThunks.contains("slots: { [\"op_content\": { AnyView(view) }] }"))
        #expect(project.routingThunks.contains("__patch_native_body(content: view)"))
    }

    /// Preparing a prepared project changes nothing, and its baseline equals the original's.
    @Test func prepareIsIdempotentAndTheBaselineIgnoresItsEdits() {
        let first = PreparedProject(Self.card)
        let second = first.rerun(targets: ["App"])
        #expect(second.plan.updates.isEmpty)
        #expect(second.plan.fingerprint == first.plan.fingerprint)
        #expect(second.plan.views == first.plan.views)
    }

    /// `--revert` takes out exactly what prepare inserted.
    @Test func unprepareRestoresTheMethod() {
        let project = PreparedProject(Self.card)
        let insertions = PreparedInsertions(viewBuilderOwners: ["CardStyle"], mainActorOwners: ["CardStyle"], dynamicFunctions: [])
        #expect(String(decoding: Unpreparer.unprepare(Array(project.userFile.utf8), insertions: insertions), as: UTF8.self) == Self.card)
    }

    @Test func unroutableShapesAreSkippedWithReasonsAndLeftUntouched() {
        let source = """
            struct Concrete: ViewModifier {
                func body(content: Content) -> Text { Text("t") }
            }
            struct Isolated: ViewModifier {
                nonisolated func body(content: Content) -> some View { content }
            }
            struct Unnamed: ViewModifier {
                func body(content _: Content) -> some View { Text("x") }
            }
            struct NotAModifier {
                func body(content: Int) -> some View { Text("x") }
            }
            """
        let project = PreparedProject(source)
        #expect(project.userFile == source)
        #expect(project.routingFile == nil)
        #expect(project.plan.skipped.map(\.declaration) == ["Concrete.body(content:)", "Isolated.body(content:)", "Unnamed.body(content:)"])
        #expect(project.plan.skipped.map(\.line) == [2, 5, 8])
        #expect(project.plan.skipped[0].reason.contains("not `some View`"))
        #expect(project.plan.skipped[1].reason.contains("nonisolated"))
        #expect(project.plan.skipped[2].reason.contains("does not name its content"))
        // A type that is not a modifier keeps its method as a method in the baseline.
        #expect(project.plan.baseline.declarations.contains { $0.id == "App:NotAModifier.body(content:Int)" && $0.kind == .method })
        #expect(!project.plan.baseline.declarations.contains { $0.id == "App:NotAModifier.body" })
    }

    /// A modifier through a protocol refining `ViewModifier`, and conformance in an extension.
    @Test func modifiersThroughRefiningProtocolsAndExtensionsAreRouted() {
        let project = PreparedProject("""
            protocol Themed: ViewModifier {}
            struct Tinted: Themed {
                func body(content: Content) -> some View { content }
            }
            struct Later {}
            extension Later: ViewModifier {
                func body(content: Content) -> some View { content }
            }
            """)
        #expect(project.plan.views.map(\.typeName) == ["Later", "Tinted"])
    }

    /// A changed `body(content:)` is a view candidate named as the shipped thunk names it.
    @Test func aChangedModifierBodyIsAViewCandidate() throws {
        let shipped = PreparedProject(Self.card)
        let edited = PreparedProject(Self.card.replacingOccurrences(of: ".padding()", with: ".padding(4)"))
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        #expect(changes.map(\.id) == ["App:CardStyle.body"])
        #expect(changes.first?.status == .patched)
        #expect(ChangeDetector.viewCandidates(in: changes, baseline: shipped.plan.baseline)
            == [GuestViewRequest(declarationID: "App:CardStyle.body", typeName: "CardStyle", path: ["CardStyle"])])
    }

    /// A view nested in a `PreviewProvider` runs only in Xcode's canvas: prepare leaves its body as
    /// written (undoing an earlier run's rename) and says why; a change of it is informational.
    @Test func viewsNestedInPreviewProvidersAreNotRouted() throws {
        let previews = """
            struct Card: View {
                var body: some View { Text("card") }
            }
            struct Card_Previews: PreviewProvider {
                struct Preview: View {
                    var body: some View { Card().padding() }
                }
                static var previews: some View { Preview() }
            }
            """
        let shipped = PreparedProject(previews)
        #expect(shipped.plan.views.map(\.typeName) == ["Card"])
        #expect(shipped.userFile == previews.replacingOccurrences(of: "    var body: some View { Text", with: "    @ViewBuilder @MainActor var __patch_native_body: some View { Text"),
                "\(shipped.userFile)")
        // (`previews` itself is a property whose opaque type no thunk can carry.)
        #expect(shipped.plan.skipped.map(\.declaration) == ["Card_Previews.Preview.body", "Card_Previews.previews"])
        #expect(shipped.plan.skipped.first?.reason == Preparer.previewCode + ", so no thunk routes it")
        #expect(shipped.plan.skipped.first?.line == 6)
        let edited = PreparedProject(previews.replacingOccurrences(of: "Card().padding()", with: "Card().padding(8)"))
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        #expect(changes.map(\.id) == ["App:Card_Previews.Preview.body"])
        #expect(changes.allSatisfy { $0.status == .informational && $0.detail == Preparer.previewCode + ", so there is nothing to ship" })
        // A body an earlier prepare routed gets its name back: its thunk is no longer generated.
        let routed = "        @ViewBuilder @MainActor var __patch_native_body: some View { Card().padding() }"
        let routedBefore = PreparedProject(previews.replacingOccurrences(of: "        var body: some View { Card().padding() }", with: routed))
        #expect(routedBefore.userFile == shipped.userFile.replacingOccurrences(
            of: "        var body: some View { Card().padding() }", with: "        @ViewBuilder @MainActor var body: some View { Card().padding() }"), "\(routedBefore.userFile)")
    }

    /// `ToolbarContent` bodies cannot route (the SDK's thunk returns a view): prepare says so, and a
    /// change of one is native-only with `toolbar_content_not_routable`.
    @Test func toolbarContentBodiesAreReportedAndTheirChangesAreNotRoutable() throws {
        let toolbar = """
            struct EditorToolbar: ToolbarContent {
                var body: some ToolbarContent {
                    ToolbarItem { Text("save") }
                }
            }
            struct Items: CustomizableToolbarContent {
                var body: some CustomizableToolbarContent { ToolbarItem(id: "a") { Text("a") } }
            }
            """
        let shipped = PreparedProject(toolbar)
        #expect(shipped.userFile == toolbar && shipped.routingFile == nil)
        #expect(shipped.plan.skipped.map(\.declaration) == ["EditorToolbar.body", "Items.body"])
        #expect(shipped.plan.skipped.map(\.line) == [2, 7])
        #expect(shipped.plan.skipped.allSatisfy { $0.reason == Preparer.toolbarContentReason })
        let edited = PreparedProject(toolbar.replacingOccurrences(of: "Text(\"save\")", with: "Text(\"done\")"))
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        let change = try #require(changes.first)
        #expect(changes.count == 1 && change.id == "App:EditorToolbar.body")
        #expect(change.status == .nativeOnly && change.reason == "toolbar_content_not_routable")
        #expect(change.detail?.contains("PatchedBodyHost") == true)
        #expect(change.location.line == 2)
    }

    /// The Redux-style `ConnectedView` (docs/prepare.md "Bodies that are not routed"): the conformer's
    /// `View.body` comes from the protocol extension, so it is reported there, and its
    /// `body(props:)` is a method no thunk routes; a change of it is native-only.
    @Test func aConnectedViewIsReportedAndItsBodyOfPropsStaysNative() throws {
        let source = """
            protocol ConnectedView: View {
                associatedtype Props
                associatedtype V: View
                func map(state: AppState, dispatch: @escaping (Action) -> Void) -> Props
                func body(props: Props) -> V
            }
            extension ConnectedView {
                var body: StoreConnector<V> { StoreConnector(content: render) }
            }
            struct CounterScreen: ConnectedView {
                struct Props { let count: Int; let increment: () -> Void }
                func map(state: AppState, dispatch: @escaping (Action) -> Void) -> Props {
                    Props(count: state.count, increment: { dispatch(.increment) })
                }
                func body(props: Props) -> some View {
                    Button("\\(props.count)", action: props.increment)
                }
            }
            """
        let shipped = PreparedProject(source)
        #expect(shipped.userFile == source && shipped.routingFile == nil)
        // `routing: all` also reports the instance methods it cannot route.
        #expect(shipped.plan.skipped.map(\.declaration) == ["CounterScreen.body", "CounterScreen.map(state:dispatch:)", "CounterScreen.body(props:)"])
        #expect(shipped.plan.skipped.first?.reason.contains("comes from `extension ConnectedView`") == true)
        let edited = PreparedProject(source.replacingOccurrences(of: #"Button("\(props.count)""#, with: #"Button("Count \(props.count)""#))
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: edited.plan, shippedExports: [])
        #expect(changes.map(\.id) == ["App:CounterScreen.body(props:Props)"])
        #expect(changes.first?.kind == .method && changes.first?.status == .nativeOnly && changes.first?.reason == "not_routed")
        // The hint is the one that helps: not `// @patchable`, which prepare refuses for an instance method.
        let detail = try #require(changes.first?.detail)
        #expect(detail.contains("move the rendering into a view of its own") && !detail.contains("mark it"), "\(detail)")
    }
}
