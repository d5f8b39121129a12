import Foundation
import PatchBuild
import PatchManifest
import Testing

/// The dependency closure reaches a project extension of an outside type by member name alone, so
/// `clock.currentDate` of the project's own struct also pulls in an extension like ACHNBrowserUI's
/// `extension EnvironmentValues { var currentDate … }`. Extensions of the framework types
/// `GuestFrameworkNames` lists are skipped up front; this one extends a vendor SDK's type no list
/// knows, which the guest cannot compile. The build drops the extension instead of failing (it
/// failed with "cannot find type"), and an export that really needs it stays native on its own line.
@Suite struct ForeignExtensionClosureTests {
    static let environment = """
        import AnalyticsKit

        extension AnalyticsContext {
            var currentDate: Int { sessionStart + 86_400 }
        }

        """
    static let logic = """
        import AnalyticsKit

        struct Clock { var currentDate: Int }

        func nextDay(_ clock: Clock) -> Int { clock.currentDate + 1 }

        func contextDate(_ context: AnalyticsContext) -> Int { context.currentDate }

        """

    @Test func anExtensionOfATypeTheGuestLacksIsDroppedNotFatal() throws {
        let sources = try GuestHarness.temporaryDirectory("foreign-extension-sources")
        try Data(Self.environment.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Environment.swift")))
        try Data(Self.logic.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Logic.swift")))
        let output = try GuestHarness.temporaryDirectory("foreign-extension-output")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: ["nextDay(_:)", "contextDate(_:)"], outputDirectory: output, toolchain: try Toolchain.discover()))
        #expect(result.manifest.exports.map(\.declarationID) == ["nextDay(_:)"], "\(result.manifest.unpatchable)")
        let native = try #require(result.manifest.unpatchable.first { $0.declarationID == "contextDate(_:)" })
        #expect(native.location?.file == "Logic.swift", "\(native)")
        let program = try String(contentsOfFile: (output as NSString).appendingPathComponent("PatchGuest.swift"), encoding: .utf8)
        #expect(!program.contains("extension AnalyticsContext"))
    }
}
