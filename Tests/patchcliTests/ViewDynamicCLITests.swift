import Foundation
import Testing

/// A screen of a bound TabView, a GeometryReader, change watchers, a task and an animation ships end
/// to end: `build` lowers it, and `run --view` renders the reader with the host's `__geo_*` inputs
/// under an id made from the project's own file:line (no path of the build machine), and drives the
/// tabs, the task and the text field, whose changes run the `.onChange` actions in the guest. A
/// `.task` that awaits stays native with the reason.
@Suite(.serialized) struct ViewDynamicCLITests {
    static let screenFile = "Sources/Inbox/InboxScreen.swift"
    static let screen = """
        import SwiftUI

        struct InboxScreen: View {
            @State private var tab = 0
            @State private var query = ""
            @State private var log = ""

            var body: some View {
                TabView(selection: $tab) {
                    VStack {
                        TextField("Search", text: $query)
                        Text(log)
                    }
                    .tabItem { Label("Inbox", systemImage: "tray") }
                    .tag(0)
                    GeometryReader { proxy in
                        Text("Width \\(Int(proxy.size.width))")
                    }
                    .tabItem { Label("Stats", systemImage: "chart.bar") }
                    .tag(1)
                }
                .onChange(of: query) { old, new in log = "searched \\(new)" }
                .onChange(of: tab) { log += " tab" }
                .task { log = "loaded" }
                .animation(.easeInOut(duration: 0.2), value: tab)
            }
        }

        """
    static let feedFile = "Sources/Inbox/FeedView.swift"
    static let feed = """
        import SwiftUI

        func reload() async {}

        struct FeedView: View {
            @State private var loaded = false

            var body: some View {
                Text(loaded ? "Loaded" : "Loading")
                    .task {
                        await reload()
                        loaded = true
                    }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct InboxApp: App {
            var body: some Scene {
                WindowGroup { InboxScreen() }
            }
        }

        """

    /// The id ViewDSL+Geometry.swift gives the reader at `line`/`column` of the project's file.
    static func geometryID(file: String, line: Int, column: Int) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in "\(file):\(line):\(column)".utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return "geo_" + String(format: "%08x", hash)
    }

    @Test func aTabbedScreenWithAReaderWatchersAndATaskShipsAndDispatches() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Inbox")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest.replacingOccurrences(of: "Greeter", with: "Inbox"), to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Inbox/InboxApp.swift", in: project)
            try ViewBuildCLITests.write(Self.screen, to: Self.screenFile, in: project)
            try ViewBuildCLITests.write(Self.feed, to: Self.feedFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            try ViewBuildCLITests.edit(project, Self.screenFile, replacing: #"log = "loaded""#, with: #"log = "ready""#)
            try ViewBuildCLITests.edit(project, Self.feedFile, replacing: #""Loading""#, with: #""Loading…""#)

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } })
            #expect(byID["Inbox:InboxScreen.body"]?["status"] as? String == "patched", "\(changes)")
            let feed = try #require(byID["Inbox:FeedView.body"])
            #expect(feed["status"] as? String == "native_only" && feed["reason"] as? String == "view_not_lowerable", "\(feed)")
            #expect((feed["detail"] as? String)?.contains("the guest has no async") == true, "\(feed)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            // The id: the reader's closure brace in the project's file (`#column` of the call's argument).
            let lines = Self.screen.components(separatedBy: "\n")
            let line = try #require(lines.firstIndex { $0.contains("GeometryReader {") })
            let column = lines[line].distance(from: lines[line].startIndex, to: try #require(lines[line].range(of: "GeometryReader {")).upperBound)
            let id = Self.geometryID(file: Self.screenFile, line: line + 1, column: column)
            let measured = try CLI.run(["run", module, "--view", "InboxScreen", "--inputs", #"{"__geo_width":320.5,"__geo_height":600}"#])
            #expect(measured.status == 0, "\(measured.stdout)\(measured.stderr)")
            #expect(measured.stdout.contains(#"geometryReader(id: "\#(id)")"#) && measured.stdout.contains(#"text("Width 320")"#), "\(measured.stdout)")
            #expect(measured.stdout.contains(#"boundTabView(selection: int(0), kind: int, style: automatic, event: #tab)"#), "\(measured.stdout)")

            // action_0/action_1: the watchers' events (passive, §5.6.6), action_2: the task.
            let driven = try CLI.run(["run", module, "--view", "InboxScreen",
                                      "--event", "action_2", "--event", "query=mail", "--event", "query=mail", "--event", "tab=1"])
            #expect(driven.status == 0, "\(driven.stdout)\(driven.stderr)")
            let expected = [
                #"event action_2 (task): {"none":{}} -> state {"log":"ready","query":"","tab":0}"#,
                #"event query (textField): {"string":{"_0":"mail"}} -> state {"log":"searched mail","query":"mail","tab":0}"#,
                // The same value again: no change, no action.
                #"event query (textField): {"string":{"_0":"mail"}} -> state {"log":"searched mail","query":"mail","tab":0}"#,
                #"event tab (boundTabView): {"int":{"_0":1}} -> state {"log":"searched mail tab","query":"mail","tab":1}"#,
            ]
            for line in expected { #expect(driven.stdout.contains(line), "\(driven.stdout)") }
            #expect(driven.stdout.contains(#".onChange(valueKey: "query", #action_0) .onChange(valueKey: "tab", #action_1) .task(#action_2) .animation("#),
                    "\(driven.stdout)")
            #expect(driven.stdout.contains(#"text("Width 0")"#), "no sizes in a dispatch's state: \(driven.stdout)")
        }
    }
}
