import Foundation
import PatchBuild
import PatchManifest
import Testing

/// The dependency closure reaches a project extension of an outside type by member name alone, so
/// `clock.currentDate` of the project's own struct also pulls in ACHNBrowserUI's
/// `extension EnvironmentValues { var currentDate … }`, which the guest cannot compile. The build
/// drops the extension instead of failing (it failed with "cannot find type 'EnvironmentValues'"),
/// and an export that really needs it stays native with its own line.
@Suite struct ForeignExtensionClosureTests {
    static let environment = """
        import SwiftUI

        struct CurrentDateKey: EnvironmentKey {
            static let defaultValue = 0
        }

        extension EnvironmentValues {
            var currentDate: Int {
                get { self[CurrentDateKey.self] }
                set { self[CurrentDateKey.self] = newValue }
            }
        }

        """
    static let logic = """
        import SwiftUI

        struct Clock { var currentDate: Int }

        func nextDay(_ clock: Clock) -> Int { clock.currentDate + 1 }

        func environmentDate(_ values: EnvironmentValues) -> Int { values.currentDate }

        """

    @Test func anExtensionOfATypeTheGuestLacksIsDroppedNotFatal() throws {
        let sources = try GuestHarness.temporaryDirectory("foreign-extension-sources")
        try Data(Self.environment.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Environment.swift")))
        try Data(Self.logic.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Logic.swift")))
        let output = try GuestHarness.temporaryDirectory("foreign-extension-output")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: ["nextDay(_:)", "environmentDate(_:)"], outputDirectory: output, toolchain: try Toolchain.discover()))
        #expect(result.manifest.exports.map(\.declarationID) == ["nextDay(_:)"], "\(result.manifest.unpatchable)")
        let native = try #require(result.manifest.unpatchable.first { $0.declarationID == "environmentDate(_:)" })
        #expect(native.location?.file == "Logic.swift", "\(native)")
        let program = try String(contentsOfFile: (output as NSString).appendingPathComponent("PatchGuest.swift"), encoding: .utf8)
        #expect(!program.contains("extension EnvironmentValues"))
    }
}
