@testable import PatchBuild
import PatchManifest
import Testing

/// Host reads of views (`@Environment`, observed models): which become tokens of which kind, with
/// which ids, why the others cannot, and how `build` rewrites a body to read them from the thunk's tokens.
@Suite struct ViewTokenTests {
    static let source = """
        import SwiftUI

        final class Model: ObservableObject {
            @Published var title: String = ""
            @Published var count = 0
            var isOn: Bool = false
            var ratio: Double = 0.5
            var tint: Color = .blue
            var items: [Item] = []
            var detail: Detail = Detail()
            func load() {}
        }

        struct Detail { var subtitle: String = "" }
        struct Item { var name: String }

        struct Screen: View {
            @ObservedObject var model: Model
            @Environment(\\.colorScheme) private var colorScheme
            let caption: String

            var body: some View {
                VStack {
                    Text(model.title)
                    Text("\\(model.count) of \\(model.items.count)")
                    if model.isOn { Text(model.detail.subtitle) }
                    Text(caption).opacity(self.model.ratio)
                }
                .foregroundColor(colorScheme == .dark ? .white : model.tint)
            }
        }

        struct Lister: View {
            @ObservedObject var model: Model
            var body: some View {
                ForEach(model.items) { item in Text(item.name) }
            }
        }

        struct Loader: View {
            @ObservedObject var model: Model
            var body: some View {
                Button("Load") {
                    model.load()
                }
            }
        }

        struct Closer: View {
            @Environment(\\.dismiss) var dismiss
            var body: some View { Text("x") }
        }

        struct Plain: View {
            let title: String
            var body: some View { Text(title) }
        }

        extension EnvironmentValues {
            var isEditing: Bool {
                get { false }
                set {}
            }
        }

        struct Editor: View {
            @Environment(\\.isEditing) var isEditing
            var body: some View { Text(isEditing ? "Done" : "Edit") }
        }

        final class Theme: ObservableObject {
            var titleFont: Font = .title
        }

        struct Titled: View {
            @ObservedObject var theme: Theme
            var body: some View { Text("t").font(theme.titleFont) }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Screen.swift", source)])

    static func table(_ name: String) -> Result<ViewTokenTable, ViewTokenProblem> {
        ViewTokenAnalysis(index: index).analyze(type: index.lookupType(path: [name])!)
    }

    @Test func modelAndEnvironmentReadsBecomeTokensOfTheirDeclaredKinds() throws {
        let table = try Self.table("Screen").get()
        let byExpression = Dictionary(uniqueKeysWithValues: table.tokens.map { ($0.expression, $0) })
        #expect(byExpression.mapValues(\.type) == [
            "model.title": .string, "model.count": .int, "model.items.count": .int, "model.isOn": .bool,
            "model.detail.subtitle": .string, "self.model.ratio": .double, "colorScheme == .dark": .bool, "model.tint": .color,
        ])
        #expect(table.hostProperties.count == 2, "the @ObservedObject and the @Environment declarations")
        for token in table.tokens {
            #expect(token.id.hasPrefix(token.kind.idPrefix) && token.id.count == 3 + 12)
        }
        // Content-stable: a hash of the view type and the expression, nothing else.
        let title = try #require(byExpression["model.title"])
        #expect(title.id == "st_" + SHA256Hasher.hex(of: Array("Screen\nmodel.title".utf8)).prefix(12))
        #expect(ViewToken(viewPath: ["Screen"], type: .string, expression: "model.title") == title)
        #expect(ViewToken(viewPath: ["Other"], type: .string, expression: "model.title").id != title.id)
        #expect(title.thunkEntry == "\"\(title.id)\": .string(model.title)")
        #expect(byExpression["colorScheme == .dark"]?.thunkEntry.hasSuffix(": .number((colorScheme == .dark) ? 1 : 0)") == true)
        #expect(byExpression["model.count"]?.thunkEntry.hasSuffix(": .number(Double(model.count))") == true)
        #expect(byExpression["model.tint"]?.thunkEntry.hasSuffix(": .color(model.tint)") == true)
    }

    @Test func readsThatAreNoValueSayWhatAndWhere() throws {
        #expect(Self.table("Lister").failure?.detail.contains("`model.items` is a [Item] of the host") == true)
        #expect(Self.table("Lister").failure?.location == GuestSourceLocation(file: "Sources/App/Screen.swift", line: 36))
        #expect(Self.table("Loader").failure?.detail.contains("calls `model.load(…)`") == true)
        #expect(Self.table("Loader").failure?.location.line == 44)
        // An environment action is read only in slots (ViewStatementSlotTests); unread, it is just left out of the guest.
        #expect(try Self.table("Closer").get().tokens.isEmpty && Self.table("Closer").get().hostProperties.count == 1)
        #expect(try Self.table("Plain").get().isEmpty)
        // An environment value the app declares is typed from its declaration.
        #expect(try Self.table("Editor").get().tokens.map(\.expression) == ["isEditing"])
        #expect(try Self.table("Editor").get().tokens.map(\.type) == [.bool])
    }

    @Test func buildRewritesTheReadsIntoTokenReadsOnTheSameLines() throws {
        let screen = try Self.table("Screen").get()
        let request = GuestViewRequest(declarationID: "App:Screen.body", typeName: "Screen", path: ["Screen"],
                                       shippedTokens: screen.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty)
        let text = outcome.index.files[0].tree.description
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == Self.source.split(separator: "\n", omittingEmptySubsequences: false).count)
        let id = { (expression: String) in screen.tokens.first { $0.expression == expression }!.id }
        #expect(text.contains("Text(_patchStringToken(\"__strtok_\(id("model.title"))\"))"))
        #expect(text.contains("if (_patchNumberToken(\"__numtok_\(id("model.isOn"))\") != 0) {"))
        #expect(text.contains("Text(\"\\(Int(_patchNumberToken(\"__numtok_\(id("model.count"))\"))) of "))
        #expect(text.contains(".foregroundColor((_patchNumberToken(\"__numtok_\(id("colorScheme == .dark"))\") != 0) ? .white : Color(_patchHostToken: \"\(id("model.tint"))\"))"))
        #expect(!text.contains("@ObservedObject var model: Model\n    @Environment"), "the host properties are blanked")
        let type = try #require(outcome.index.lookupType(path: ["Screen"]))
        #expect(outcome.index.types[type].members.filter { $0.kind == .storedProperty }.flatMap(\.names) == ["caption"])
    }

    @Test func aFontReadBecomesAFontTokenTheGuestWritesAsFontToken() throws {
        let titled = try Self.table("Titled").get()
        let font = try #require(titled.tokens.first)
        #expect(titled.tokens.map(\.type) == [.font] && font.id.hasPrefix("ft_"))
        #expect(font.thunkEntry == "\"\(font.id)\": .font(theme.titleFont)")
        let request = GuestViewRequest(declarationID: "App:Titled.body", typeName: "Titled", path: ["Titled"],
                                       shippedTokens: titled.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty)
        #expect(outcome.index.files[0].tree.description.contains("Text(\"t\").font(Font(_patchHostToken: \"\(font.id)\"))"))
    }

    @Test func aDateReadIsANumberTokenOfSecondsSince1970ReadBackAsADate() throws {
        let source = """
            import SwiftUI

            @Observable final class Trip {
                var departure: Date = Date()
            }

            struct Departure: View {
                var trip: Trip
                var body: some View { Text(trip.departure, style: .time) }
            }

            """
        let index = GuestSourceIndex(sources: [("Sources/App/Departure.swift", source)])
        let table = try ViewTokenAnalysis(index: index).analyze(type: try #require(index.lookupType(path: ["Departure"]))).get()
        let date = try #require(table.tokens.first)
        #expect(table.tokens.map(\.type) == [.date] && date.kind == .number && date.id.hasPrefix("nt_"))
        #expect(date.thunkEntry == "\"\(date.id)\": .number((trip.departure).timeIntervalSince1970)")
        let request = GuestViewRequest(declarationID: "App:Departure.body", typeName: "Departure", path: ["Departure"],
                                       shippedTokens: table.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: index, views: [request])
        #expect(outcome.unpatchable.isEmpty)
        #expect(outcome.index.files[0].tree.description.contains(
            "Text(Date(timeIntervalSince1970: _patchNumberToken(\"__numtok_\(date.id)\")), style: .time)"))
    }

    @Test func aReadTheShippedThunkDoesNotPassNeedsANewAppBuild() throws {
        let screen = try Self.table("Screen").get()
        let shipped = screen.tokens.filter { $0.expression != "model.detail.subtitle" }.map(\.record)
        let request = GuestViewRequest(declarationID: "App:Screen.body", typeName: "Screen", path: ["Screen"], shippedTokens: shipped)
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        let problem = try #require(outcome.unpatchable.first)
        #expect(problem.reason == .viewNeedsNewHostValue && problem.reason.rawValue == "view_needs_new_host_value")
        #expect(problem.detail.contains("reads `model.detail.subtitle`") && problem.detail.contains("ship a new app build"))
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Screen.swift", line: 26))
        #expect(outcome.index.files[0].tree.description == Self.source, "a view that cannot lower is not rewritten")
    }

    @Test func prepareRecordsEachViewsTokensInTheBaselineAndPassesThemFromTheThunk() throws {
        let project = PreparedProject(Self.source)
        let screen = try #require(project.plan.baseline.declarations.first { $0.id == "App:Screen.body" })
        let expected = try Self.table("Screen").get().tokens.map(\.record)
        #expect(screen.tokens == expected)
        #expect(project.plan.baseline.declarations.first { $0.id == "App:Lister.body" }?.tokens == [], "not all reads are tokens: routed without")
        let reread = try Baseline(json: try JSONValue.parse(project.plan.baselineBytes))
        #expect(reread == project.plan.baseline)
        // `colorScheme` is private: the thunk reading it goes in the section appended to the view's file.
        let routing = try #require(project.routingFile)
        #expect(!routing.contains("typeName: \"Screen\""))
        let editor = try #require(try Self.table("Editor").get().tokens.first)
        #expect(routing.contains("import PatchRender") && routing.contains("typeName: \"Editor\", instance: self, tokens: { [\(editor.thunkEntry)] })"))
        #expect(routing.contains("Patch.shared.thunkBody(typeName: \"Plain\", instance: self) {"))
        let section = try #require(project.userFile.components(separatedBy: PreparedNames.sectionBegin).last)
        #expect(section.contains("import PatchRender"))
        let entries = try Self.table("Screen").get().tokens.map(\.thunkEntry).joined(separator: ", ")
        #expect(section.contains("Patch.shared.thunkBody(typeName: \"Screen\", instance: self, tokens: { [\(entries)] })"))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
