import PatchManifest
@testable import ProjectWiring
import Testing

struct LaunchCodeEditorTests {
    static func config(apiBaseURL: String = ProjectConfig.defaultAPIBaseURL, channel: String = ProjectConfig.defaultChannel,
                       appID: String? = nil) -> ProjectConfig {
        ProjectConfig(appKey: "shop", appID: appID, apiBaseURL: apiBaseURL, channel: channel, project: .init(kind: .swiftPackage, path: "Package.swift"),
                      targets: [.init(name: "App", sourceRoots: ["Sources/App"])], appTarget: "App", include: [], exclude: [],
                      patchableFunctions: [], signing: .init(keyDirectory: "k", publicKeyFile: "f"))
    }

    let code = LaunchCode(config())

    /// Wires `text`, checks the result, that wiring again changes nothing and that unwiring gives `text` back.
    func check(_ text: String, becomes expected: String, code: LaunchCode? = nil) throws {
        let code = code ?? self.code
        let (wired, markers) = try #require(try LaunchCodeEditor.wiring(Array(text.utf8), path: "App.swift", code: code))
        #expect(String(decoding: wired, as: UTF8.self) == expected)
        let again = try #require(try LaunchCodeEditor.wiring(wired, path: "App.swift", code: code))
        #expect(again.bytes == wired)
        #expect(again.markers.isEmpty)
        #expect(String(decoding: LaunchCodeEditor.unwiring(wired, markers: markers), as: UTF8.self) == text)
    }

    @Test func theCodeFollowsTheContractsLabelsAndTypes() {
        #expect(code.configure == "Patch.configure(PatchConfiguration(appKey: \"shop\", fingerprint: PatchBuildFingerprint.value))")
        #expect(code.imports == ["PatchSDK"])
        let full = LaunchCode(Self.config(apiBaseURL: "https://patch.example.com/v1", channel: "beta", appID: "A1"))
        #expect(full.configure == "Patch.configure(PatchConfiguration(appKey: \"shop\", appID: \"A1\", apiBaseURL: URL(string: \"https://patch.example.com/v1\")!, fingerprint: PatchBuildFingerprint.value, channel: PatchChannel(\"beta\")))")
        #expect(full.imports == ["Foundation", "PatchSDK"])
        #expect(full.snippet.hasPrefix("import Foundation\nimport PatchSDK\n"))
        #expect(full.snippet.hasSuffix(full.configure + "\n" + LaunchCode.start))
    }

    @Test func createsInitAfterTheStoredProperties() throws {
        try check("""
            import SwiftUI

            @main
            struct ShopApp: App {
                @State private var cart = Cart() // shared
                let store: Store

                var body: some Scene {
                    WindowGroup { Text("x") }
                }
            }
            """, becomes: """
            import SwiftUI
            import PatchSDK

            @main
            struct ShopApp: App {
                @State private var cart = Cart() // shared
                let store: Store

                init() {
                    Patch.configure(PatchConfiguration(appKey: "shop", fingerprint: PatchBuildFingerprint.value))
                    Task { await Patch.shared.start() }
                }

                var body: some Scene {
                    WindowGroup { Text("x") }
                }
            }
            """)
    }

    @Test func insertsAtTheTopOfAnExistingInitAndAddsFoundationForURL() throws {
        let code = LaunchCode(Self.config(apiBaseURL: "https://patch.example.com/v1"))
        try check("""
            // Header comment
            import PatchUI

            @main struct ShopApp: App {
              init() {
                setUp()
              }
              var body: some Scene { WindowGroup { Text("x") } }
            }
            """, becomes: """
            // Header comment
            import PatchUI
            import Foundation
            import PatchSDK

            @main struct ShopApp: App {
              init() {
                Patch.configure(PatchConfiguration(appKey: "shop", apiBaseURL: URL(string: "https://patch.example.com/v1")!, fingerprint: PatchBuildFingerprint.value))
                Task { await Patch.shared.start() }
                setUp()
              }
              var body: some Scene { WindowGroup { Text("x") } }
            }
            """, code: code)
    }

    @Test func appDelegateGetsItInDidFinishLaunching() throws {
        try check("""
            import UIKit
            #if DEBUG
            import DebugMenu
            #endif

            @UIApplicationMain
            class AppDelegate: UIResponder, UIApplicationDelegate {
                var window: UIWindow?

                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    return true
                }
            }
            """, becomes: """
            import UIKit
            import PatchSDK
            #if DEBUG
            import DebugMenu
            #endif

            @UIApplicationMain
            class AppDelegate: UIResponder, UIApplicationDelegate {
                var window: UIWindow?

                func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    Patch.configure(PatchConfiguration(appKey: "shop", fingerprint: PatchBuildFingerprint.value))
                    Task { await Patch.shared.start() }
                    return true
                }
            }
            """)
        let withoutMethod = "import UIKit\n\n@main\nclass AppDelegate: UIResponder, UIApplicationDelegate {\n}\n"
        #expect(throws: WiringError.noLaunchMethod(path: "App.swift", line: 3, type: "AppDelegate")) {
            try LaunchCodeEditor.wiring(Array(withoutMethod.utf8), path: "App.swift", code: code)
        }
    }

    @Test func changedSettingsUpdateTheInsertedCall() throws {
        let text = "import SwiftUI\n\n@main\nstruct A: App {\n    var body: some Scene { WindowGroup { Text(\"x\") } }\n}\n"
        let (wired, markers) = try #require(try LaunchCodeEditor.wiring(Array(text.utf8), path: "A.swift", code: code))
        #expect(markers == ["init", "import:PatchSDK"])
        let beta = LaunchCode(Self.config(channel: "beta"))
        let (rewired, more) = try #require(try LaunchCodeEditor.wiring(wired, path: "A.swift", code: beta))
        #expect(more.isEmpty)
        #expect(String(decoding: rewired, as: UTF8.self) == String(decoding: wired, as: UTF8.self).replacingOccurrences(of: code.configure, with: beta.configure))
        #expect(String(decoding: LaunchCodeEditor.unwiring(rewired, markers: markers), as: UTF8.self) == text)
    }

    @Test func filesWithoutAnEntryPointAreLeftAlone() throws {
        #expect(try LaunchCodeEditor.wiring(Array("struct Home: View { var body: some View { Text(\"x\") } }\n".utf8), path: "Home.swift", code: code) == nil)
        let widgets = "import WidgetKit\n\n@main\nstruct Widgets: WidgetBundle {\n    var body: some Widget { Clock() }\n}\n"
        #expect(try LaunchCodeEditor.wiring(Array(widgets.utf8), path: "Widgets.swift", code: code) == nil)
    }

    @Test func anAppKitDelegateStartsInApplicationDidFinishLaunching() throws {
        try check("""
            import AppKit

            @NSApplicationMain
            final class AppDelegate: NSObject, NSApplicationDelegate {
                func applicationDidFinishLaunching(_ note: Notification) {
                    setUp()
                }
            }
            """, becomes: """
            import AppKit
            import PatchSDK

            @NSApplicationMain
            final class AppDelegate: NSObject, NSApplicationDelegate {
                func applicationDidFinishLaunching(_ note: Notification) {
                    Patch.configure(PatchConfiguration(appKey: "shop", fingerprint: PatchBuildFingerprint.value))
                    Task { await Patch.shared.start() }
                    setUp()
                }
            }
            """)
    }
}
