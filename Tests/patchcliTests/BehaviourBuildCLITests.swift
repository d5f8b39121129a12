import Foundation
import Testing

/// `patchcli build` on edits that change no behaviour (issue 18): access control on a routed
/// function and on a stored property is informational, and no module is built for it.
@Suite(.serialized) struct BehaviourBuildCLITests {
    @Test func anAccessControlOnlyEditIsInformationalAndBuildsNoModule() throws {
        try withScratchDirectory { directory in
            let project = try BuildCLITests.initializedExample(in: directory)
            try BuildCLITests.edit(project, BuildCLITests.shippingFile, replacing: "public static dynamic func shippingFee(",
                                   with: "@discardableResult package static dynamic func shippingFee(")
            try BuildCLITests.edit(project, "Sources/ShopCore/Models.swift", replacing: "    public var stock: Int\n",
                                   with: "    public private(set) var stock: Int\n")
            // A module of an earlier build must not survive: nothing here is built.
            let stale = project.appendingPathComponent(".patch/build/module.wasm")
            try FileManager.default.createDirectory(at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0, 0x61, 0x73, 0x6D]).write(to: stale)

            let result = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let report = try #require(result.result, "\(result.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            #expect(changes.map { $0["id"] as? String } == ["ShopCore:Pricing.shippingFee(subtotal:Money,region:Region)", "ShopCore:Product"])
            #expect(changes.allSatisfy { $0["status"] as? String == "informational" && $0["change"] as? String == "modified" && $0["reason"] == nil })
            #expect(changes.first?["detail"] as? String
                == "access control and attributes without runtime effect only: `public` removed and `@discardableResult`, `package` added; no behaviour changes, devices keep the shipped code")
            #expect((changes.last?["detail"] as? String)?.hasPrefix("access control only: `private(set)` on `stock` added") == true)
            #expect(report["patched"] as? Int == 0 && report["native_only"] as? Int == 0 && report["coverage"] as? Double == 100)
            #expect((report["exports"] as? [Any])?.isEmpty ?? true)
            #expect(!FileManager.default.fileExists(atPath: stale.path))

            let human = try CLI.run(["build", "--project", project.path])
            #expect(human.status == 0)
            #expect(human.stdout.contains("informational Sources/ShopCore/Models.swift:1  ShopCore:Product  [modified]: access control only"))
            #expect(human.stdout.contains("no module written"))
        }
    }
}
