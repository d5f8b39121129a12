import Foundation
import Testing

/// A changed helper of a view (`var header: some View`, `@ViewBuilder func row(_:)`) has no thunk of
/// its own, yet ships inside its view's body patch; a Scene body and preview code are reported for
/// what they are (docs/views.md "Changed helpers", docs/cli.md).
@Suite(.serialized) struct ViewHelperBuildCLITests {
    static let ordersFile = "Sources/Orders/OrdersView.swift"
    static let orders = """
        import SwiftUI

        struct OrdersView: View {
            var body: some View {
                VStack(spacing: 4) {
                    header
                    row("Tea")
                }
            }

            private var header: some View {
                Text("Orders").bold()
            }

            @ViewBuilder
            func row(_ name: String) -> some View {
                Text(name)
            }
        }

        struct OrdersView_Previews: PreviewProvider {
            static var previews: some View {
                OrdersView()
            }
        }

        #Preview {
            OrdersView()
        }

        """
    /// A helper in an extension in another file, which the body reaches through `header` once the
    /// edit makes `header` use it.
    static let footerFile = "Sources/Orders/OrdersView+Footer.swift"
    static let footer = """
        import SwiftUI

        extension OrdersView {
            var footer: some View {
                Text("No more orders")
            }
        }

        """
    /// `pill(_:)` is a helper of `Badges`, whose body does not use it: only `Receipt` calls it.
    /// `BrokenCard.badge` is used by its body, which the edit makes unlowerable.
    static let othersFile = "Sources/Orders/Others.swift"
    static let others = """
        import SwiftUI

        struct Badges: View {
            var body: some View {
                Text("Badges")
            }

            static func pill(_ text: String) -> some View {
                Text(text)
            }
        }

        struct Receipt: View {
            var body: some View {
                Badges.pill("Paid")
            }
        }

        struct BrokenCard: View {
            var body: some View {
                badge
            }

            var badge: some View {
                Text("New")
            }
        }

        """
    static let appFile = "Sources/Orders/OrdersApp.swift"
    static let app = """
        import SwiftUI

        @main
        struct OrdersApp: App {
            var body: some Scene {
                WindowGroup { OrdersView() }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Orders",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Orders")]
        )

        """

    @Test func aChangedHelperShipsWithItsBodyAndSceneAndPreviewChangesSayWhy() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Orders")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: Self.appFile, in: project)
            try ViewBuildCLITests.write(Self.orders, to: Self.ordersFile, in: project)
            try ViewBuildCLITests.write(Self.footer, to: Self.footerFile, in: project)
            try ViewBuildCLITests.write(Self.others, to: Self.othersFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            // Only helpers change: `header` (now using the footer of the other file), `row(_:)` and `footer`.
            try ViewBuildCLITests.edit(project, Self.ordersFile, replacing: #"Text("Orders").bold()"#,
                                       with: #"VStack { Text("Open orders").italic(); footer }"#)
            try ViewBuildCLITests.edit(project, Self.ordersFile, replacing: "        Text(name)\n", with: "        Text(\"• \" + name)\n")
            try ViewBuildCLITests.edit(project, Self.footerFile, replacing: #"Text("No more orders")"#, with: #"Text("That's all")"#)
            try ViewBuildCLITests.edit(project, Self.othersFile, replacing: "        Text(text)\n", with: "        Text(text).bold()\n")
            try ViewBuildCLITests.edit(project, Self.othersFile, replacing: #"Text("New")"#, with: #"Text("New").antialiased(true)"#)
            try ViewBuildCLITests.edit(project, Self.appFile, replacing: "WindowGroup { OrdersView() }", with: "WindowGroup { OrdersView().padding() }")
            try ViewBuildCLITests.edit(project, Self.ordersFile, replacing: "some View {\n        OrdersView()", with: "some View {\n        OrdersView().padding()")
            try ViewBuildCLITests.edit(project, Self.ordersFile, replacing: "#Preview {\n    OrdersView()", with: "#Preview {\n    OrdersView().frame(width: 300)")

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } })
            func expect(_ id: String, _ status: String, reason: String? = nil, detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
                let change = byID[id]
                #expect(change?["status"] as? String == status, "\(id): \(change ?? [:])", sourceLocation: sourceLocation)
                #expect(change?["reason"] as? String == reason, "\(id): \(change ?? [:])", sourceLocation: sourceLocation)
                #expect((change?["detail"] as? String)?.contains(detail) == true, "\(id): \(change ?? [:])", sourceLocation: sourceLocation)
            }
            // The three helpers ship as OrdersView's body patch, though the body itself did not change.
            #expect(byID["Orders:OrdersView.body"] == nil)
            for helper in ["Orders:OrdersView.header", "Orders:OrdersView.row(_:String)", "Orders:OrdersView.footer"] {
                expect(helper, "patched", detail: "ships inside its view's body patch (`view_body__OrdersView`)")
            }
            // Only another view calls `pill`; BrokenCard's body does not lower, with its reason and place.
            expect("Orders:Badges.pill(_:String)", "native_only", reason: "not_routed", detail: "`Badges.body` does not use it")
            expect("Orders:BrokenCard.badge", "native_only", reason: "view_not_lowerable", detail: "it ships inside `BrokenCard.body`, which does not lower")
            let broken = byID["Orders:BrokenCard.badge"]?["problem_location"] as? [String: Any]
            #expect(broken?["file"] as? String == Self.othersFile && broken?["line"] as? Int == 25, "\(byID["Orders:BrokenCard.badge"] ?? [:])")
            expect("Orders:OrdersApp.body", "native_only", reason: "not_routed", detail: "a Scene body (`some Scene`) is not a view")
            expect("Orders:OrdersView_Previews.previews", "informational", detail: "preview code")
            // `#Preview` expands to code no device runs: no change is reported for it.
            #expect(!changes.contains { ($0["id"] as? String)?.contains("Preview") == true && $0["status"] as? String == "native_only" }, "\(changes)")

            let views = try #require(report["views"] as? [[String: Any]])
            #expect(views.map { $0["type"] as? String } == ["OrdersView"], "\(views)")
            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let rendered = try CLI.run(["run", module, "--view", "OrdersView"])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            #expect(rendered.stdout.contains(#"text("Open orders") .italic"#), "\(rendered.stdout)")
            #expect(rendered.stdout.contains(#"text("That's all")"#), "\(rendered.stdout)")
            #expect(rendered.stdout.contains(#"text("• Tea")"#), "\(rendered.stdout)")
        }
    }
}
