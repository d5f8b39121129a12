@testable import PatchBuild
import SwiftSyntax
import Testing

/// What a view's stored properties and iterations need before the guest compiles it: codecs for
/// the project types its inputs carry, @AppStorage as state, closures left to their defaults,
/// key-path identities as closures, and the `#if` branches of a device build.
@Suite struct ViewInputsLoweringTests {
    static let source = """
        import SwiftUI

        struct Bird: Identifiable {
            let id: String
            var name: String
            var seen: Date
            var habitat: Habitat?
        }

        struct Habitat { var names: [String] }

        enum Kind: String { case songbird, raptor }

        enum Filter {
            case all
            case named(label: String)
        }

        final class Store {}

        struct BirdRow: View {
            let bird: Bird
            var kind: Kind = .songbird
            @State private var filter = Filter.all
            @AppStorage("compact") private var compact = false
            var onTap: (() -> Void)? = nil
            var body: some View { Text(bird.name) }
        }

        struct Tapper: View {
            let action: () -> Void
            var body: some View { Text("tap") }
        }

        struct StoreView: View {
            let store: Store
            var body: some View { Text("store") }
        }

        struct Scened: View {
            @SceneStorage("tab") var tab = 0
            var body: some View { Text("scene") }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Birds.swift", source)])

    static func request(_ name: String) -> GuestViewRequest {
        GuestViewRequest(declarationID: "App:\(name).body", typeName: name, path: [name])
    }

    @Test func projectTypesInTheInputsGetCodecsAndAppStorageIsState() throws {
        let lowering = GuestViewLowering(index: Self.index)
        let plan = try lowering.plan(Self.request("BirdRow")).get()
        #expect(plan.inputs.map(\.name) == ["bird", "kind", "filter", "compact"], "the closure keeps its default")
        #expect(plan.inputs.map(\.fill) == [.required, .overridesDefault, .state, .appStorage])
        #expect(plan.state == ["filter", "compact"])
        // Reached through Bird's properties (Habitat) and the property types (Kind, and Filter named
        // by `Filter.all`).
        let names = Set(plan.codecTypes.map { Self.index.types[$0].qualifiedName })
        #expect(names == ["Bird", "Habitat", "Kind", "Filter"])
        var writer = GuestSourceWriter()
        lowering.emitGlue(for: plan, into: &writer)
        #expect(writer.text.contains(#"if inputs.hasMember("compact") { self._compact.wrappedValue = try inputs.decode("compact") }"#))
        #expect(writer.text.contains(#"writer.append("{\"compact\":")"#), "the state keys sorted")

        // One codec per type, reading enums in the inputs' shape too (§5.4) in a module with views.
        var codecs = GuestSourceWriter()
        let generator = GuestCodecGenerator(index: Self.index, reader: lowering.reader, readsViewInputs: true)
        for type in plan.codecTypes.sorted() { generator.emitCodec(for: type, into: &codecs) }
        #expect(codecs.text.contains("self.seen = try value.decode(\"seen\", as: Date.self)"))
        #expect(codecs.text.contains("if let viewCase = try value.viewCaseName() { self = try Self._patchCase(viewCase, payload: value); return }"))
        #expect(codecs.text.contains(#"if _patchBytesEqual(name, "named") { return .named(label: try payload.decode("label", as: String.self)) }"#))
        #expect(codecs.text.contains(#"if _patchBytesEqual(name, "raptor") { return .raptor }"#), "a raw-value enum arrives by case name")
        var functionCodecs = GuestSourceWriter()
        GuestCodecGenerator(index: Self.index, reader: GuestSignatureReader(index: Self.index)).emitCodec(for: plan.codecTypes.first { Self.index.types[$0].name == "Kind" }!, into: &functionCodecs)
        #expect(!functionCodecs.text.contains("viewCaseName"), "function-only modules do without the inputs' enum shape")
    }

    @Test func whatTheInputsCannotCarryRefusesTheViewWhereItIsWritten() throws {
        let lowering = GuestViewLowering(index: Self.index)
        func refusal(_ name: String) throws -> GuestUnpatchable {
            guard case .failure(let problem) = lowering.plan(Self.request(name)) else { throw PlanAccepted(view: name) }
            #expect(problem.reason == .viewNotLowerable)
            return problem
        }
        let tapper = try refusal("Tapper")
        #expect(tapper.detail.contains("closure property `action: () -> Void` has no default"), "\(tapper.detail)")
        #expect(tapper.location == GuestSourceLocation(file: "Sources/App/Birds.swift", line: 31))
        let store = try refusal("StoreView")
        #expect(store.detail.contains("stored property `store: Store`") && store.detail.contains("Store is a class"), "\(store.detail)")
        #expect(store.location == GuestSourceLocation(file: "Sources/App/Birds.swift", line: 19), "the class's declaration")
        let scened = try refusal("Scened")
        #expect(scened.detail.contains("@SceneStorage") && scened.detail.contains("§5.4"), "\(scened.detail)")
        #expect(scened.location == GuestSourceLocation(file: "Sources/App/Birds.swift", line: 41))
    }

    struct PlanAccepted: Error { let view: String }

    @Test func keyPathIdentitiesBecomeClosuresInTheCopyAndLinesStay() throws {
        let source = """
            struct Names: View {
                let names: [String]
                var body: some View {
                    ForEach(names, id: \\.self) { Text($0) }
                    ForEach(items, id: \\Item.id) { Text($0.title) }
                    ForEach(Array(names.enumerated()), id: \\.offset) { Text($0.element) }
                    ForEach(people, id: \\.address?.city) { Text($0.name) }
                    Text(names.map(\\.count).description)
                }
            }
            """
        let index = GuestSourceIndex(sources: [("Sources/App/Names.swift", source)])
        let names = try #require(index.lookupType(path: ["Names"]))
        let body = try #require(index.types[names].members.first { $0.names == ["body"] })
        var writer = GuestSourceWriter()
        writer.keepsViewBuilder = true
        writer.copy(body.decl, from: index.files[body.file])
        #expect(writer.text.contains("ForEach(names, id: { $0 }) { Text($0) }"))
        #expect(writer.text.contains("ForEach(items, id: { $0.id }) { Text($0.title) }"))
        #expect(writer.text.contains("ForEach(Array(names.enumerated()), id: { $0.offset }) { Text($0.element) }"))
        #expect(writer.text.contains("ForEach(people, id: { $0.address?.city }) { Text($0.name) }"))
        #expect(writer.text.contains("Text(names.map({ $0.count }).description)"), "a key path standing for a function too (keyPathFunctions)")
        let bodyLines = body.decl.trimmedDescription.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(writer.lineCount == bodyLines + 2, "the body's own lines between the two #sourceLocation lines")
    }

    @Test func theGuestReadsTheBranchesAnIOSReleaseBuildCompiles() throws {
        let source = """
            import SwiftUI

            #if os(iOS)
            struct Phone: View {
                var body: some View {
                    Text("phone")
                    #if DEBUG
                        .border(Color.red)
                    #endif
                    #if canImport(UIKit)
                    Text("uikit")
                    #elseif canImport(AppKit)
                    Text("appkit")
                    #endif
                }
            }
            #else
            struct Phone: View {
                var body: some View { Text("mac") }
            }
            #endif
            #if os(macOS)
            struct MacOnly: View { var body: some View { Text("mac") } }
            #endif
            """
        let index = GuestSourceIndex(sources: [("Sources/App/Phone.swift", source)])
        #expect(index.lookupType(path: ["MacOnly"]) == nil)
        let phone = try #require(index.lookupType(path: ["Phone"]))
        #expect(index.types.filter { $0.name == "Phone" }.count == 1)
        let body = try #require(index.types[phone].members.first { $0.names == ["body"] })
        let text = body.decl.description
        #expect(text.contains(#"Text("phone")"#) && text.contains(#"Text("uikit")"#))
        #expect(!text.contains("border") && !text.contains("appkit") && !text.contains("#if"), "\(text)")
        // The manifest hashes the body as written, as the baseline does.
        let written = index.files[body.file].asWritten(body.decl).trimmedDescription
        #expect(written.hasPrefix("var body: some View {") && written.contains("#if DEBUG") && written.contains(#"Text("appkit")"#), "\(written)")
        // Blanked, not removed: the body is where the project has it, line and column.
        #expect(index.files[body.file].line(of: body.decl) == 5)
        let uikit = try #require(body.decl.tokens(viewMode: .sourceAccurate).first { $0.text == #""uikit""# || $0.text == "uikit" })
        #expect(uikit.startLocation(converter: index.files[body.file].converter).line == 11)
    }
}
