import Foundation
import Testing

/// Bodies other than `View.body` (issue 17): `init` routes a `ViewModifier`'s `body(content:)`, a
/// changed one is lowered into the module under the modifier's name with its native content as the
/// `op_content` slot, a view using the modifier lowers with the modifier's body in place, and a
/// changed `ToolbarContent` body is listed as not routable.
@Suite(.serialized) struct ModifierBuildCLITests {
    static let cardFile = "Sources/Cards/CardStyle.swift"
    static let card = """
        import SwiftUI

        struct CardStyle: ViewModifier {
            var inset = 8.0

            func body(content: Content) -> some View {
                content
                    .padding(inset)
            }
        }

        struct Shelf: View {
            var body: some View {
                VStack {
                    Text("Shelf")
                        .modifier(CardStyle(inset: 4))
                }
            }
        }

        """
    static let toolbarFile = "Sources/Cards/EditorToolbar.swift"
    static let toolbar = """
        import SwiftUI

        struct EditorToolbar: ToolbarContent {
            var body: some ToolbarContent {
                ToolbarItem { Text("Save") }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct CardsApp: App {
            var body: some Scene {
                WindowGroup { Shelf() }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Cards",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Cards")]
        )

        """

    @Test func aChangedModifierBodyShipsAroundItsNativeContent() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Cards")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Cards/CardsApp.swift", in: project)
            try ViewBuildCLITests.write(Self.card, to: Self.cardFile, in: project)
            try ViewBuildCLITests.write(Self.toolbar, to: Self.toolbarFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.cardFile), encoding: .utf8)
            #expect(prepared.contains("@ViewBuilder @MainActor func __patch_native_body(content: Content) -> some View {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.cardFile, replacing: "            .padding(inset)\n",
                                       with: "            .padding(inset)\n            .background(Color.yellow)\n")
            try ViewBuildCLITests.edit(project, Self.cardFile, replacing: #"Text("Shelf")"#, with: #"Text("My shelf")"#)
            try ViewBuildCLITests.edit(project, Self.toolbarFile, replacing: #"Text("Save")"#, with: #"Text("Done")"#)

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } })
            #expect(byID["Cards:CardStyle.body"]?["status"] as? String == "patched", "\(changes)")
            #expect(byID["Cards:Shelf.body"]?["status"] as? String == "patched", "\(changes)")
            let toolbar = try #require(byID["Cards:EditorToolbar.body"], "\(changes)")
            #expect(toolbar["status"] as? String == "native_only" && toolbar["reason"] as? String == "toolbar_content_not_routable", "\(toolbar)")
            #expect((toolbar["location"] as? [String: Any])?["line"] as? Int == 4, "\(toolbar)")
            let views = try #require(report["views"] as? [[String: Any]])
            #expect(views.map { $0["type"] as? String } == ["CardStyle", "Shelf"])
            #expect(views.first?["export"] as? String == "view_body__CardStyle")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let modifier = try CLI.run(["run", module, "--view", "CardStyle", "--inputs", #"{"inset":6}"#])
            #expect(modifier.status == 0, "\(modifier.stdout)\(modifier.stderr)")
            #expect(modifier.stdout.contains("""
                opaque(id: "op_content", label: "content") .padding({top: 6, leading: 6, bottom: 6, trailing: 6}) .background(named("yellow"))
                """), "\(modifier.stdout)")
            // Applied in a lowered view, the modifier's changed body wraps the view's own content.
            let shelf = try CLI.run(["run", module, "--view", "Shelf"])
            #expect(shelf.status == 0, "\(shelf.stdout)\(shelf.stderr)")
            #expect(shelf.stdout.contains("""
                vstack
                  text("My shelf") .padding({top: 4, leading: 4, bottom: 4, trailing: 4}) .background(named("yellow"))
                """), "\(shelf.stdout)")
        }
    }
}
