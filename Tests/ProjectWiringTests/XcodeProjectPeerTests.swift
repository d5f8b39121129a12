import Foundation
import Testing
@testable import ProjectWiring
import PythonPeer

/// Independent readers of what we write: the PyPI `pbxproj` package (the object model most
/// tooling uses) must see the objects we added, and `kin` (an ANTLR grammar of the format) must
/// accept the file. Run on projects in a folder whose path has spaces, as real projects often do.
@Suite struct XcodeProjectPeerTests {
    /// Prints, as JSON, kin's syntax errors and what `pbxproj` sees of each target.
    static let reader = """
import json, sys
from kin.verifier import Verifier
from pbxproj import XcodeProject
path = sys.argv[1]
project = XcodeProject.load(path)
objects = project.objects
def phase_entries(target, isa):
    for phase in target.buildPhases:
        if objects[phase].isa == isa:
            return [objects[f].fileRef if 'fileRef' in objects[f] else objects[f].productRef for f in objects[phase].files]
    return []
targets = {}
for target in objects.get_objects_in_section('PBXNativeTarget'):
    dependencies = target.packageProductDependencies if 'packageProductDependencies' in target else []
    targets[target.name] = {
        'products': [objects[d].productName for d in dependencies],
        'linked': [objects[r].productName for r in phase_entries(target, 'PBXFrameworksBuildPhase') if objects[r].isa == 'XCSwiftPackageProductDependency'],
        'sources': [objects[f].path for f in phase_entries(target, 'PBXSourcesBuildPhase')],
    }
remotes = [o.repositoryURL for o in objects.get_objects_in_section('XCRemoteSwiftPackageReference')]
root = objects[project.rootObject]
referenced = [objects[r].repositoryURL for r in root.packageReferences if objects[r].isa == 'XCRemoteSwiftPackageReference'] if 'packageReferences' in root else []
print(json.dumps({'kin': Verifier().check_errors(path), 'targets': targets, 'remotes': remotes, 'referenced': referenced}))
"""

    struct Reading: Decodable, Equatable {
        struct Target: Decodable, Equatable {
            var products: [String]
            var linked: [String]
            var sources: [String]
        }
        var kin: [String]
        var targets: [String: Target]
        var remotes: [String]
        var referenced: [String]
    }

    func read(_ bytes: [UInt8]) throws -> Reading? {
        guard let env = try requirePythonModule("pbxproj"), try requirePythonModule("kin") != nil else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli wiring \(UUID().uuidString)/Sample App.xcodeproj")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let file = folder.appendingPathComponent("project.pbxproj")
        try Data(bytes).write(to: file)
        let result = try runPython(env, arguments: ["-c", Self.reader, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Reading.self, from: Data(result.stdout))
    }

    @Test func readersSeeThePackageAndFilesWeAdded() throws {
        var editor = try XcodeProjectEditor(bytes: Array(Fixtures.classic.utf8), path: "project.pbxproj")
        try editor.addPackageDependency(url: XcodeProjectEditorTests.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK", "PatchSwiftUI"], target: "Sample App")
        try editor.addPackageDependency(url: XcodeProjectEditorTests.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK"], target: "Sample Widget")
        try editor.addSourceFile(path: "Sample App/Patch/PatchThunks.swift", target: "Sample App")
        try editor.addSourceFile(path: "Widget/Patch/PatchThunks.swift", target: "Sample Widget")
        guard let reading = try read(editor.bytes) else { return }
        #expect(reading.kin == [])
        // Objects sit in ID order; the project's packageReferences keep the order they were added in.
        #expect(reading.referenced == ["https://github.com/apple/swift-collections", XcodeProjectEditorTests.sdkURL])
        #expect(reading.remotes.sorted() == reading.referenced.sorted())
        #expect(reading.targets["Sample App"] == Reading.Target(
            products: ["Collections", "PatchSDK", "PatchSwiftUI"], linked: ["Collections", "PatchSDK", "PatchSwiftUI"],
            sources: ["ContentView.swift", "ItemView.swift", "SampleApp.swift", "PatchThunks.swift"]))
        #expect(reading.targets["Sample Widget"] == Reading.Target(
            products: ["PatchSDK"], linked: ["PatchSDK"], sources: ["Widget.swift", "ItemView.swift", "PatchThunks.swift"]))

        // The inverse operations leave a file the readers see as the original.
        try editor.removeSourceFile(path: "Widget/Patch/PatchThunks.swift", target: "Sample Widget")
        try editor.removePackageDependency(url: XcodeProjectEditorTests.sdkURL, target: "Sample Widget")
        let reverted = try #require(try read(editor.bytes))
        #expect(reverted.kin == [])
        #expect(reverted.targets["Sample Widget"] == Reading.Target(products: [], linked: [], sources: ["Widget.swift", "ItemView.swift"]))
    }

    @Test func readersAcceptTheWiredXcode16Project() throws {
        var editor = try XcodeProjectEditor(bytes: Array(Fixtures.synchronized.utf8), path: "project.pbxproj")
        try editor.addPackageDependency(url: XcodeProjectEditorTests.sdkURL, minimumVersion: "1.4.0", products: ["PatchSDK", "PatchSwiftUI"], target: "Reader")
        try editor.addSourceFile(path: "Reader/Patch/PatchThunks.swift", target: "Reader")
        guard let reading = try read(editor.bytes) else { return }
        #expect(reading.kin == [])
        #expect(reading.referenced == [XcodeProjectEditorTests.sdkURL])
        #expect(reading.targets["Reader"] == Reading.Target(products: ["PatchSDK", "PatchSwiftUI"], linked: ["PatchSDK", "PatchSwiftUI"], sources: []))
    }
}
