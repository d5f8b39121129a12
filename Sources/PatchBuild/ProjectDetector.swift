import Foundation
import PatchManifest
import SwiftParser
import SwiftSyntax

/// A project found in a folder: what `init` writes into `patch.json`.
public struct DetectedProject: Sendable, Equatable {
    public var project: ProjectConfig.Project
    public var name: String
    public var targets: [ProjectConfig.Target]
    public var appTarget: String
}

/// Finds the SwiftPM package or Xcode project in a folder and reads its targets and source folders.
public enum ProjectDetector {
    public static func detect(root: String) throws(InitError) -> DetectedProject {
        let packagePath = Preparer.join(root, "Package.swift")
        if FileManager.default.fileExists(atPath: packagePath) {
            return try swiftPackage(manifest: readText(packagePath), path: "Package.swift",
                                    name: URL(fileURLWithPath: root).standardizedFileURL.lastPathComponent)
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        if let project = entries.filter({ $0.hasSuffix(".xcodeproj") }).sorted().first {
            let pbxproj = Preparer.join(Preparer.join(root, project), "project.pbxproj")
            return try xcodeProject(pbxproj: Array(readText(pbxproj).utf8), path: project)
        }
        throw .noProject(root: root)
    }

    /// Targets of a `Package.swift`, read from its syntax (the manifest is not run): every
    /// `.target(name:path:)` and `.executableTarget(name:path:)` with a literal name; the source folder
    /// is `path:` or `Sources/<name>`. The app target is the first executable target.
    public static func swiftPackage(manifest: String, path: String, name: String) throws(InitError) -> DetectedProject {
        let collector = ManifestCallCollector(viewMode: .sourceAccurate)
        collector.walk(Parser.parse(source: manifest))
        var targets: [ProjectConfig.Target] = []
        var executables: [String] = []
        for call in collector.targetCalls where !targets.contains(where: { $0.name == call.name }) {
            targets.append(ProjectConfig.Target(name: call.name, sourceRoots: [call.path ?? "Sources/\(call.name)"]))
            if call.isExecutable { executables.append(call.name) }
        }
        guard let app = executables.first ?? targets.first?.name else { throw .noTargets(path: path) }
        return DetectedProject(project: .init(kind: .swiftPackage, path: path), name: collector.packageName ?? name,
                               targets: targets, appTarget: app)
    }

    /// Targets of an Xcode project, read from `project.pbxproj` (an old-style property list): each
    /// native target's source folders (the folders of its compiled files, or its synchronized root
    /// groups in Xcode 16 projects) and its `INFOPLIST_FILE`. The app target is the first target whose
    /// product type is an application.
    public static func xcodeProject(pbxproj: [UInt8], path: String) throws(InitError) -> DetectedProject {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(pbxproj), options: [], format: nil)
        } catch {
            throw .malformedProject(path: path, reason: "project.pbxproj is not a property list")
        }
        guard let root = plist as? [String: Any], let objects = root["objects"] as? [String: [String: Any]],
              let rootID = root["rootObject"] as? String, let projectObject = objects[rootID]
        else { throw .malformedProject(path: path, reason: "no objects or rootObject") }

        // Each file's or group's parent, to resolve group-relative paths.
        var parents: [String: String] = [:]
        for (id, object) in objects {
            for child in object["children"] as? [String] ?? [] { parents[child] = id }
        }
        func resolvedPath(_ id: String) -> String? {
            guard let object = objects[id] else { return nil }
            let own = object["path"] as? String
            switch object["sourceTree"] as? String ?? "<group>" {
            case "SOURCE_ROOT": return own ?? ""
            case "<group>":
                let parent = parents[id].flatMap { resolvedPath($0) } ?? ""
                guard let own else { return parent }
                return parent.isEmpty ? own : parent + "/" + own
            default: return nil
            }
        }

        var targets: [ProjectConfig.Target] = []
        var appTarget: String?
        for targetID in projectObject["targets"] as? [String] ?? [] {
            guard let target = objects[targetID], target["isa"] as? String == "PBXNativeTarget",
                  let name = target["name"] as? String else { continue }
            let productType = target["productType"] as? String ?? ""
            guard !productType.contains("bundle.unit-test"), !productType.contains("bundle.ui-testing") else { continue }
            var folders = Set<String>()
            for groupID in target["fileSystemSynchronizedGroups"] as? [String] ?? [] {
                if let folder = resolvedPath(groupID) { folders.insert(folder) }
            }
            for phaseID in target["buildPhases"] as? [String] ?? [] {
                guard let phase = objects[phaseID], phase["isa"] as? String == "PBXSourcesBuildPhase" else { continue }
                for buildFileID in phase["files"] as? [String] ?? [] {
                    guard let fileRef = objects[buildFileID]?["fileRef"] as? String, let filePath = resolvedPath(fileRef),
                          filePath.hasSuffix(".swift") else { continue }
                    let folder = (filePath as NSString).deletingLastPathComponent
                    folders.insert(folder.isEmpty ? "." : folder)
                }
            }
            // Keep only outermost folders: prepare walks each root recursively.
            let sorted = folders.sorted()
            let roots = sorted.filter { folder in !sorted.contains { other in other != folder && (other == "." || folder.hasPrefix(other + "/")) } }
            guard !roots.isEmpty else { continue }
            var infoPlist: String?
            if let listID = target["buildConfigurationList"] as? String {
                for configurationID in objects[listID]?["buildConfigurations"] as? [String] ?? [] {
                    if let settings = objects[configurationID]?["buildSettings"] as? [String: Any], let file = settings["INFOPLIST_FILE"] as? String {
                        infoPlist = file.replacingOccurrences(of: "$(SRCROOT)/", with: "")
                        break
                    }
                }
            }
            targets.append(ProjectConfig.Target(name: name, sourceRoots: roots, infoPlist: infoPlist))
            if appTarget == nil, productType == "com.apple.product-type.application" { appTarget = name }
        }
        guard let app = appTarget ?? targets.first?.name else { throw .noTargets(path: path) }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return DetectedProject(project: .init(kind: .xcodeProject, path: path), name: name, targets: targets, appTarget: app)
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
            targetCalls.append(TargetCall(name: name, path: literal("path"), isExecutable: member.declName.baseName.text == "executableTarget"))
        }
        return .visitChildren
    }
}
