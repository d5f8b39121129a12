import Foundation
@testable import PatchBuild
import PatchManifest
import ProjectWiring
import Testing

/// Each Xcode target compiles exactly the generated code of the files it compiles: a target
/// compiling half a folder, a file two targets share, a synchronized folder with a membership
/// exception; and a later `prepare` registering a new folder's routing file, undone by `init --revert`.
@Suite struct TargetMembershipTests {
    private func write(_ text: String, to path: String, in root: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func scratch() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("members-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    /// Detects the project at `Shop.xcodeproj` as `init` does and writes its patch.json.
    @discardableResult
    private func writeConfig(in root: String) throws -> ProjectConfig {
        let pbxproj = try #require(FileManager.default.contents(atPath: root + "/Shop.xcodeproj/project.pbxproj"))
        let detected = try ProjectDetector.xcodeProject(pbxproj: [UInt8](pbxproj), path: "Shop.xcodeproj")
        let config = ProjectConfig(
            appKey: "shop", appID: nil, apiBaseURL: "https://example.invalid", channel: "production",
            project: detected.project, targets: detected.targets, appTarget: detected.appTarget,
            include: ["**/*.swift"], exclude: [], patchableFunctions: [],
            signing: .init(keyDirectory: "/nonexistent", publicKeyFile: "App/Patch/PatchPublicKey.generated.swift"))
        try Data(config.encoded()).write(to: URL(fileURLWithPath: root + "/patch.json"))
        return config
    }

    private static let views = [
        "App/ShopApp.swift": "enum ShopMain {}\n",
        "Shared/Common.swift": "import SwiftUI\n\nstruct CommonView: View {\n    var body: some View {\n        Text(\"common\")\n    }\n}\n",
        "Shared/AppOnly.swift": "import SwiftUI\n\nstruct AppOnlyView: View {\n    var body: some View {\n        Text(\"app\")\n    }\n}\n",
        "Widget/WidgetView.swift": "import SwiftUI\n\nstruct WidgetView: View {\n    var body: some View {\n        CommonView()\n    }\n}\n",
    ]

    /// Classic groups: the app compiles `App/` and all of `Shared/`; the widget compiles `Widget/` and
    /// only `Shared/Common.swift` (half the folder, and a file both targets compile).
    private static let classicProject = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tobjectVersion = 56;
        \tobjects = {
        \t\tROOT = {isa = PBXProject; mainGroup = MAIN; targets = (APPT, WIDGETT, ); };
        \t\tMAIN = {isa = PBXGroup; children = (GAPP, GSHARED, GWIDGET, ); sourceTree = "<group>"; };
        \t\tGAPP = {isa = PBXGroup; children = (FMAIN, ); path = App; sourceTree = "<group>"; };
        \t\tGSHARED = {isa = PBXGroup; children = (FCOMMON, FAPPONLY, ); path = Shared; sourceTree = "<group>"; };
        \t\tGWIDGET = {isa = PBXGroup; children = (FWIDGET, ); path = Widget; sourceTree = "<group>"; };
        \t\tFMAIN = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ShopApp.swift; sourceTree = "<group>"; };
        \t\tFCOMMON = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Common.swift; sourceTree = "<group>"; };
        \t\tFAPPONLY = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppOnly.swift; sourceTree = "<group>"; };
        \t\tFWIDGET = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = WidgetView.swift; sourceTree = "<group>"; };
        \t\tBMAIN = {isa = PBXBuildFile; fileRef = FMAIN; };
        \t\tBCOMMONAPP = {isa = PBXBuildFile; fileRef = FCOMMON; };
        \t\tBAPPONLY = {isa = PBXBuildFile; fileRef = FAPPONLY; };
        \t\tBCOMMONWIDGET = {isa = PBXBuildFile; fileRef = FCOMMON; };
        \t\tBWIDGET = {isa = PBXBuildFile; fileRef = FWIDGET; };
        \t\tSRCAPP = {isa = PBXSourcesBuildPhase; files = (BMAIN, BCOMMONAPP, BAPPONLY, ); };
        \t\tSRCWIDGET = {isa = PBXSourcesBuildPhase; files = (BCOMMONWIDGET, BWIDGET, ); };
        \t\tAPPT = {isa = PBXNativeTarget; name = Shop; productType = "com.apple.product-type.application"; buildPhases = (SRCAPP, ); };
        \t\tWIDGETT = {isa = PBXNativeTarget; name = ShopWidget; productType = "com.apple.product-type.app-extension"; buildPhases = (SRCWIDGET, ); };
        \t};
        \trootObject = ROOT;
        }

        """

    /// Xcode 16: both targets synchronize `Shared/`; an exception set keeps `AppOnly.swift` out of the extension.
    private static let synchronizedProject = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tobjectVersion = 77;
        \tobjects = {
        \t\tROOT = {isa = PBXProject; mainGroup = MAIN; targets = (APPT, EXTT, ); };
        \t\tMAIN = {isa = PBXGroup; children = (SHARED, ); sourceTree = "<group>"; };
        \t\tSHARED = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EXCEPTIONS, ); explicitFileTypes = {}; explicitFolders = (); path = Shared; sourceTree = "<group>"; };
        \t\tEXCEPTIONS = {
        \t\t\tisa = PBXFileSystemSynchronizedBuildFileExceptionSet;
        \t\t\tmembershipExceptions = (
        \t\t\t\tAppOnly.swift,
        \t\t\t);
        \t\t\ttarget = EXTT;
        \t\t};
        \t\tSRCAPP = {isa = PBXSourcesBuildPhase; files = (); };
        \t\tSRCEXT = {isa = PBXSourcesBuildPhase; files = (); };
        \t\tAPPT = {isa = PBXNativeTarget; name = Shop; productType = "com.apple.product-type.application"; buildPhases = (SRCAPP, ); fileSystemSynchronizedGroups = (SHARED, ); };
        \t\tEXTT = {isa = PBXNativeTarget; name = ShopExtension; productType = "com.apple.product-type.app-extension"; buildPhases = (SRCEXT, ); fileSystemSynchronizedGroups = (SHARED, ); };
        \t};
        \trootObject = ROOT;
        }

        """

    /// Writes the classic fixture, prepares and wires it as `init` does.
    private func preparedClassicProject() throws -> (root: String, config: ProjectConfig) {
        let root = try scratch()
        try write(Self.classicProject, to: "Shop.xcodeproj/project.pbxproj", in: root)
        for (path, text) in Self.views { try write(text, to: path, in: root) }
        let config = try writeConfig(in: root)
        let session = try PrepareSession.run(root: root)
        try apply(session.updatesInWriteOrder, root: root)
        let wiring = try AppWiring.plan(config: config, root: root, viewTargets: Set(session.plan.views.map(\.target)))
        try apply(wiring.updates, root: root)
        return (root, config)
    }

    private func editor(_ root: String) throws -> XcodeProjectEditor {
        let bytes = try #require(FileManager.default.contents(atPath: root + "/Shop.xcodeproj/project.pbxproj"))
        return try XcodeProjectEditor(bytes: [UInt8](bytes), path: "Shop.xcodeproj/project.pbxproj")
    }

    /// The files `target` compiles according to the project file, with their text.
    private func compiledFiles(of target: String, root: String) throws -> [String: String] {
        let native = try #require(try editor(root).nativeTargets.first { $0.name == target })
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("."), native.compiles(path) else { continue }
            files[path] = read(root, path)
        }
        return files
    }

    @Test func aTargetCompilingHalfAFolderGetsOnlyTheThunksOfItsFiles() throws {
        let (root, _) = try preparedClassicProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = try PrepareState.decode([UInt8](try #require(FileManager.default.contents(atPath: root + "/" + PrepareState.path))), path: "state")
        let appOnly = Preparer.routingFilePath(sourceRoot: "Shared", compilingTargets: ["Shop"])
        let shared = Preparer.routingFilePath(sourceRoot: "Shared", compilingTargets: ["Shop", "ShopWidget"])
        #expect(appOnly == "Shared/Patch/PatchThunks-Shared-Shop.generated.swift")
        #expect(state.generatedFileTargets == [
            appOnly: ["Shop"], shared: ["Shop", "ShopWidget"],
            "Widget/Patch/PatchThunks-Widget.generated.swift": ["ShopWidget"],
            "App/Patch/PatchFingerprint.generated.swift": ["Shop"],
        ])
        #expect(read(root, appOnly)?.contains("extension AppOnlyView") == true)
        #expect(read(root, appOnly)?.contains("CommonView") == false)
        #expect(read(root, shared)?.contains("extension CommonView") == true)
        // The shared file is prepared once, by the first target.
        #expect(read(root, "Shared/Common.swift")?.contains("__patch_native_body") == true)

        let targets = try editor(root).nativeTargets
        let widget = try #require(targets.first { $0.name == "ShopWidget" })
        let app = try #require(targets.first { $0.name == "Shop" })
        #expect(widget.swiftSources.contains(shared) && !widget.swiftSources.contains(appOnly))
        #expect(app.swiftSources.contains(shared) && app.swiftSources.contains(appOnly))
        #expect(!widget.swiftSources.contains("App/Patch/PatchFingerprint.generated.swift"))
    }

    @Test(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
    func eachTargetsGeneratedCodeCompilesWhereWholeFolderRoutingWouldNot() throws {
        let (root, config) = try preparedClassicProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for target in ["Shop", "ShopWidget"] {
            let files = try compiledFiles(of: target, root: root)
            #expect(files.keys.contains { $0.hasSuffix(".generated.swift") })
            let diagnostics = try SDKStandIn.typecheck(files, moduleName: target.replacingOccurrences(of: " ", with: "_"))
            #expect(diagnostics == nil, "\(target): \(diagnostics ?? "")")
        }

        // Routing by folder alone (each target compiling its whole roots) puts AppOnlyView's thunk in
        // the one routing file of Shared/, which the widget compiles without AppOnlyView.
        var byFolder = try ProjectSources.targets(config: config, root: root)
        for index in byFolder.indices { byFolder[index].compiledFiles = nil }
        let original = Dictionary(uniqueKeysWithValues: Self.views.map { ($0.key, Array($0.value.utf8)) })
        for index in byFolder.indices {
            byFolder[index].files = byFolder[index].files.map { SourceFile(path: $0.path, bytes: original[$0.path] ?? $0.bytes) }
        }
        let wholeFolder = Preparer.plan(targets: byFolder, appTarget: "Shop", routing: .all, existingFile: { _ in nil })
        let folderFile = try #require(wholeFolder.updates.first { $0.path == Preparer.routingFilePath(sourceRoot: "Shared") }?.after)
        var widgetFiles = try compiledFiles(of: "ShopWidget", root: root).filter { !$0.key.hasPrefix("Shared/Patch/") }
        widgetFiles[Preparer.routingFilePath(sourceRoot: "Shared")] = String(decoding: folderFile, as: UTF8.self)
        let diagnostics = try #require(try SDKStandIn.typecheck(widgetFiles, moduleName: "ShopWidget"))
        #expect(diagnostics.contains("AppOnlyView"))
    }

    @Test func aSynchronizedFolderWithAMembershipExceptionKeepsTheOtherTargetsThunksOut() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write(Self.synchronizedProject, to: "Shop.xcodeproj/project.pbxproj", in: root)
        try write(Self.views["Shared/Common.swift"]!, to: "Shared/Common.swift", in: root)
        try write(Self.views["Shared/AppOnly.swift"]!, to: "Shared/AppOnly.swift", in: root)
        let config = try writeConfig(in: root)
        #expect(config.targets.map(\.sourceRoots) == [["Shared"], ["Shared"]])
        let session = try PrepareSession.run(root: root)
        try apply(session.updatesInWriteOrder, root: root)
        let wiring = try AppWiring.plan(config: config, root: root, viewTargets: Set(session.plan.views.map(\.target)))
        try apply(wiring.updates, root: root)

        let appOnly = Preparer.routingFilePath(sourceRoot: "Shared", compilingTargets: ["Shop"])
        let shared = Preparer.routingFilePath(sourceRoot: "Shared", compilingTargets: ["Shop", "ShopExtension"])
        let targets = try editor(root).nativeTargets
        let app = try #require(targets.first { $0.name == "Shop" })
        let ext = try #require(targets.first { $0.name == "ShopExtension" })
        #expect(app.compiles(appOnly) && app.compiles(shared) && app.compiles("Shared/Patch/PatchFingerprint.generated.swift"))
        #expect(!ext.compiles(appOnly) && ext.compiles(shared) && !ext.compiles("Shared/Patch/PatchFingerprint.generated.swift"))
        #expect(ext.synchronizedExclusions == ["Shared/AppOnly.swift", "Shared/Patch/PatchFingerprint.generated.swift", appOnly])
        if SDKStandIn.canRun {
            let diagnostics = try SDKStandIn.typecheck(try compiledFiles(of: "ShopExtension", root: root), moduleName: "ShopExtension")
            #expect(diagnostics == nil, "\(diagnostics ?? "")")
        }
    }

    @Test func aLaterPrepareRegistersANewFoldersFileAndRevertUndoesEverything() throws {
        let (root, _) = try preparedClassicProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pbxprojPath = root + "/Shop.xcodeproj/project.pbxproj"
        // After init, the developer adds a folder to the app target in Xcode.
        try write("import SwiftUI\n\nstruct FeatureView: View {\n    var body: some View {\n        Text(\"new\")\n    }\n}\n",
                  to: "Feature/FeatureView.swift", in: root)
        var wired = try editor(root)
        try wired.addSourceFile(path: "Feature/FeatureView.swift", target: "Shop")
        try Data(wired.bytes).write(to: URL(fileURLWithPath: pbxprojPath))
        var userEdited = try XcodeProjectEditor(bytes: Array(Self.classicProject.utf8), path: "project.pbxproj")
        try userEdited.addSourceFile(path: "Feature/FeatureView.swift", target: "Shop")

        let session = try PrepareSession.run(root: root)
        #expect(session.plan.addedSourceRoots == [.init(target: "Shop", root: "Feature")])
        #expect(session.plan.views.contains { $0.typeName == "FeatureView" })
        try apply(session.updatesInWriteOrder, root: root)
        let registration = try #require(try AppWiring.registration(root: root, viewTargets: Set(session.plan.views.map(\.target))))
        #expect(registration.wired.map(\.path) == ["Shop.xcodeproj/project.pbxproj"])
        try apply(registration.updates, root: root)
        let app = try #require(try editor(root).nativeTargets.first { $0.name == "Shop" })
        #expect(app.swiftSources.contains("Feature/Patch/PatchThunks-Feature.generated.swift"))
        // Nothing left to register: a second run changes nothing.
        #expect(try AppWiring.registration(root: root, viewTargets: Set(session.plan.views.map(\.target)))?.updates.isEmpty == true)

        // build reads the new folder too, and says that patch.json does not record it.
        let changes = try ChangeDetector.detect(root: root)
        #expect(changes.addedSourceRoots == [.init(target: "Shop", root: "Feature")])
        #expect(changes.sourceRoots.contains("Feature"))

        // init --revert: prepare's changes, then the wiring's; the project file is the developer's.
        let revert = try PrepareSession.revert(root: root)
        try apply(revert.updates, root: root)
        try apply(try AppWiring.revert(root: root), root: root)
        #expect(read(root, "Shop.xcodeproj/project.pbxproj") == String(decoding: userEdited.bytes, as: UTF8.self))
        for (path, text) in Self.views { #expect(read(root, path) == text, "\(path)") }
    }
}
