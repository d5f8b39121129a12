import Foundation
@testable import PatchBuild
import SwiftParser
import SwiftSyntax
import Testing

/// A stored property without a written type: the type its initial value gives, which prepare's
/// mirrors and the guest's JSON glue both spell (`InitialValueType`).
@Suite struct InitialValueTypeTests {
    private func inferred(_ source: String) -> String? {
        let file = Parser.parse(source: "let x = \(source)")
        let value = file.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value
        return InitialValueType.inferred(value)?.trimmedDescription
    }

    @Test func literalsAndCollectionsOfOneLiteralKind() {
        #expect(inferred("3") == "Int")
        #expect(inferred("-2.5") == "Double")
        #expect(inferred(#""a""#) == "String")
        #expect(inferred("true") == "Bool")
        #expect(inferred(#"["a", "b"]"#) == "[String]")
        #expect(inferred(#"["a": 1, "b": 2]"#) == "[String: Int]")
        // Swift unifies mixed numeric literals to Double, which the kinds alone do not say.
        #expect(inferred("[1, 2.5]") == nil)
        #expect(inferred("[]") == nil)
    }

    @Test func argumentFreeFoundationValuesAndEmptyCollectionsOfAWrittenType() {
        #expect(inferred("UUID()") == "UUID")
        #expect(inferred("Date()") == "Date")
        #expect(inferred("Data()") == "Data")
        #expect(inferred("Date.now") == "Date")
        #expect(inferred("[Item]()") == "[Item]")
        #expect(inferred("[Store.Item]()") == "[Store.Item]")
        #expect(inferred("[String: Int]()") == "[String: Int]")
        #expect(inferred("Set<Int>()") == "Set<Int>")
        #expect(inferred("Dictionary<String, [Int]>()") == "Dictionary<String, [Int]>")
    }

    /// ACHNBrowserUI's `TurnipFields.fields = [String](repeating: "", count: 12)`: no initializer of
    /// a collection is failable, so its arguments never change the type.
    @Test func collectionsOfAWrittenTypeBuiltFromArguments() {
        #expect(inferred(#"[String](repeating: "", count: 12)"#) == "[String]")
        #expect(inferred("[Item](items.filter(\\.isDone))") == "[Item]")
        #expect(inferred("[String: Int](uniqueKeysWithValues: pairs)") == "[String: Int]")
        #expect(inferred("Set<Int>(ids)") == "Set<Int>")
        // Foundation's values only without arguments: `Date(timeIntervalSince1970:)` would be fine,
        // but `UUID(uuidString:)` is failable.
        #expect(inferred(#"UUID(uuidString: "x")"#) == nil)
    }

    @Test func callsWhoseTypeOnlyTheDeclarationsTellAreNotGuessed() {
        // Failable (`UUID(uuidString:)`), or a project type whose initializer may be failable or
        // whose name may be a function's.
        #expect(inferred(#"UUID(uuidString: "x")"#) == nil)
        #expect(inferred("Date(timeIntervalSince1970: 0)") == nil)
        #expect(inferred("Item()") == nil)
        #expect(inferred("makeItem()") == nil)
        #expect(inferred("[makeItem()]") == nil)
    }

}

/// ACHNBrowserUI's `struct Chore { let id = UUID() … }` kept every method that touched one native
/// (`stored property Chore.id needs a type annotation for the generated JSON glue`).
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct InferredStoredPropertyTests {
    static let chore = """
        import Foundation

        struct Chore: Codable {
            let id = UUID()
            var title = ""
            var tags = ["home"]
            var createdAt = Date()
            var doneBy = [String: Bool]()
            var slots = [String](repeating: "", count: 2)
            // @patchable
            func summary() -> String { title + " " + String(tags.count) + " " + String(doneBy.count) + " " + String(slots.count) }
        }
        """

    /// prepare routes the method, its mirror spelling the inferred types, and the routed sources
    /// compile against the SDK stand-in.
    @Test func aReceiverWithInferredStoredPropertiesIsRoutedAndCompiles() throws {
        let project = PreparedProject(targets: ["App": ["Chore.swift": Self.chore]])
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped.map(\.reason))")
        #expect(project.plan.functions.map(\.export) == ["_pf_Chore_summary__"])
        let files = Dictionary(uniqueKeysWithValues: project.files.map { (($0.key as NSString).lastPathComponent, $0.value) })
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// The guest's glue reads the same types: the method builds into a module and runs on the
    /// receiver the thunk sends (the constant `id` is not decoded, as Codable leaves it).
    @Test func theGuestGlueReadsTheInferredTypes() throws {
        let toolchain = try Toolchain.discover()
        let sources = try GuestHarness.temporaryDirectory("inferred-sources")
        try Data(Self.chore.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Chore.swift")))
        let output = try GuestHarness.temporaryDirectory("inferred")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: ["Chore.summary()"], outputDirectory: output, toolchain: toolchain))
        let export = try #require(result.manifest.exports.first?.symbol)
        let input = #"{"self":{"title":"Dishes","tags":["home","kitchen"],"createdAt":0,"doneBy":{"ann":true},"slots":["a","b","c"]}}"#
        #expect(try GuestHarness.call(module: output, [(export, input)]) == [#"{"value":"Dishes 2 1 3"}"#])
    }
}
