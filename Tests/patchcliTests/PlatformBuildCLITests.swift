import Foundation
import Testing

/// A multiplatform app end to end (docs/prepare.md "Platforms"): `init` records the platforms its
/// Package.swift names and writes one fingerprint per platform; `build` ships a change under
/// `#if os(macOS)` only in the macOS module (`--platform macos`), built against the macOS binary's
/// fingerprint, and `run` calls and renders that module.
@Suite(.serialized) struct PlatformBuildCLITests {
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Shop",
            platforms: [.iOS(.v17), .macOS(.v14)],
            targets: [.executableTarget(name: "Shop")]
        )

        """
    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            var body: some Scene {
                WindowGroup { Text(Greeting.title()) }
            }
        }

        """
    static let file = "Sources/Shop/Greeting.swift"
    static let greeting = """
        import SwiftUI

        enum Greeting {
            // @patchable
            static func title() -> String { "Shop" }

            #if os(macOS)
            // @patchable
            static func shortcut(key: String) -> String { "⌘" + key }
            #endif
        }

        #if os(macOS)
        struct MacPanel: View {
            let name: String
            var body: some View { Text("Mac \\(name)") }
        }
        #endif

        """

    @Test func aChangeUnderOsMacOSShipsInTheMacOSModuleWithTheMacFingerprint() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Shop/ShopApp.swift", in: project)
            try ViewBuildCLITests.write(Self.greeting, to: Self.file, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let baseline = try String(contentsOf: project.appendingPathComponent(".patch/baseline.json"), encoding: .utf8)
            #expect(baseline.hasSuffix(#""platforms":["ios","macos"]}"#), "\(baseline.suffix(80))")
            let fingerprints = try String(contentsOf: project.appendingPathComponent("Sources/Shop/Patch/PatchFingerprint.generated.swift"), encoding: .utf8)
            #expect(fingerprints.contains("    #if os(macOS)\n") && fingerprints.contains("    #else\n"), "\(fingerprints)")

            try ViewBuildCLITests.edit(project, Self.file, replacing: #"{ "Shop" }"#, with: #"{ "Shop!" }"#)
            try ViewBuildCLITests.edit(project, Self.file, replacing: #"{ "⌘" + key }"#, with: #"{ "Cmd-" + key }"#)
            try ViewBuildCLITests.edit(project, Self.file, replacing: #"Text("Mac \(name)")"#, with: #"Text("Hello from the Mac, \(name)")"#)

            // The default platform, iOS: the Mac's changes are not in its binary.
            let phone = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(phone.status == 0, "\(phone.stdout)\(phone.stderr)")
            let phoneReport = try #require(phone.result, "\(phone.stdout)")
            #expect(phoneReport["platform"] as? String == "ios" && phoneReport["platforms"] as? [String] == ["ios", "macos"])
            let phoneChanges = try Self.changes(phoneReport)
            #expect(phoneChanges["Shop:Greeting.title()"]?["status"] as? String == "patched")
            #expect(phoneChanges["Shop:Greeting.title()"]?["platforms"] as? [String] == ["ios", "macos"])
            for id in ["Shop:Greeting.shortcut(key:String)", "Shop:MacPanel.body"] {
                let change = try #require(phoneChanges[id], "\(phoneChanges.keys)")
                #expect(change["status"] as? String == "informational" && change["reason"] as? String == "other_platform", "\(change)")
                #expect(change["platforms"] as? [String] == ["macos"])
                #expect((change["detail"] as? String)?.contains("`patchcli build --platform macos` ships it there") == true, "\(change)")
            }

            // The macOS build: everything ships, against the Mac binary's own fingerprint.
            let macOutput = directory.appendingPathComponent("mac")
            let mac = try CLI.run(["build", "--project", project.path, "--platform", "macos", "-o", macOutput.path, "--json"])
            #expect(mac.status == 0, "\(mac.stdout)\(mac.stderr)")
            let macReport = try #require(mac.result, "\(mac.stdout)")
            #expect(macReport["platform"] as? String == "macos")
            let macChanges = try Self.changes(macReport)
            #expect(macChanges.count == 3 && macChanges.values.allSatisfy { $0["status"] as? String == "patched" }, "\(macChanges)")
            let phoneFingerprint = try #require(phoneReport["baseline_fingerprint"] as? String)
            let macFingerprint = try #require(macReport["baseline_fingerprint"] as? String)
            #expect(phoneFingerprint != macFingerprint)
            #expect(fingerprints.contains("\"\(macFingerprint)\"") && fingerprints.contains("\"\(phoneFingerprint)\""))
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: macOutput.appendingPathComponent("manifest.json"))) as? [String: Any])
            #expect(manifest["baselineFingerprint"] as? String == macFingerprint)

            let module = macOutput.appendingPathComponent("module.wasm").path
            let shortcut = try CLI.run(["run", module, "_pf_Greeting_shortcut__key", "--input", #"{"key":"K"}"#, "--decode", "text", "--json"])
            #expect(shortcut.status == 0, "\(shortcut.stdout)\(shortcut.stderr)")
            #expect(shortcut.result?["output"] as? String == #"{"value":"Cmd-K"}"#)
            let panel = try CLI.run(["run", module, "--view", "MacPanel", "--inputs", #"{"name":"Ada"}"#])
            #expect(panel.status == 0, "\(panel.stdout)\(panel.stderr)")
            #expect(panel.stdout.contains(#"text("Hello from the Mac, Ada")"#), "\(panel.stdout)")

            // A platform the app does not ship for is a usage error naming those it does.
            let watch = try CLI.run(["build", "--project", project.path, "--platform", "watchos", "--json"])
            #expect(watch.status == 2, "\(watch.stdout)\(watch.stderr)")
            #expect(watch.stdout.contains("--platform ios, --platform macos") || watch.stderr.contains("--platform ios, --platform macos"), "\(watch.stdout)\(watch.stderr)")
        }
    }

    static func changes(_ report: [String: Any]) throws -> [String: [String: Any]] {
        let changes = try #require(report["changes"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } })
    }
}
