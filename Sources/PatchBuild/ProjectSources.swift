import Foundation
import PatchManifest

/// Why a project's configuration or sources could not be read.
public enum ProjectError: Error, CustomStringConvertible {
    case configMissing(path: String)
    case config(ProjectConfig.LoadError)
    case unreadable(path: String, reason: String)
    case sourceRootMissing(target: String, root: String)

    public var description: String {
        switch self {
        case let .configMissing(path): return "\(path): no Patch config here"
        case let .config(error): return error.description
        case let .unreadable(path, reason): return "\(path): cannot be read (\(reason))"
        case let .sourceRootMissing(target, root):
            return "target \(target): source root \"\(root)\" does not exist; fix \"targets\" in \(ProjectConfig.fileName)"
        }
    }
}

/// Reads a project's config and the Swift sources it selects.
public enum ProjectSources {
    public static func loadConfig(root: String) throws(ProjectError) -> ProjectConfig {
        let path = Preparer.join(root, ProjectConfig.fileName)
        guard FileManager.default.fileExists(atPath: path) else { throw .configMissing(path: path) }
        let bytes = try read(path)
        let config: ProjectConfig
        do {
            config = try ProjectConfig.decode(bytes, path: path)
        } catch {
            throw .config(error)
        }
        // Checked here rather than in `ProjectConfig.decode`: globs are this module's (`Glob`).
        for (index, pattern) in config.routingExclude.enumerated() {
            if let problem = Glob.problem(in: pattern) {
                throw .config(.invalid(path: path, field: "routingExclude[\(index)]", reason: "\"\(pattern)\" \(problem)"))
            }
        }
        return config
    }

    /// A recorded source root that is no longer in the project (a commit moved or removed the folder).
    public struct MissingSourceRoot: Sendable, Equatable, Codable, CustomStringConvertible {
        public var target: String
        public var root: String

        public var description: String {
            "target \(target): source root \"\(root)\" no longer exists; its declarations are reported as removed. "
                + "If the folder moved, put its new path in \"targets\" of \(ProjectConfig.fileName) so build sees the code there"
        }
    }

    /// A folder the Xcode project gives a target since `init` recorded its roots (a new top-level
    /// folder of sources): prepared and built all the same, and reported so patch.json can catch up.
    public struct AddedSourceRoot: Sendable, Equatable, Codable, CustomStringConvertible {
        public var target: String
        public var root: String

        public var description: String {
            "target \(target): the Xcode project compiles files in \"\(root)\", which \(ProjectConfig.fileName) does not record; "
                + "it is read all the same. Add it to the target's \"sourceRoots\" (or run `patchcli init --force`) to record it"
        }
    }

    /// Every `.swift` file under each target's source roots that the include globs select and the
    /// exclude globs do not, sorted by path; hidden folders and package manifests are skipped. A file
    /// under the roots of several targets (an iOS and a tvOS app sharing a folder) belongs to the first
    /// of them in `targets` order only, so it is prepared and reported once. An Xcode target's files
    /// are those its project file says it compiles (`CompiledFiles`), and its roots gain the folders
    /// the project gives it since `init` recorded them (`PrepareTarget.addedSourceRoots`). A missing
    /// root is an error.
    public static func targets(config: ProjectConfig, root: String) throws(ProjectError) -> [PrepareTarget] {
        let (targets, missing) = try existingTargets(config: config, root: root)
        if let first = missing.first { throw .sourceRootMissing(target: first.target, root: first.root) }
        return targets
    }

    /// `targets(config:root:)` without the roots that no longer exist, which are returned instead of
    /// failing: what `build` reads, since a commit may move or remove a recorded folder.
    public static func existingTargets(config: ProjectConfig, root: String) throws(ProjectError) -> (targets: [PrepareTarget], missing: [MissingSourceRoot]) {
        let includes = config.include.map(Glob.init)
        let excludes = config.exclude.map(Glob.init)
        var result: [PrepareTarget] = []
        var missing: [MissingSourceRoot] = []
        var claimed = Set<String>()
        let xcodeTargets = try TargetMembership.xcodeTargets(config: config, root: root)
        for target in config.targets {
            // An Xcode target compiles the files its project lists, and its folders are those of the
            // project now: a folder added to the target since init is read too (and reported).
            let xcodeTarget = target.manifest == nil ? xcodeTargets[target.name] : nil
            let addedRoots = addedSourceRoots(of: target, xcodeTarget: xcodeTarget, root: root)
            var paths: [String] = []
            for sourceRoot in target.sourceRoots + addedRoots {
                let location = Preparer.join(root, sourceRoot)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory) else {
                    missing.append(MissingSourceRoot(target: target.name, root: sourceRoot))
                    continue
                }
                // A SwiftPM target's `sources:` may name single files.
                let relatives = isDirectory.boolValue ? swiftFiles(under: location) : sourceRoot.hasSuffix(".swift") ? [""] : []
                for relative in relatives {
                    let projectPath = relative.isEmpty ? sourceRoot : Preparer.join(sourceRoot, relative)
                    guard !isManifest(projectPath), xcodeTarget?.compiledFiles.contains(projectPath) ?? true,
                          includes.contains(where: { $0.matches(projectPath) }),
                          !excludes.contains(where: { $0.matches(projectPath) }), claimed.insert(projectPath).inserted else { continue }
                    paths.append(projectPath)
                }
            }
            paths.sort()
            // Read on every core: one by one, reading was a sixth of a first run's sequential time.
            let contents = ConcurrentMap.map(paths) { path in
                Result { () throws(ProjectError) in try read(Preparer.join(root, path)) }
            }
            var files: [SourceFile] = []
            for (path, content) in zip(paths, contents) { files.append(SourceFile(path: path, bytes: try content.get())) }
            result.append(PrepareTarget(name: target.name, sourceRoots: target.sourceRoots + addedRoots, files: files,
                                        compiledFiles: xcodeTarget?.compiledFiles, addedSourceRoots: addedRoots))
        }
        return (result, missing)
    }

    /// Each target's source roots as `existingTargets` reads them (recorded, then added by the Xcode
    /// project since), by target name, without reading any source file.
    public static func sourceRoots(config: ProjectConfig, root: String) throws(ProjectError) -> [String: [String]] {
        let xcodeTargets = try TargetMembership.xcodeTargets(config: config, root: root)
        var roots: [String: [String]] = [:]
        for target in config.targets {
            let xcodeTarget = target.manifest == nil ? xcodeTargets[target.name] : nil
            roots[target.name] = target.sourceRoots + addedSourceRoots(of: target, xcodeTarget: xcodeTarget, root: root)
        }
        return roots
    }

    /// The folders the Xcode project gives `target` (existing ones) that no recorded root holds.
    private static func addedSourceRoots(of target: ProjectConfig.Target, xcodeTarget: TargetMembership.XcodeTarget?, root: String) -> [String] {
        (xcodeTarget?.sourceRoots ?? []).filter { detected in
            !target.sourceRoots.contains { recorded in recorded == "." || detected == recorded || detected.hasPrefix(recorded + "/") }
                && FileManager.default.fileExists(atPath: Preparer.join(root, detected))
        }
    }

    /// A package manifest (`Package.swift`, `Package@swift-5.9.swift`): never a target's source, even
    /// when a target's path is its package's folder.
    static func isManifest(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
    }

    /// Reads a file, or nil when it does not exist.
    public static func readIfPresent(_ path: String) throws(ProjectError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try read(path)
    }

    static func read(_ path: String) throws(ProjectError) -> [UInt8] {
        // By path: building a file URL costs a stat of its own (a fifth of reading a source). The
        // URL form runs only to explain a failure.
        if let data = FileManager.default.contents(atPath: path) { return [UInt8](data) }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func swiftFiles(under directory: String) -> [String] {
        let base = URL(fileURLWithPath: directory).standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(
            at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        var paths: [String] = []
        let prefix = base.path.hasSuffix("/") ? base.path : base.path + "/"
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            paths.append(String(path.dropFirst(prefix.count)))
        }
        return paths
    }
}
