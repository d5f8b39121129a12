import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// Slots (docs/views.md "Tokens and slots"): the leaves of a body the DSL cannot lower (`Map`,
/// `Canvas`, a `UIViewRepresentable` of the project) become `op_…` slots the shipped thunk passes,
/// and `build` puts an opaque node in their place.
@Suite struct ViewSlotTests {
    static let source = """
        import SwiftUI

        final class Model: ObservableObject {
            @Published var title: String = ""
            var region: Int = 0
        }

        struct PinMap: UIViewRepresentable {
            let pin: String
        }

        struct Place: View {
            @ObservedObject var model: Model
            let name: String
            private let zoom = 3

            var body: some View {
                VStack {
                    Text(model.title)
                    PinMap(pin: name)
                        .padding(8)
                    Canvas { context, size in
                        let inset = size
                        context.fill(inset, zoom)
                    }
                    Map(coordinateRegion: $model.region)
                    Text("below")
                }
            }
        }

        struct Pins: View {
            let names: [String]
            var body: some View {
                ForEach(names, id: \\.self) { name in
                    PinMap(pin: name)
                }
            }
        }

        struct Framed: View {
            var body: some View {
                Text("x").background(Map())
            }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Place.swift", source)])

    static func table(_ name: String) -> Result<ViewTokenTable, ViewTokenProblem> {
        ViewTokenAnalysis(index: index).analyze(type: index.lookupType(path: [name])!)
    }

    @Test func nativeOnlyLeavesBecomeSlotsWithContentStableIDs() throws {
        let table = try Self.table("Place").get()
        let slots = table.tokens.filter { $0.kind == .slot }
        #expect(Set(slots.map(\.expression)) == [
            "PinMap(pin: name)",
            "Canvas { context, size in\nlet inset = size\ncontext.fill(inset, zoom)\n}",
            "Map(coordinateRegion: $model.region)",
        ])
        // The host read inside the Map is the slot's (the thunk evaluates it natively): no token for it.
        #expect(table.tokens.filter { $0.kind != .slot }.map(\.expression) == ["model.title"])
        let pin = try #require(slots.first { $0.expression == "PinMap(pin: name)" })
        #expect(pin.id == "op_" + SHA256Hasher.hex(of: Array("Place\nPinMap(pin: name)".utf8)).prefix(12))
        #expect(pin.thunkEntry == "\"\(pin.id)\": { AnyView(PinMap(pin: name)) }")
        #expect(pin.guestRead == "_PatchOpaque(\"\(pin.id)\", label: \"PinMap\")")
        #expect(pin.record == Baseline.Token(id: pin.id, kind: .slot, expression: "PinMap(pin: name)"))
        #expect(table.needsViewFileScope, "the Canvas reads the private `zoom`: the thunk goes in the view's file")
        // Only statements of a view builder are leaves; an argument stays for the DSL to refuse.
        #expect(try Self.table("Framed").get().isEmpty)
    }

    @Test func aLeafReadingAForEachElementCannotBeASlot() throws {
        let problem = try #require(Self.table("Pins").failure)
        #expect(problem.detail.contains("`PinMap(…)` cannot be a slot: it reads `name`, which is not a member of Pins"))
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Place.swift", line: 36))
    }

    @Test func buildPutsTheOpaqueNodeInPlaceKeepingLinesAndModifiers() throws {
        let place = try Self.table("Place").get()
        let request = GuestViewRequest(declarationID: "App:Place.body", typeName: "Place", path: ["Place"], shippedTokens: place.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty)
        let text = outcome.index.files[0].tree.description
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.source.split(separator: "\n", omittingEmptySubsequences: false).count)
        let id = { (label: String) in place.tokens.first { $0.expression.hasPrefix(label) }!.id }
        #expect(lines[19] == "            _PatchOpaque(\"\(id("PinMap"))\", label: \"PinMap\")")
        #expect(lines[20] == "                .padding(8)", "the leaf's modifiers stay on the opaque node")
        #expect(lines[21] == "            _PatchOpaque(\"\(id("Canvas"))\", label: \"Canvas\")")
        #expect(lines[25] == "            _PatchOpaque(\"\(id("Map"))\", label: \"Map\")")
        #expect(lines[26] == "            Text(\"below\")")
    }

    @Test func aLeafTheShippedThunkDoesNotPassNeedsANewAppBuild() throws {
        let place = try Self.table("Place").get()
        let shipped = place.tokens.filter { !$0.expression.hasPrefix("Map") }.map(\.record)
        let request = GuestViewRequest(declarationID: "App:Place.body", typeName: "Place", path: ["Place"], shippedTokens: shipped)
        let problem = try #require(ViewTokenRewrite.apply(to: Self.index, views: [request]).unpatchable.first)
        #expect(problem.reason == .viewNeedsNewHostValue)
        #expect(problem.detail.hasPrefix("uses the native view `Map(coordinateRegion: $model.region)`, a slot the shipped thunk does not pass"))
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Place.swift", line: 26))
    }

    @Test func prepareRecordsTheSlotsAndPassesThemFromTheThunk() throws {
        let project = PreparedProject(Self.source)
        let place = try #require(project.plan.baseline.declarations.first { $0.id == "App:Place.body" })
        #expect(place.tokens == (try Self.table("Place").get().tokens.map(\.record)))
        #expect(try Baseline(json: try JSONValue.parse(project.plan.baselineBytes)) == project.plan.baseline)
        let section = try #require(project.userFile.components(separatedBy: PreparedNames.sectionBegin).last)
        let tokens = try Self.table("Place").get().tokens
        let slots = tokens.filter { $0.kind == .slot }.map(\.thunkEntry).joined(separator: ", ")
        let values = tokens.filter { $0.kind != .slot }.map(\.thunkEntry).joined(separator: ", ")
        #expect(section.contains("Patch.shared.thunkBody(typeName: \"Place\", instance: self, slots: { [\(slots)] }, tokens: { [\(values)] })"))
    }

    /// None of the native-only views is a name of the guest DSL (which would lower it instead).
    @Test func theNativeOnlyViewsAreNotInTheDSL() throws {
        let directory = try GuestTemplates.locate()
        let declarations = try GuestTemplates.viewDSLFiles(in: directory).map {
            try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)
        }.joined()
        for name in ViewTokenAnalysis.nativeOnlyViews {
            #expect(!declarations.contains("struct \(name)") && !declarations.contains("struct \(name)<"), "\(name)")
        }
    }
}
