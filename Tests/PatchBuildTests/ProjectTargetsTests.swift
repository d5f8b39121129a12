import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// Every target of an app: local packages of an Xcode project, files shared by two targets, the
/// `Patch/` folder of generated files, and `build` when a recorded source root moved.
@Suite struct ProjectTargetsTests {
    private func write(_ text: String, to path: String, in root: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func scratch() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("targets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    private func writeConfig(targets: [ProjectConfig.Target], appTarget: String, in root: String) throws {
        let config = ProjectConfig(
            appKey: "app", appID: nil, apiBaseURL: "https://example.invalid", channel: "production",
            project: .init(kind: .xcodeProject, path: "App.xcodeproj"), targets: targets, appTarget: appTarget,
            include: ["**/*.swift"], exclude: [], patchableFunctions: [],
            signing: .init(keyDirectory: "/nonexistent", publicKeyFile: "App/Patch/Key.swift"))
        try Data(config.encoded()).write(to: URL(fileURLWithPath: root + "/patch.json"))
    }

    /// A classic project in `App/` whose app target compiles `App/Sources/AppMain.swift`, and which
    /// uses three local packages: one by `XCLocalSwiftPackageReference` (`../Packages/Kit`, whose
    /// target `Shop` has the app's name... of a folder), one added as a folder reference (`Feature`),
    /// and a synchronized `Modules/` folder of packages no target compiles.
    private static let pbxproj = """
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objects = {
                ROOT = {isa = PBXProject; mainGroup = MAIN; targets = (APP); packageReferences = (LOCALKIT); };
                MAIN = {isa = PBXGroup; children = (GSRC, FEATURE, MODULES); sourceTree = "<group>"; };
                GSRC = {isa = PBXGroup; children = (F1); path = Sources; sourceTree = "<group>"; };
                F1 = {isa = PBXFileReference; path = AppMain.swift; sourceTree = "<group>"; };
                FEATURE = {isa = PBXFileReference; lastKnownFileType = wrapper; path = ../Feature; sourceTree = "<group>"; };
                MODULES = {isa = PBXFileSystemSynchronizedRootGroup; path = ../Modules; sourceTree = "<group>"; };
                LOCALKIT = {isa = XCLocalSwiftPackageReference; relativePath = ../Packages/Kit; };
                B1 = {isa = PBXBuildFile; fileRef = F1; };
                SRC = {isa = PBXSourcesBuildPhase; files = (B1); };
                APP = {isa = PBXNativeTarget; name = Shop; productType = "com.apple.product-type.application"; buildPhases = (SRC); };
            };
            rootObject = ROOT;
        }
        """

    @Test func anXcodeProjectsLocalPackagesJoinWithUniqueNames() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write(Self.pbxproj, to: "App/Shop.xcodeproj/project.pbxproj", in: root)
        try write("@main struct ShopApp {}", to: "App/Sources/AppMain.swift", in: root)
        // Kit: a target named like the app target, one with `path:`, an Objective-C one, a test target.
        try write("""
            let package = Package(name: "Kit", targets: [
                .target(name: "Shop"),
                .target(name: "KitUI", path: "UI"),
                .target(name: "KitObjC"),
                .testTarget(name: "KitTests"),
            ])
            """, to: "Packages/Kit/Package.swift", in: root)
        try write("struct Cart {}", to: "Packages/Kit/Sources/Shop/Cart.swift", in: root)
        try write("struct Badge {}", to: "Packages/Kit/UI/Badge.swift", in: root)
        try write("int f(void);", to: "Packages/Kit/Sources/KitObjC/f.c", in: root)
        try write("struct T {}", to: "Packages/Kit/Tests/KitTests/T.swift", in: root)
        // Feature: the whole package folder is the target (`path: "."`) with custom `sources:`.
        try write("""
            let package = Package(name: "Feature", targets: [.target(name: "Feature", path: ".", sources: ["Views", "Model.swift"])])
            """, to: "Feature/Package.swift", in: root)
        try write("struct Home {}", to: "Feature/Views/Home.swift", in: root)
        try write("struct Model {}", to: "Feature/Model.swift", in: root)
        // Modules/Net: found because Modules is a synchronized folder no target compiles.
        try write("let package = Package(name: \"Net\", targets: [.target(name: \"Net\")])", to: "Modules/Net/Package.swift", in: root)
        try write("struct Client {}", to: "Modules/Net/Sources/Net/Client.swift", in: root)

        let detected = try ProjectDetector.detect(root: root)
        #expect(detected.project == .init(kind: .xcodeProject, path: "App/Shop.xcodeproj"))
        #expect(detected.appTarget == "Shop")
        #expect(detected.targets == [
            .init(name: "Shop", sourceRoots: ["App/Sources"]),
            .init(name: "Feature", sourceRoots: ["Feature/Views", "Feature/Model.swift"], manifest: "Feature/Package.swift"),
            .init(name: "Net", sourceRoots: ["Modules/Net/Sources/Net"], manifest: "Modules/Net/Package.swift"),
            .init(name: "Kit/Shop", sourceRoots: ["Packages/Kit/Sources/Shop"], manifest: "Packages/Kit/Package.swift"),
            .init(name: "KitUI", sourceRoots: ["Packages/Kit/UI"], manifest: "Packages/Kit/Package.swift"),
        ])

        // Every target's files are read, the manifest of a `path: "."` package is not a source.
        try writeConfig(targets: detected.targets, appTarget: detected.appTarget, in: root)
        let config = try ProjectSources.loadConfig(root: root)
        let files = try ProjectSources.targets(config: config, root: root).flatMap { $0.files.map(\.path) }
        #expect(files == ["App/Sources/AppMain.swift", "Feature/Model.swift", "Feature/Views/Home.swift",
                          "Modules/Net/Sources/Net/Client.swift", "Packages/Kit/Sources/Shop/Cart.swift", "Packages/Kit/UI/Badge.swift"])
    }

    @Test func aRootPackageReferencedByAnXcodeProjectInASubfolderJoinsTheApp() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Like a project keeping `App/Game.xcodeproj` next to the root Package.swift it uses (`path = ..`).
        try write("""
            // !$*UTF8*$!
            {
                objects = {
                    ROOT = {isa = PBXProject; mainGroup = MAIN; targets = (APP); };
                    MAIN = {isa = PBXGroup; children = (GIOS, PKG); sourceTree = "<group>"; };
                    GIOS = {isa = PBXGroup; children = (F1); path = iOS; sourceTree = "<group>"; };
                    F1 = {isa = PBXFileReference; path = GameApp.swift; sourceTree = "<group>"; };
                    PKG = {isa = PBXFileReference; lastKnownFileType = folder; name = game; path = ..; sourceTree = "<group>"; };
                    B1 = {isa = PBXBuildFile; fileRef = F1; };
                    SRC = {isa = PBXSourcesBuildPhase; files = (B1); };
                    APP = {isa = PBXNativeTarget; name = Game; productType = "com.apple.product-type.application"; buildPhases = (SRC); };
                };
                rootObject = ROOT;
            }
            """, to: "App/Game.xcodeproj/project.pbxproj", in: root)
        try write("@main struct GameApp {}", to: "App/iOS/GameApp.swift", in: root)
        try write("let package = Package(name: \"game\", targets: [.target(name: \"Board\"), .executableTarget(name: \"server\")])",
                  to: "Package.swift", in: root)
        try write("struct Board {}", to: "Sources/Board/Board.swift", in: root)
        try write("struct Server {}", to: "Sources/server/main.swift", in: root)

        let detected = try ProjectDetector.detect(root: root)
        #expect(detected.project == .init(kind: .xcodeProject, path: "App/Game.xcodeproj"))
        #expect(detected.appTarget == "Game")
        #expect(detected.targets.map(\.name) == ["Game", "Board", "server"])
        #expect(detected.targets.first?.sourceRoots == ["App/iOS"])
        #expect(detected.targets.dropFirst().allSatisfy { $0.manifest == "Package.swift" })

        // Without a project that uses it, the root package is the project.
        try FileManager.default.removeItem(atPath: root + "/App")
        #expect(try ProjectDetector.detect(root: root).project == .init(kind: .swiftPackage, path: "Package.swift"))
    }

    @Test func targetNamesAreUniqueAndTheManifestIsKept() throws {
        let config = { (targets: String) in
            Array(#"{"version":1,"appKey":"k","apiBaseURL":"u","channel":"c","project":{"kind":"xcode","path":"A.xcodeproj"},"targets":["#.utf8)
                + Array(targets.utf8) + Array(#"],"appTarget":"A","signing":{"privateKeyPath":"p","publicKeyFile":"f"}}"#.utf8)
        }
        let decoded = try ProjectConfig.decode(config(#"{"name":"A","sourceRoots":["A"]},{"name":"Kit/A","sourceRoots":["Kit/Sources/A"],"manifest":"Kit/Package.swift"}"#),
                                               path: "patch.json")
        #expect(decoded.targets.map(\.manifest) == [nil, "Kit/Package.swift"])
        #expect(try ProjectConfig.decode(decoded.encoded(), path: "patch.json") == decoded)
        do {
            _ = try ProjectConfig.decode(config(#"{"name":"A","sourceRoots":["A"]},{"name":"A","sourceRoots":["B"]}"#), path: "patch.json")
            Issue.record("two targets of one name were accepted")
        } catch {
            #expect(error.description.contains("targets[1].name"))
        }
    }

    @Test func workspaceLocationsAreRead() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:Modules/RSCore"></FileRef>
               <FileRef location = "container:App.xcodeproj"></FileRef>
               <FileRef location = "self:"></FileRef>
            </Workspace>
            """
        #expect(ProjectDetector.workspaceLocations(xml) == ["Modules/RSCore"])
    }

    /// An iOS and a tvOS target share `Shared/`: its view is routed once, by the routing file in
    /// `Shared/Patch/` that both targets compile, and nothing collides with itself.
    @Test func aFileInTwoTargetsIsPreparedAndReportedOnce() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import SwiftUI\nstruct Card: View { var body: some View { Text(\"card\") } }\n", to: "Shared/Card.swift", in: root)
        try write("import SwiftUI\nstruct PhoneHome: View { var body: some View { Card() } }\n", to: "iOS/PhoneHome.swift", in: root)
        try write("import SwiftUI\nstruct TVHome: View { var body: some View { Card() } }\n", to: "tvOS/TVHome.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["Shared", "iOS"]), .init(name: "AppTV", sourceRoots: ["Shared", "tvOS"])],
                        appTarget: "App", in: root)
        let session = try PrepareSession.run(root: root)
        #expect(session.plan.views.map(\.declaredName).sorted() == ["Card", "PhoneHome", "TVHome"])
        #expect(session.plan.collisions.isEmpty)
        #expect(session.plan.filesScanned == 3)
        #expect(session.updates.map(\.path).filter { $0.contains("/PatchThunks") } == [
            "Shared/Patch/PatchThunks-Shared.generated.swift", "iOS/Patch/PatchThunks-iOS.generated.swift", "tvOS/Patch/PatchThunks-tvOS.generated.swift",
        ])
        try apply(session.updatesInWriteOrder, root: root)
        let shared = read(root, "Shared/Patch/PatchThunks-Shared.generated.swift") ?? ""
        #expect(shared.components(separatedBy: "extension Card {").count == 2)
        #expect(shared.contains("targets App, AppTV") || shared.contains("target App"))
        #expect(read(root, "tvOS/Patch/PatchThunks-tvOS.generated.swift")?.contains("extension Card") == false)
        #expect(try PrepareSession.run(root: root).updates.isEmpty)
        // A target may not compile two files of the same name (swiftc: "filename used twice").
        let generatedNames = session.updates.filter { $0.path.contains("/Patch/") }.map { ($0.path as NSString).lastPathComponent }
        #expect(Set(generatedNames).count == generatedNames.count)
    }

    /// Upgrading a project an earlier patchcli prepared while an iOS and a tvOS `Row` collided (so
    /// neither was routed): its baseline and fingerprint stay, `--check` asks for `prepare`, which
    /// then routes both under qualified names.
    @Test func aProjectPreparedWhileSameNamedViewsCollidedIsAskedToPrepareAgain() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import SwiftUI\nstruct Row: View { var body: some View { Text(\"phone\") } }\n", to: "iOS/Row.swift", in: root)
        try write("import SwiftUI\nstruct Row: View { var body: some View { Text(\"tv\") } }\n", to: "tvOS/Row.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["iOS"]), .init(name: "AppTV", sourceRoots: ["tvOS"])], appTarget: "App", in: root)
        let session = try PrepareSession.run(root: root)
        #expect(session.plan.views.map(\.typeName).sorted() == ["AppTV_Row", "App_Row"])
        // What the earlier patchcli wrote: no view routed, only the fingerprint file and the baseline
        // (which records the same declarations: names are not part of it).
        try apply(session.updatesInWriteOrder.filter { $0.path.hasSuffix(Preparer.fingerprintFileName) || $0.path == ".patch/baseline.json" },
                  root: root)
        let upgraded = try PrepareSession.run(root: root)
        #expect(upgraded.plan.fingerprint == session.plan.fingerprint)
        guard case let .prepareNeeded(paths)? = try upgraded.checkFinding() else {
            Issue.record("expected prepare_needed, got \(String(describing: try upgraded.checkFinding()))")
            return
        }
        #expect(paths.contains("iOS/Row.swift") && paths.contains("tvOS/Row.swift"))
        try apply(upgraded.updatesInWriteOrder, root: root)
        #expect(try PrepareSession.run(root: root).checkFinding() == nil)
        #expect(read(root, "tvOS/Patch/PatchThunks-tvOS.generated.swift")?.contains("thunkBody(typeName: \"AppTV_Row\"") == true)
    }

    /// A baseline an earlier patchcli recorded before views through protocols were recognised has
    /// their bodies as computed properties: `--check` calls it stale (nothing is lost by preparing
    /// again), and `build` compares against it as before (same ids and hashes: no change).
    @Test func aBaselineFromBeforeProtocolViewsWereRecognisedIsStaleButComparesUnchanged() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import SwiftUI\nprotocol Themed: View {}\nstruct Card: Themed { var body: some View { Text(\"c\") } }\n", to: "App/Card.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["App"])], appTarget: "App", in: root)
        let session = try PrepareSession.run(root: root)
        #expect(session.plan.views.map(\.typeName) == ["Card"])
        try apply(session.updatesInWriteOrder, root: root)
        let old = Baseline(declarations: session.plan.baseline.declarations.map { declaration in
            var copy = declaration
            if copy.id == "App:Card.body" { copy.kind = .computedProperty }
            return copy
        })
        #expect(old != session.plan.baseline)
        try Data(old.canonicalJSON).write(to: URL(fileURLWithPath: root + "/.patch/baseline.json"))
        let again = try PrepareSession.run(root: root)
        guard case .baselineStale? = try again.checkFinding() else {
            Issue.record("expected baseline_stale, got \(String(describing: try again.checkFinding()))")
            return
        }
        #expect(ChangeDetector.compare(baseline: old, current: again.plan, shippedExports: []).isEmpty)
    }

    /// A widget compiles `App/General`, inside the app's root `App`: the view there is routed from
    /// `App/General/Patch/`, which both targets compile, not from the app's `App/Patch/`.
    @Test func aFileUnderNestedRootsOfTwoTargetsIsRoutedFromTheInnermostRoot() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import SwiftUI\nstruct Badge: View { var body: some View { Text(\"b\") } }\n", to: "App/General/Badge.swift", in: root)
        try write("import SwiftUI\nstruct Home: View { var body: some View { Badge() } }\n", to: "App/Home.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["App"]), .init(name: "Widget", sourceRoots: ["App/General"])],
                        appTarget: "App", in: root)
        let session = try PrepareSession.run(root: root)
        let routing = Dictionary(uniqueKeysWithValues: session.updates.filter { $0.path.contains("/PatchThunks") }
            .map { ($0.path, String(decoding: $0.after ?? [], as: UTF8.self)) })
        #expect(routing.keys.sorted() == ["App/General/Patch/PatchThunks-App_General.generated.swift", "App/Patch/PatchThunks-App.generated.swift"])
        #expect(routing["App/General/Patch/PatchThunks-App_General.generated.swift"]?.contains("extension Badge {") == true)
        #expect(routing["App/Patch/PatchThunks-App.generated.swift"]?.contains("extension Badge {") == false)
        #expect(session.plan.views.count == 2)
    }

    @Test func generatedFilesGoInOnePatchFolderPerSourceRootOutsideResources() {
        #expect(Preparer.generatedFolder(forSourceRoot: "Sources/App") == "Sources/App/Patch")
        #expect(Preparer.generatedFolder(forSourceRoot: ".") == "Patch")
        #expect(Preparer.generatedFolder(forSourceRoot: "Feature/Model.swift") == "Feature/Patch")
        #expect(Preparer.generatedFolder(forSourceRoot: "App/Assets.xcassets") == "App/Patch")
        #expect(Preparer.generatedFolder(forSourceRoot: "App/en.lproj/Strings") == "App/Patch")
        #expect(Preparer.generatedFolder(forSourceRoot: "Sources/Kit/Resources") == "Sources/Kit/Patch")
    }

    /// A project prepared before the `Patch/` folder: the next run moves the generated files there and
    /// deletes the old ones (a user file at such a path is never deleted).
    @Test func generatedFilesAtTheOldLocationsMoveIntoThePatchFolder() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import SwiftUI\nstruct Home: View { var body: some View { Text(\"h\") } }\n", to: "App/Home.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["App"]), .init(name: "Widget", sourceRoots: ["Widget"])], appTarget: "App", in: root)
        try write(PreparedNames.generatedHeader + "\n// old routing\n", to: "App/PatchThunks.generated.swift", in: root)
        try write(PreparedNames.generatedHeader + "\n// old fingerprint\n", to: "App/PatchFingerprint.generated.swift", in: root)
        try write("// the user's own file\n", to: "Widget/PatchThunks.generated.swift", in: root)
        let session = try PrepareSession.run(root: root)
        let changes = Dictionary(uniqueKeysWithValues: session.updates.map { ($0.path, $0.after == nil ? "delete" : "write") })
        #expect(changes["App/PatchThunks.generated.swift"] == "delete")
        #expect(changes["App/PatchFingerprint.generated.swift"] == "delete")
        #expect(changes["App/Patch/PatchThunks-App.generated.swift"] == "write")
        #expect(changes["App/Patch/PatchFingerprint.generated.swift"] == "write")
        #expect(changes["Widget/PatchThunks.generated.swift"] == nil)
    }

    @Test func revertRemovesTheFoldersPrepareCreated() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import SwiftUI\nstruct Home: View { var body: some View { Text(\"h\") } }\n", to: "App/Home.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["App"])], appTarget: "App", in: root)
        let session = try PrepareSession.run(root: root)
        try apply(session.updatesInWriteOrder, root: root)
        let state = try PrepareState.decode(Array(read(root, PrepareState.path)?.utf8 ?? "".utf8), path: PrepareState.path)
        #expect(state.createdDirectories.contains("App/Patch"))
        // A second run creates nothing and keeps the record.
        #expect(try PrepareSession.run(root: root).bookkeeping.isEmpty)
        let revert = try PrepareSession.revert(root: root)
        #expect(revert.directoriesToRemove.first == "App/Patch")
        try apply(revert.updates, root: root)
        #expect((try FileManager.default.contentsOfDirectory(atPath: root + "/App/Patch")).isEmpty)
    }

    /// A commit moved a recorded source root (`Shared/preferences` → `Shared/settings`) and added a
    /// folder under another root: build reads what exists, reports the code that disappeared as
    /// removed and the missing root, and sees the new folder.
    @Test func changeDetectionKeepsGoingWhenASourceRootMoved() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("enum Tax {\n    // @patchable\n    static func rate() -> Int { 20 }\n}\n", to: "App/Tax.swift", in: root)
        try write("enum Prefs {\n    static func load() -> Int { 1 }\n}\n", to: "Shared/preferences/Prefs.swift", in: root)
        try writeConfig(targets: [.init(name: "App", sourceRoots: ["App", "Shared/preferences"])], appTarget: "App", in: root)
        try apply(try PrepareSession.run(root: root).updatesInWriteOrder, root: root)

        try FileManager.default.moveItem(atPath: root + "/Shared/preferences", toPath: root + "/Shared/settings")
        try write("enum Added {\n    static func value() -> Int { 2 }\n}\n", to: "App/New/Added.swift", in: root)
        let changes = try ChangeDetector.detect(root: root)
        #expect(changes.missingSourceRoots == [.init(target: "App", root: "Shared/preferences")])
        #expect(changes.sourceRoots == ["App"])
        let byID = Dictionary(uniqueKeysWithValues: changes.changes.map { ($0.id, $0.change) })
        #expect(byID["App:Prefs.load()"] == .removed)
        #expect(byID["App:Added.value()"] == .added)
        // prepare, which records a new baseline, still refuses a missing root.
        #expect(throws: ProjectError.self) { try PrepareSession.run(root: root) }

        // build reports instead of stopping (nothing here needs the toolchain).
        let report = try ProjectBuilder.build(root: root, outputDirectory: root + "/.patch/build") { _ throws(GuestBuildError) in
            throw .sourcesUnreadable(path: root, reason: "no toolchain in this test")
        }
        #expect(report.missingSourceRoots == [.init(target: "App", root: "Shared/preferences")])
        #expect(report.changes.contains { $0.id == "App:Prefs.load()" && $0.change == .removed })
    }

    /// build's guest index reads every target's roots (folders or single files) with paths relative
    /// to the project, not one common folder; manifests are never sources.
    @Test func theGuestIndexReadsEveryTargetsRoots() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("struct Cart {}", to: "App/Cart.swift", in: root)
        try write("struct Money {}", to: "Packages/Kit/Sources/Kit/Money.swift", in: root)
        try write("struct Model {}", to: "Feature/Model.swift", in: root)
        try write("struct Unused {}", to: "Feature/Other.swift", in: root)
        try write("let package = Package(name: \"Kit\")", to: "Packages/Kit/Package.swift", in: root)
        let index = try GuestSourceIndex.load(root: root, folders: ["App", "Packages/Kit", "Feature/Model.swift", "App"])
        #expect(index.files.map(\.relativePath) == ["App/Cart.swift", "Packages/Kit/Sources/Kit/Money.swift", "Feature/Model.swift"])
    }
}
