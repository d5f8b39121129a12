import Foundation
import Testing

/// `init` on a classic Xcode project (groups, explicit Compile Sources), in a folder whose name has a
/// space: the SDK package and products land in project.pbxproj, every generated file is compiled by
/// the target, a second run changes nothing and `init --revert` gives the project file back exactly.
@Suite struct InitXcodeCLITests {
    static let pbxproj = """
// !$*UTF8*$!
{
\tarchiveVersion = 1;
\tclasses = {
\t};
\tobjectVersion = 56;
\tobjects = {

/* Begin PBXBuildFile section */
\t\tB10000000000000000000001 /* ShopApp.swift in Sources */ = {isa = PBXBuildFile; fileRef = B20000000000000000000001 /* ShopApp.swift */; };
\t\tB10000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = B20000000000000000000002 /* ContentView.swift */; };
/* End PBXBuildFile section */

/* Begin PBXFileReference section */
\t\tB20000000000000000000001 /* ShopApp.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ShopApp.swift; sourceTree = "<group>"; };
\t\tB20000000000000000000002 /* ContentView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ContentView.swift; sourceTree = "<group>"; };
\t\tB20000000000000000000003 /* Shop.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Shop.app; sourceTree = BUILT_PRODUCTS_DIR; };
/* End PBXFileReference section */

/* Begin PBXGroup section */
\t\tB40000000000000000000001 = {
\t\t\tisa = PBXGroup;
\t\t\tchildren = (
\t\t\t\tB40000000000000000000002 /* Shop */,
\t\t\t\tB40000000000000000000003 /* Products */,
\t\t\t);
\t\t\tsourceTree = "<group>";
\t\t};
\t\tB40000000000000000000002 /* Shop */ = {
\t\t\tisa = PBXGroup;
\t\t\tchildren = (
\t\t\t\tB20000000000000000000001 /* ShopApp.swift */,
\t\t\t\tB20000000000000000000002 /* ContentView.swift */,
\t\t\t);
\t\t\tpath = Shop;
\t\t\tsourceTree = "<group>";
\t\t};
\t\tB40000000000000000000003 /* Products */ = {
\t\t\tisa = PBXGroup;
\t\t\tchildren = (
\t\t\t\tB20000000000000000000003 /* Shop.app */,
\t\t\t);
\t\t\tname = Products;
\t\t\tsourceTree = "<group>";
\t\t};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
\t\tB50000000000000000000001 /* Shop */ = {
\t\t\tisa = PBXNativeTarget;
\t\t\tbuildPhases = (
\t\t\t\tB30000000000000000000001 /* Sources */,
\t\t\t);
\t\t\tbuildRules = (
\t\t\t);
\t\t\tdependencies = (
\t\t\t);
\t\t\tname = Shop;
\t\t\tproductName = Shop;
\t\t\tproductReference = B20000000000000000000003 /* Shop.app */;
\t\t\tproductType = "com.apple.product-type.application";
\t\t};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
\t\tB60000000000000000000001 /* Project object */ = {
\t\t\tisa = PBXProject;
\t\t\tcompatibilityVersion = "Xcode 14.0";
\t\t\tmainGroup = B40000000000000000000001;
\t\t\tproductRefGroup = B40000000000000000000003 /* Products */;
\t\t\tprojectDirPath = "";
\t\t\tprojectRoot = "";
\t\t\ttargets = (
\t\t\t\tB50000000000000000000001 /* Shop */,
\t\t\t);
\t\t};
/* End PBXProject section */

/* Begin PBXSourcesBuildPhase section */
\t\tB30000000000000000000001 /* Sources */ = {
\t\t\tisa = PBXSourcesBuildPhase;
\t\t\tbuildActionMask = 2147483647;
\t\t\tfiles = (
\t\t\t\tB10000000000000000000001 /* ShopApp.swift in Sources */,
\t\t\t\tB10000000000000000000002 /* ContentView.swift in Sources */,
\t\t\t);
\t\t\trunOnlyForDeploymentPostprocessing = 0;
\t\t};
/* End PBXSourcesBuildPhase section */
\t};
\trootObject = B60000000000000000000001 /* Project object */;
}

"""

    private func write(_ text: String, _ path: String, in project: URL) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func initWiresTheXcodeProjectAndRevertRestoresIt() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("My Shop")
            try write(Self.pbxproj, "Shop.xcodeproj/project.pbxproj", in: project)
            try write("import SwiftUI\n\n@main\nstruct ShopApp: App {\n    var body: some Scene {\n        WindowGroup { ContentView() }\n    }\n}\n",
                      "Shop/ShopApp.swift", in: project)
            try write("import SwiftUI\n\nstruct ContentView: View {\n    var body: some View {\n        Text(\"Hello\")\n    }\n}\n",
                      "Shop/ContentView.swift", in: project)
            let keys = directory.appendingPathComponent("keys").path

            let first = try CLI.run(["init", "--project", project.path, "--key-dir", keys, "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            let wired = (first.result?["wired"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
            #expect(wired.contains("Shop.xcodeproj/project.pbxproj") && wired.contains("Shop/ShopApp.swift"), "\(wired)")
            let manualSteps = first.result?["manual_steps"] as? [String] ?? first.result?["manualSteps"] as? [String] ?? []
            #expect(manualSteps.isEmpty, "\(manualSteps)")

            let pbxproj = try String(contentsOf: project.appendingPathComponent("Shop.xcodeproj/project.pbxproj"), encoding: .utf8)
            #expect(pbxproj.contains("repositoryURL = \"https://github.com/patch-release/patch-swift\";"))
            #expect(pbxproj.contains("minimumVersion = 1.4.0;"))
            #expect(pbxproj.contains("/* PatchSDK in Frameworks */") && pbxproj.contains("/* PatchSwiftUI in Frameworks */"))
            // Every file prepare generated is compiled by the target.
            for file in ["PatchThunks-Shop.generated.swift", "PatchFingerprint.generated.swift", "PatchPublicKey.generated.swift"] {
                #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("Shop/Patch/\(file)").path))
                #expect(pbxproj.contains("/* \(file) in Sources */ = {isa = PBXBuildFile;"), "\(file) not in Compile Sources")
            }
            // Everything outside the edit is as it was: the original's lines are all still there, in order.
            let originalLines = Self.pbxproj.split(separator: "\n", omittingEmptySubsequences: false)
            var remaining = pbxproj.split(separator: "\n", omittingEmptySubsequences: false)[...]
            for line in originalLines {
                guard let index = remaining.firstIndex(of: line) else { Issue.record("line lost: \(line)"); break }
                remaining = remaining[(index + 1)...]
            }

            let second = try CLI.run(["init", "--project", project.path, "--key-dir", keys])
            #expect(second.stdout.contains("already set up: nothing changed"), "\(second.stdout)")

            let revert = try CLI.run(["init", "--project", project.path, "--revert"])
            #expect(revert.status == 0, "\(revert.stderr)")
            let reverted = try Data(contentsOf: project.appendingPathComponent("Shop.xcodeproj/project.pbxproj"))
            #expect(reverted == Data(Self.pbxproj.utf8))
        }
    }

    /// A generated file unticked from its target in Xcode: `prepare --check` names it (exit 54), and
    /// `prepare` registers it again.
    @Test func checkFindsAGeneratedFileTheTargetNoLongerCompilesAndPrepareRegistersIt() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            let pbxprojPath = project.appendingPathComponent("Shop.xcodeproj/project.pbxproj")
            try write(Self.pbxproj, "Shop.xcodeproj/project.pbxproj", in: project)
            try write("import SwiftUI\n\n@main\nstruct ShopApp: App {\n    var body: some Scene {\n        WindowGroup { ContentView() }\n    }\n}\n",
                      "Shop/ShopApp.swift", in: project)
            try write("import SwiftUI\n\nstruct ContentView: View {\n    var body: some View {\n        Text(\"Hello\")\n    }\n}\n",
                      "Shop/ContentView.swift", in: project)
            let first = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            let clean = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(clean.status == 0, "\(clean.stdout)")

            // Unticked in Xcode: the build file leaves the target's Compile Sources phase.
            let wired = try String(contentsOf: pbxprojPath, encoding: .utf8)
            let lines = wired.split(separator: "\n", omittingEmptySubsequences: false)
            let unticked = lines.filter { !($0.contains("/* PatchThunks-Shop.generated.swift in Sources */") && $0.hasSuffix(",")) }
            #expect(unticked.count == lines.count - 1)
            try Data(unticked.joined(separator: "\n").utf8).write(to: pbxprojPath)

            let found = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(found.status == 54, "\(found.stdout)")
            #expect(found.error?["kind"] as? String == "generated_unregistered")
            #expect((found.error?["message"] as? String)?.contains("Shop/Patch/PatchThunks-Shop.generated.swift: not compiled by Shop") == true, "\(found.stdout)")
            #expect((found.error?["hint"] as? String)?.contains("`patchcli prepare` registers it") == true)

            let prepare = try CLI.run(["prepare", "--project", project.path, "--json"])
            #expect(prepare.status == 0, "\(prepare.stderr)")
            #expect((prepare.result?["changed_files"] as? [String] ?? []).contains("Shop.xcodeproj/project.pbxproj"), "\(prepare.stdout)")
            let again = try CLI.run(["prepare", "--project", project.path, "--check", "--json"])
            #expect(again.status == 0, "\(again.stdout)")
        }
    }

    /// What Xcode writes when the developer adds `Feature/FeatureView.swift` to the app target: a
    /// `Feature` group in the main group, its file reference, and its build file in Compile Sources.
    private static func addingFeatureFolder(to pbxproj: String) -> String {
        let edits = [
            ("\t\tB10000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = B20000000000000000000002 /* ContentView.swift */; };\n",
             "\t\tB10000000000000000000009 /* FeatureView.swift in Sources */ = {isa = PBXBuildFile; fileRef = B20000000000000000000009 /* FeatureView.swift */; };\n"),
            ("\t\tB20000000000000000000002 /* ContentView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ContentView.swift; sourceTree = \"<group>\"; };\n",
             "\t\tB20000000000000000000009 /* FeatureView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = FeatureView.swift; sourceTree = \"<group>\"; };\n"),
            ("\t\t\t\tB40000000000000000000003 /* Products */,\n", "\t\t\t\tB40000000000000000000009 /* Feature */,\n"),
            ("\t\t\t\tB10000000000000000000002 /* ContentView.swift in Sources */,\n", "\t\t\t\tB10000000000000000000009 /* FeatureView.swift in Sources */,\n"),
            ("\t\t\tname = Products;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n",
             "\t\tB40000000000000000000009 /* Feature */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\tB20000000000000000000009 /* FeatureView.swift */,\n\t\t\t);\n\t\t\tpath = Feature;\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"),
        ]
        var text = pbxproj
        for (anchor, added) in edits {
            guard let range = text.range(of: anchor) else { Issue.record("anchor missing: \(anchor)"); continue }
            text.insert(contentsOf: added, at: range.upperBound)
        }
        return text
    }

    @Test func aLaterPrepareRegistersANewFolderInTheWiredProjectAndRevertUndoesIt() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            let pbxprojPath = project.appendingPathComponent("Shop.xcodeproj/project.pbxproj")
            try write(Self.pbxproj, "Shop.xcodeproj/project.pbxproj", in: project)
            try write("import SwiftUI\n\n@main\nstruct ShopApp: App {\n    var body: some Scene {\n        WindowGroup { ContentView() }\n    }\n}\n",
                      "Shop/ShopApp.swift", in: project)
            try write("import SwiftUI\n\nstruct ContentView: View {\n    var body: some View {\n        Text(\"Hello\")\n    }\n}\n",
                      "Shop/ContentView.swift", in: project)
            let keys = directory.appendingPathComponent("keys").path
            let first = try CLI.run(["init", "--project", project.path, "--key-dir", keys, "--json"])
            #expect(first.status == 0, "\(first.stderr)")

            // The developer adds a folder of views to the app target in Xcode.
            try write("import SwiftUI\n\nstruct FeatureView: View {\n    var body: some View {\n        Text(\"New\")\n    }\n}\n",
                      "Feature/FeatureView.swift", in: project)
            let wired = try String(contentsOf: pbxprojPath, encoding: .utf8)
            try Data(Self.addingFeatureFolder(to: wired).utf8).write(to: pbxprojPath)

            let prepare = try CLI.run(["prepare", "--project", project.path, "--json"])
            #expect(prepare.status == 0, "\(prepare.stderr)")
            let changed = prepare.result?["changed_files"] as? [String] ?? []
            #expect(changed.contains("Feature/Patch/PatchThunks-Feature.generated.swift") && changed.contains("Shop.xcodeproj/project.pbxproj"), "\(changed)")
            let added = prepare.result?["added_source_roots"] as? [[String: String]] ?? []
            #expect(added == [["target": "Shop", "root": "Feature"]])
            let registered = try String(contentsOf: pbxprojPath, encoding: .utf8)
            #expect(registered.contains("/* PatchThunks-Feature.generated.swift in Sources */ = {isa = PBXBuildFile;"))

            let again = try CLI.run(["prepare", "--project", project.path])
            #expect(again.stdout.contains("already prepared: nothing changed"), "\(again.stdout)")
            #expect(again.stdout.contains("note: target Shop: the Xcode project compiles files in \"Feature\""), "\(again.stdout)")

            let revert = try CLI.run(["init", "--project", project.path, "--revert"])
            #expect(revert.status == 0, "\(revert.stderr)")
            #expect(try String(contentsOf: pbxprojPath, encoding: .utf8) == Self.addingFeatureFolder(to: Self.pbxproj))
        }
    }
}
