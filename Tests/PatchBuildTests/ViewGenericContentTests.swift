@testable import PatchBuild
import PatchManifest
import Testing

/// Generic views (docs/views.md "Generic views"): a view generic over the views its parent passes
/// (sample-backyard-birds' `BirdFoodShopShelf<Content: View>`, sample-food-truck's
/// `SegmentedGauge<Label: View>` with `var label: () -> Label`) lowers once, with each such property
/// a slot the shipped thunk passes; a view generic over a value stays native naming the parameter.
@Suite struct ViewGenericContentTests {
    static let source = """
        import SwiftUI

        struct Shelf<Content: View>: View {
            var title: String
            @ViewBuilder var content: Content

            var body: some View {
                VStack {
                    Text(title)
                    content
                        .padding(12)
                }
            }
        }

        struct Header<Label>: View where Label: View {
            var count: Int
            @ViewBuilder var label: () -> Label

            var body: some View {
                VStack {
                    label()
                    Text("\\(count)")
                }
            }
        }

        struct Row<Item: Identifiable>: View {
            var item: Item
            var body: some View { Text("row") }
        }

        struct Lens<Content: View>: View {
            var content: (Int) -> Content
            var body: some View { content(1) }
        }

        struct Box<Value> { let value: Value }
        extension Box: View where Value: View {
            var body: some View { value }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Shelf.swift", source)])

    static func content(_ name: String) -> Result<ViewGenericContent?, ViewTokenProblem> {
        ViewGenericContent.of(index.lookupType(path: [name])!, in: index)
    }

    static func slot(_ view: String, _ expression: String) -> String {
        "op_" + SHA256Hasher.hex(of: Array("\(view)\n\(expression)".utf8)).prefix(12)
    }

    static func request(_ name: String, shipped: [Baseline.Token]) -> GuestViewRequest {
        GuestViewRequest(declarationID: "App:\(name).body", typeName: name, path: [name], shippedTokens: shipped)
    }

    @Test func theViewsTheParentPassesAreSlotsWithContentStableIDs() throws {
        let shelf = try #require(try Self.content("Shelf").get())
        #expect(shelf.parameters == ["Content"])
        let content = try #require(shelf.properties.first)
        #expect(shelf.properties.count == 1 && content.name == "content" && !content.isBuilder)
        #expect(content.slot.id == Self.slot("Shelf", "content"))
        #expect(content.slot.thunkEntry == "\"\(Self.slot("Shelf", "content"))\": { AnyView(content) }")
        #expect(content.slot.record == Baseline.Token(id: Self.slot("Shelf", "content"), kind: .slot, expression: "content"))
        #expect(shelf.instantiated("Shelf") == "Shelf<_PatchOpaque>")
        #expect(shelf.whereClause == "where Content == _PatchOpaque")

        // A `where` clause constrains as well; a view builder is called by the thunk's closure.
        let header = try #require(try Self.content("Header").get())
        let label = try #require(header.properties.first)
        #expect(label.isBuilder && label.slot.expression == "label()" && label.slot.slotLabel == "label")
        #expect(header.guestValue(of: label) == "{ _PatchOpaque(\"\(Self.slot("Header", "label()"))\", label: \"label\") }")

        // A conditional conformance's `where` clause makes the parameter a view as well.
        let box = try #require(try Self.content("Box").get())
        #expect(box.parameters == ["Value"] && box.properties.map(\.slot.expression) == ["value"])
    }

    @Test func aViewGenericOverAValueStaysNativeNamingTheParameter() throws {
        let row = try #require(Self.content("Row").failure)
        #expect(row.detail == "generic parameter `Item: Identifiable` of Row is not a view the parent passes: only generic parameters constrained to `View` alone lower (the host renders what the parent passes as a slot); a view generic over a value stays native")
        #expect(row.location == GuestSourceLocation(file: "Sources/App/Shelf.swift", line: 28))
        let lens = try #require(Self.content("Lens").failure)
        #expect(lens.detail.hasPrefix("stored property `content: (Int) -> Content` holds the generic view `Content` in a shape the guest cannot stand in for"), "\(lens.detail)")
        #expect(lens.location == GuestSourceLocation(file: "Sources/App/Shelf.swift", line: 34))
        // `build` refuses them with that reason.
        let refusal = try #require(GuestViewLowering(index: Self.index).plan(Self.request("Row", shipped: [])).failure)
        #expect(refusal.reason == .viewNotLowerable && refusal.detail == row.detail)
    }

    @Test func theGuestInstantiatesTheViewWithTheSlotsOpaqueNodes() throws {
        let lowering = GuestViewLowering(index: Self.index)
        let shelfSlot = Baseline.Token(id: Self.slot("Shelf", "content"), kind: .slot, expression: "content")
        let shelf = try lowering.plan(Self.request("Shelf", shipped: [shelfSlot])).get()
        #expect(shelf.inputs.map(\.name) == ["title"], "the content is no input")
        var writer = GuestSourceWriter()
        lowering.emitGlue(for: shelf, into: &writer)
        let glue = writer.text
        #expect(glue.contains("extension Shelf where Content == _PatchOpaque {\n    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {"), "\(glue)")
        #expect(glue.contains("        self.content = _PatchOpaque(\"\(shelfSlot.id)\", label: \"content\")\n"), "\(glue)")
        #expect(glue.contains("_patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Shelf<_PatchOpaque>(_patchInputs: inputs) }"), "\(glue)")

        let headerSlot = Baseline.Token(id: Self.slot("Header", "label()"), kind: .slot, expression: "label()")
        let header = try lowering.plan(Self.request("Header", shipped: [headerSlot])).get()
        #expect(header.inputs.map(\.name) == ["count"], "the builder is no closure input")
        writer = GuestSourceWriter()
        lowering.emitGlue(for: header, into: &writer)
        #expect(writer.text.contains("        self.label = { _PatchOpaque(\"\(headerSlot.id)\", label: \"label\") }\n"), "\(writer.text)")
    }

    @Test func aThunkWithoutTheContentSlotNeedsANewAppBuild() throws {
        let problem = try #require(GuestViewLowering(index: Self.index).plan(Self.request("Shelf", shipped: [])).failure)
        #expect(problem.reason == .viewNeedsNewHostValue)
        #expect(problem.detail == "uses `content`, the view the parent passes, as the slot \(Self.slot("Shelf", "content")), which the shipped thunk does not pass (it passes none); ship a new app build to patch this generic view")
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Shelf.swift", line: 5))
    }

    @Test func prepareRecordsTheContentSlotsAndPassesThemFromTheThunk() throws {
        let project = PreparedProject(Self.source)
        let declarations = project.plan.baseline.declarations
        #expect(declarations.first { $0.id == "App:Shelf.body" }?.tokens == [Baseline.Token(id: Self.slot("Shelf", "content"), kind: .slot, expression: "content")])
        #expect(declarations.first { $0.id == "App:Header.body" }?.tokens == [Baseline.Token(id: Self.slot("Header", "label()"), kind: .slot, expression: "label()")])
        #expect(declarations.first { $0.id == "App:Row.body" }?.tokens == [], "a view generic over a value passes nothing")
        let thunks = project.routingThunks
        #expect(thunks.contains("Patch.shared.thunkBody(typeName: \"Shelf\", instance: self, slots: { [\"\(Self.slot("Shelf", "content"))\": { AnyView(content) }] })"), "\(thunks)")
        #expect(thunks.contains("Patch.shared.thunkBody(typeName: \"Header\", instance: self, slots: { [\"\(Self.slot("Header", "label()"))\": { AnyView(label()) }] })"), "\(thunks)")
    }

    @Test func aConditionalConformanceInAnotherFileMakesTheParameterAView() throws {
        let project = PreparedProject(targets: ["App": [
            "Pair.swift": "struct Pair<Value> {\n    let value: Value\n}\n",
            "PairView.swift": "import SwiftUI\n\nextension Pair: View where Value: View {\n    var body: some View { value }\n}\n",
        ]])
        let tokens = project.plan.baseline.declarations.first { $0.id == "App:Pair.body" }?.tokens
        #expect(tokens == [Baseline.Token(id: Self.slot("Pair", "value"), kind: .slot, expression: "value")])
    }
}

/// The thunk of a generic view compiles: an extension of the generic type, whose slots closure
/// wraps the parent's view (`AnyView(content)`, `AnyView(label())`), against the SDK stand-in (§11).
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ViewGenericContentCompileTests {
    @Test func thunksOfGenericViewsCompile() throws {
        let project = PreparedProject(ViewGenericContentTests.source)
        let files = project.files.filter { $0.key.hasPrefix("Sources/App/") }
        #expect(files.values.joined().contains("AnyView(label())"))
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }
}
