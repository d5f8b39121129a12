import Foundation
import Testing

/// `patchcli build` ships changed SwiftUI view bodies (issue 17, first slice): a small package of
/// our own is initialized (which prepares it), its views are edited, `build` lowers the bodies
/// onto the guest view DSL, and `run --view` renders and dispatches them as the SDK does.
@Suite(.serialized) struct ViewBuildCLITests {
    static let greetingFile = "Sources/Greeter/GreetingCard.swift"
    static let greeting = """
        import SwiftUI

        struct GreetingCard: View {
            let name: String
            var subtitle = "Welcome back"
            @State private var taps = 0

            var body: some View {
                VStack(alignment: .leading, spacing: 8) {
                    Text("Hello, \\(name)!")
                        .font(.title)
                    Text(subtitle)
                        .foregroundColor(.gray)
                    Button("Tapped \\(taps) times") {
                        taps += 1
                    }
                    TapBadge(count: taps)
                }
                .padding(16)
            }
        }

        /// A child view of the project, private to this file (prepare routes it from a section it
        /// appends here): it is lowered into the parent's tree.
        private struct TapBadge: View {
            let count: Int
            var body: some View {
                Text("\\(count)").bold()
            }
        }

        """
    /// A binding from the parent: its value is an input, and a change goes back as dispatch state.
    static let switchFile = "Sources/Greeter/PowerSwitch.swift"
    static let powerSwitch = """
        import SwiftUI

        struct PowerSwitch: View {
            @Binding var isOn: Bool
            var body: some View {
                Button(isOn ? "On" : "Off") { isOn.toggle() }
            }
        }

        """
    /// Reads the environment and an observed model, which the host does not put in the inputs: the
    /// shipped thunk passes them as tokens (docs/views.md "Tokens and slots").
    static let themedFile = "Sources/Greeter/ThemedBadge.swift"
    static let themed = """
        import SwiftUI

        final class Profile: ObservableObject {
            @Published var name = "Ada"
            @Published var bio = ""
            @Published var joined = Date(timeIntervalSince1970: 1_718_000_000)
        }

        struct ThemedBadge: View {
            @Environment(\\.colorScheme) private var colorScheme
            @ObservedObject var profile: Profile
            var body: some View {
                VStack {
                    Text(profile.name)
                        .foregroundColor(colorScheme == .dark ? .white : .black)
                    Text("since \\(Calendar.current.component(.year, from: profile.joined))")
                }
            }
        }

        struct ProfileCard: View {
            @ObservedObject var profile: Profile
            var body: some View {
                Text(profile.name)
            }
        }

        """
    /// Uses a modifier the DSL does not have (`.antialiased(_:)`; the IR's no-case modifiers such as
    /// `.resizable()` are slots, ViewStatementSlotTests), beside a List that lowers.
    static let listFile = "Sources/Greeter/NamesList.swift"
    static let list = """
        import SwiftUI

        struct NamesList: View {
            var names: [String] = []
            var body: some View {
                VStack {
                    Text("Names")
                    Image("header").antialiased(true)
                    List(names) { name in Text(name) }
                }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct GreeterApp: App {
            var body: some Scene {
                WindowGroup { GreetingCard(name: "Ada") }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Greeter",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Greeter")]
        )

        """

    static func write(_ text: String, to path: String, in project: URL) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static func edit(_ project: URL, _ path: String, replacing old: String, with new: String) throws {
        let url = project.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(old) else { throw BuildTestFailure(description: "\(path) does not contain \(old)") }
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func aChangedTextAndPaddingShipAndRenderWithTheirButton() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try Self.write(Self.manifest, to: "Package.swift", in: project)
            try Self.write(Self.app, to: "Sources/Greeter/GreeterApp.swift", in: project)
            try Self.write(Self.greeting, to: Self.greetingFile, in: project)
            try Self.write(Self.themed, to: Self.themedFile, in: project)
            try Self.write(Self.powerSwitch, to: Self.switchFile, in: project)
            try Self.write(Self.list, to: Self.listFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            try Self.edit(project, Self.greetingFile, replacing: #"Text("Hello, \(name)!")"#, with: #"Text("Hi there, \(name)!")"#)
            try Self.edit(project, Self.greetingFile, replacing: ".padding(16)", with: ".padding(24)")
            try Self.edit(project, Self.themedFile, replacing: "    .foregroundColor(colorScheme == .dark ? .white : .black)",
                          with: "    .foregroundColor(colorScheme == .dark ? .white : .black)\n                .bold()")
            // A read the shipped thunk does not pass.
            try Self.edit(project, Self.themedFile, replacing: "        Text(profile.name)\n    }\n}", with: "        Text(profile.bio)\n    }\n}")
            try Self.edit(project, Self.switchFile, replacing: #"isOn ? "On" : "Off""#, with: #"isOn ? "Power on" : "Power off""#)
            try Self.edit(project, Self.listFile, replacing: #"Text("Names")"#, with: #"Text("All names")"#)

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } })
            #expect(byID["Greeter:GreetingCard.body"]?["status"] as? String == "patched")
            // Host reads the shipped thunk passes lower; a new one needs a new app build.
            #expect(byID["Greeter:ThemedBadge.body"]?["status"] as? String == "patched")
            let card = try #require(byID["Greeter:ProfileCard.body"])
            #expect(card["status"] as? String == "native_only" && card["reason"] as? String == "view_needs_new_host_value", "\(card)")
            #expect((card["detail"] as? String)?.contains("reads `profile.bio`") == true, "\(card)")
            let cardLocation = card["problem_location"] as? [String: Any] ?? card["location"] as? [String: Any]
            #expect(cardLocation?["file"] as? String == Self.themedFile && cardLocation?["line"] as? Int == 25, "\(card)")
            // What stops a view is named with its file:line.
            let listed = try #require(byID["Greeter:NamesList.body"])
            #expect(listed["status"] as? String == "native_only" && listed["reason"] as? String == "view_not_lowerable")
            #expect((listed["detail"] as? String)?.contains("antialiased") == true, "\(listed)")
            let problem = listed["problem_location"] as? [String: Any] ?? listed["location"] as? [String: Any]
            #expect(problem?["file"] as? String == Self.listFile && problem?["line"] as? Int == 8, "\(listed)")
            let views = try #require(report["views"] as? [[String: Any]])
            #expect(views.map { $0["type"] as? String } == ["GreetingCard", "PowerSwitch", "ThemedBadge"])
            #expect(views.first?["export"] as? String == "view_body__GreetingCard" && views.first?["dispatch"] as? String == "dispatch__GreetingCard")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let rendered = try CLI.run(["run", module, "--view", "GreetingCard", "--inputs", #"{"name":"Ada"}"#])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            #expect(rendered.stdout.contains("""
                vstack(alignment: leading, spacing: 8) .padding({top: 24, leading: 24, bottom: 24, trailing: 24})
                  text("Hi there, Ada!") .font({style: title})
                  text("Welcome back") .foregroundColor(named("gray"))
                  button(actionID: "action_0")
                    label:
                      text("Tapped 0 times")
                  text("0") .bold
                """), "\(rendered.stdout)")
            let tapped = try CLI.run(["run", module, "--view", "GreetingCard", "--inputs", #"{"name":"Ada","subtitle":"Hi"}"#,
                                      "--event", "action_0", "--event", "action_0"])
            #expect(tapped.status == 0, "\(tapped.stdout)\(tapped.stderr)")
            #expect(tapped.stdout.contains(#"-> state {"taps":2}"#), "\(tapped.stdout)")
            #expect(tapped.stdout.contains(#"text("Tapped 2 times")"#) && tapped.stdout.contains(#"text("Hi")"#), "\(tapped.stdout)")
            #expect(tapped.stdout.contains(#"text("2") .bold"#), "\(tapped.stdout)")
            let switched = try CLI.run(["run", module, "--view", "PowerSwitch", "--inputs", #"{"isOn":false}"#, "--event", "action_0"])
            #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
            #expect(switched.stdout.contains(#"-> state {"isOn":true}"#) && switched.stdout.contains(#"text("Power on")"#), "\(switched.stdout)")
            // The tokens the shipped thunk passes for ThemedBadge, as the baseline records them.
            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".patch/baseline.json"))) as? [String: Any])
            let declarations = try #require(baseline["declarations"] as? [[String: Any]])
            let tokens = try #require(declarations.first { $0["id"] as? String == "Greeter:ThemedBadge.body" }?["tokens"] as? [[String: Any]])
            let tokenID = { (expression: String) in tokens.first { $0["expression"] as? String == expression }?["id"] as? String ?? "" }
            #expect(tokenID("profile.name").hasPrefix("st_") && tokenID("colorScheme == .dark").hasPrefix("nt_"), "\(tokens)")
            // A Date read is a number token of seconds since 1970 (June 2024: the year in any time zone).
            #expect(tokenID("profile.joined").hasPrefix("nt_"), "\(tokens)")
            let badge = try CLI.run(["run", module, "--view", "ThemedBadge", "--inputs",
                                     #"{"__numtok_\#(tokenID("colorScheme == .dark"))":1,"__strtok_\#(tokenID("profile.name"))":"Grace","__numtok_\#(tokenID("profile.joined"))":1718000000}"#])
            #expect(badge.status == 0, "\(badge.stdout)\(badge.stderr)")
            #expect(badge.stdout.contains(#"text("Grace") .foregroundColor(named("white")) .bold"#), "\(badge.stdout)")
            #expect(badge.stdout.contains(#"text("since 2024")"#), "\(badge.stdout)")
            // The views that stayed native are not in the module's manifest.
            let cardRun = try CLI.run(["run", module, "--view", "ProfileCard"])
            #expect(cardRun.status != 0)
        }
    }
}
