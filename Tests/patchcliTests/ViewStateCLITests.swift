import Foundation
import Testing

/// A view's `@State` added or re-initialised ships with its body (docs/views.md "Changing a view's
/// state"), end to end: `init` prepares a package of our own, the view gains state, `build` ships it
/// without `--allow-native-changes`, and `run --view --event` drives the new state as the SDK's host
/// does (inputs = the native props merged with the state the last dispatch returned). A property the
/// parent passes in stays native, named.
@Suite(.serialized) struct ViewStateCLITests {
    static let scoreFile = "Sources/Greeter/Scoreboard.swift"
    static let scoreboard = """
        import SwiftUI

        struct Scoreboard: View {
            let team: String
            @State private var goals = 0
            @State private var fouls = 0

            var body: some View {
                VStack {
                    Text("\\(team): \\(goals)")
                    Button("Goal") { goals += 1 }
                }
            }
        }

        """

    /// Builds and returns the `--json` result, expecting `status`.
    static func build(_ project: URL, expecting status: Int32) throws -> (result: CLIResult, changes: [String: [String: Any]]) {
        let build = try CLI.run(["build", "--project", project.path, "--json"])
        #expect(build.status == status, "\(build.stdout)\(build.stderr)")
        let report = try #require(build.result, "\(build.stdout)")
        let changes = try #require(report["changes"] as? [[String: Any]])
        return (build, Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } }))
    }

    @Test func addedAndReinitialisedStateShipAndAPassedInPropertyStaysNative() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(ViewBuildCLITests.app.replacingOccurrences(of: #"GreetingCard(name: "Ada")"#, with: #"Scoreboard(team: "Ada")"#),
                                        to: "Sources/Greeter/GreeterApp.swift", in: project)
            try ViewBuildCLITests.write(Self.scoreboard, to: Self.scoreFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            // A new counter and the button that increments it: no native counterpart. A removed one
            // the host still passes.
            try ViewBuildCLITests.edit(project, Self.scoreFile, replacing: "    @State private var goals = 0\n    @State private var fouls = 0\n",
                                       with: "    @State private var goals = 0\n    @State private var count = 0\n    @State private var note: String?\n")
            try ViewBuildCLITests.edit(project, Self.scoreFile, replacing: #"Button("Goal") { goals += 1 }"#,
                                       with: #"Button("Goal") { goals += 1 }\#n            Button("Count \(count)") { count += 1 }\#n            Text(note ?? "no note")"#)
            let added = try Self.build(project, expecting: 0)
            let layout = try #require(added.changes["Greeter:Scoreboard"])
            #expect(layout["status"] as? String == "patched", "\(layout)")
            #expect((layout["detail"] as? String)?.contains("`@State count: Int` added: state the guest view holds") == true, "\(layout)")
            #expect((layout["detail"] as? String)?.contains("`@State fouls: Int` removed: the host still passes it") == true, "\(layout)")
            #expect(added.changes["Greeter:Scoreboard.body"]?["status"] as? String == "patched")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            // The host passes the native props (`fouls`, and no `count`: the shipped view has none).
            let counted = try CLI.run(["run", module, "--view", "Scoreboard", "--inputs", #"{"fouls":3,"goals":1,"team":"Ada"}"#,
                                       "--event", "action_1", "--event", "action_1", "--event", "action_0"])
            #expect(counted.status == 0, "\(counted.stdout)\(counted.stderr)")
            #expect(counted.stdout.contains(#"-> state {"count":1,"goals":1"#), "\(counted.stdout)")
            #expect(counted.stdout.contains(#"-> state {"count":2,"goals":2"#), "\(counted.stdout)")
            #expect(counted.stdout.contains(#"text("Ada: 2")"#) && counted.stdout.contains(#"text("Count 2")"#), "\(counted.stdout)")
            // An optional @State without a default starts as nil in the guest, as in SwiftUI.
            #expect(counted.stdout.contains(#"text("no note")"#), "\(counted.stdout)")

            // A new default: the native view still starts `goals` at 0, the guest at 5 until its dispatch returns it.
            try ViewBuildCLITests.edit(project, Self.scoreFile, replacing: "@State private var goals = 0", with: "@State private var goals = 5")
            let reinitialised = try Self.build(project, expecting: 0)
            let state = try #require(reinitialised.changes["Greeter:Scoreboard"])
            #expect(state["status"] as? String == "patched", "\(state)")
            #expect((state["detail"] as? String)?.contains("`@State goals: Int` re-initialised") == true, "\(state)")
            let started = try CLI.run(["run", module, "--view", "Scoreboard", "--inputs", #"{"goals":0,"team":"Ada"}"#])
            #expect(started.status == 0 && started.stdout.contains(#"text("Ada: 5")"#), "\(started.stdout)\(started.stderr)")
            let scored = try CLI.run(["run", module, "--view", "Scoreboard", "--inputs", #"{"goals":0,"team":"Ada"}"#,
                                      "--event", "action_0", "--event", "action_0"])
            #expect(scored.status == 0, "\(scored.stdout)\(scored.stderr)")
            #expect(scored.stdout.contains(#"-> state {"__patch_dispatched":true,"count":0,"goals":6"#), "\(scored.stdout)")
            #expect(scored.stdout.contains(#"-> state {"__patch_dispatched":true,"count":0,"goals":7"#) && scored.stdout.contains(#"text("Ada: 7")"#),
                    "\(scored.stdout)")

            // A property the parent passes in is the native view's layout: named, and the build stops.
            try ViewBuildCLITests.edit(project, Self.scoreFile, replacing: "    let team: String\n", with: "    let team: String\n    let title: String\n")
            let passed = try Self.build(project, expecting: 35)
            let native = try #require(passed.changes["Greeter:Scoreboard"])
            #expect(native["status"] as? String == "native_only" && native["reason"] as? String == "stored_layout_changed", "\(native)")
            #expect((native["detail"] as? String)?.contains("`title: String` added: passed in by the parent (native layout)") == true, "\(native)")
            #expect(passed.result.errorText.contains("Greeter:Scoreboard (stored_layout_changed)"), "\(passed.result.stdout)")
        }
    }
}
