import Foundation
import Testing

/// A view whose body reads the host other than through tokens still ships (issue 17): `init`
/// passes the Button that calls `dismiss()` and the `.onAppear` that calls the model as slots;
/// after an edit outside them, `build` lowers the rest of the body, and `run --view` shows the
/// Button's opaque node and the background slot; an edit inside a slot needs a new app build.
@Suite(.serialized) struct ViewStatementSlotsCLITests {
    static let mailFile = "Sources/Greeter/MailScreen.swift"
    static let mail = """
        import SwiftUI

        final class Inbox: ObservableObject {
            @Published var unread = 3
            func refresh() {}
        }

        struct MailScreen: View {
            @Environment(\\.dismiss) private var dismiss
            @ObservedObject var inbox: Inbox
            let title: String

            var body: some View {
                VStack {
                    Text(title)
                    Button("Done") { dismiss() }
                        .padding(8)
                    Text("Unread")
                }
                .onAppear { inbox.refresh() }
            }
        }

        struct Footer: View {
            var body: some View { Text("Footer") }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct GreeterApp: App {
            var body: some Scene {
                WindowGroup { VStack { MailScreen(inbox: Inbox(), title: "Mail"); Footer() } }
            }
        }

        """

    @Test func aViewCallingTheHostShipsWithStatementAndBackgroundSlots() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Greeter/GreeterApp.swift", in: project)
            try ViewBuildCLITests.write(Self.mail, to: Self.mailFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            // The baseline records both slots; the shipped thunk (in the view's file: `dismiss` is private) passes them.
            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".patch/baseline.json"))) as? [String: Any])
            let declarations = try #require(baseline["declarations"] as? [[String: Any]])
            let slots = try #require(declarations.first { $0["id"] as? String == "Greeter:MailScreen.body" }?["tokens"] as? [[String: Any]])
            let byExpression = Dictionary(uniqueKeysWithValues: slots.compactMap { slot in (slot["expression"] as? String).map { ($0, slot) } })
            #expect(Set(byExpression.keys) == [#"Button("Done") { dismiss() }"#, "Color.clear.onAppear { inbox.refresh() }"], "\(slots)")
            #expect(slots.allSatisfy { $0["kind"] as? String == "slot" })
            let button = try #require(byExpression[#"Button("Done") { dismiss() }"#]?["id"] as? String)
            let appear = try #require(byExpression["Color.clear.onAppear { inbox.refresh() }"]?["id"] as? String)
            let source = try String(contentsOf: project.appendingPathComponent(Self.mailFile), encoding: .utf8)
            #expect(source.contains(#""\#(button)": { AnyView(Button("Done") { dismiss() }) }"#), "\(source)")
            #expect(source.contains(#""\#(appear)": { AnyView(Color.clear.onAppear { inbox.refresh() }) }"#), "\(source)")

            try ViewBuildCLITests.edit(project, Self.mailFile, replacing: #"Text("Unread")"#, with: #"Text("Unread mail")"#)
            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            #expect(changes.first { $0["id"] as? String == "Greeter:MailScreen.body" }?["status"] as? String == "patched", "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let rendered = try CLI.run(["run", module, "--view", "MailScreen", "--inputs", #"{"title":"Mail"}"#])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            let lines = rendered.stdout.split(separator: "\n")
            #expect(rendered.stdout.contains(#"text("Mail")"#) && rendered.stdout.contains(#"text("Unread mail")"#), "\(rendered.stdout)")
            let opaque = lines.first { $0.contains("opaque") && $0.contains(button) }
            #expect(opaque?.contains("Button") == true && opaque?.contains(".padding") == true, "\(rendered.stdout)")
            #expect(lines.contains { $0.contains("backgroundContent") } && lines.contains { $0.contains("opaque") && $0.contains(appear) && $0.contains("onAppear") },
                    "\(rendered.stdout)")

            // An edit inside a slot changes native code the shipped thunk holds.
            try ViewBuildCLITests.edit(project, Self.mailFile, replacing: #"Button("Done")"#, with: #"Button("Close")"#)
            try ViewBuildCLITests.edit(project, Self.mailFile, replacing: #"Text("Footer")"#, with: #"Text("Footer, edited")"#)
            let rebuilt = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            let rereport = try #require(rebuilt.result, "\(rebuilt.stdout)\(rebuilt.stderr)")
            let again = try #require(rereport["changes"] as? [[String: Any]])
            let screen = try #require(again.first { $0["id"] as? String == "Greeter:MailScreen.body" })
            #expect(screen["status"] as? String == "native_only" && screen["reason"] as? String == "view_needs_new_host_value", "\(screen)")
            #expect((screen["detail"] as? String)?.contains(#"`Button("Close") { dismiss() }`"#) == true, "\(screen)")
        }
    }
}
