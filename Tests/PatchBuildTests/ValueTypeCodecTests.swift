@testable import PatchBuild
import SwiftParser
import SwiftSyntax
import Testing

/// The value types real views and models hold, as the glue resolves and generates them: sets,
/// characters, dictionaries of any key, nested optionals, the project's type aliases (`Plant.ID`,
/// an `Identifiable` type's `ID`) and, in a view's inputs, the CoreGraphics stand-ins. The compiled
/// round trip of the same types is ValueTypeGuestTests (PatchRuntimeTests).
@Suite struct ValueTypeCodecTests {
    static let source = """
        import SwiftUI

        typealias Score = Int
        typealias Row = (name: String, count: Int)

        enum Tag: String, Hashable { case shade, sun }

        struct Plant: Identifiable, Hashable {
            typealias ID = String
            var id: ID
            var tags: Set<Tag>
            var initial: Character
            var position: CGPoint
            var note: String??
        }

        struct Bed: Identifiable {
            let id: UUID
            var frame: CGRect
            var counts: [Int: String]
            var byTag: [Tag: Score]
            var drift: CGVector
        }

        enum Sparse: Identifiable {
            case one, two
            var id: Self { self }
        }

        struct Picker: View {
            let bed: Bed
            @State private var picked: Set<Plant.ID> = []
            @State private var chosen: Bed.ID?
            @State private var sparse: Sparse.ID = .one
            var size: CGSize = .zero
            var body: some View { Text("x") }
        }

        struct RowView: View {
            let row: Row
            var body: some View { Text(row.name) }
        }

        struct Framed {
            var bounds: CGRect
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Garden.swift", source)])

    func resolved(_ written: String, in scope: [String] = [], viewInputs: Bool = false) -> Result<GuestValueType, GuestSignatureReader.Problem> {
        let reader = GuestSignatureReader(index: Self.index, resolvesViewStandIns: viewInputs)
        var parser = Parser(written)
        return reader.resolve(TypeSyntax.parse(from: &parser), scope: scope)
    }

    func spelled(_ written: String, in scope: [String] = [], viewInputs: Bool = false) -> String? {
        guard case .success(let type) = resolved(written, in: scope, viewInputs: viewInputs) else { return nil }
        return type.spelling(Self.index)
    }

    @Test func setsCharactersDictionariesOfAnyKeyAndNestedOptionalsResolve() {
        #expect(spelled("Set<Tag>") == "Set<Tag>")
        #expect(spelled("Character") == "Character")
        #expect(spelled("[Int: String]") == "[Int: String]")
        #expect(spelled("Dictionary<Tag, [Int]>") == "[Tag: [Int]]")
        #expect(spelled("[Set<Int>: Character?]") == "[Set<Int>: Optional<Character>]")
        #expect(spelled("String??") == "Optional<Optional<String>>")
        #expect(spelled("Optional<Int?>") == "Optional<Optional<Int>>")
        #expect(spelled("(Int)") == "Int", "a parenthesized type is the type")
        #expect(spelled("Range<Int>") == "Range<Int>")
        #expect(spelled("ClosedRange<Date>?", viewInputs: true) == "Optional<ClosedRange<Date>>")
    }

    @Test func theProjectsAliasesResolveAsSwiftLooksThemUp() {
        #expect(spelled("Score") == "Int", "a top-level alias")
        #expect(spelled("Plant.ID") == "String", "an alias the type declares")
        #expect(spelled("ID", in: ["Plant"]) == "String", "the alias from inside the type")
        #expect(spelled("Set<Self.ID>", in: ["Bed"], viewInputs: true) == "Set<UUID>")
        #expect(spelled("Bed.ID", viewInputs: true) == "UUID", "an Identifiable type's ID is the type of its id")
        #expect(spelled("Sparse.ID") == "Sparse", "`var id: Self`")
        #expect(spelled("[Tag: Score]") == "[Tag: Int]")
        guard case .failure(let tuple) = resolved("Row") else { Issue.record("a tuple alias must be refused"); return }
        #expect(tuple.detail.hasPrefix("typealias Row = (name: String, count: Int): tuple type"), "\(tuple.detail)")
        #expect(tuple.detail.contains("declare a struct"), "\(tuple.detail)")
    }

    @Test func coreGraphicsValuesAreViewStandInsAndStayFrameworkTypesForFunctions() {
        for name in ["CGPoint", "CGSize", "CGRect", "CGVector"] {
            #expect(spelled(name, viewInputs: true) == name)
            guard case .failure(let problem) = resolved(name) else { Issue.record("\(name) in a function"); continue }
            #expect(problem.reason == .osFrameworkAPI && problem.detail.contains("CoreGraphics"), "\(problem.detail)")
        }
        #expect(spelled("CGFloat", viewInputs: true) == "Double")
    }

    @Test func theGeneratedCodecsDecodeAndEncodeTheNewShapes() throws {
        let reader = GuestSignatureReader(index: Self.index, resolvesViewStandIns: true)
        let generator = GuestCodecGenerator(index: Self.index, reader: reader, readsViewInputs: true)
        var writer = GuestSourceWriter()
        for name in ["Plant", "Bed"] { generator.emitCodec(for: try #require(Self.index.lookupType(path: [name])), into: &writer) }
        let text = writer.text
        #expect(text.contains(#"self.id = try value.decode("id", as: String.self)"#))
        #expect(text.contains(#"self.tags = try value.decode("tags", as: Set<Tag>.self)"#))
        #expect(text.contains(#"self.initial = try value.decode("initial", as: Character.self)"#))
        #expect(text.contains(#"self.position = try value.decode("position", as: CGPoint.self)"#))
        #expect(text.contains(#"self.note = try value.decode("note", as: Optional<Optional<String>>.self)"#))
        #expect(text.contains(#"self.id = try value.decode("id", as: UUID.self)"#))
        #expect(text.contains(#"self.frame = try value.decode("frame", as: CGRect.self)"#))
        #expect(text.contains(#"self.counts = try value.decode("counts", as: [Int: String].self)"#))
        #expect(text.contains(#"self.byTag = try value.decode("byTag", as: [Tag: Int].self)"#))
        // A nil outer Optional is left out, as JSONEncoder does; an inner nil is written as null.
        #expect(text.contains("if let present = self.note {"))
    }

    @Test func viewInputsOfTheseTypesPlanAndATupleAliasRefusesTheView() throws {
        let lowering = GuestViewLowering(index: Self.index)
        let plan = try lowering.plan(GuestViewRequest(declarationID: "App:Picker.body", typeName: "Picker", path: ["Picker"])).get()
        #expect(plan.inputs.map(\.name) == ["bed", "picked", "chosen", "sparse", "size"])
        #expect(Set(plan.codecTypes.map { Self.index.types[$0].qualifiedName }) == ["Bed", "Tag", "Sparse"])
        guard case .failure(let problem) = lowering.plan(GuestViewRequest(declarationID: "App:RowView.body", typeName: "RowView", path: ["RowView"])) else {
            Issue.record("a tuple alias in the inputs must refuse the view"); return
        }
        #expect(problem.reason == .viewNotLowerable)
        #expect(problem.detail.contains("stored property `row: Row`") && problem.detail.contains("typealias Row = (name: String, count: Int)"), "\(problem.detail)")
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Garden.swift", line: 40))
    }
}
