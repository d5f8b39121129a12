import Foundation
import Testing

/// `patchcli init` and `patchcli prepare` end to end on a copy of Examples/PatchShop.
@Suite struct PrepareCLITests {
    private static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/PatchShop").standardizedFileURL

    /// Copies the example app into `directory/PatchShop` and returns that folder.
    private func copyExample(into directory: URL) throws -> URL {
        let project = directory.appendingPathComponent("PatchShop")
        try FileManager.default.copyItem(at: Self.example, to: project)
        return project
    }

    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            guard !relative.hasPrefix(".patch"), let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath else { continue }
            files[relative] = data
        }
        return files
    }

    @Test func initPreparesOnceThenChangesNothing() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            let keys = directory.appendingPathComponent("keys").path
            let first = try CLI.run(["init", "--project", project.path, "--key-dir", keys, "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.result?["views"] as? Int == 15)
            #expect(first.result?["functions"] as? Int == 5)
            #expect(first.result?["created_key_pair"] as? Bool == true)
            let keyAttributes = try FileManager.default.attributesOfItem(atPath: keys + "/patchshop.ed25519")
            #expect((keyAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let second = try CLI.run(["init", "--project", project.path, "--key-dir", keys])
            #expect(second.status == 0)
            #expect(second.stdout.contains("already set up: nothing changed"))
            let check = try CLI.run(["prepare", "--project", project.path, "--check"])
            #expect(check.status == 0)
        }
    }

    @Test func checkFailsWith30AndDryRunShowsTheDiffWithoutWriting() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path]).status == 0)
            let file = project.appendingPathComponent("Sources/PatchShop/CartScreen.swift")
            let edited = String(decoding: try Data(contentsOf: file), as: UTF8.self)
                .replacingOccurrences(of: "struct TotalsView: View {", with: "struct TotalsView: View {\n    var body: some View { EmptyView() }\n}\nstruct NewView: View {")
            try Data(edited.utf8).write(to: file)
            let before = try snapshot(project)

            let check = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(check.status == 30)
            #expect(check.error?["kind"] as? String == "prepare_needed")
            #expect((check.error?["message"] as? String)?.contains("Sources/PatchShop/CartScreen.swift") == true)

            let dryRun = try CLI.run(["prepare", "--project", project.path, "--dry-run"])
            #expect(dryRun.status == 0)
            #expect(dryRun.stdout.contains("--- a/Sources/PatchShop/CartScreen.swift"))
            #expect(dryRun.stdout.contains("+    @ViewBuilder @MainActor var __patch_native_body: some View { EmptyView() }"))
            #expect(try snapshot(project) == before)
        }
    }

    @Test func revertRestoresTheExampleByteForByte() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            let original = try snapshot(project)
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path]).status == 0)
            #expect(try snapshot(project) != original)
            let revert = try CLI.run(["prepare", "--project", project.path, "--revert", "--json"])
            #expect(revert.status == 0)
            var restored = try snapshot(project)
            // init's own files stay: they are configuration, not preparation; so does its wiring.
            for path in ["patch.json", ".gitignore", "Sources/PatchShop/PatchPublicKey.generated.swift"] {
                #expect(restored.removeValue(forKey: path) != nil)
            }
            // `prepare --revert` leaves the launch code; `init --revert` takes it out (below).
            let app = "Sources/PatchShop/PatchShopApp.swift"
            #expect(restored.removeValue(forKey: app) != original[app])
            #expect(restored == original.filter { $0.key != app })
        }
    }

    /// `init` wires the package (the SDK dependency and ShopCore's product added, PatchShop's reused; the
    /// launch code goes into the App's new init()); `init --revert` gives every source back byte for byte.
    @Test func initWiresTheAppAndInitRevertRestoresIt() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            let manifest = project.appendingPathComponent("Package.swift")
            // The SDK dependency and ShopCore's product removed, so init has them to add.
            let exampleManifest = String(decoding: try Data(contentsOf: manifest), as: UTF8.self)
            let unwired = exampleManifest
                .replacingOccurrences(of: "    dependencies: [\n        .package(url: \"https://github.com/patch-release/patch-swift\", from: \"1.4.0\"),\n    ],\n", with: "")
                .replacingOccurrences(of: "            name: \"ShopCore\",\n            dependencies: [.product(name: \"PatchSDK\", package: \"patch-swift\")]),", with: "            name: \"ShopCore\"),")
            try Data(unwired.utf8).write(to: manifest)
            let original = try snapshot(project)

            let first = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--channel", "beta", "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            let wired = (first.result?["wired"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
            #expect(wired == ["Package.swift", "Sources/PatchShop/PatchShopApp.swift"])
            let wiredManifest = String(decoding: try Data(contentsOf: manifest), as: UTF8.self)
            // Wiring lays the package and the product out as the example's authors did.
            #expect(wiredManifest == exampleManifest)
            let app = String(decoding: try Data(contentsOf: project.appendingPathComponent("Sources/PatchShop/PatchShopApp.swift")), as: UTF8.self)
            #expect(app.contains("""
                    @State private var cart = CartViewModel()

                    init() {
                        Patch.configure(PatchConfiguration(appKey: "patchshop", fingerprint: PatchBuildFingerprint.value, channel: PatchChannel("beta")))
                        Task { await Patch.shared.start() }
                    }
                """))

            let second = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(second.stdout.contains("already set up: nothing changed"), "\(second.stdout)")

            let revert = try CLI.run(["init", "--project", project.path, "--revert", "--json"])
            #expect(revert.status == 0, "\(revert.stderr)")
            var restored = try snapshot(project)
            for path in ["patch.json", ".gitignore", "Sources/PatchShop/PatchPublicKey.generated.swift"] {
                #expect(restored.removeValue(forKey: path) != nil)
            }
            #expect(restored == original)
            #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".patch/wiring-state.json").path))
        }
    }

    @Test func noWireChangesNoSourceAndPrintsTheWiring() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            let manifest = project.appendingPathComponent("Package.swift")
            let before = try Data(contentsOf: manifest)
            let result = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path,
                                      "--no-wire", "--api-base-url", "https://patch.example.com/v1"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Data(contentsOf: manifest) == before)
            let app = String(decoding: try Data(contentsOf: project.appendingPathComponent("Sources/PatchShop/PatchShopApp.swift")), as: UTF8.self)
            #expect(!app.contains("Patch.configure"))
            #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".patch/wiring-state.json").path))
            #expect(result.stdout.contains(".package(url: \"https://github.com/patch-release/patch-swift\", from: \"1.4.0\")"))
            #expect(result.stdout.contains("PatchShop: .product(name: \"PatchSDK\", package: \"patch-swift\"), .product(name: \"PatchSwiftUI\", package: \"patch-swift\")"))
            #expect(result.stdout.contains("import Foundation\nimport PatchSDK\n"))
            #expect(result.stdout.contains("apiBaseURL: URL(string: \"https://patch.example.com/v1\")!"))
        }
    }

    /// A write that fails fails the command before any file changes. Here the cache folder, written
    /// last, cannot be created: the originals and sources staged before it are dropped, no source is
    /// rewritten, no temporary file stays.
    @Test func aFailedWriteChangesNothing() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path]).status == 0)
            #expect(try CLI.run(["prepare", "--project", project.path, "--revert"]).status == 0)
            let cache = project.appendingPathComponent(".patch/cache")
            try? FileManager.default.removeItem(at: cache)
            try Data("in the way\n".utf8).write(to: cache)
            let before = try snapshot(project)

            let result = try CLI.run(["prepare", "--project", project.path, "--json"])
            #expect(result.status == 7, "\(result.stderr)")
            #expect(result.error?["kind"] as? String == "output_unwritable")
            #expect((result.error?["message"] as? String)?.contains(".patch/cache") == true)
            #expect(try snapshot(project) == before)
            let leftovers = FileManager.default.enumerator(atPath: project.path)?.compactMap { $0 as? String }.filter { $0.contains(".tmp-") }
            #expect(leftovers == [])
        }
    }

    @Test func prepareWithoutConfigExitsWith3AndPointsToInit() throws {
        try withScratchDirectory { directory in
            let result = try CLI.run(["prepare", "--project", directory.path, "--json"])
            #expect(result.status == 3)
            #expect(result.error?["kind"] as? String == "config_missing")
            #expect((result.error?["hint"] as? String)?.contains("patchcli init") == true)
        }
    }
}
