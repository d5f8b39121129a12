import PatchManifest
@testable import PatchBuild
import Testing

/// A view reading Codable values of an observed model: `prepare` finds their types in a file that
/// names no host wrapper (it states `Codable`), records `json` tokens, and the thunk passing them as
/// the JSON text of string tokens compiles against the SDK stand-in (`PatchHostToken.string`, §11).
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ViewJSONTokenCompileTests {
    @Test func thunksPassingCodableValuesAsJSONCompile() throws {
        let models = """
            import Foundation
            struct Item: Codable, Equatable {
                var id: Int
                var title: String
            }
            struct User: Codable {
                var name: String
                var joined: Date?
            }
            """
        let store = """
            import SwiftUI
            @MainActor final class Store: ObservableObject {
                @Published var items: [Item] = []
                @Published var currentUser: User? = nil
                var title = "t"
            }
            """
        let screen = """
            import SwiftUI
            struct Screen: View {
                @ObservedObject var store: Store
                var body: some View {
                    VStack {
                        Text(store.title)
                        if let user = store.currentUser { Text(user.name) }
                        Text(store.items.first?.title ?? "none")
                    }
                }
            }
            """
        let project = PreparedProject(targets: ["App": ["Models.swift": models, "Store.swift": store, "Screen.swift": screen]], appTarget: "App")
        let tokens = try #require(project.plan.baseline.declarations.first { $0.id == "App:Screen.body" }?.tokens)
        #expect(Dictionary(uniqueKeysWithValues: tokens.map { ($0.expression, $0.kind) })
                    == ["store.title": .string, "store.currentUser": .json, "store.items": .json], "\(tokens)")
        let files = project.files.filter { $0.key.hasPrefix("Sources/App/") }
        let thunks = files.values.joined(separator: "\n")
        #expect(thunks.contains("import Foundation"))
        #expect(thunks.contains(".string((try? JSONEncoder().encode(store.items)).map { String(decoding: $0, as: UTF8.self) } ?? \"\")"))
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }
}
