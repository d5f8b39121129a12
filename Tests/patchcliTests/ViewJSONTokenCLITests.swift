import Foundation
import Testing

/// Host values of Codable types reach a lowered view as JSON string tokens (docs/views.md "Tokens
/// and slots"): a view of an observed model holding `[Item]` and `User?` is prepared, its body is
/// changed, `build` ships it, and `run --view` renders it from the tokens the shipped thunk passes —
/// each the JSONEncoder text of the value, as the thunk encodes it (here by the same encoder, on the
/// same declarations).
@Suite(.serialized) struct ViewJSONTokenCLITests {
    static let modelsFile = "Sources/Shop/Models.swift"
    static let models = """
        import Foundation

        struct Item: Codable, Identifiable {
            var id: Int
            var title: String
            var price: Double
        }

        struct User: Codable {
            var name: String
            var joined: Date
        }

        """
    static let storeFile = "Sources/Shop/Store.swift"
    static let store = """
        import SwiftUI

        final class Store: ObservableObject {
            @Published var items: [Item] = []
            @Published var currentUser: User? = nil
        }

        """
    static let screenFile = "Sources/Shop/Basket.swift"
    static let screen = """
        import SwiftUI

        struct Basket: View {
            @ObservedObject var store: Store
            var body: some View {
                VStack {
                    if let user = store.currentUser {
                        Text("Hello \\(user.name)")
                    }
                    ForEach(store.items) { item in
                        Text(item.title)
                    }
                    Text(store.items.first?.title ?? "Empty")
                }
            }
        }

        /// A child view of the project: a patch may hand it the decoded rows.
        struct ItemRow: View {
            let item: Item
            var body: some View {
                Text("\\(item.title): \\(Int(item.price))")
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            var body: some Scene {
                WindowGroup { Basket(store: Store()) }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Shop",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Shop")]
        )

        """

    /// The app's declarations, to encode the token values as the shipped thunk does.
    struct Item: Codable { var id: Int; var title: String; var price: Double }
    struct User: Codable { var name: String; var joined: Date }

    static func write(_ text: String, to path: String, in project: URL) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static func json(_ value: some Encodable) throws -> String { String(decoding: try JSONEncoder().encode(value), as: UTF8.self) }

    /// `{"__strtok_<id>": "<text>", …}`: the reserved input keys the host merges string tokens under (§5.4).
    static func inputs(_ tokens: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: tokens.map { ("__strtok_" + $0.key, $0.value) }),
                                                    options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func aChangedBodyReadingAModelsItemsAndOptionalUserShipsAndRendersFromJSONTokens() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try Self.write(Self.manifest, to: "Package.swift", in: project)
            try Self.write(Self.app, to: "Sources/Shop/ShopApp.swift", in: project)
            try Self.write(Self.models, to: Self.modelsFile, in: project)
            try Self.write(Self.store, to: Self.storeFile, in: project)
            try Self.write(Self.screen, to: Self.screenFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            // The tokens the shipped thunk passes, as the baseline records them.
            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".patch/baseline.json"))) as? [String: Any])
            let declarations = try #require(baseline["declarations"] as? [[String: Any]])
            let tokens = try #require(declarations.first { $0["id"] as? String == "Shop:Basket.body" }?["tokens"] as? [[String: Any]])
            let kinds = Dictionary(uniqueKeysWithValues: tokens.compactMap { token in (token["expression"] as? String).map { ($0, token["kind"] as? String ?? "") } })
            #expect(kinds == ["store.items": "json", "store.currentUser": "json"], "\(tokens)")
            let id = { (expression: String) in tokens.first { $0["expression"] as? String == expression }?["id"] as? String ?? "" }
            let routing = try String(contentsOf: project.appendingPathComponent("Sources/Shop/Patch/PatchThunks-Sources_Shop.generated.swift"), encoding: .utf8)
            #expect(routing.contains("\"\(id("store.items"))\": .string((try? JSONEncoder().encode(store.items))"), "\(routing)")

            // The patch: another greeting, each row drawn by the project's `ItemRow`, the first row's title said differently
            // (reading only the values the shipped thunk passes: `store.items.isEmpty` would be a new one).
            let url = project.appendingPathComponent(Self.screenFile)
            let edited = try String(contentsOf: url, encoding: .utf8)
                .replacingOccurrences(of: #"Text("Hello \(user.name)")"#,
                                      with: #"Text("Welcome back, \(user.name) (since \(Calendar.current.component(.year, from: user.joined)))")"#)
                .replacingOccurrences(of: "Text(item.title)", with: "ItemRow(item: item)")
                .replacingOccurrences(of: #"Text(store.items.first?.title ?? "Empty")"#, with: #"Text(store.items.first.map { "First: \($0.title)" } ?? "Empty")"#)
            try edited.write(to: url, atomically: true, encoding: .utf8)

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            let basket = try #require(changes.first { $0["id"] as? String == "Shop:Basket.body" })
            #expect(basket["status"] as? String == "patched", "\(basket)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let items = [Item(id: 1, title: "Milk", price: 2), Item(id: 2, title: "Bread \"rye\"", price: 3.5)]
            // June 2024, in any time zone.
            let user = User(name: "Ada", joined: Date(timeIntervalSince1970: 1_718_000_000))
            let rendered = try CLI.run(["run", module, "--view", "Basket", "--inputs",
                                        try Self.inputs([id("store.items"): try Self.json(items), id("store.currentUser"): try Self.json(user)])])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            for line in [#"text("Welcome back, Ada (since 2024)")"#, #"text("Milk: 2")"#, #"text("Bread \"rye\": 3")"#, #"text("First: Milk")"#] {
                #expect(rendered.stdout.contains(line), "\(line) in \(rendered.stdout)")
            }
            // No user and no items: `null` and `[]`, as JSONEncoder writes them.
            let signedOut = try CLI.run(["run", module, "--view", "Basket", "--inputs",
                                         try Self.inputs([id("store.items"): "[]", id("store.currentUser"): try Self.json(User?.none)])])
            #expect(signedOut.status == 0, "\(signedOut.stdout)\(signedOut.stderr)")
            #expect(signedOut.stdout.contains(#"text("Empty")"#) && !signedOut.stdout.contains("Welcome"), "\(signedOut.stdout)")
            // A value the thunk could not encode arrives as "": the body traps, which the SDK answers by
            // demoting the view to its native body (sdk-contract §5.2).
            let failed = try CLI.run(["run", module, "--view", "Basket", "--inputs",
                                      try Self.inputs([id("store.items"): "", id("store.currentUser"): "null"])])
            #expect(failed.status != 0, "\(failed.stdout)\(failed.stderr)")
        }
    }
}
