@testable import PatchBuild
import PatchManifest
import Testing

/// Host reads of Codable values (issue 17, "tokens17"): `store.items`, `store.currentUser`,
/// `passIDs` become string tokens holding the value's JSON, which the guest decodes with the
/// project's generated codecs; the rest of the expression (`?.name`, `.first`, a subscript) runs in
/// the guest on the decoded value (docs/views.md "Tokens and slots").
@Suite struct ViewJSONTokenTests {
    static let models = """
        import Foundation

        struct Item: Codable, Identifiable {
            var id: Int
            var title: String
        }

        struct User: Codable {
            var name: String
            var joined: Date?
        }

        enum Filter: String, Codable { case all, open }

        struct PassIdentifiers: Codable { var ids: [String] = [] }

        struct Profile: Codable {
            var name: String
            var city: String
        }

        /// Not Codable: its reads stay the host's.
        struct Plain { var name: String }

        """
    static let screens = """
        import SwiftUI

        final class Store: ObservableObject {
            @Published var items: [Item] = []
            @Published var currentUser: User? = nil
            @Published var filter: Filter = .all
            @Published var subtitle: String? = nil
            @Published var plain: [Plain] = []
            @Published var profile = Profile(name: "", city: "")
            var title = ""
            func reload() {}
        }

        extension EnvironmentValues {
            var passIDs: PassIdentifiers {
                get { PassIdentifiers() }
                set {}
            }
        }

        struct ItemsScreen: View {
            @ObservedObject var store: Store
            @Environment(\\.passIDs) var passIDs
            var body: some View {
                VStack {
                    if let user = store.currentUser { Text(user.name) }
                    Text(store.items.first?.title ?? "none")
                    ForEach(store.items) { item in Text(item.title) }
                    Text(store.subtitle ?? "")
                    Text(store.title.uppercased())
                    Text(store.filter.rawValue)
                    if store.filter == .open { Text(label(for: passIDs)) }
                }
            }

            func label(for passes: PassIdentifiers) -> String { "\\(passes.ids.count) passes" }
        }

        struct Adder: View {
            @ObservedObject var store: Store
            var body: some View {
                VStack {
                    Text("\\(store.items.count)")
                    Button("Add") { store.items.append(Item(id: 1, title: "x")) }
                    Button("Sign out") { store.currentUser = nil }
                }
            }
        }

        struct ProfileLine: View {
            @ObservedObject var store: Store
            var body: some View {
                Text(store.profile.name + ", " + store.profile.city)
            }
        }

        struct PlainList: View {
            @ObservedObject var store: Store
            var body: some View {
                ForEach(store.plain, id: \\.name) { Text($0.name) }
            }
        }

        struct Catalog: View {
            @ObservedObject var store: Store
            var body: some View {
                VStack {
                    Text("Items")
                    ForEach(store.items) { item in Text(item.title) }
                }
            }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Models.swift", models), ("Sources/App/Screens.swift", screens)])

    static func table(_ name: String) -> Result<ViewTokenTable, ViewTokenProblem> {
        ViewTokenAnalysis(index: index).analyze(type: index.lookupType(path: [name])!)
    }

    @Test func readsOfCodableValuesBecomeJSONTokensAtTheLongestPartThatIsAValue() throws {
        let table = try Self.table("ItemsScreen").get()
        let byExpression = Dictionary(uniqueKeysWithValues: table.tokens.map { ($0.expression, $0) })
        #expect(byExpression.mapValues(\.type) == [
            "store.currentUser": .json, "store.items": .json, "store.subtitle": .json, "store.filter": .json, "passIDs": .json,
            // A String read followed by a call is a string token, the call runs in the guest.
            "store.title": .string,
            // Today's kinds keep their ids: an enum compared with a case is one Bool token.
            "store.filter == .open": .bool,
        ])
        #expect(byExpression.mapValues(\.jsonType) == [
            "store.currentUser": "Optional<User>", "store.items": "[Item]", "store.subtitle": "Optional<String>",
            "store.filter": "Filter", "passIDs": "PassIdentifiers", "store.title": "", "store.filter == .open": "",
        ])
        // `store.items` is read twice (`.first?.title`, `ForEach`): one token.
        #expect(table.uses.filter { $0.token.expression == "store.items" }.count == 2)
        let items = try #require(byExpression["store.items"])
        // A string token (`st_`), the same hash as every token; recorded as `json` in the baseline.
        #expect(items.id == "st_" + SHA256Hasher.hex(of: Array("ItemsScreen\nstore.items".utf8)).prefix(12))
        #expect(items.record == Baseline.Token(id: items.id, kind: .json, expression: "store.items"))
        #expect(items.thunkEntry == "\"\(items.id)\": .string((try? JSONEncoder().encode(store.items)).map { String(decoding: $0, as: UTF8.self) } ?? \"\")")
        #expect(items.guestRead == "_patchJSONToken(\"__strtok_\(items.id)\", as: [Item].self)")
        #expect(table.tokens.allSatisfy { $0.kind != .slot }, "every read is a token: no slot")
    }

    @Test func writesAndTypesThatAreNoCodableValueStayTheHosts() throws {
        let adder = try Self.table("Adder").get()
        // `store.items.count` is a number token; the append and the assignment write the host's model,
        // so their Buttons are slots.
        #expect(adder.tokens.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.number, .slot, .slot])
        #expect(adder.tokens.filter { $0.kind == .slot }.map(\.slotLabel) == ["Button", "Button"])
        let plain = try #require(Self.table("PlainList").failure)
        #expect(plain.detail.contains("`store.plain` is a [Plain] of the host") && plain.detail.contains("Codable"), "\(plain.detail)")
        #expect(plain.location == GuestSourceLocation(file: "Sources/App/Screens.swift", line: 60))
    }

    @Test func buildRewritesTheReadsIntoJSONTokenReadsAndNamesTheirCodecTypes() throws {
        let table = try Self.table("ItemsScreen").get()
        let request = GuestViewRequest(declarationID: "App:ItemsScreen.body", typeName: "ItemsScreen", path: ["ItemsScreen"],
                                       shippedTokens: table.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty)
        #expect(outcome.views.map(\.jsonTokenTypes) == [["Filter", "Optional<String>", "Optional<User>", "PassIdentifiers", "[Item]"]])
        let text = try #require(outcome.index.files.first { $0.relativePath == "Sources/App/Screens.swift" }).tree.description
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == Self.screens.split(separator: "\n", omittingEmptySubsequences: false).count)
        let id = { (expression: String) in table.tokens.first { $0.expression == expression }!.id }
        #expect(text.contains("if let user = _patchJSONToken(\"__strtok_\(id("store.currentUser"))\", as: Optional<User>.self) { Text(user.name) }"))
        #expect(text.contains("Text(_patchJSONToken(\"__strtok_\(id("store.items"))\", as: [Item].self).first?.title ?? \"none\")"))
        #expect(text.contains("ForEach(_patchJSONToken(\"__strtok_\(id("store.items"))\", as: [Item].self)) { item in"))
        #expect(text.contains("Text(_patchStringToken(\"__strtok_\(id("store.title"))\").uppercased())"))
        #expect(text.contains("Text(label(for: _patchJSONToken(\"__strtok_\(id("passIDs"))\", as: PassIdentifiers.self)))"))
        // The view's plan gives every project type in them its codec.
        let lowering = GuestViewLowering(index: outcome.index)
        let plan = try lowering.plan(outcome.views[0]).get()
        #expect(Set(plan.codecTypes.map { outcome.index.types[$0].qualifiedName }) == ["Filter", "Item", "PassIdentifiers", "User"])
    }

    /// The shipped app passes the whole `store.profile` (its body handed it to a child view); a patch
    /// reading `store.profile.name`, a string token the thunk does not pass, reads it from that JSON.
    @Test func aPatchReadsThroughAJSONValueTheShippedThunkPasses() throws {
        let table = try Self.table("ProfileLine").get()
        #expect(Set(table.tokens.map(\.expression)) == ["store.profile.name", "store.profile.city"])
        let profile = ViewToken(viewPath: ["ProfileLine"], type: .json, expression: "store.profile", jsonType: "Profile")
        let request = GuestViewRequest(declarationID: "App:ProfileLine.body", typeName: "ProfileLine", path: ["ProfileLine"], shippedTokens: [profile.record])
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty, "\(outcome.unpatchable)")
        #expect(outcome.views.map(\.jsonTokenTypes) == [["Profile"]])
        let text = try #require(outcome.index.files.first { $0.relativePath == "Sources/App/Screens.swift" }).tree.description
        #expect(text.contains("Text(\(profile.guestRead).name + \", \" + \(profile.guestRead).city)"), "\(text)")
        // Shipped as a plain string token, the read is the token, as before.
        let shipped = table.tokens.map(\.record) + [profile.record]
        let plain = ViewTokenRewrite.apply(to: Self.index, views: [GuestViewRequest(declarationID: "App:ProfileLine.body", typeName: "ProfileLine",
                                                                                    path: ["ProfileLine"], shippedTokens: shipped)])
        #expect(plain.views.map(\.jsonTokenTypes) == [[]])
    }

    /// An app prepared before JSON tokens passes `ForEach(store.items) { … }` as a slot: a patch of
    /// another part of the body still ships, with that slot.
    @Test func aBaselineOfAnEarlierPrepareShipsWithItsSlots() throws {
        let catalog = try #require(Self.index.lookupType(path: ["Catalog"]))
        let earlier = try ViewTokenAnalysis(index: Self.index, passesValues: false).analyze(type: catalog).get()
        #expect(earlier.tokens.map(\.kind) == [.slot])
        #expect(try Self.table("Catalog").get().tokens.map(\.kind) == [.json])
        let request = GuestViewRequest(declarationID: "App:Catalog.body", typeName: "Catalog", path: ["Catalog"], shippedTokens: earlier.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty, "\(outcome.unpatchable)")
        #expect(outcome.views.map(\.jsonTokenTypes) == [[]])
        let text = try #require(outcome.index.files.first { $0.relativePath == "Sources/App/Screens.swift" }).tree.description
        #expect(text.contains("_PatchOpaque(\"\(earlier.tokens[0].id)\", label: \"ForEach\")"), "\(text)")
    }

    @Test func aReadWhoseTypeChangedKindNeedsANewAppBuild() throws {
        let table = try Self.table("ItemsScreen").get()
        // The shipped app passed `store.subtitle` as a plain string (it was a `String` then).
        let shipped = table.tokens.map { token in
            token.expression == "store.subtitle" ? Baseline.Token(id: token.id, kind: .string, expression: token.expression) : token.record
        }
        let request = GuestViewRequest(declarationID: "App:ItemsScreen.body", typeName: "ItemsScreen", path: ["ItemsScreen"], shippedTokens: shipped)
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.map(\.reason) == [.viewNeedsNewHostValue])
        #expect(outcome.unpatchable.first?.detail.contains("reads `store.subtitle`") == true)
    }
}
