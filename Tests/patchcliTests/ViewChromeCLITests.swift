import Foundation
import Testing

/// A list screen written the way apps write one — rows with context menus, a search field, a
/// toolbar of the project's own `ToolbarContent` with a button pushing a destination, an item sheet
/// over a project's `Identifiable` struct with a `Link` and a button role — ships end to end:
/// `build` lowers it with a dispatch export, and `run --view --event` drives each with the value
/// the device's host sends.
@Suite(.serialized) struct ViewChromeCLITests {
    static let screenFile = "Sources/Orders/OrdersScreen.swift"
    static let screen = """
        import SwiftUI

        struct Order: Identifiable, Hashable {
            let id: Int
            var name: String
        }

        struct OrdersScreen: View {
            @State private var orders = [Order(id: 1, name: "Tacos"), Order(id: 2, name: "Tea")]
            @State private var query = ""
            @State private var selected: Order?
            @State private var showStats = false

            private var shown: [Order] {
                orders.filter { query.isEmpty || $0.name.hasPrefix(query) }
            }

            var body: some View {
                NavigationStack {
                    List {
                        ForEach(shown) { order in
                            Text(order.name)
                                .contextMenu {
                                    Button("Open") { selected = order }
                                }
                        }
                    }
                    .navigationTitle("Orders")
                    .searchable(text: $query, prompt: "Find an order")
                    .toolbar { OrdersToolbar(showStats: $showStats) }
                    .navigationDestination(isPresented: $showStats) {
                        Text("\\(orders.count) orders")
                    }
                    .sheet(item: $selected) { order in
                        VStack {
                            Text(order.name).font(.title)
                            Link("Help", destination: URL(string: "https://example.com/help")!)
                            Button("Done", role: .cancel) { selected = nil }
                        }
                    }
                }
            }
        }

        struct OrdersToolbar: ToolbarContent {
            @Binding var showStats: Bool

            var body: some ToolbarContent {
                ToolbarItem(placement: .topBarTrailing) {
                    Button("Stats") { showStats = true }
                }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct OrdersApp: App {
            var body: some Scene {
                WindowGroup { OrdersScreen() }
            }
        }

        """

    @Test func aListWithSearchAToolbarADestinationAndAnItemSheetIsDrivenThroughItsEvents() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Orders")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest.replacingOccurrences(of: "Greeter", with: "Orders"), to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Orders/OrdersApp.swift", in: project)
            try ViewBuildCLITests.write(Self.screen, to: Self.screenFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            try ViewBuildCLITests.edit(project, Self.screenFile, replacing: #".navigationTitle("Orders")"#, with: #".navigationTitle("All orders")"#)

            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let views = try #require(build.result?["views"] as? [[String: Any]], "\(build.stdout)")
            #expect(views.first?["dispatch"] as? String == "dispatch__OrdersScreen", "\(views)")

            // Search for "Ta" (one row left: its Open is action_0, the toolbar's Stats action_1),
            // open the row's sheet, dismiss it as the host does, open it again, close it with its
            // own button (action_2, after the Link), then push the destination.
            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let driven = try CLI.run(["run", module, "--view", "OrdersScreen", "--event", "query=Ta", "--event", "action_0",
                                      "--event", "selected", "--event", "action_0", "--event", "action_2", "--event", "action_1"])
            #expect(driven.status == 0, "\(driven.stdout)\(driven.stderr)")
            let orders = #"{"orders":[{"id":1,"name":"Tacos"},{"id":2,"name":"Tea"}],"query":"Ta","#
            let expected = [
                #"event query (searchable): {"string":{"_0":"Ta"}} -> state \#(orders)"selected":null,"showStats":false}"#,
                #"event action_0 (button): {"none":{}} -> state \#(orders)"selected":{"id":1,"name":"Tacos"},"showStats":false}"#,
                #"event selected (sheetItem): {"bool":{"_0":false}} -> state \#(orders)"selected":null,"showStats":false}"#,
                #"event action_0 (button): {"none":{}} -> state \#(orders)"selected":{"id":1,"name":"Tacos"},"showStats":false}"#,
                #"event action_2 (button): {"none":{}} -> state \#(orders)"selected":null,"showStats":false}"#,
                #"event action_1 (button): {"none":{}} -> state \#(orders)"selected":null,"showStats":true}"#,
            ]
            for line in expected { #expect(driven.stdout.contains(line), "\(driven.stdout)") }
            #expect(driven.stdout.contains("""
                navigationStack
                  list .navigationTitle("All orders") .searchable(searchKey: "query", query: "Ta", prompt: "Find an order", event: #query) .toolbar .navigationDestinationBool(presentedKey: "showStats", isPresented: true, event: #showStats) .sheetItem(itemKey: "selected", itemPresent: false, event: #selected)
                    .toolbar items:
                      - {placement: "topBarTrailing"}
                        content:
                          button(actionID: "action_1")
                            label:
                              text("Stats")
                    .navigationDestinationBool destination:
                      text("2 orders")
                    forEach
                      contextMenu
                        content:
                          text("Tacos")
                        items:
                          button(actionID: "action_0")
                """), "\(driven.stdout)")

            // The sheet presented with the item the inputs give: its content gets the unwrapped item
            // (both rows shown: their Opens and the toolbar's Stats come first).
            let shown = try CLI.run(["run", module, "--view", "OrdersScreen", "--inputs", #"{"selected":{"id":2,"name":"Tea"}}"#])
            #expect(shown.status == 0, "\(shown.stdout)\(shown.stderr)")
            #expect(shown.stdout.contains("""
                    .sheetItem content:
                      vstack
                        text("Tea") .font({style: title})
                        link(destination: "https://example.com/help")
                          label:
                            text("Help")
                        button(actionID: "action_3", role: cancel)
                """), "\(shown.stdout)")
        }
    }
}
