import Testing
@testable import ProjectWiring

/// `buildSetting(_:ofTarget:)`: what a release build of a target uses, the project's configuration
/// of the same name standing in for a setting the target leaves out (what `prepare` reads the app's
/// platforms from).
@Suite struct XcodeBuildSettingsTests {
    /// Fixtures.classic with platform settings: the app's Release lists three SDKs (its Debug one),
    /// the project's Debug configuration names an SDK and Mac Catalyst for targets that set neither.
    static let project: String = {
        let app = "\t\t\t\tINFOPLIST_FILE = \"Sample App/Info.plist\";\n\t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = \"com.example.sample-app\";\n"
        return Fixtures.classic
            .replacingOccurrences(of: app + "\t\t\t};\n\t\t\tname = Release;",
                                  with: app + "\t\t\t\tSUPPORTED_PLATFORMS = \"iphoneos iphonesimulator $(inherited) macosx\";\n\t\t\t};\n\t\t\tname = Release;")
            .replacingOccurrences(of: app + "\t\t\t};\n\t\t\tname = Debug;",
                                  with: app + "\t\t\t\tSUPPORTED_PLATFORMS = iphoneos;\n\t\t\t};\n\t\t\tname = Debug;")
            .replacingOccurrences(of: "\t\t\t\tSWIFT_VERSION = 5.0;\n",
                                  with: "\t\t\t\tSDKROOT = appletvos;\n\t\t\t\tSUPPORTS_MACCATALYST = YES;\n\t\t\t\tSWIFT_VERSION = 5.0;\n")
    }()

    @Test func aTargetsReleaseConfigurationWinsAndTheProjectFillsIn() throws {
        #expect(Self.project.contains("SUPPORTED_PLATFORMS = \"iphoneos iphonesimulator $(inherited) macosx\""))
        #expect(Self.project.contains("SUPPORTED_PLATFORMS = iphoneos;"))
        #expect(Self.project.contains("SDKROOT = appletvos"))
        let editor = try XcodeProjectEditor(bytes: Array(Self.project.utf8), path: "Sample App.xcodeproj/project.pbxproj")
        // Release only (not Debug's `iphoneos` alone), split at spaces, the reference left out.
        #expect(editor.buildSetting("SUPPORTED_PLATFORMS", ofTarget: "Sample App") == ["iphoneos", "iphonesimulator", "macosx"])
        // The project has no Release configuration: nothing stands in for the app's.
        #expect(editor.buildSetting("SDKROOT", ofTarget: "Sample App") == [])
        // The widget has only Debug, which sets neither: the project's Debug does.
        #expect(editor.buildSetting("SDKROOT", ofTarget: "Sample Widget") == ["appletvos"])
        #expect(editor.buildSetting("SUPPORTS_MACCATALYST", ofTarget: "Sample Widget") == ["YES"])
        #expect(editor.buildSetting("SDKROOT", ofTarget: "No Such Target") == [])
    }
}
