import Foundation
import PatchAssets
import PatchManifest
import Testing

@testable import PatchBuild

/// What `build` makes of the app's assets against the baseline's (docs/assets.md "What ships").
@Suite struct AssetChangesTests {
    private static func project(_ files: [String: String]) throws -> (root: String, config: ProjectConfig) {
        let root = NSTemporaryDirectory() + "asset-changes-" + UUID().uuidString
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let config = ProjectConfig(
            appKey: "k", appID: nil, apiBaseURL: "u", channel: "c", project: .init(kind: .swiftPackage, path: "Package.swift"),
            targets: [.init(name: "App", sourceRoots: ["App"])], appTarget: "App", include: [], exclude: [], patchableFunctions: [],
            signing: .init(keyDirectory: "k", publicKeyFile: "f"))
        return (root, config)
    }

    private static let catalog = #"{"sourceLanguage":"en","strings":{"n birds":{"localizations":{"en":{"variations":{"plural":{"other":{"stringUnit":{"state":"translated","value":"%lld birds"}}}}}}}}}"#

    @Test func onlyWhatChangedShipsAndRemovalsNeedAnAppRelease() throws {
        var (root, config) = try Self.project([
            "App/en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"gone\" = \"G\";\n",
            "App/Catalog.xcstrings": Self.catalog,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let baseline = AssetChanges.baselineRecords(root: root, config: config)
        #expect(baseline.map(\.id).sorted() == ["string:en:Catalog:n birds", "string:en:Localizable:a", "string:en:Localizable:b", "string:en:Localizable:gone"])
        #expect(try AssetChanges.detect(root: root, config: config, baseline: baseline).shipped.isEmpty)
        #expect(try AssetChanges.detect(root: root, config: config, baseline: baseline).unshippable.isEmpty)

        try "\"a\" = \"A!\";\n\"b\" = \"B\";\n\"new\" = \"N\";\n".write(toFile: root + "/App/en.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        try Self.catalog.replacingOccurrences(of: "%lld birds", with: "%lld little birds").write(toFile: root + "/App/Catalog.xcstrings", atomically: true, encoding: .utf8)
        let changes = try AssetChanges.detect(root: root, config: config, baseline: baseline)
        #expect(changes.shipped.map { "\($0.id) \($0.change.rawValue)" } == ["string:en:Localizable:a modified", "string:en:Localizable:new added"])
        #expect(changes.overlay.locales.first?.entries.map(\.value) == ["A!", "N"])
        #expect(changes.unshippable.map(\.key) == ["en:n birds", "string:en:Localizable:gone"])
        #expect(changes.unshippable.last?.reason.hasPrefix("removed since the baseline") == true)

        // The roots patch.json names replace the app target's.
        config.assets = .init(roots: ["Elsewhere"])
        #expect(AssetChanges.baselineRecords(root: root, config: config).isEmpty)
    }

    @Test func aBaselineWithoutAssetsShipsNoneAndSaysWhy() throws {
        let (root, config) = try Self.project(["App/en.lproj/Localizable.strings": "\"a\" = \"A\";\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let changes = try AssetChanges.detect(root: root, config: config, baseline: [])
        #expect(changes.shipped.isEmpty)
        #expect(changes.unshippable.map(\.file) == [".patch/baseline.json"])
    }

    @Test func aNewlyBrokenAssetStopsTheBuild() throws {
        let (root, config) = try Self.project(["App/en.lproj/Localizable.strings": "\"a\" = \"A\";\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let baseline = AssetChanges.baselineRecords(root: root, config: config)
        try "\"a\" = \"A\"\n".write(toFile: root + "/App/en.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        #expect(throws: AssetBuildError.self) { try AssetChanges.detect(root: root, config: config, baseline: baseline) }
        // Recorded broken, it is a warning until edited again.
        let broken = AssetChanges.baselineRecords(root: root, config: config)
        #expect(try AssetChanges.detect(root: root, config: config, baseline: broken).unchangedInvalid.map(\.file) == ["App/en.lproj/Localizable.strings"])
    }
}
