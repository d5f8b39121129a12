import Foundation
import PatchManifest
import ProjectWiring

/// The Swift files an Xcode target compiles, as its project file says now: its Compile Sources
/// phase, and its Xcode 16 synchronized folders less their membership exceptions (plus files other
/// folders' exceptions give it). A classic target may compile only some files of a folder, so the
/// folder alone does not tell; SwiftPM targets compile every file under their roots and have none.
public struct CompiledFiles: Sendable, Equatable {
    /// The target with every path relative to patch.json.
    let target: XcodeNativeTarget
    /// Its Compile Sources files, looked up once per file of the project.
    private let listedFiles: Set<String>

    init(target: XcodeNativeTarget) {
        self.target = target
        listedFiles = Set(target.swiftSources)
    }

    /// Whether the target compiles `path` (relative to patch.json).
    public func contains(_ path: String) -> Bool { listedFiles.contains(path) || target.synchronizesMembership(of: path) }
}

/// Reads the membership of a configured Xcode project's targets from its `project.pbxproj`.
enum TargetMembership {
    struct XcodeTarget {
        var compiledFiles: CompiledFiles
        /// Its source folders as detection finds them today (`ProjectDetector.sourceRoots(of:)`).
        var sourceRoots: [String]
    }

    /// The configured Xcode project's native targets by name; empty for a Swift package, or when the
    /// project file is absent (a configuration written by hand for sources alone).
    static func xcodeTargets(config: ProjectConfig, root: String) throws(ProjectError) -> [String: XcodeTarget] {
        guard config.project.kind == .xcodeProject else { return [:] }
        let file = Preparer.join(config.project.path, "project.pbxproj")
        guard let bytes = try ProjectSources.readIfPresent(Preparer.join(root, file)) else { return [:] }
        let editor: XcodeProjectEditor
        do {
            editor = try XcodeProjectEditor(bytes: bytes, path: file)
        } catch {
            throw .unreadable(path: Preparer.join(root, file), reason: "\(error.description); which files each target compiles is read from it")
        }
        let projectFolder = (config.project.path as NSString).deletingLastPathComponent
        func fromConfig(_ paths: [String]) -> [String] {
            // "" is patch.json's folder itself (where `normalized` says ".").
            paths.compactMap { ProjectDetector.normalized(Preparer.join(projectFolder, $0)) }.map { $0 == "." ? "" : $0 }
        }
        var targets: [String: XcodeTarget] = [:]
        for target in editor.nativeTargets where targets[target.name] == nil {
            var relocated = target
            relocated.swiftSources = fromConfig(target.swiftSources)
            relocated.synchronizedFolders = fromConfig(target.synchronizedFolders)
            relocated.synchronizedExclusions = fromConfig(target.synchronizedExclusions)
            relocated.synchronizedInclusions = fromConfig(target.synchronizedInclusions)
            targets[target.name] = XcodeTarget(compiledFiles: CompiledFiles(target: relocated),
                                               sourceRoots: ProjectDetector.sourceRoots(of: target, projectFolder: projectFolder))
        }
        return targets
    }
}
