import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Assets shipping as a resource overlay (docs/assets.md), end to end through the CLI on copies of
/// Examples/PatchShop: prepare records the assets, build ships what changed as `POVR[PROV, inner]`,
/// release publishes it, serve offers it, and `run --overlay` reads the downloaded artifact.
@Suite(.serialized) struct AssetsCLITests {
    static let resources = "Sources/PatchShop/Resources"
    static let brandColor = resources + "/Assets.xcassets/Brand.colorset/Contents.json"
    static let portuguese = resources + "/pt-BR.lproj/Localizable.strings"

    /// The example with an asset catalog, two localizations and a string catalog with a plural,
    /// prepared so the baseline records them.
    static func exampleWithAssets(in directory: URL) throws -> URL {
        let project = try BuildCLITests.initializedExample(in: directory)
        try write(project, brandColor, colorSet(red: "0xFF", green: "0x80", blue: "0x00"))
        try write(project, resources + "/en.lproj/Localizable.strings", "/* Checkout */\n\"checkout.title\" = \"Checkout\";\n\"cart.count\" = \"%d items\";\n")
        try write(project, portuguese, "\"checkout.title\" = \"Finalizar\";\n\"cart.count\" = \"%d itens\";\n")
        try write(project, resources + "/Catalog.xcstrings", catalog(other: "%lld birds"))
        let prepared = try CLI.run(["prepare", "--project", project.path])
        guard prepared.status == 0 else { throw BuildTestFailure(description: "prepare failed: \(prepared.stdout) \(prepared.stderr)") }
        return project
    }

    @Test func anAssetOnlyChangeShipsAsAnOverlayThroughReleaseAndServe() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = try Self.exampleWithAssets(in: directory)
        let baseline = try String(contentsOf: project.appendingPathComponent(".patch/baseline.json"), encoding: .utf8)
        #expect(baseline.hasPrefix(#"{"assets":[{"file":"Sources/PatchShop/Resources/Assets.xcassets/Brand.colorset/Contents.json""#))
        #expect(try CLI.run(["build", "--project", project.path]).status == 34)

        // A new brand color with a dark variant, a new Portuguese title, a new image; a plural edited.
        try Self.write(project, Self.brandColor, Self.colorSet(red: "0x00", green: "0x66", blue: "0xCC", dark: true))
        try Self.write(project, Self.portuguese, "\"checkout.title\" = \"Pagar agora\";\n\"cart.count\" = \"%d itens\";\n")
        try Self.write(project, Self.resources + "/Assets.xcassets/Hero.imageset/Contents.json",
                       #"{"images":[{"filename":"hero.png","idiom":"universal","scale":"2x"}],"info":{"author":"xcode","version":1}}"#)
        try Data(Self.png).write(to: project.appendingPathComponent(Self.resources + "/Assets.xcassets/Hero.imageset/hero.png"))
        try Self.write(project, Self.resources + "/Catalog.xcstrings", Self.catalog(other: "%lld little birds"))

        // CI's gate sees a patch branch, not a stale baseline.
        let check = try CLI.run(["prepare", "--check", "--project", project.path, "--json"])
        #expect(check.status == 52, "\(check.stdout)")
        #expect(check.errorText.contains("color:Brand"), "\(check.stdout)")

        let build = try CLI.run(["build", "--project", project.path, "--json"])
        EnvelopeSchemaCLITests.expectEnvelope(build, command: "build", succeeds: true, EnvelopeSchemaCLITests.Coverage())
        let result = try #require(build.result)
        let assets = try #require(result["assets"] as? [[String: Any]])
        #expect(assets.map { $0["id"] as? String } == ["color:Brand", "image:Hero", "string:pt-BR:Localizable:checkout.title"])
        #expect(assets.map { $0["change"] as? String } == ["modified", "added", "modified"])
        let unshippable = try #require(result["unshippable_assets"] as? [[String: Any]])
        #expect(unshippable.map { $0["key"] as? String } == ["en:%lld birds"])
        let artifact = try #require(result["artifact"] as? [String: Any])
        #expect(artifact["inner"] as? String == "asset-only")
        #expect(artifact["inner_bytes"] as? Int == 25)
        // No code changed: no module, only the artifact.
        #expect(result["module_bytes"] == nil)
        let artifactPath = project.appendingPathComponent(".patch/build/artifact/patch.povr").path
        #expect(FileManager.default.fileExists(atPath: artifactPath))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".patch/build/module.wasm").path))
        let human = try CLI.run(["build", "--project", project.path])
        #expect(human.stdout.contains("asset         Sources/PatchShop/Resources/pt-BR.lproj/Localizable.strings  string:pt-BR:Localizable:checkout.title  [modified] Pagar agora"), "\(human.stdout)")
        #expect(human.stdout.contains("asset-native  Sources/PatchShop/Resources/Catalog.xcstrings: en:%lld birds: plural/device variations"), "\(human.stdout)")

        // The 25-byte inner module activates as on a device, and the overlay reads back.
        let activated = try CLI.run(["run", artifactPath, "--json"])
        #expect(activated.status == 0, "\(activated.stdout)")
        #expect(activated.result?["layers"] as? [String] == ["POVR", "wasm"])
        try Self.expectOverlay(of: artifactPath, in: directory)

        // release --dry-run lists each asset's bytes; the real release; serve offers it.
        try ReleaseCommandTests.prepare(directory)
        let dryRun = try CLI.run(["release", artifactPath, "--store", "store", "--key-dir", "keys", "--dry-run"], in: directory)
        #expect(dryRun.status == 0, "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("overlay"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains(" B  image:Hero"), "\(dryRun.stdout)")
        let dryRunJSON = try CLI.run(["release", artifactPath, "--store", "store", "--key-dir", "keys", "--dry-run", "--json"], in: directory)
        EnvelopeSchemaCLITests.expectEnvelope(dryRunJSON, command: "release", succeeds: true, EnvelopeSchemaCLITests.Coverage())
        let composition = try #require(dryRunJSON.result?["artifact"] as? [String: Any])
        #expect((composition["assets"] as? [[String: Any]])?.first?["id"] as? String == "image:Hero")
        #expect(composition["inner_bytes"] as? Int == 25)
        let tooLarge = try CLI.run(["release", artifactPath, "--store", "store", "--key-dir", "keys", "--max-artifact-bytes", "100", "--json"], in: directory)
        #expect(tooLarge.status == 57)
        #expect(tooLarge.error?["kind"] as? String == "artifact_too_large")
        let published = try CLI.run(["release", artifactPath, "--store", "store", "--key-dir", "keys", "--json"], in: directory)
        #expect(published.status == 0, "\(published.stdout)")
        let record = try #require((published.result?["records"] as? [[String: Any]])?.first)
        let fingerprint = try #require(record["fingerprint"] as? String)

        let (server, base) = try ServeCommandTests.startServer(in: directory)
        defer { if server.isRunning { server.terminate() } }
        var request = URLRequest(url: URL(string: base + "/api/v1/modules/check")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"current_version":"0.0.0","fingerprint":"\#(fingerprint)","device_id":"d1","sdk_version":"1.4.0","channel":"production","app_key":"patchshop"}"#.utf8)
        let (answer, _) = try await URLSession.shared.data(for: request)
        let update = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        #expect(update["has_update"] as? Bool == true, "\(String(decoding: answer, as: UTF8.self))")
        let moduleURL = try #require((update["module_url"] as? String).flatMap(URL.init(string:)))
        let (downloaded, _) = try await URLSession.shared.data(from: moduleURL)
        server.terminate()
        server.waitUntilExit()
        let downloadPath = directory.appendingPathComponent("downloaded.br").path
        try downloaded.write(to: URL(fileURLWithPath: downloadPath))
        // The download is brotli; run decodes it and checks the update's sha256 as a device does.
        let sha256 = try #require(update["sha256"] as? String)
        try Self.expectOverlay(of: downloadPath, in: directory, extra: ["--sha256", sha256])
    }

    @Test func codeAndAssetsShipAsOneArtifact() throws {
        try withScratchDirectory { directory in
            let project = try Self.exampleWithAssets(in: directory)
            try BuildCLITests.edit(project, BuildCLITests.shippingFile, replacing: "case .domestic: return subtotal.cents >= 5_000",
                                   with: "case .domestic: return subtotal.cents >= 3_000")
            try Self.write(project, Self.brandColor, Self.colorSet(red: "0x00", green: "0x00", blue: "0x00"))
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)")
            let artifact = try #require(build.result?["artifact"] as? [String: Any])
            #expect(artifact["inner"] as? String == "module.wasm")
            #expect(artifact["inner_bytes"] as? Int == build.result?["module_bytes"] as? Int)
            let artifactPath = project.appendingPathComponent(".patch/build/artifact/patch.povr").path
            // The artifact's module answers the thunk's call; its overlay carries the color.
            let call = try CLI.run(["run", artifactPath, BuildCLITests.shippingExport, "--input", BuildCLITests.shippingCall])
            #expect(call.status == 0, "\(call.stdout) \(call.stderr)")
            #expect(call.stdout.contains(#""cents": 0"#), "\(call.stdout)")
            // artifact/manifest.json gives run (and release) the artifact's sha256 and the module's probes.
            #expect(try CLI.run(["run", artifactPath, "--smoke"]).status == 0)
            let color = try CLI.run(["run", artifactPath, "--lookup-color", "Brand"])
            #expect(color.stdout.hasPrefix("#000000"), "\(color.stdout)")
        }
    }

    @Test func aBadAssetStopsTheBuildWithFileKeyAndReasonAndWritesNothing() throws {
        try withScratchDirectory { directory in
            let project = try Self.exampleWithAssets(in: directory)
            try Self.write(project, Self.portuguese, "\"checkout.title\" = \"Finalizar\";\n\"cart.count\" = \"%@ itens\";\n")
            try Self.write(project, Self.resources + "/Assets.xcassets/Broken.imageset/Contents.json", #"{"images":[{"filename":"b.png","idiom":"universal","scale":"1x"}]}"#)
            var corrupt = Self.png
            corrupt[30] ^= 0xFF
            try Data(corrupt).write(to: project.appendingPathComponent(Self.resources + "/Assets.xcassets/Broken.imageset/b.png"))
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 56, "\(build.stdout)")
            EnvelopeSchemaCLITests.expectEnvelope(build, command: "build", succeeds: false, EnvelopeSchemaCLITests.Coverage())
            #expect((build.result?["invalid_assets"] as? [[String: Any]])?.count == 2)
            #expect(build.error?["kind"] as? String == "asset_invalid")
            let detail = try #require(build.error?["detail"] as? String)
            #expect(detail.contains("Sources/PatchShop/Resources/Assets.xcassets/Broken.imageset/b.png: Broken: PNG chunk IHDR at offset 8 has CRC"), "\(detail)")
            #expect(detail.contains("cart.count: format specifiers differ between locales: en has %1$d, pt-BR has %1$@"), "\(detail)")
            #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".patch/build/artifact").path))
        }
    }

    /// A real app has long-standing problems (ACHNBrowserUI's strings repeat keys, Swiftfin's
    /// translations drop arguments): they do not block a patch that leaves them alone.
    @Test func anAssetBrokenSinceTheBaselineWarnsUntilItIsEdited() throws {
        try withScratchDirectory { directory in
            let project = try BuildCLITests.initializedExample(in: directory)
            let french = Self.resources + "/fr.lproj/Localizable.strings"
            try Self.write(project, french, "\"checkout.title\" = \"Payer\";\n\"checkout.title\" = \"Commander\";\n")
            try Self.write(project, Self.brandColor, Self.colorSet(red: "0xFF", green: "0x80", blue: "0x00"))
            let prepared = try CLI.run(["prepare", "--project", project.path])
            #expect(prepared.status == 0)
            #expect(prepared.stdout.contains("warning: invalid asset (recorded as it is; fix it before a patch edits it): \(french):2: checkout.title: duplicate key (first at line 1)"), "\(prepared.stdout)")
            try Self.write(project, Self.brandColor, Self.colorSet(red: "0x00", green: "0x80", blue: "0x00"))
            let build = try CLI.run(["build", "--project", project.path])
            #expect(build.status == 0, "\(build.stdout)")
            #expect(build.stdout.contains("warning: asset invalid since the baseline, not shipped: \(french):2: checkout.title: duplicate key (first at line 1)"), "\(build.stdout)")
            try Self.write(project, french, "\"checkout.title\" = \"Payer\";\n\"checkout.title\" = \"Régler\";\n")
            #expect(try CLI.run(["build", "--project", project.path]).status == 56)
        }
    }

    @Test func anArtifactOverTheLimitIsNotWritten() throws {
        try withScratchDirectory { directory in
            let project = try Self.exampleWithAssets(in: directory)
            try Self.write(project, Self.portuguese, "\"checkout.title\" = \"Pagar\";\n\"cart.count\" = \"%d itens\";\n")
            let build = try CLI.run(["build", "--project", project.path, "--max-artifact-bytes", "40", "--json"])
            #expect(build.status == 57, "\(build.stdout)")
            EnvelopeSchemaCLITests.expectEnvelope(build, command: "build", succeeds: false, EnvelopeSchemaCLITests.Coverage())
            #expect(build.error?["kind"] as? String == "artifact_too_large")
            #expect((build.error?["message"] as? String)?.contains("largest assets: string:pt-BR:Localizable:checkout.title") == true)
            #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".patch/build/artifact/patch.povr").path))
            #expect(try CLI.run(["build", "--project", project.path, "--max-artifact-bytes", "4096"]).status == 0)
        }
    }

    @Test func runOverlaySaysWhenThereIsNoneOrItIsMalformed() throws {
        try withScratchDirectory { directory in
            // The asset-only inner module: header, one memory, `memory` exported.
            let module: [UInt8] = [0, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6] + Array("memory".utf8) + [2, 0]
            try Data(module).write(to: directory.appendingPathComponent("plain.wasm"))
            let plain = try CLI.run(["run", "plain.wasm", "--overlay", "--json"], in: directory)
            #expect(plain.status == 4)
            #expect(plain.error?["kind"] as? String == "no_overlay")
            // A PROV chunk of version 2: a device installs no overlay; run says which field.
            let chunk = Array("PROV".utf8) + [2, 0, 0, 0] + [UInt8](repeating: 0, count: 12)
            func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
            let envelope = Array("POVR".utf8) + [1, 0, 0, 0] + u32(chunk.count) + chunk + u32(module.count) + module
            try Data(envelope).write(to: directory.appendingPathComponent("bad.povr"))
            let bad = try CLI.run(["run", "bad.povr", "--overlay", "--json"], in: directory)
            #expect(bad.status == 4)
            #expect((bad.error?["message"] as? String)?.contains("PROV version 2 at offset 4 is not supported") == true, "\(bad.stdout)")
            // The module itself still activates, as on a device.
            #expect(try CLI.run(["run", "bad.povr"], in: directory).status == 0)
        }
    }

    // MARK: helpers

    /// `run --overlay` and the lookups on an artifact of the first test.
    static func expectOverlay(of path: String, in directory: URL, extra: [String] = []) throws {
        let overlay = try CLI.run(["run", path, "--overlay", "--json"] + extra, in: directory)
        EnvelopeSchemaCLITests.expectEnvelope(overlay, command: "run", succeeds: true, EnvelopeSchemaCLITests.Coverage())
        #expect((overlay.result?["colors"] as? [[String: Any]])?.first?["light"] as? [Double] == [0, 0.4, 0.8, 1])
        let colors = try #require(overlay.result?["colors"] as? [[String: Any]])
        #expect(colors.map { $0["hex"] as? String } == ["#0066CC"])
        #expect(colors.first?["dark_hex"] as? String == "#101820")
        let images = try #require(overlay.result?["images"] as? [[String: Any]])
        #expect(images.first?["width"] as? Int == 1)
        #expect(images.first?["scale"] as? Int == 2)
        let text = try CLI.run(["run", path, "--overlay"] + extra, in: directory)
        #expect(text.stdout.contains("string  pt-BR  [Localizable]  checkout.title = Pagar agora"), "\(text.stdout)")
        #expect(text.stdout.contains("image   Hero  @2x image/png  1×1 px, \(png.count) bytes"), "\(text.stdout)")
        // The SDK's chain: pt-BR has the override; a device preferring pt tries pt then the base, neither has it.
        let lookup = try CLI.run(["run", path, "--lookup-string", "checkout.title", "--locale", "pt-BR", "--json"] + extra, in: directory)
        EnvelopeSchemaCLITests.expectEnvelope(lookup, command: "run", succeeds: true, EnvelopeSchemaCLITests.Coverage())
        #expect((lookup.result?["lookup"] as? [String: Any])?["value"] as? String == "Pagar agora")
        let miss = try CLI.run(["run", path, "--lookup-string", "checkout.title", "--locale", "pt", "--json"] + extra, in: directory)
        #expect((miss.result?["lookup"] as? [String: Any])?["found"] as? Bool == false)
        let otherTable = try CLI.run(["run", path, "--lookup-string", "checkout.title", "--locale", "pt-BR", "--table", "Settings", "--json"] + extra, in: directory)
        #expect((otherTable.result?["lookup"] as? [String: Any])?["found"] as? Bool == false)
        let dark = try CLI.run(["run", path, "--lookup-color", "Brand", "--dark"] + extra, in: directory)
        #expect(dark.stdout.hasPrefix("#101820"), "\(dark.stdout)")
    }

    static func write(_ project: URL, _ path: String, _ text: String) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// A colorset as Xcode writes it (hex byte components), with a dark variant when asked.
    static func colorSet(red: String, green: String, blue: String, dark: Bool = false) -> String {
        let any = #"{"color":{"color-space":"srgb","components":{"alpha":"1.000","blue":"\#(blue)","green":"\#(green)","red":"\#(red)"}},"idiom":"universal"}"#
        // Dark mode: #101820.
        let darkVariant = #",{"appearances":[{"appearance":"luminosity","value":"dark"}],"color":{"color-space":"srgb","components":{"alpha":"1.000","blue":"0x20","green":"0x18","red":"0x10"}},"idiom":"universal"}"#
        return #"{"colors":[\#(any)\#(dark ? darkVariant : "")],"info":{"author":"xcode","version":1}}"#
    }

    static func catalog(other: String) -> String {
        #"{"sourceLanguage":"en","version":"1.0","strings":{"%lld birds":{"localizations":{"en":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld bird"}},"other":{"stringUnit":{"state":"translated","value":"\#(other)"}}}}}}}}}"#
    }

    /// A 1×1 RGBA PNG.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
}
