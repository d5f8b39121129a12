import Foundation
import PatchManifest
import ProjectWiring
import SwiftParser
import SwiftSyntax

/// A project found in a folder: what `init` writes into `patch.json`.
public struct DetectedProject: Sendable, Equatable {
    public var project: ProjectConfig.Project
    public var name: String
    public var targets: [ProjectConfig.Target]
    public var appTarget: String
}

/// Finds the SwiftPM package or Xcode project in a folder and reads its targets and source folders,
/// with the targets of every local Swift package the Xcode project uses.
public enum ProjectDetector {
    /// The project in `root`: its `.xcodeproj` (with the local packages it references; one level down
    /// when the folder has none) or its `Package.swift`. When the folder has both a root `Package.swift` and an Xcode project (in the
    /// folder or one level down, like `App/isowords.xcodeproj`) whose app target uses that root
    /// package, the app is the Xcode project and the package's targets join it.
    public static func detect(root: String) throws(InitError) -> DetectedProject {
        let packagePath = Preparer.join(root, "Package.swift")
        let hasRootPackage = FileManager.default.fileExists(atPath: packagePath)
        for project in xcodeProjects(in: root, searchSubfolders: hasRootPackage) {
            guard hasRootPackage else { return try xcodeProjectWithPackages(root: root, path: project) }
            // Beside a root package, a project that cannot be read or does not use it is not the app.
            if let detected = try? xcodeProjectWithPackages(root: root, path: project),
               detected.targets.contains(where: { $0.manifest == "Package.swift" }) { return detected }
        }
        if hasRootPackage {
            return try swiftPackage(manifest: readText(packagePath), path: "Package.swift",
                                    name: URL(fileURLWithPath: root).standardizedFileURL.lastPathComponent)
        }
        throw .noProject(root: root)
    }

    /// `.xcodeproj` folders in `root` (sorted), then in its visible subfolders when asked or when the
    /// folder itself has none.
    private static func xcodeProjects(in root: String, searchSubfolders: Bool) -> [String] {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
        var projects = entries.filter { $0.hasSuffix(".xcodeproj") }
        guard searchSubfolders || projects.isEmpty else { return projects }
        for entry in entries where !entry.hasPrefix(".") && !entry.hasSuffix(".xcodeproj") {
            let inner = (try? FileManager.default.contentsOfDirectory(atPath: Preparer.join(root, entry))) ?? []
            projects += inner.filter { $0.hasSuffix(".xcodeproj") }.sorted().map { entry + "/" + $0 }
        }
        return projects
    }

    /// An Xcode project's own targets, then the targets of each local package it uses (see
    /// `localPackageFolders`), in folder order. Package targets keep their names unless another
    /// target already has it; they are then named `<package name>/<target name>`.
    static func xcodeProjectWithPackages(root: String, path: String) throws(InitError) -> DetectedProject {
        let pbxproj = Array(try readText(Preparer.join(Preparer.join(root, path), "project.pbxproj")).utf8)
        var detected = try xcodeProject(pbxproj: pbxproj, path: path)
        let projectFolder = (path as NSString).deletingLastPathComponent
        var folders = try localPackageFolders(pbxproj: pbxproj, path: path)
        folders += workspacePackageFolders(root: root, projectFolder: projectFolder)
        func isPackage(_ folder: String) -> Bool {
            FileManager.default.fileExists(atPath: Preparer.join(Preparer.join(root, folder), "Package.swift"))
        }
        var packages: [String] = []
        for folder in folders {
            guard let folder = normalized(Preparer.join(projectFolder, folder)) else { continue }
            if isPackage(folder) {
                packages.append(folder)
            } else {
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: Preparer.join(root, folder))) ?? []
                packages += entries.filter { !$0.hasPrefix(".") }.map { Preparer.join(folder, $0) }.filter(isPackage)
            }
        }
        var claimedNames = Set(detected.targets.map(\.name))
        for folder in Set(packages).sorted() {
            let manifest = Preparer.join(folder, "Package.swift")
            guard let package = try? swiftPackage(manifest: readText(Preparer.join(root, manifest)), path: manifest,
                                                  name: (folder as NSString).lastPathComponent) else { continue }
            for var target in package.targets {
                target.sourceRoots = target.sourceRoots.compactMap { normalized(Preparer.join(folder, $0)) }
                    .filter { holdsSwiftFiles(Preparer.join(root, $0)) }
                guard !target.sourceRoots.isEmpty else { continue }
                if claimedNames.contains(target.name) { target.name = package.name + "/" + target.name }
                guard claimedNames.insert(target.name).inserted else { continue }
                target.manifest = manifest
                detected.targets.append(target)
            }
        }
        return detected
    }

    /// Folders, relative to the project's folder, that may hold local packages the project uses:
    /// `XCLocalSwiftPackageReference` paths, folder references (how Xcode adds a package folder to a
    /// project), and synchronized folders no target compiles. A folder without a Package.swift stands
    /// for its immediate subfolders (a `Modules/` folder of packages).
    static func localPackageFolders(pbxproj: [UInt8], path: String) throws(InitError) -> [String] {
        let editor = try editor(pbxproj: pbxproj, path: path)
        return editor.localPackagePaths + editor.folderReferences + editor.unusedSynchronizedFolders
    }

    /// Folders listed by a workspace next to the project (`<FileRef location = "group:Modules/RSCore">`),
    /// relative to the project's folder.
    static func workspacePackageFolders(root: String, projectFolder: String) -> [String] {
        let folder = Preparer.join(root, projectFolder)
        let workspaces = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcworkspace") }.sorted()
        var folders: [String] = []
        for workspace in workspaces {
            guard let data = FileManager.default.contents(atPath: Preparer.join(Preparer.join(folder, workspace), "contents.xcworkspacedata")) else { continue }
            folders += workspaceLocations(String(decoding: data, as: UTF8.self))
        }
        return folders
    }

    /// The `group:` and `container:` locations of a `contents.xcworkspacedata` (relative to its folder).
    static func workspaceLocations(_ xml: String) -> [String] {
        var locations: [String] = []
        var rest = xml[...]
        while let attribute = rest.range(of: "location = \"") ?? rest.range(of: "location=\"") {
            rest = rest[attribute.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let value = String(rest[..<end])
            rest = rest[end...]
            for scheme in ["group:", "container:"] where value.hasPrefix(scheme) {
                let location = String(value.dropFirst(scheme.count))
                if !location.isEmpty, !location.hasSuffix(".xcodeproj") { locations.append(location) }
            }
        }
        return locations
    }

    /// `path` with `.` and `..` components resolved lexically; nil when it leaves the project folder.
    static func normalized(_ path: String) -> String? {
        var parts: [String] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    private static func holdsSwiftFiles(_ directory: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else { return directory.hasSuffix(".swift") }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return false }
        for case let path as String in enumerator where path.hasSuffix(".swift") && !ProjectSources.isManifest(path) { return true }
        return false
    }

    /// Targets of a `Package.swift`, read from its syntax (the manifest is not run): every
    /// `.target` and `.executableTarget` with a literal name; its source folders are the literal
    /// `sources:` inside `path:` when given, else `path:`, else `Sources/<name>`. The app target is the
    /// first executable target.
    public static func swiftPackage(manifest: String, path: String, name: String) throws(InitError) -> DetectedProject {
        let collector = ManifestCallCollector(viewMode: .sourceAccurate)
        collector.walk(Parser.parse(source: manifest))
        var targets: [ProjectConfig.Target] = []
        var executables: [String] = []
        for call in collector.targetCalls where !targets.contains(where: { $0.name == call.name }) {
            let folder = call.path ?? "Sources/\(call.name)"
            let roots = call.sources.isEmpty ? [folder] : call.sources.map { Preparer.join(folder, $0) }
            targets.append(ProjectConfig.Target(name: call.name, sourceRoots: roots))
            if call.isExecutable { executables.append(call.name) }
        }
        guard let app = executables.first ?? targets.first?.name else { throw .noTargets(path: path) }
        return DetectedProject(project: .init(kind: .swiftPackage, path: path), name: collector.packageName ?? name,
                               targets: targets, appTarget: app)
    }

    /// Targets of an Xcode project, read from `project.pbxproj` (an old-style property list): each
    /// native target's source folders (`sourceRoots(of:)`) and its `INFOPLIST_FILE`. The app target
    /// is the first target whose product type is an application.
    public static func xcodeProject(pbxproj: [UInt8], path: String) throws(InitError) -> DetectedProject {
        let editor = try editor(pbxproj: pbxproj, path: path)
        // Paths in the project are relative to the folder holding the .xcodeproj; the config's to patch.json.
        let projectFolder = (path as NSString).deletingLastPathComponent
        var targets: [ProjectConfig.Target] = []
        var appTarget: String?
        for target in editor.nativeTargets where isDetected(target) {
            let roots = sourceRoots(of: target, projectFolder: projectFolder)
            guard !roots.isEmpty else { continue }
            let infoPlist = target.infoPlistFiles.first.flatMap { normalized(Preparer.join(projectFolder, $0.replacingOccurrences(of: "$(SRCROOT)/", with: ""))) }
            targets.append(ProjectConfig.Target(name: target.name, sourceRoots: roots, infoPlist: infoPlist))
            if appTarget == nil, target.productType == "com.apple.product-type.application" { appTarget = target.name }
        }
        guard let app = appTarget ?? targets.first?.name else { throw .noTargets(path: path) }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return DetectedProject(project: .init(kind: .xcodeProject, path: path), name: name, targets: targets, appTarget: app)
    }

    /// Test bundles are not prepared: they never ship.
    static func isDetected(_ target: XcodeNativeTarget) -> Bool {
        let productType = target.productType ?? ""
        return !productType.contains("bundle.unit-test") && !productType.contains("bundle.ui-testing")
    }

    /// A native target's source folders, relative to patch.json (`projectFolder` is the folder holding
    /// the .xcodeproj, relative to it): its synchronized folders and the folders of the Swift files it
    /// compiles one by one (Compile Sources, membership exceptions of other targets' folders), only
    /// the outermost of them, since prepare walks each root recursively.
    static func sourceRoots(of target: XcodeNativeTarget, projectFolder: String) -> [String] {
        func fromConfig(_ projectPath: String) -> String? { normalized(Preparer.join(projectFolder, projectPath)) }
        var folders = Set(target.synchronizedFolders.compactMap(fromConfig))
        for file in target.swiftSources + target.synchronizedInclusions where file.hasSuffix(".swift") {
            if let folder = fromConfig((file as NSString).deletingLastPathComponent) { folders.insert(folder) }
        }
        let sorted = folders.sorted()
        return sorted.filter { folder in !sorted.contains { other in other != folder && (other == "." || folder.hasPrefix(other + "/")) } }
    }

    /// The project file as data, for reading (the one pbxproj reader: `PBXProj` through `XcodeProjectEditor`).
    static func editor(pbxproj: [UInt8], path: String) throws(InitError) -> XcodeProjectEditor {
        do {
            return try XcodeProjectEditor(bytes: pbxproj, path: path)
        } catch {
            // The error names the file itself; the message names it once.
            let description = error.description
            throw .malformedProject(path: path, reason: description.hasPrefix(path + ": ") ? String(description.dropFirst(path.count + 2)) : description)
        }
    }

    private static func readText(_ path: String) throws(InitError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Collects `Package(name:)` and the `.target` / `.executableTarget` calls of a manifest.
private final class ManifestCallCollector: SyntaxVisitor {
    struct TargetCall {
        var name: String
        var path: String?
        /// `sources:` entries (files or folders inside `path`); empty when absent.
        var sources: [String]
        var isExecutable: Bool
    }

    var packageName: String?
    var targetCalls: [TargetCall] = []

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        func literal(_ label: String) -> String? {
            call.arguments.first { $0.label?.text == label }?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
        }
        if call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Package" {
            packageName = literal("name")
        } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
                  ["target", "executableTarget"].contains(member.declName.baseName.text), let name = literal("name") {
            let sources = call.arguments.first { $0.label?.text == "sources" }?.expression.as(ArrayExprSyntax.self)?.elements
                .compactMap { $0.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue } ?? []
            targetCalls.append(TargetCall(name: name, path: literal("path"), sources: sources,
                                          isExecutable: member.declName.baseName.text == "executableTarget"))
        }
        return .visitChildren
    }
}
