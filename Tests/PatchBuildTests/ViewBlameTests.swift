import Foundation
@testable import PatchBuild
import Testing

/// A compile error in code several changed views use (here a child view's body) blames all of them
/// in one attempt: dropping one at a time left the code in, and with more users than attempts the
/// whole build failed.
@Suite struct ViewBlameTests {
    static let sources = """
        import SwiftUI

        struct Badge: View {
            var body: some View {
                Text("new").foregroundColor(UIColor.red)
            }
        }

        struct First: View { var body: some View { Badge() } }
        struct Second: View { var body: some View { Badge() } }
        struct Third: View { var body: some View { Badge() } }
        struct Fourth: View { var body: some View { Badge() } }
        struct Clean: View { var body: some View { Text("ok") } }

        """

    @Test func anErrorInAChildViewBlamesEveryViewUsingItAtOnce() throws {
        let toolchain = try Toolchain.discover()
        let folder = try GuestHarness.temporaryDirectory("view-blame-sources")
        try Data(Self.sources.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("Views.swift")))
        let users = ["First", "Second", "Third", "Fourth"]
        #expect(users.count >= GuestModuleBuilder.maximumAttempts, "more users than attempts: one at a time could not finish")
        let requests = (users + ["Clean"]).map { GuestViewRequest(declarationID: "App:\($0).body", typeName: $0, path: [$0]) }
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: folder, exports: [], views: requests, outputDirectory: try GuestHarness.temporaryDirectory("view-blame"), toolchain: toolchain))
        #expect(result.manifest.views?.map(\.type) == ["Clean"])
        #expect(result.manifest.unpatchable.map(\.declarationID).sorted() == users.map { "App:\($0).body" }.sorted())
        for problem in result.manifest.unpatchable {
            #expect(problem.reason == .viewNotLowerable && problem.detail.contains("UIColor"), "\(problem)")
            #expect(problem.location == GuestSourceLocation(file: "Views.swift", line: 5))
        }
    }
}
