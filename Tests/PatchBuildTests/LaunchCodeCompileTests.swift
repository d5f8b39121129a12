import PatchManifest
@testable import PatchBuild
import ProjectWiring
import Testing

/// The launch code `init` inserts and prints compiles against the SDK API stand-in (sdk-contract §11).
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct LaunchCodeCompileTests {
    static func config(apiBaseURL: String = ProjectConfig.defaultAPIBaseURL, channel: String = ProjectConfig.defaultChannel,
                       appID: String? = nil) -> ProjectConfig {
        ProjectConfig(appKey: "shop", appID: appID, apiBaseURL: apiBaseURL, channel: channel, project: .init(kind: .swiftPackage, path: "Package.swift"),
                      targets: [.init(name: "App", sourceRoots: ["Sources/App"])], appTarget: "App", include: [], exclude: [],
                      patchableFunctions: [], signing: .init(keyDirectory: "k", publicKeyFile: "f"))
    }

    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            @State private var count = 0

            var body: some Scene {
                WindowGroup { Text("Shop") }
            }
        }
        """

    @Test func theWiredAppCompiles() throws {
        for config in [Self.config(), Self.config(channel: "beta", appID: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")] {
            let wired = try #require(try LaunchCodeEditor.wiring(Array(Self.app.utf8), path: "ShopApp.swift", code: LaunchCode(config)))
            let files = ["ShopApp.swift": String(decoding: wired.bytes, as: UTF8.self),
                         "PatchBuildFingerprint.swift": ThunkEmitter.fingerprintFile(fingerprint: "f")]
            #expect(try SDKStandIn.typecheck(files) == nil)
        }
    }

    @Test func thePrintedSnippetCompilesWithEverySetting() throws {
        let code = LaunchCode(Self.config(apiBaseURL: "https://patch.example.com/v1", channel: "beta", appID: "A1"))
        // The snippet's imports, then its statements where an app runs them.
        let lines = code.snippet.split(separator: "\n", omittingEmptySubsequences: false)
        let imports = lines.filter { $0.hasPrefix("import ") }.joined(separator: "\n")
        let launch = imports + "\n\n@MainActor func launch() {\n" + code.statements.map { "    " + $0 }.joined(separator: "\n") + "\n}\n"
        #expect(try SDKStandIn.typecheck(["Launch.swift": launch, "PatchBuildFingerprint.swift": ThunkEmitter.fingerprintFile(fingerprint: "f")]) == nil)
        // Without Foundation the URL does not resolve: the import is needed.
        let withoutFoundation = launch.replacingOccurrences(of: "import Foundation\n", with: "")
        #expect(try SDKStandIn.typecheck(["Launch.swift": withoutFoundation, "PatchBuildFingerprint.swift": ThunkEmitter.fingerprintFile(fingerprint: "f")]) != nil)
    }
}
