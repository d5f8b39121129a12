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
            #expect(first.result?["views"] as? Int == 18)
            // `init` writes `routing: all`: the 5 marked functions and the 9 unmarked functions, methods,
            // computed properties and initializers prepare can route, and the 6 methods and computed
            // properties of the `@Observable` class CartViewModel, and CatalogScreen's `visibleProducts`
            // (a view's helper: its `@State` category travels in a copy of the view).
            #expect(first.result?["functions"] as? Int == 21)
            #expect(first.result?["created_keys"] as? [String] == ["root", "targets", "snapshot", "timestamp"])
            let keyAttributes = try FileManager.default.attributesOfItem(atPath: keys + "/targets.key")
            #expect((keyAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let second = try CLI.run(["init", "--project", project.path, "--key-dir", keys])
            #expect(second.status == 0)
            #expect(second.stdout.contains("already set up: nothing changed"))
            let check = try CLI.run(["prepare", "--project", project.path, "--check"])
            #expect(check.status == 0)
        }
    }

    /// The report's times nest: parsing (on the wall clock) within planning within the whole run,
    /// and parsing on the wall clock within parsing summed over files.
    @Test func reportedParseTimeIsWallClockAndWithinTheRun() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path]).status == 0)
            // Without the scan cache every file is parsed again.
            try FileManager.default.removeItem(at: project.appendingPathComponent(".patch/cache"))
            let result = try CLI.run(["prepare", "--project", project.path, "--json"])
            #expect(result.status == 0, "\(result.stdout)")
            let report = try #require(result.result)
            let parse = try #require(report["parse_seconds"] as? Double)
            let parseCPU = try #require(report["parse_cpu_seconds"] as? Double)
            let plan = try #require(report["plan_seconds"] as? Double)
            let seconds = try #require(report["seconds"] as? Double)
            #expect(report["files_parsed"] as? Int ?? 0 > 0)
            #expect(parse > 0 && parse <= parseCPU, "\(report)")
            #expect(parse <= plan && plan <= seconds, "\(report)")
        }
    }

    @Test func checkFailsWith30AndDryRunShowsTheDiffWithoutWriting() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path]).status == 0)
            // The baseline still matches (no declaration changed), but a generated file is gone.
            let fingerprint = project.appendingPathComponent("Sources/PatchShop/Patch/PatchFingerprint.generated.swift")
            try FileManager.default.removeItem(at: fingerprint)
            let before = try snapshot(project)

            let check = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(check.status == 30)
            #expect(check.error?["kind"] as? String == "prepare_needed")
            #expect((check.error?["message"] as? String)?.contains("Sources/PatchShop/Patch/PatchFingerprint.generated.swift") == true)

            let dryRun = try CLI.run(["prepare", "--project", project.path, "--dry-run"])
            #expect(dryRun.status == 0)
            #expect(dryRun.stdout.contains("+++ b/Sources/PatchShop/Patch/PatchFingerprint.generated.swift"))
            #expect(try snapshot(project) == before)
        }
    }

    /// Each way a prepared project can fail the gate has its own kind and exit code, and a branch that
    /// changed code is told it is a patch (build it), never to run prepare.
    @Test func checkTellsAPatchBranchFromStaleOrMissingPreparation() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path]).status == 0)
            let file = project.appendingPathComponent("Sources/PatchShop/CartScreen.swift")
            let prepared = try Data(contentsOf: file)
            let edited = String(decoding: prepared, as: UTF8.self)
                .replacingOccurrences(of: "struct TotalsView: View {", with: "struct TotalsView: View {\n    var body: some View { EmptyView() }\n}\nstruct NewView: View {")
            #expect(edited != String(decoding: prepared, as: UTF8.self))
            try Data(edited.utf8).write(to: file)

            let patch = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(patch.status == 52)
            #expect(patch.error?["kind"] as? String == "sources_changed")
            #expect((patch.error?["message"] as? String)?.contains("PatchShop:NewView") == true)
            let hint = patch.error?["hint"] as? String ?? ""
            #expect(hint.contains("patchcli build") && !hint.contains("run `patchcli prepare`"))
            try prepared.write(to: file)

            let routing = project.appendingPathComponent("Sources/PatchShop/Patch/PatchThunks-Sources_PatchShop.generated.swift")
            let routingBytes = try Data(contentsOf: routing)
            var broken = String(decoding: routingBytes, as: UTF8.self).components(separatedBy: "\n")
            let brokenLine = try #require(broken.firstIndex { $0.contains("if let __p = Patch.shared.thunkBody") })
            broken[brokenLine] = broken[brokenLine].replacingOccurrences(of: "if let __p", with: "if let")
            try Data(broken.joined(separator: "\n").utf8).write(to: routing)
            let unparsable = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(unparsable.status == 53)
            #expect(unparsable.error?["kind"] as? String == "generated_unparsable")
            #expect((unparsable.error?["message"] as? String)?.hasPrefix("Sources/PatchShop/Patch/PatchThunks-Sources_PatchShop.generated.swift:\(brokenLine + 1): ") == true,
                    "\(unparsable.error ?? [:])")
            try routingBytes.write(to: routing)

            let baseline = project.appendingPathComponent(".patch/baseline.json")
            let baselineBytes = try Data(contentsOf: baseline)
            try Data("{}".utf8).write(to: baseline)
            let stale = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(stale.status == 51)
            #expect(stale.error?["kind"] as? String == "baseline_stale")

            try FileManager.default.removeItem(at: baseline)
            let missing = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(missing.status == 50)
            #expect(missing.error?["kind"] as? String == "not_prepared")

            try baselineBytes.write(to: baseline)
            #expect(try CLI.run(["prepare", "--project", project.path, "--check"]).status == 0)
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
            for path in ["patch.json", ".gitignore", "Sources/PatchShop/Patch/PatchPublicKey.generated.swift"] {
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
            for path in ["patch.json", ".gitignore", "Sources/PatchShop/Patch/PatchPublicKey.generated.swift"] {
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

    /// A rewritten file keeps its mode, and `--revert` both restores it and removes the `Patch/`
    /// folder prepare created (here init's key file is moved out first, so prepare creates the folder).
    @Test func modesAreKeptAndRevertRemovesCreatedFolders() throws {
        try withScratchDirectory { directory in
            let project = try copyExample(into: directory)
            let keys = directory.appendingPathComponent("keys").path
            #expect(try CLI.run(["init", "--project", project.path, "--key-dir", keys]).status == 0)
            #expect(try CLI.run(["prepare", "--project", project.path, "--revert"]).status == 0)
            let patchFolder = project.appendingPathComponent("Sources/PatchShop/Patch").path
            try FileManager.default.removeItem(atPath: patchFolder)
            let source = project.appendingPathComponent("Sources/PatchShop/CartScreen.swift").path
            try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: source)
            func mode() throws -> Int? { (try FileManager.default.attributesOfItem(atPath: source)[.posixPermissions] as? NSNumber)?.intValue }

            #expect(try CLI.run(["prepare", "--project", project.path]).status == 0)
            #expect(FileManager.default.fileExists(atPath: patchFolder + "/PatchThunks-Sources_PatchShop.generated.swift"))
            #expect(try mode() == 0o750)
            let revert = try CLI.run(["prepare", "--project", project.path, "--revert"])
            #expect(revert.status == 0, "\(revert.stderr)")
            #expect(try mode() == 0o750)
            #expect(!FileManager.default.fileExists(atPath: patchFolder))
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

    @Test func initWithoutAProjectExitsWith3() throws {
        try withScratchDirectory { directory in
            let result = try CLI.run(["init", "--project", directory.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(result.status == 3, "\(result.stdout)")
            #expect(result.error?["kind"] as? String == "no_project")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("patch.json").path))
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
