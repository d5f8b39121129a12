import Foundation
@testable import PatchBuild
import PatchManifest
import ProjectWiring
import Testing

/// Multiplatform apps (docs/prepare.md "Platforms"): which platforms a project ships for, the `#if`
/// branches each platform's build compiles, the baseline's record of them and one fingerprint per
/// platform's binary.
@Suite struct PlatformTests {
    static let shared = """
        import SwiftUI

        #if os(macOS)
        struct MacOnly {}
        #elseif os(iOS)
        struct PhoneOrCatalyst {}
        #endif
        #if canImport(AppKit)
        struct AppKitImportable {}
        #endif
        #if canImport(UIKit)
        struct UIKitImportable {}
        #endif
        #if targetEnvironment(macCatalyst)
        struct CatalystOnly {}
        #endif
        #if os(watchOS) && arch(arm64_32)
        struct WatchOnly {}
        #endif
        #if os(visionOS)
        struct VisionOnly {}
        #endif
        #if DEBUG
        struct DebugOnly {}
        #endif
        """

    static func types(on platform: AppPlatform) -> [String] {
        GuestSourceIndex(sources: [("Sources/App/Shared.swift", shared)], platform: platform).types.map(\.name)
    }

    @Test func eachPlatformsBuildCompilesItsOwnBranches() {
        #expect(Self.types(on: .iOS) == ["PhoneOrCatalyst", "UIKitImportable"])
        #expect(Self.types(on: .macOS) == ["MacOnly", "AppKitImportable"])
        // Catalyst is `os(iOS)`, and its SDK holds AppKit: why Mac code tests `os(macOS)`.
        #expect(Self.types(on: .macCatalyst) == ["PhoneOrCatalyst", "AppKitImportable", "UIKitImportable", "CatalystOnly"])
        #expect(Self.types(on: .watchOS) == ["UIKitImportable", "WatchOnly"])
        #expect(Self.types(on: .visionOS) == ["UIKitImportable", "VisionOnly"])
        #expect(Self.types(on: .tvOS) == ["UIKitImportable"])
    }

    @Test func anXcodeAppTargetsSettingsNameItsPlatforms() {
        func platforms(_ settings: [String: [String]]) -> [AppPlatform] { ProjectPlatforms.xcode { settings[$0] ?? [] } }
        // AugustDev/enchanted's app target.
        #expect(platforms(["SDKROOT": ["auto"], "SUPPORTED_PLATFORMS": ["iphoneos", "iphonesimulator", "macosx", "xros", "xrsimulator"],
                           "SUPPORTS_MACCATALYST": ["NO"]]) == [.iOS, .macOS, .visionOS])
        // Dimillian/ACHNBrowserUI's: an iPhone SDK and Mac Catalyst.
        #expect(platforms(["SDKROOT": ["iphoneos"], "SUPPORTS_MACCATALYST": ["YES"]]) == [.iOS, .macCatalyst])
        #expect(platforms(["SDKROOT": ["watchos"]]) == [.watchOS])
        #expect(platforms(["SUPPORTED_PLATFORMS": ["macosx"], "SUPPORTS_MACCATALYST": ["YES"]]) == [.macOS])
        #expect(platforms([:]) == [.iOS])
        #expect(platforms(["SDKROOT": ["auto"]]) == [.iOS])
    }

    @Test func aPackageManifestNamesItsPlatforms() {
        func platforms(_ manifest: String) -> [AppPlatform] { ProjectPlatforms.package(manifest: Array(manifest.utf8)) }
        #expect(platforms("""
            let package = Package(name: "Shop", platforms: [.macOS("14.0"), .iOS(.v17), .visionOS(.v1)], targets: [])
            """) == [.iOS, .macOS, .visionOS])
        #expect(platforms(#"let package = Package(name: "Shop", platforms: [.macCatalyst(.v17), .iOS(.v17)])"#) == [.iOS, .macCatalyst])
        #expect(platforms(#"let package = Package(name: "Shop", targets: [])"#) == [.iOS])
    }

    @Test func theBaselineRecordsPlatformsAndEachBuildHasItsOwnFingerprint() throws {
        let declaration = Baseline.Declaration(id: "App:f()", kind: .function, contentHash: "h", file: "Sources/App/F.swift")
        let iOS = Baseline(declarations: [declaration])
        // An iOS app's baseline, and so its fingerprint, is what it was before platforms were recorded.
        #expect(!String(decoding: iOS.canonicalJSON, as: UTF8.self).contains("platforms"))
        let legacy = SHA256Hasher.hex(of: CanonicalJSON.serialize(.object([
            "abiVersion": .integer(1), "baselineSHA256": .string(SHA256Hasher.hex(of: iOS.canonicalJSON)), "irSchemaVersion": .integer(6),
        ])))
        #expect(BuildFingerprint.compute(baseline: iOS) == legacy)

        let both = Baseline(declarations: [declaration], platforms: [.iOS, .macOS])
        #expect(String(decoding: both.canonicalJSON, as: UTF8.self).hasSuffix(#""format":1,"platforms":["ios","macos"]}"#))
        #expect(try Baseline(json: JSONValue.parse(both.canonicalJSON)) == both)
        #expect(try Baseline(json: JSONValue.parse(iOS.canonicalJSON)).platforms == [.iOS])
        let fingerprints = Set(AppPlatform.allCases.map { BuildFingerprint.compute(baseline: both, platform: $0) })
        #expect(fingerprints.count == AppPlatform.allCases.count)
        #expect(BuildFingerprint.compute(baseline: both) != BuildFingerprint.compute(baseline: iOS))

        let unknown = Array(#"{"declarations":[],"format":1,"platforms":["android"]}"#.utf8)
        #expect(throws: Baseline.DecodingFailure.self) { try Baseline(json: JSONValue.parse(unknown)) }
    }

    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            var body: some Scene {
                WindowGroup { Text(Greeting.title()) }
            }
        }

        """
    static let greeting = """
        enum Greeting {
            // @patchable
            static func title() -> String { "Shop" }

            #if os(macOS)
            // @patchable
            static func shortcut(key: String) -> String { "⌘" + key }
            #endif
        }

        #if os(macOS)
        import AppKit

        final class Model: ObservableObject {
            @Published var title: String = ""
        }

        struct MacPanel: View {
            @ObservedObject var model: Model
            var body: some View { Text(model.title) }
        }
        #endif

        """

    static func plan(platforms: [AppPlatform]) -> PreparePlan {
        Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: [
            SourceFile(path: "Sources/App/ShopApp.swift", bytes: Array(app.utf8)),
            SourceFile(path: "Sources/App/Greeting.swift", bytes: Array(greeting.utf8)),
        ])], appTarget: "App", routing: .all, platforms: platforms, existingFile: { _ in nil })
    }

    @Test func prepareWritesOneFingerprintPerPlatformAndTheAppCompilesAndRunsWithIt() throws {
        let plan = Self.plan(platforms: [.iOS, .macOS, .macCatalyst])
        #expect(plan.platforms == [.iOS, .macOS, .macCatalyst])
        let path = Preparer.fingerprintFilePath(appSourceRoot: "Sources/App")
        let file = try #require(plan.updates.first { $0.path == path }?.after.map { String(decoding: $0, as: UTF8.self) })
        let value = { (platform: AppPlatform) in BuildFingerprint.compute(canonicalBaseline: plan.baselineBytes, platform: platform) }
        #expect(plan.fingerprint == value(.iOS))
        #expect(file.contains("""
                #if os(macOS)
                static let value = "\(value(.macOS))"
                #elseif targetEnvironment(macCatalyst)
                static let value = "\(value(.macCatalyst))"
                #else
                static let value = "\(value(.iOS))"
                #endif
            """), "\(file)")
        // One platform: the file iOS apps always had.
        let single = Self.plan(platforms: [.iOS])
        #expect(single.updates.first { $0.path == path }?.after == Array(ThunkEmitter.fingerprintFile(fingerprint: single.fingerprint).utf8))

        // The launch code `init` writes compiles with it and, on a platform none of the `#if`s names
        // (Linux), passes the default platform's fingerprint, as the `#else` gives it.
        guard SDKStandIn.canRun else { return }
        var files = SDKStandIn.prepared([], by: plan).filter { $0.key == path }
        files["main.swift"] = Array("print(PatchBuildFingerprint.value)\n".utf8)
        let outcome = try SDKStandIn.compileAndRun(files)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines) == value(.iOS))
        let config = LaunchCodeCompileTests.config()
        let launch = try #require(try LaunchCodeEditor.wiring(Array(LaunchCodeCompileTests.app.utf8), path: "ShopApp.swift", code: LaunchCode(config)))
        #expect(try SDKStandIn.typecheck(["ShopApp.swift": String(decoding: launch.bytes, as: UTF8.self), "PatchFingerprint.swift": file]) == nil)
    }

    @Test func aViewOnlyTheMacBuildCompilesGetsItsHostReadsFromTheMacBranches() throws {
        // Its thunk (under `#if os(macOS)`) passes the model's title as a token: found in the macOS
        // build's sources, which an iOS-only analysis would not see.
        let both = Self.plan(platforms: [.iOS, .macOS])
        let body = try #require(both.baseline.declarations.first { $0.id == "App:MacPanel.body" })
        #expect(body.tokens.map(\.expression) == ["model.title"])
        let iOSOnly = Self.plan(platforms: [.iOS])
        #expect(iOSOnly.baseline.declarations.first { $0.id == "App:MacPanel.body" }?.tokens == [])
    }

    @Test func aChangeIsAssignedThePlatformsThatCompileIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-platforms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
            try Self.greeting.write(to: root.appendingPathComponent("Sources/App/Greeting.swift"), atomically: true, encoding: .utf8)
            func change(_ id: String, line: Int) -> DeclarationChange {
                DeclarationChange(id: id, kind: .function, change: .modified, status: .patched, reason: nil, detail: nil,
                                  location: GuestSourceLocation(file: "Sources/App/Greeting.swift", line: line))
            }
            var changes = [change("App:Greeting.title()", line: 3), change("App:Greeting.shortcut(key:String)", line: 7)]
            ChangeDetector.assignPlatforms(&changes, building: .iOS, platforms: [.iOS, .macOS], root: root.path)
            #expect(changes[0].status == .patched)
            #expect(changes[0].platforms == [.iOS, .macOS])
            #expect(changes[1].status == .informational)
            #expect(changes[1].reason == "other_platform")
            #expect(changes[1].platforms == [.macOS])
            #expect(changes[1].detail?.contains("`patchcli build --platform macos` ships it there") == true, "\(changes[1].detail ?? "")")
        }
    }

    @Test func theAuditCountsAChangeShippedWhenSomePlatformsModulePatchesIt() {
        func change(_ id: String, _ status: DeclarationChange.Status, _ reason: String? = nil, platforms: [AppPlatform]) -> DeclarationChange {
            var change = DeclarationChange(id: id, kind: .viewBody, change: .modified, status: status, reason: reason, detail: reason.map { "why: " + $0 },
                                           location: GuestSourceLocation(file: "Sources/App/V.swift", line: 1))
            change.platforms = platforms
            return change
        }
        let phone = [
            change("App:Both.body", .patched, platforms: [.iOS, .macOS]),
            change("App:MacLowers.body", .informational, "other_platform", platforms: [.macOS]),
            change("App:MacFails.body", .informational, "other_platform", platforms: [.macOS]),
            change("App:Layout", .nativeOnly, "stored_layout_changed", platforms: [.iOS, .macOS]),
        ]
        let report = ProjectBuildReport(baselineFingerprint: "f", platform: .iOS, platforms: [.iOS, .macOS, .visionOS], changes: phone, module: nil)
        // Only macOS compiles what iOS left; visionOS has nothing to add.
        #expect(HistoryAudit.otherPlatformsToBuild(report) == [.macOS])

        let mac = [
            change("App:Both.body", .patched, platforms: [.iOS, .macOS]),
            change("App:MacLowers.body", .patched, platforms: [.macOS]),
            change("App:MacFails.body", .nativeOnly, "view_not_lowerable", platforms: [.macOS]),
            change("App:Layout", .nativeOnly, "stored_layout_changed", platforms: [.iOS, .macOS]),
        ]
        let merged = HistoryAudit.mergingPlatforms([(.iOS, phone), (.macOS, mac)])
        #expect(merged.map(\.status) == [.patched, .patched, .nativeOnly, .nativeOnly])
        #expect(merged[0].detail == nil)
        #expect(merged[1].detail == "ships in the macOS module (`patchcli build --platform macos`)")
        // What stops it where it is compiled, not that the iOS build does not compile it.
        #expect(merged[2].reason == "view_not_lowerable")
        #expect(merged[3].reason == "stored_layout_changed")
    }

    @Test func patchJSONsPlatformsWinInTheirOrder() throws {
        var config = LaunchCodeCompileTests.config()
        config.platforms = [.macOS, .iOS]
        let decoded = try ProjectConfig.decode(config.encoded(), path: "patch.json")
        #expect(decoded.platforms == [.macOS, .iOS])
        // The listed platforms are used without reading the project (there is none here).
        #expect(try ProjectPlatforms.detect(config: decoded, root: "/nonexistent") == [.macOS, .iOS])
        // Absent: a Swift package without its Package.swift says nothing, so iOS.
        #expect(try ProjectPlatforms.detect(config: LaunchCodeCompileTests.config(), root: "/nonexistent") == [.iOS])
        for (platforms, field) in [([AppPlatform](), "platforms"), ([.iOS, .macOS, .iOS], "platforms[2]")] {
            config.platforms = platforms
            #expect {
                try ProjectConfig.decode(config.encoded(), path: "patch.json")
            } throws: { error in
                guard case let .invalid(_, reported, _)? = error as? ProjectConfig.LoadError else { return false }
                return reported == field
            }
        }
    }
}
