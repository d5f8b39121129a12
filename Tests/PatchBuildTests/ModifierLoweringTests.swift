@testable import PatchBuild
import Testing

/// How `build` plans a changed `ViewModifier.body(content:)`: the modifier's stored properties are
/// its inputs, and its exports evaluate the body around the native content (`_PatchModifierBody`).
@Suite struct ModifierLoweringTests {
    static let source = """
        import SwiftUI

        struct CardStyle: SwiftUI.ViewModifier {
            var inset = 8.0
            @State private var isOn = false

            @ViewBuilder @MainActor func __patch_native_body(content: Content) -> some View {
                content.padding(inset)
            }
        }

        struct Shelf: View {
            var body: some View { Text("a").modifier(CardStyle()) }
        }

        """
    static let index = GuestSourceIndex(sources: [("Sources/App/CardStyle.swift", source)])

    @Test func aModifiersExportsWrapItInTheModifierBody() throws {
        let lowering = GuestViewLowering(index: Self.index)
        let plan = try lowering.plan(GuestViewRequest(declarationID: "App:CardStyle.body", typeName: "CardStyle", path: ["CardStyle"])).get()
        #expect(plan.isModifier)
        #expect(plan.inputs.map(\.name) == ["inset", "isOn"] && plan.isInteractive)
        var writer = GuestSourceWriter()
        lowering.emitGlue(for: plan, into: &writer)
        #expect(writer.text.contains(#"_patchViewBody(input, length) { inputs throws(_PatchDecodeError) in _PatchModifierBody(_modifier: try CardStyle(_patchInputs: inputs)) }"#))
        #expect(writer.text.contains(#"{ body, writer in CardStyle._patchWriteState(body._modifier, into: &writer) })"#))
    }

    /// A view's plan is not a modifier's, and a view using a modifier gets the modifier's body.
    @Test func aViewUsingAModifierCopiesTheModifiersBody() throws {
        let lowering = GuestViewLowering(index: Self.index)
        let plan = try lowering.plan(GuestViewRequest(declarationID: "App:Shelf.body", typeName: "Shelf", path: ["Shelf"])).get()
        #expect(!plan.isModifier)
        let card = try #require(Self.index.lookupType(path: ["CardStyle"]))
        let closure = lowering.closure(of: plan, closureBuilder: GuestDependencyClosure(index: Self.index))
        let body = try #require(Self.index.types[card].members.firstIndex { $0.names == ["body"] })
        #expect(closure.contains(.member(type: card, member: body)))
    }
}
