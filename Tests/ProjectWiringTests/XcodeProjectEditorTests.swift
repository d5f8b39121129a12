import Testing
@testable import PBXProj
@testable import ProjectWiring

@Suite struct XcodeProjectEditorTests {
    static let sdkURL = "https://github.com/patch-release/patch-swift"
    static let classicPath = "Sample App.xcodeproj/project.pbxproj"

    func classic() throws -> XcodeProjectEditor {
        try XcodeProjectEditor(bytes: Array(Fixtures.classic.utf8), path: Self.classicPath)
    }

    func synchronized() throws -> XcodeProjectEditor {
        try XcodeProjectEditor(bytes: Array(Fixtures.synchronized.utf8), path: "Reader.xcodeproj/project.pbxproj")
    }

    func text(_ editor: XcodeProjectEditor) -> String { String(decoding: editor.bytes, as: UTF8.self) }

    // MARK: Reading

    @Test func readsTargetsAndLocalPackages() throws {
        let editor = try classic()
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
        #expect(editor.nativeTargets == [
            XcodeNativeTarget(name: "Sample App", productType: "com.apple.product-type.application",
                              swiftSources: ["Sample App/ContentView.swift", "Sample App/Views/ItemView.swift", "Sample App/SampleApp.swift"],
                              synchronizedFolders: [], infoPlistFiles: ["Sample App/Info.plist"]),
            XcodeNativeTarget(name: "Sample Widget", productType: "com.apple.product-type.app-extension",
                              swiftSources: ["Widget/Widget.swift", "Sample App/Views/ItemView.swift"],
                              synchronizedFolders: [], infoPlistFiles: []),
        ])
        #expect(editor.localPackagePaths == ["Packages/Core"])
        let reader = try synchronized()
        #expect(reader.nativeTargets.map(\.synchronizedFolders) == [["Reader"]])
        #expect(reader.nativeTargets.map(\.infoPlistFiles) == [["Reader/Info.plist"]])
    }

    // MARK: Package dependency

    @Test func packageDependencyIsAddedAsXcodeWritesItAndRemovedExactly() throws {
        var editor = try classic()
        // The widget has neither packageProductDependencies nor a Frameworks phase.
        try editor.addPackageDependency(url: Self.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK", "PatchSwiftUI"], target: "Sample Widget")
        let added = text(editor)
        let document = editor.document
        let reference = try #require(document.objects(isa: "XCRemoteSwiftPackageReference").first { $0.node["repositoryURL"]?.string == Self.sdkURL })
        #expect(added.contains("""
\t\t\(reference.id) /* XCRemoteSwiftPackageReference "patch-swift" */ = {
\t\t\tisa = XCRemoteSwiftPackageReference;
\t\t\trepositoryURL = "https://github.com/patch-release/patch-swift";
\t\t\trequirement = {
\t\t\t\tkind = upToNextMajorVersion;
\t\t\t\tminimumVersion = 1.4.0;
\t\t\t};
\t\t};
"""))
        let project = try #require(document.object(document.rootObjectID!))
        #expect(project["packageReferences"]?.strings.last == reference.id)
        let widget = try #require(document.objects(isa: "PBXNativeTarget").first { $0.node["name"]?.string == "Sample Widget" }?.node)
        let dependencies = widget["packageProductDependencies"]?.strings ?? []
        #expect(dependencies.map { document.object($0)?["productName"]?.string } == ["PatchSDK", "PatchSwiftUI"])
        #expect(dependencies.allSatisfy { document.object($0)?["package"]?.string == reference.id })
        // A Frameworks phase was created after Sources, linking both products.
        let phases = widget["buildPhases"]?.strings ?? []
        #expect(phases.map { document.isa(of: $0) } == ["PBXSourcesBuildPhase", "PBXFrameworksBuildPhase"])
        let linked = document.object(phases[1])?["files"]?.strings.compactMap { document.object($0)?["productRef"]?.string }
        #expect(linked == dependencies)
        #expect(added.contains("/* PatchSDK in Frameworks */ = {isa = PBXBuildFile; productRef = \(dependencies[0]) /* PatchSDK */; };"))
        #expect(added.contains("\t\t\tpackageProductDependencies = (\n\t\t\t\t\(dependencies[0]) /* PatchSDK */,\n\t\t\t\t\(dependencies[1]) /* PatchSwiftUI */,\n\t\t\t);\n\t\t\tproductName = \"Sample Widget\";"))

        // Adding again changes nothing, under any spelling of the repository URL.
        for spelling in [Self.sdkURL, Self.sdkURL + ".git", Self.sdkURL.uppercased() + "/", Self.sdkURL + ".git/"] {
            var again = editor
            try again.addPackageDependency(url: spelling, minimumVersion: "1.4.0", products: ["PatchSDK", "PatchSwiftUI"], target: "Sample Widget")
            #expect(again.bytes == editor.bytes)
        }

        try editor.removePackageDependency(url: Self.sdkURL + ".git", target: "Sample Widget")
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
        // Removing what is not there is not an error and changes nothing.
        try editor.removePackageDependency(url: Self.sdkURL, target: "Sample Widget")
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
    }

    @Test func packageSharedByTwoTargetsStaysUntilTheLastGoes() throws {
        var editor = try classic()
        try editor.addPackageDependency(url: Self.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK"], target: "Sample App")
        let afterApp = editor.bytes
        try editor.addPackageDependency(url: Self.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK"], target: "Sample Widget")
        #expect(editor.document.objects(isa: "XCRemoteSwiftPackageReference").count == 2)
        try editor.removePackageDependency(url: Self.sdkURL, target: "Sample Widget")
        #expect(editor.bytes == afterApp)
        try editor.removePackageDependency(url: Self.sdkURL, target: "Sample App")
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
    }

    @Test func existingPackageIsReusedUnderAnotherSpelling() throws {
        var editor = try classic()
        try editor.addPackageDependency(url: "https://GitHub.com/apple/swift-collections.git", minimumVersion: "1.0.0", products: ["Collections", "DequeModule"], target: "Sample App")
        let document = editor.document
        #expect(document.objects(isa: "XCRemoteSwiftPackageReference").count == 1)
        let app = try #require(document.objects(isa: "PBXNativeTarget").first?.node)
        #expect(app["packageProductDependencies"]?.strings.compactMap { document.object($0)?["productName"]?.string } == ["Collections", "DequeModule"])
        #expect(text(editor).contains("minimumVersion = 1.1.0;"))
    }

    @Test func emptyDependencyListOfAnXcode16TargetIsFilled() throws {
        var editor = try synchronized()
        try editor.addPackageDependency(url: Self.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK"], target: "Reader")
        let document = editor.document
        let reader = try #require(document.objects(isa: "PBXNativeTarget").first?.node)
        #expect(reader["packageProductDependencies"]?.strings.count == 1)
        // The target's existing Frameworks phase is used.
        #expect(reader["buildPhases"]?.strings.count == 2)
        #expect(document.object("B30000000000000000000003")?["files"]?.strings.count == 1)
        // The project had no packageReferences: the key is created in key order.
        #expect(text(editor).contains("\t\t\tminimizedProjectReferenceProxies = 1;\n\t\t\tpackageReferences = (\n"))
        try editor.removePackageDependency(url: Self.sdkURL, target: "Reader")
        // Xcode omits an empty packageProductDependencies; the emptied list goes.
        #expect(text(editor) == Fixtures.synchronized.replacingOccurrences(of: "\t\t\tpackageProductDependencies = (\n\t\t\t);\n", with: ""))
    }

    // MARK: Source files

    @Test func generatedFileGetsAPatchGroupAndASourcesEntry() throws {
        var editor = try classic()
        let file = "Sample App/Patch/PatchThunks.swift"
        try editor.addSourceFile(path: file, target: "Sample App")
        #expect(editor.nativeTargets[0].swiftSources.last == file)
        #expect(editor.nativeTargets[1].swiftSources.contains(file) == false)
        let document = editor.document
        let patchGroup = try #require(document.objects(isa: "PBXGroup").first { $0.node["path"]?.string == "Patch" })
        #expect(document.object("A40000000000000000000002")?["children"]?.strings.last == patchGroup.id)
        let added = text(editor)
        #expect(added.contains("/* PatchThunks.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = PatchThunks.swift; sourceTree = \"<group>\"; };"))
        #expect(added.contains("\t\t\(patchGroup.id) /* Patch */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t"))

        var again = editor
        try again.addSourceFile(path: "./Sample App/Patch/../Patch/PatchThunks.swift", target: "Sample App")
        #expect(again.bytes == editor.bytes)

        // A second file joins the same group; removing both restores the original bytes.
        try editor.addSourceFile(path: "Sample App/Patch/PatchFingerprint.swift", target: "Sample App")
        #expect(editor.document.object(patchGroup.id)?["children"]?.strings.count == 2)
        try editor.removeSourceFile(path: file, target: "Sample App")
        #expect(editor.document.object(patchGroup.id) != nil)
        try editor.removeSourceFile(path: "Sample App/Patch/PatchFingerprint.swift", target: "Sample App")
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
    }

    @Test func fileInAnExistingFolderGroupAndSharedBetweenTargets() throws {
        var editor = try classic()
        let file = "Sample App/Views/Badge.swift"
        try editor.addSourceFile(path: file, target: "Sample App")
        try editor.addSourceFile(path: file, target: "Sample Widget")
        #expect(editor.document.objects(isa: "PBXFileReference").filter { $0.node["path"]?.string == "Badge.swift" }.count == 1)
        #expect(editor.document.object("A40000000000000000000003")?["children"]?.strings.count == 2)
        #expect(editor.nativeTargets.allSatisfy { $0.swiftSources.contains(file) })
        let shared = editor.bytes
        try editor.removeSourceFile(path: file, target: "Sample Widget")
        // Still compiled by the app, so its file reference stays.
        #expect(editor.nativeTargets[0].swiftSources.contains(file))
        try editor.removeSourceFile(path: file, target: "Sample App")
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
        _ = shared
    }

    @Test func existingFileOnlyGainsABuildFile() throws {
        var editor = try classic()
        // ContentView.swift is in the project (the app compiles it) but not in the widget.
        try editor.addSourceFile(path: "Sample App/ContentView.swift", target: "Sample Widget")
        #expect(editor.nativeTargets[1].swiftSources.contains("Sample App/ContentView.swift"))
        #expect(editor.document.objects(isa: "PBXFileReference").count == 7)
        try editor.removeSourceFile(path: "Sample App/ContentView.swift", target: "Sample Widget")
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
        // Removing a file the tool did not add from a target leaves its file reference alone.
        try editor.removeSourceFile(path: "Widget/Widget.swift", target: "Sample Widget")
        #expect(editor.document.object("A20000000000000000000005") != nil)
        #expect(editor.nativeTargets[1].swiftSources == ["Sample App/Views/ItemView.swift"])
    }

    @Test func excludingAFileFromASynchronizedFolderAddsAnExceptionAndUndoesIt() throws {
        // A synchronized folder without exceptions: excluding creates the target's exception set.
        let project = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tobjectVersion = 77;
            \tobjects = {

            /* Begin PBXFileSystemSynchronizedRootGroup section */
            \t\tC40000000000000000000002 /* Shared */ = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; explicitFolders = (); path = Shared; sourceTree = "<group>"; };
            /* End PBXFileSystemSynchronizedRootGroup section */

            /* Begin PBXGroup section */
            \t\tC40000000000000000000001 = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \t\t\t\tC40000000000000000000002 /* Shared */,
            \t\t\t);
            \t\t\tsourceTree = "<group>";
            \t\t};
            /* End PBXGroup section */

            /* Begin PBXNativeTarget section */
            \t\tC50000000000000000000001 /* Extension */ = {
            \t\t\tisa = PBXNativeTarget;
            \t\t\tbuildPhases = (
            \t\t\t);
            \t\t\tfileSystemSynchronizedGroups = (
            \t\t\t\tC40000000000000000000002 /* Shared */,
            \t\t\t);
            \t\t\tname = Extension;
            \t\t\tproductType = "com.apple.product-type.app-extension";
            \t\t};
            /* End PBXNativeTarget section */

            /* Begin PBXProject section */
            \t\tC60000000000000000000001 /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tmainGroup = C40000000000000000000001;
            \t\t\ttargets = (
            \t\t\t\tC50000000000000000000001 /* Extension */,
            \t\t\t);
            \t\t};
            /* End PBXProject section */
            \t};
            \trootObject = C60000000000000000000001 /* Project object */;
            }

            """
        var editor = try XcodeProjectEditor(bytes: Array(project.utf8), path: "project.pbxproj")
        #expect(editor.nativeTargets[0].compiles("Shared/Patch/PatchThunks-Shared-App.generated.swift"))
        try editor.excludeSourceFile(path: "Shared/Patch/PatchThunks-Shared-App.generated.swift", target: "Extension")
        try editor.excludeSourceFile(path: "Shared/Patch/PatchFingerprint.generated.swift", target: "Extension")
        let excluded = editor.bytes
        try editor.excludeSourceFile(path: "Shared/Patch/PatchFingerprint.generated.swift", target: "Extension")
        #expect(editor.bytes == excluded)
        let target = editor.nativeTargets[0]
        #expect(target.synchronizedExclusions == ["Shared/Patch/PatchFingerprint.generated.swift", "Shared/Patch/PatchThunks-Shared-App.generated.swift"])
        #expect(!target.compiles("Shared/Patch/PatchThunks-Shared-App.generated.swift") && target.compiles("Shared/View.swift"))
        #expect(text(editor).contains("""
            \t\t\tmembershipExceptions = (
            \t\t\t\tPatch/PatchFingerprint.generated.swift,
            \t\t\t\t"Patch/PatchThunks-Shared-App.generated.swift",
            \t\t\t);
            \t\t\ttarget = C50000000000000000000001 /* Extension */;
            """))
        #expect(text(editor).contains("exceptions = ("))
        try editor.removeExclusion(path: "Shared/Patch/PatchThunks-Shared-App.generated.swift", target: "Extension")
        try editor.removeExclusion(path: "Shared/Patch/PatchFingerprint.generated.swift", target: "Extension")
        #expect(text(editor) == project)
    }

    @Test func synchronizedFolderMembershipExceptionIsLifted() throws {
        var editor = try synchronized()
        // Inside the synchronized folder and not excluded: the file is already a member.
        try editor.addSourceFile(path: "Reader/Patch/PatchFingerprint.swift", target: "Reader")
        #expect(editor.bytes == Array(Fixtures.synchronized.utf8))
        // Excluded by the target's exception set: the exclusion is removed, nothing else changes.
        try editor.addSourceFile(path: "Reader/Patch/PatchThunks.swift", target: "Reader")
        #expect(text(editor) == Fixtures.synchronized.replacingOccurrences(of: "\t\t\t\tPatch/PatchThunks.swift,\n", with: ""))
        #expect(editor.document.object("B30000000000000000000001")?["membershipExceptions"]?.strings == ["Info.plist"])
        let lifted = editor.bytes
        try editor.addSourceFile(path: "Reader/Patch/PatchThunks.swift", target: "Reader")
        #expect(editor.bytes == lifted)
        try editor.removeSourceFile(path: "Reader/Patch/PatchThunks.swift", target: "Reader")
        #expect(editor.bytes == lifted)
        // Outside the synchronized folder, the classic registration applies.
        try editor.addSourceFile(path: "Generated/Extra.swift", target: "Reader")
        #expect(editor.nativeTargets[0].swiftSources == ["Generated/Extra.swift"])
        try editor.removeSourceFile(path: "Generated/Extra.swift", target: "Reader")
        #expect(editor.bytes == lifted)
    }

    // MARK: Errors

    @Test func unknownTargetNamesTheTargetsThatExist() throws {
        var editor = try classic()
        #expect(throws: XcodeProjectError.targetNotFound(name: "App", available: ["Sample App", "Sample Widget"], path: Self.classicPath)) {
            try editor.addSourceFile(path: "App/Patch/X.swift", target: "App")
        }
        #expect(XcodeProjectError.targetNotFound(name: "App", available: ["Sample App"], path: Self.classicPath).description
            .contains("no native target named \"App\"; the project has: \"Sample App\""))
    }

    @Test func fileOutsideTheProjectIsRefused() throws {
        var editor = try classic()
        #expect(throws: XcodeProjectError.fileOutsideProject(file: "../Other/X.swift", path: Self.classicPath)) {
            try editor.addSourceFile(path: "../Other/X.swift", target: "Sample App")
        }
        #expect(editor.bytes == Array(Fixtures.classic.utf8))
    }

    @Test func malformedProjectReportsWhere() {
        let broken = Fixtures.classic.replacingOccurrences(of: "\t\t\tname = \"Sample App\";\n", with: "\t\t\tname = \"Sample App\"\n")
        #expect {
            _ = try XcodeProjectEditor(bytes: Array(broken.utf8), path: Self.classicPath)
        } throws: { error in
            guard case let .malformed(path, parseError) = error as? XcodeProjectError else { return false }
            return path == Self.classicPath && parseError.line == 109 && "\(error)".hasPrefix("Sample App.xcodeproj/project.pbxproj: expected ';'")
        }
        #expect(throws: XcodeProjectError.incomplete(path: "p", missing: "rootObject naming a PBXProject")) {
            _ = try XcodeProjectEditor(bytes: Array("{ objects = { }; }".utf8), path: "p")
        }
    }
}
