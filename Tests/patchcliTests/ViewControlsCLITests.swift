import Foundation
import Testing

/// A settings screen whose only interactions are controls and a sheet ships end to end: `build`
/// lowers it with a dispatch export, and `run --view --event ID=VALUE` drives each control with
/// the value the device's host sends, the state coming back as the device writes it.
@Suite(.serialized) struct ViewControlsCLITests {
    static let screenFile = "Sources/Settings/SettingsScreen.swift"
    static let screen = """
        import SwiftUI

        struct SettingsScreen: View {
            @State private var notificationsOn = false
            @State private var badgeCount = 0
            @State private var displayName = "Ada"
            @State private var showAbout = false

            var body: some View {
                VStack(alignment: .leading, spacing: 16) {
                    Text("Settings").font(.title2).bold()
                    Toggle("Notifications", isOn: $notificationsOn)
                    Stepper("Badge: \\(badgeCount)", value: $badgeCount, in: 0...9)
                    TextField("Name", text: $displayName)
                }
                .padding(20)
                .onTapGesture { showAbout = true }
                .sheet(isPresented: $showAbout) {
                    VStack {
                        Text("Hello, \\(displayName)!")
                        Button("Close") { showAbout = false }
                    }
                }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct SettingsApp: App {
            var body: some Scene {
                WindowGroup { SettingsScreen() }
            }
        }

        """

    @Test func aSettingsScreenOfControlsAndASheetIsDrivenThroughItsEvents() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Settings")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest.replacingOccurrences(of: "Greeter", with: "Settings"), to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Settings/SettingsApp.swift", in: project)
            try ViewBuildCLITests.write(Self.screen, to: Self.screenFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            try ViewBuildCLITests.edit(project, Self.screenFile, replacing: ".padding(20)", with: ".padding(24)")

            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let views = try #require(build.result?["views"] as? [[String: Any]], "\(build.stdout)")
            #expect(views.first?["dispatch"] as? String == "dispatch__SettingsScreen", "\(views)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let driven = try CLI.run(["run", module, "--view", "SettingsScreen",
                                      "--event", "notificationsOn", "--event", "badgeCount=12", "--event", "displayName=Grace",
                                      "--event", "action_0", "--event", "action_1"])
            #expect(driven.status == 0, "\(driven.stdout)\(driven.stderr)")
            // Each event as sent (the stepper's value clamped as the host does) and the state back.
            let expected = [
                #"event notificationsOn (toggle): {"bool":{"_0":true}} -> state {"badgeCount":0,"displayName":"Ada","notificationsOn":true,"showAbout":false}"#,
                #"event badgeCount (stepper): {"int":{"_0":9}} -> state {"badgeCount":9,"displayName":"Ada","notificationsOn":true,"showAbout":false}"#,
                #"event displayName (textField): {"string":{"_0":"Grace"}} -> state {"badgeCount":9,"displayName":"Grace","notificationsOn":true,"showAbout":false}"#,
                #"event action_0 (onTapGesture): {"none":{}} -> state {"badgeCount":9,"displayName":"Grace","notificationsOn":true,"showAbout":true}"#,
                #"event action_1 (button): {"none":{}} -> state {"badgeCount":9,"displayName":"Grace","notificationsOn":true,"showAbout":false}"#,
            ]
            for line in expected { #expect(driven.stdout.contains(line), "\(driven.stdout)") }
            #expect(driven.stdout.contains("""
                vstack(alignment: leading, spacing: 16) .padding({top: 24, leading: 24, bottom: 24, trailing: 24}) .onTapGesture(#action_0) .sheet(presentedKey: "showAbout", isPresented: false, event: #showAbout)
                  text("Settings") .font({style: title2}) .bold
                  toggle(value: true, event: #notificationsOn)
                    label:
                      text("Notifications")
                  stepper(value: 9, min: 0, max: 9, step: 1, event: #badgeCount)
                    label:
                      text("Badge: 9")
                  textField(placeholder: "Name", value: "Grace", event: #displayName)
                """), "\(driven.stdout)")

            // The sheet presented: its content renders, and the host's dismissal writes the flag.
            let presented = try CLI.run(["run", module, "--view", "SettingsScreen", "--inputs", #"{"displayName":"Lin"}"#,
                                         "--event", "action_0", "--event", "showAbout"])
            #expect(presented.status == 0, "\(presented.stdout)\(presented.stderr)")
            #expect(presented.stdout.contains(#"event showAbout (sheet): {"bool":{"_0":false}} -> state {"badgeCount":0,"displayName":"Lin","notificationsOn":false,"showAbout":false}"#), "\(presented.stdout)")
            let shown = try CLI.run(["run", module, "--view", "SettingsScreen", "--event", "action_0"])
            #expect(shown.stdout.contains(#"text("Hello, Ada!")"#) && shown.stdout.contains(#"button(actionID: "action_1")"#), "\(shown.stdout)")

            // A value the control does not send is a usage error (exit 2).
            let bad = try CLI.run(["run", module, "--view", "SettingsScreen", "--event", "badgeCount=many"])
            #expect(bad.status == 2, "\(bad.stdout)\(bad.stderr)")
        }
    }
}
