@testable import PatchBuild
import Testing

/// How `build` plans a changed view before compiling it: which properties come from the inputs,
/// which are state, the glue it generates, and what refuses a view with its file:line.
@Suite struct ViewLoweringTests {
    static let source = """
        import SwiftUI

        struct Card: View {
            let title: String
            var subtitle = "Sub"
            var note: String?
            let fixed = 3
            @State private var count = 0
            @Binding var isOn: Bool

            var __patch_native_body: some View {
                Text(title)
            }
        }

        struct Themed: View {
            let title: String
            @Environment(\\.colorScheme) var scheme
            var body: some View { Text(title) }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Card.swift", source)])

    static func request(_ name: String) -> GuestViewRequest {
        GuestViewRequest(declarationID: "App:\(name).body", typeName: name, path: [name])
    }

    @Test func propertiesAreInputsStateOrBindingsAndTheGlueReadsThemSo() throws {
        let lowering = GuestViewLowering(index: Self.index)
        let plan = try lowering.plan(Self.request("Card")).get()
        #expect(plan.inputs.map(\.name) == ["title", "subtitle", "note", "count", "isOn"], "a let with a default is not an input")
        #expect(plan.inputs.map(\.fill) == [.required, .overridesDefault, .overridesDefault, .state, .binding])
        #expect(plan.state == ["count", "isOn"] && plan.isInteractive)
        var writer = GuestSourceWriter()
        lowering.emitGlue(for: plan, into: &writer)
        #expect(writer.text.contains(#"self.title = try inputs.decode("title")"#))
        #expect(writer.text.contains(#"if inputs.hasMember("count") { self._count = State(wrappedValue: try inputs.decode("count")) }"#))
        // State and bindings carry their field's name: the event id of the controls bound to them.
        #expect(writer.text.contains(#"self._count._patchNamed("count")"#))
        #expect(writer.text.contains(#"self._isOn = Binding(_patchValue: try inputs.decode("isOn"), name: "isOn")"#))
        #expect(writer.text.contains(#"writer.append("{\"count\":")"#) && writer.text.contains(#"writer.append(",\"isOn\":")"#))
        #expect(writer.text.contains(#"@_cdecl("view_body__Card")"#) && writer.text.contains(#"@_cdecl("dispatch__Card")"#))
        var manifest = GuestSourceWriter()
        GuestViewLowering.emitManifest(for: [plan], into: &manifest)
        #expect(manifest.text.contains(#"{\"schemaVersion\":6,\"views\":[{\"type\":\"Card\",\"export\":\"view_body__Card\",\"dispatch\":\"dispatch__Card\",\"thunkSafe\":true}]}"#))
    }

    @Test func theRenamedNativeBodyIsTheViewsBodyInTheGuest() throws {
        let card = try #require(Self.index.lookupType(path: ["Card"]))
        #expect(Self.index.types[card].members.contains { $0.names == ["body"] })
        #expect(!Self.index.types[card].members.contains { $0.names == ["__patch_native_body"] })
    }

    @Test func aWrapperTheInputsDoNotCarryRefusesTheViewWhereItIsWritten() {
        guard case .failure(let problem) = GuestViewLowering(index: Self.index).plan(Self.request("Themed")) else {
            Issue.record("@Environment must refuse the view"); return
        }
        #expect(problem.reason == .viewNotLowerable && problem.declarationID == "App:Themed.body")
        #expect(problem.detail.contains("@Environment"))
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Card.swift", line: 18))
        guard case .failure(let missing) = GuestViewLowering(index: Self.index).plan(Self.request("Gone")) else {
            Issue.record("an unknown view must be refused"); return
        }
        #expect(missing.reason == .notFound)
    }
}
