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
        do {
            return try ProjectConfig.decode(bytes, path: path)
        } catch {
            throw .config(error)
        }
    }

    /// Every `.swift` file under each target's source roots that the include globs select and the
    /// exclude globs do not, sorted by path; hidden folders are skipped.
    public static func targets(config: ProjectConfig, root: String) throws(ProjectError) -> [PrepareTarget] {
        let includes = config.include.map(Glob.init)
        let excludes = config.exclude.map(Glob.init)
        var result: [PrepareTarget] = []
        for target in config.targets {
            var paths: [String] = []
            for sourceRoot in target.sourceRoots {
                let directory = Preparer.join(root, sourceRoot)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw .sourceRootMissing(target: target.name, root: sourceRoot)
                }
                for relative in swiftFiles(under: directory) {
                    let projectPath = Preparer.join(sourceRoot, relative)
                    guard includes.contains(where: { $0.matches(projectPath) }), !excludes.contains(where: { $0.matches(projectPath) }) else { continue }
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
            result.append(PrepareTarget(name: target.name, sourceRoots: target.sourceRoots, files: files))
        }
        return result
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
