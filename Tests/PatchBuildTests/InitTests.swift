import Foundation
@testable import PatchBuild
import PatchManifest
import PatchStore
import Testing

@Suite struct InitTests {
    @Test func swiftPackageTargetsAreReadFromTheManifestSyntax() throws {
        let detected = try ProjectDetector.swiftPackage(manifest: """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "Shop",
                targets: [
                    .target(name: "Core", dependencies: []),
                    .executableTarget(name: "ShopApp", dependencies: ["Core"], path: "App/Sources"),
                    .testTarget(name: "CoreTests", dependencies: ["Core"]),
                ]
            )
            """, path: "Package.swift", name: "folder")
        #expect(detected.name == "Shop")
        #expect(detected.targets == [.init(name: "Core", sourceRoots: ["Sources/Core"]), .init(name: "ShopApp", sourceRoots: ["App/Sources"])])
        #expect(detected.appTarget == "ShopApp")
    }

    @Test func xcodeProjectTargetsSourceFoldersAndInfoPlistAreRead() throws {
        let pbxproj = """
            // !$*UTF8*$!
            {
                archiveVersion = 1;
                objects = {
                    ROOT = {isa = PBXProject; mainGroup = MAIN; targets = (APP, TESTS, WIDGET); buildConfigurationList = PLIST0; };
                    MAIN = {isa = PBXGroup; children = (GAPP, GTESTS); sourceTree = "<group>"; };
                    GAPP = {isa = PBXGroup; children = (F1, GVIEWS); path = Shop; sourceTree = "<group>"; };
                    GVIEWS = {isa = PBXGroup; children = (F2); path = Views; sourceTree = "<group>"; };
                    GTESTS = {isa = PBXGroup; children = (F3); path = ShopTests; sourceTree = "<group>"; };
                    F1 = {isa = PBXFileReference; path = ShopApp.swift; sourceTree = "<group>"; };
                    F2 = {isa = PBXFileReference; path = Home.swift; sourceTree = "<group>"; };
                    F3 = {isa = PBXFileReference; path = ShopTests.swift; sourceTree = "<group>"; };
                    B1 = {isa = PBXBuildFile; fileRef = F1; };
                    B2 = {isa = PBXBuildFile; fileRef = F2; };
                    B3 = {isa = PBXBuildFile; fileRef = F3; };
                    SRC = {isa = PBXSourcesBuildPhase; files = (B1, B2); };
                    SRCT = {isa = PBXSourcesBuildPhase; files = (B3); };
                    SYNC = {isa = PBXFileSystemSynchronizedRootGroup; path = Widget; sourceTree = "<group>"; };
                    APP = {isa = PBXNativeTarget; name = Shop; productType = "com.apple.product-type.application"; buildPhases = (SRC); buildConfigurationList = LIST; };
                    TESTS = {isa = PBXNativeTarget; name = ShopTests; productType = "com.apple.product-type.bundle.unit-test"; buildPhases = (SRCT); };
                    WIDGET = {isa = PBXNativeTarget; name = Widget; productType = "com.apple.product-type.app-extension"; fileSystemSynchronizedGroups = (SYNC); buildPhases = (); };
                    LIST = {isa = XCConfigurationList; buildConfigurations = (DEBUG); };
                    DEBUG = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = "Shop/Info.plist"; }; name = Debug; };
                };
                rootObject = ROOT;
            }
            """
        let detected = try ProjectDetector.xcodeProject(pbxproj: Array(pbxproj.utf8), path: "Shop.xcodeproj")
        #expect(detected.name == "Shop")
        #expect(detected.targets == [
            .init(name: "Shop", sourceRoots: ["Shop"], infoPlist: "Shop/Info.plist"),
            .init(name: "Widget", sourceRoots: ["Widget"]),
        ])
        #expect(detected.appTarget == "Shop")
    }

    @Test func infoPlistGetsBackgroundKeysAndKeepsTheRest() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>CFBundleName</key><string>Shop</string>
                <key>UIBackgroundModes</key><array><string>audio</string><string>fetch</string></array>
            </dict>
            </plist>
            """
        let updated = try InfoPlistEditor.addingBackgroundUpdates(to: Array(plist.utf8), path: "Info.plist", taskIdentifier: "com.example.check", silentPush: true)
        let dictionary = try #require(try PropertyListSerialization.propertyList(from: Data(updated), format: nil) as? [String: Any])
        #expect(dictionary["CFBundleName"] as? String == "Shop")
        #expect(dictionary["UIBackgroundModes"] as? [String] == ["audio", "fetch", "processing", "remote-notification"])
        #expect(dictionary["BGTaskSchedulerPermittedIdentifiers"] as? [String] == ["com.example.check"])
        let again = try InfoPlistEditor.addingBackgroundUpdates(to: updated, path: "Info.plist", taskIdentifier: "com.example.check", silentPush: true)
        #expect(again == updated)
    }

    @Test func initPlansEverythingOnceAndNothingTheSecondTime() throws {
        let root = try Self.demoPackage()
        let home = root + "-home"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: home) }
        try Data(".build/".utf8).write(to: URL(fileURLWithPath: root + "/.gitignore"))

        let plan = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: home)
        #expect(plan.writes.map(\.path) == ["patch.json", "Sources/Demo/Patch/PatchPublicKey.generated.swift", ".gitignore"])
        // One key per TUF role, in the app's folder under the default key folder, recorded with `~`.
        #expect(plan.keyDirectory.path == home + "/.config/patch/keys/demo")
        #expect(plan.config.signing.keyDirectory == "~/.config/patch/keys/demo")
        #expect(plan.newKeys.map(\.role) == TUFRole.allCases)
        let rootKey = try #require(plan.newKeys.first { $0.role == .root }?.key)
        #expect(String(decoding: plan.writes[1].bytes, as: UTF8.self) == ProjectInitializer.publicKeyFile(root: rootKey.publicKey))
        #expect(String(decoding: plan.writes[1].bytes, as: UTF8.self).contains(rootKey.keyid))
        #expect(plan.launchCode.snippet.contains("Patch.configure(PatchConfiguration(appKey: \"demo\", fingerprint: PatchBuildFingerprint.value))"))
        #expect(String(decoding: plan.writes[2].bytes, as: UTF8.self) == ".build/\n# Patch: prepare's and init's saved originals, state and cache (patchcli init)\n.patch/originals/\n.patch/prepare-state.json\n.patch/cache/\n.patch/wiring-originals/\n.patch/wiring-state.json\n")
        try Self.apply(plan, root: root)
        let config = try ProjectSources.loadConfig(root: root)
        #expect(config.targets == [.init(name: "Demo", sourceRoots: ["Sources/Demo"])])
        for role in TUFRole.allCases {
            let attributes = try FileManager.default.attributesOfItem(atPath: plan.keyDirectory.privateKeyPath(role))
            #expect(attributes[.posixPermissions] as? Int == 0o600)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: plan.keyDirectory.path)[.posixPermissions] as? Int == 0o700)

        let second = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: home)
        #expect(second.writes.isEmpty)
        #expect(second.newKeys.isEmpty)
    }

    /// The one key a patchcli before the key directory kept, at `~/old/demo.ed25519`.
    private static func legacyKey(home: String) throws -> SigningKey {
        let key = SigningKey.generate()
        try FileManager.default.createDirectory(atPath: home + "/old", withIntermediateDirectories: true)
        try Data(key.keyFileText.utf8).write(to: URL(fileURLWithPath: home + "/old/demo.ed25519"))
        return key
    }

    /// A patch.json of a patchcli before the key directory names one key (`signing.privateKeyPath`):
    /// `init` keeps it as the root key, so the public key the app embeds stays the trust anchor.
    @Test func initMovesAnOlderSingleKeyIntoTheKeyDirectoryAsTheRootKey() throws {
        let root = try Self.demoPackage()
        let home = root + "-home"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: home) }
        let legacy = try Self.legacyKey(home: home)
        try Data(#"{"appKey":"demo","apiBaseURL":"https://api.patchrelease.com/api/v1","appTarget":"Demo","channel":"production","project":{"kind":"swiftpm","path":"Package.swift"},"signing":{"privateKeyPath":"~/old/demo.ed25519","publicKeyFile":"Sources/Demo/Patch/PatchPublicKey.generated.swift"},"targets":[{"name":"Demo","sourceRoots":["Sources/Demo"]}],"version":1}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/patch.json"))
        #expect(try ProjectSources.loadConfig(root: root).signing.privateKeyPath == "~/old/demo.ed25519")

        let plan = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: home)
        #expect(plan.migratedKey == "~/old/demo.ed25519")
        #expect(plan.newKeys.first { $0.role == .root }?.key.keyid == legacy.keyid)
        #expect(plan.newKeys.filter { $0.key.keyid == legacy.keyid }.count == 1)
        #expect(plan.config.signing.keyDirectory == "~/.config/patch/keys/demo")
        #expect(plan.config.signing.privateKeyPath == nil)
        let written = try #require(plan.writes.first { $0.path == "patch.json" })
        #expect(!String(decoding: written.bytes, as: UTF8.self).contains("privateKeyPath"))
        #expect(plan.writes.contains { $0.path.hasSuffix("PatchPublicKey.generated.swift") && String(decoding: $0.bytes, as: UTF8.self).contains(legacy.keyid) })
    }

    /// `init --force` rewrites patch.json but keeps the keys: an older single key still becomes the
    /// root key (the one shipped apps embed), and a key directory of the old file stays in use.
    @Test func initForceKeepsTheSigningKeys() throws {
        let root = try Self.demoPackage()
        let home = root + "-home"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: home) }
        let legacy = try Self.legacyKey(home: home)
        // Malformed otherwise (no targets): what `--force` is for.
        try Data(#"{"appKey":"demo","signing":{"privateKeyPath":"~/old/demo.ed25519","publicKeyFile":"Sources/Demo/Patch/PatchPublicKey.generated.swift"},"version":1}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/patch.json"))
        #expect(throws: InitError.self) { try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: home) }

        let forced = try ProjectInitializer.plan(InitOptions(root: root, force: true), homeDirectory: home)
        #expect(forced.migratedKey == "~/old/demo.ed25519")
        #expect(forced.newKeys.first { $0.role == .root }?.key.keyid == legacy.keyid)
        #expect(forced.config.signing.privateKeyPath == nil)
        try Self.apply(forced, root: root)

        // A key directory elsewhere than the default, named by the old file, is kept too.
        let moved = home + "/elsewhere"
        try FileManager.default.moveItem(atPath: forced.keyDirectory.path, toPath: moved)
        var config = try ProjectSources.loadConfig(root: root)
        config.signing.keyDirectory = moved
        try Data(config.encoded()).write(to: URL(fileURLWithPath: root + "/patch.json"))
        let again = try ProjectInitializer.plan(InitOptions(root: root, force: true), homeDirectory: home)
        #expect(again.keyDirectory.path == moved)
        #expect(again.newKeys.isEmpty)
        #expect(try again.keyDirectory.privateKey(.root)?.keyid == legacy.keyid)
    }

    /// A root key kept offline (only root.pub.json in the folder) is never replaced, and the app
    /// keeps embedding it.
    @Test func anOfflineRootKeyIsNeverReplaced() throws {
        let root = try Self.demoPackage()
        let home = root + "-home"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: home) }
        let first = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: home)
        try Self.apply(first, root: root)
        let rootKey = try #require(first.newKeys.first { $0.role == .root }?.key)
        try FileManager.default.removeItem(atPath: first.keyDirectory.privateKeyPath(.root))
        try FileManager.default.removeItem(atPath: first.keyDirectory.privateKeyPath(.timestamp))
        try FileManager.default.removeItem(atPath: first.keyDirectory.publicKeyPath(.timestamp))

        let again = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: home)
        #expect(again.newKeys.map(\.role) == [.timestamp], "a key missing with its public half is made again, an offline root key is not")
        #expect(again.writes.isEmpty, "the public key file still embeds \(rootKey.keyid)")
    }

    /// A SwiftPM package with one executable target and one view.
    static func demoPackage() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("init-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/Sources/Demo", withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"Demo\", targets: [.executableTarget(name: \"Demo\")])\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/Package.swift"))
        try Data("struct Home: View { var body: some View { Text(\"x\") } }\n".utf8).write(to: URL(fileURLWithPath: root + "/Sources/Demo/Home.swift"))
        return root
    }

    /// Writes what `plan` asks for, as the CLI does: the keys, then the files.
    private static func apply(_ plan: InitPlan, root: String) throws {
        try plan.keyDirectory.write(plan.newKeys)
        for write in plan.writes {
            let path = root + "/" + write.path
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(write.bytes).write(to: URL(fileURLWithPath: path))
        }
    }
}

@Suite struct ConfigSchemaTests {
    /// docs/patch-config.schema.json lists exactly the keys patch.json has, and its required ones.
    @Test func schemaMatchesTheConfigFile() throws {
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/patch-config.schema.json").standardizedFileURL
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        var config = ProjectConfig(
            appKey: "k", appID: "id", apiBaseURL: "u", channel: "c", project: .init(kind: .xcodeProject, path: "A.xcodeproj"),
            targets: [.init(name: "A", sourceRoots: ["A"], infoPlist: "A/Info.plist", manifest: "Packages/A/Package.swift")], appTarget: "A",
            include: [], exclude: [], patchableFunctions: [], signing: .init(keyDirectory: "p", publicKeyFile: "f"), schema: "s")
        config.build = .init(swiftSDK: "swift-6.2-RELEASE_wasm-embedded", swiftSDKsPath: "/sdks", wasmOpt: .always)
        config.sdk = .init(url: "https://example.com/patch-swift", version: "1.5.0")
        config.platforms = [.iOS, .macOS]
        config.assets = .init(roots: ["A"], configFiles: [.init(path: "A/features.json", schema: "A/features.schema.json")])
        let encoded = try #require(try JSONSerialization.jsonObject(with: Data(config.encoded())) as? [String: Any])
        #expect(Set(encoded.keys) == Set(properties.keys))
        let buildSchema = try #require((properties["build"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(try #require(encoded["build"] as? [String: Any]).keys) == Set(buildSchema.keys))
        #expect(try ProjectConfig.decode(config.encoded(), path: "patch.json").build == config.build)
        let sdkSchema = try #require((properties["sdk"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(try #require(encoded["sdk"] as? [String: Any]).keys) == Set(sdkSchema.keys))
        let targetSchema = try #require(((properties["targets"] as? [String: Any])?["items"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(try #require((encoded["targets"] as? [[String: Any]])?.first).keys) == Set(targetSchema.keys))
        #expect(try ProjectConfig.decode(config.encoded(), path: "patch.json") == config)
        // An sdk object without a field takes that field's default.
        var partial = encoded
        partial["sdk"] = ["version": "2.0.0"]
        let partialConfig = try ProjectConfig.decode(Array(try JSONSerialization.data(withJSONObject: partial)), path: "patch.json")
        #expect(partialConfig.sdkPackage == .init(url: ProjectConfig.SDKPackage.defaultURL, version: "2.0.0"))
        let required = try #require(schema["required"] as? [String])
        var minimal = encoded
        for key in encoded.keys where !required.contains(key) { minimal[key] = nil }
        let minimalBytes = Array(try JSONSerialization.data(withJSONObject: minimal))
        #expect(throws: Never.self) { try ProjectConfig.decode(minimalBytes, path: "patch.json") }
    }

    @Test func invalidConfigsNameTheField() {
        #expect(throws: ProjectConfig.LoadError.self) { try ProjectConfig.decode(Array("{}".utf8), path: "patch.json") }
        do {
            _ = try ProjectConfig.decode(Array(#"{"version":1,"appKey":"k","apiBaseURL":"u","channel":"c","project":{"kind":"swiftpm","path":"P"},"targets":[{"name":"A","sourceRoots":["A"]}],"appTarget":"B","signing":{"privateKeyPath":"p","publicKeyFile":"f"}}"#.utf8), path: "patch.json")
            Issue.record("an appTarget outside targets was accepted")
        } catch {
            #expect(error.description.contains("\"appTarget\""))
        }
        do {
            _ = try ProjectConfig.decode(Array(#"{"version":1,"appKey":"k","apiBaseURL":"u","channel":"c","project":{"kind":"swiftpm","path":"P"},"targets":[{"name":"A","sourceRoots":[]}],"appTarget":"A","signing":{"privateKeyPath":"p","publicKeyFile":"f"}}"#.utf8), path: "patch.json")
            Issue.record("a target without source roots was accepted")
        } catch {
            #expect(error.description.contains("targets[0].sourceRoots"))
        }
        do {
            _ = try ProjectConfig.decode(Array(#"{"version":1,"appKey":"k","apiBaseURL":"u","channel":"c","project":{"kind":"swiftpm","path":"P"},"targets":[{"name":"A","sourceRoots":["A"]}],"appTarget":"A","signing":{"publicKeyFile":"f"}}"#.utf8), path: "patch.json")
            Issue.record("a config naming no signing keys was accepted")
        } catch {
            #expect(error.description.contains("\"signing.keyDirectory\"") && error.description.contains("patchcli init"))
        }
    }
}

@Suite struct UtilityTests {
    @Test func globsMatchComponentsAndDoubleStars() {
        #expect(Glob("**/*.swift").matches("Sources/App/A.swift"))
        #expect(Glob("**/*.swift").matches("A.swift"))
        #expect(Glob("Sources/*/A?.swift").matches("Sources/App/AB.swift"))
        #expect(!Glob("Sources/*.swift").matches("Sources/App/A.swift"))
        #expect(Glob("**/Tests/**").matches("Sources/Tests/x/y.swift"))
        #expect(!Glob("**/Tests/**").matches("Sources/App/Tests.swift"))
    }

    @Test func unifiedDiffShowsReplacedLinesWithContext() {
        let diff = UnifiedDiff.make(path: "A.swift", old: Array("a\nb\nc\nd\ne\nf\ng\n".utf8), new: Array("a\nb\nc\nD\ne\nf\ng\n".utf8))
        #expect(diff == "--- a/A.swift\n+++ b/A.swift\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n")
        #expect(UnifiedDiff.make(path: "N.swift", old: nil, new: Array("x\n".utf8)) == "--- /dev/null\n+++ b/N.swift\n@@ -0,0 +1,1 @@\n+x\n")
    }
}
