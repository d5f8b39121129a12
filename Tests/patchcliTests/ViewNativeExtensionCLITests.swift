import Foundation
import Testing

/// A screen calling the app's extensions of SwiftUI types ships (issue 17; ACHNBrowserUI's
/// `.style(appStyle: .barButton)`): `init` passes the Image whose extension is built on
/// `.resizable()` as a slot; after an edit, `build` lowers the body with the Text's extension and
/// its nested enum in the guest, and `run --view` shows the Image's opaque node, with the
/// modifier after the call on it, next to the lowered, styled Text.
@Suite(.serialized) struct ViewNativeExtensionCLITests {
    static let stylesFile = "Sources/Greeter/Styles.swift"
    /// The app's styles, as ViewNativeExtensionTests has them (Tests/PatchBuildTests/Fixtures/NativeExtensions).
    static let styles = try! String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/NativeExtensions/Styles.swift").standardizedFileURL, encoding: .utf8)
    static let toolbarFile = "Sources/Greeter/ToolbarScreen.swift"
    static let toolbar = """
        import SwiftUI

        struct ToolbarScreen: View {
            let title: String
            var body: some View {
                VStack {
                    Text(title).style(appStyle: .title)
                    Image(systemName: "gear")
                        .style(appStyle: .barButton)
                        .foregroundColor(.red)
                }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct GreeterApp: App {
            var body: some Scene {
                WindowGroup { ToolbarScreen(title: "Settings") }
            }
        }

        """

    @Test func aScreenUsingTheAppsImageAndTextExtensionsShipsWithASlot() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Greeter/GreeterApp.swift", in: project)
            try ViewBuildCLITests.write(Self.styles, to: Self.stylesFile, in: project)
            try ViewBuildCLITests.write(Self.toolbar, to: Self.toolbarFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".patch/baseline.json"))) as? [String: Any])
            let declarations = try #require(baseline["declarations"] as? [[String: Any]])
            let tokens = try #require(declarations.first { $0["id"] as? String == "Greeter:ToolbarScreen.body" }?["tokens"] as? [[String: Any]])
            #expect(tokens.map { $0["expression"] as? String } == ["Image(systemName: \"gear\")\n.style(appStyle: .barButton)"], "\(tokens)")
            #expect(tokens.map { $0["kind"] as? String } == ["slot"])
            let slot = try #require(tokens.first?["id"] as? String)

            try ViewBuildCLITests.edit(project, Self.toolbarFile, replacing: "Text(title)", with: "Text(\"\\(title)!\")")
            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            #expect(changes.first { $0["id"] as? String == "Greeter:ToolbarScreen.body" }?["status"] as? String == "patched", "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let rendered = try CLI.run(["run", module, "--view", "ToolbarScreen", "--inputs", #"{"title":"Settings"}"#])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            let lines = rendered.stdout.split(separator: "\n")
            let text = lines.first { $0.contains(#"text("Settings!")"#) }
            #expect(text?.contains(".font") == true && text?.contains("title") == true, "\(rendered.stdout)")
            let opaque = lines.first { $0.contains("opaque") && $0.contains(slot) }
            #expect(opaque?.contains("Image") == true && opaque?.contains(".foregroundColor") == true, "\(rendered.stdout)")
        }
    }
}
