import Foundation
import Testing

/// A generic view over the view its parent passes ships (issue 17; sample-backyard-birds'
/// `BirdFoodShopShelf<Content: View>`): `init` passes its `content` as a slot; after an edit,
/// `build` lowers the body with `content` the opaque node of that slot, and `run --view` shows it,
/// with the modifiers the body applies to it, next to the edited Text. The public initializer of
/// the constrained extension (sample-food-truck's `DonutBoxView where Content == EmptyView`) comes
/// along in the guest, where `EmptyView` is the DSL's internal type.
@Suite(.serialized) struct ViewGenericContentCLITests {
    static let shelfFile = "Sources/Greeter/Shelf.swift"
    static let shelf = """
        import SwiftUI

        public struct Shelf<Content: View>: View {
            var title: String
            @ViewBuilder var content: Content

            public var body: some View {
                VStack {
                    Text(title)
                    content
                        .padding(12)
                }
            }
        }

        extension Shelf where Content == EmptyView {
            public init(title: String) {
                self.init(title: title) { EmptyView() }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct GreeterApp: App {
            var body: some Scene {
                WindowGroup {
                    Shelf(title: "Seeds") { Text("Sunflower") }
                }
            }
        }

        """

    @Test func aGenericShelfShipsWithItsContentAsASlot() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Greeter/GreeterApp.swift", in: project)
            try ViewBuildCLITests.write(Self.shelf, to: Self.shelfFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".patch/baseline.json"))) as? [String: Any])
            let declarations = try #require(baseline["declarations"] as? [[String: Any]])
            let tokens = try #require(declarations.first { $0["id"] as? String == "Greeter:Shelf.body" }?["tokens"] as? [[String: Any]])
            #expect(tokens.map { $0["expression"] as? String } == ["content"], "\(tokens)")
            #expect(tokens.map { $0["kind"] as? String } == ["slot"])
            let slot = try #require(tokens.first?["id"] as? String)

            try ViewBuildCLITests.edit(project, Self.shelfFile, replacing: "Text(title)", with: "Text(\"\\(title)!\").bold()")
            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            #expect(changes.first { $0["id"] as? String == "Greeter:Shelf.body" }?["status"] as? String == "patched", "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let rendered = try CLI.run(["run", module, "--view", "Shelf", "--inputs", #"{"title":"Seeds"}"#])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            #expect(rendered.stdout.contains(#"text("Seeds!")"#), "\(rendered.stdout)")
            let lines = rendered.stdout.split(separator: "\n")
            let opaque = lines.first { $0.contains("opaque") && $0.contains(slot) }
            #expect(opaque?.contains("content") == true && opaque?.contains(".padding") == true, "\(rendered.stdout)")
        }
    }
}
