import Foundation
@testable import PatchBuild
import Testing

/// A guest compile error in a helper that several views use fails all of them in one attempt (the
/// build retries a bounded number of times: dropping one view per attempt failed the whole build
/// once more views than attempts shared the helper, as backyard-birds' CGPoint operator did).
@Suite struct GuestViewAttributionTests {
    @Test func anErrorInASharedHelperRefusesEveryViewUsingItAtOnce() throws {
        let toolchain = try Toolchain.discover()
        let sources = try GuestHarness.temporaryDirectory("shared-helper")
        let users = (1...5).map { "struct User\($0): View {\n    var body: some View { Text(caption()) }\n}\n" }.joined()
        try Data(("""
            import SwiftUI

            func caption() -> String { NotInTheGuest.caption }

            struct Clean: View {
                var body: some View { Text("ok") }
            }

            """ + users).utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Views.swift")))
        let names = ["Clean"] + (1...5).map { "User\($0)" }
        let output = try GuestHarness.temporaryDirectory("shared-helper-out")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: [], views: names.map { GuestViewRequest(declarationID: "App:\($0).body", typeName: $0, path: [$0]) },
            outputDirectory: output, toolchain: toolchain))
        #expect(result.manifest.views?.map(\.type) == ["Clean"])
        let refused = result.manifest.unpatchable.filter { $0.declarationID.hasPrefix("App:User") }
        #expect(refused.count == 5 && refused.allSatisfy { $0.detail.contains("NotInTheGuest") }, "\(result.manifest.unpatchable)")
    }
}
