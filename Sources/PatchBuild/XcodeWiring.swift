import Foundation
import PatchManifest
import ProjectWiring

/// The Xcode half of `init`'s wiring: each Xcode target gets the SDK package's products, and the files
/// `prepare` generated under its source roots are compiled by it (docs/prepare.md, "Wiring").
enum XcodeWiring {
    struct TargetWiring {
        var target: String
        var products: [String]
        /// Generated files under the target's roots that it compiles, relative to the project root
        /// (patch.json's folder).
        var generatedFiles: [String]
        /// Generated files under its roots that it must not compile: routing code of files it does not
        /// compile (see `PreparePlan.generatedFileTargets`).
        var excludedFiles: [String] = []
    }

    /// What wiring adds, one marker each, so `init --revert` on an edited project takes out exactly that.
    private enum Marker {
        static let separator: Character = "\t"
        static func package(target: String) -> String { "package\(separator)\(target)" }
        static func source(target: String, file: String) -> String { "source\(separator)\(target)\(separator)\(file)" }
        static func exclusion(target: String, file: String) -> String { "exclude\(separator)\(target)\(separator)\(file)" }

        /// The target and file of a `source` marker.
        static func registeredSource(_ marker: String) -> (target: String, file: String)? {
            let parts = marker.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            return parts.count == 3 && parts[0] == "source" ? (parts[1], parts[2]) : nil
        }
    }

    /// `bytes` with the SDK package and products added to each target, its generated files registered
    /// and the generated files it must not compile kept out of it. Files an earlier wiring registered
    /// (`registered`: its markers) that `prepare` has since deleted (`exists` says false) are taken out
    /// again, so the project never lists a file that is gone.
    /// - Parameter projectPath: the `.xcodeproj` folder, relative to the project root.
    static func wiring(_ bytes: [UInt8], projectPath: String, sdk: ProjectConfig.SDKPackage, targets: [TargetWiring],
                       registered: [String] = [], exists: (String) -> Bool = { _ in true }) throws(WiringError) -> (bytes: [UInt8], markers: [String]) {
        let file = Preparer.join(projectPath, "project.pbxproj")
        let projectFolder = (projectPath as NSString).deletingLastPathComponent
        do {
            var editor = try XcodeProjectEditor(bytes: bytes, path: file)
            var markers: [String] = []
            for (target, registeredFile) in registered.compactMap(Marker.registeredSource)
            where !exists(ProjectDetector.normalized(Preparer.join(projectFolder, registeredFile)) ?? registeredFile) {
                try editor.removeSourceFile(path: registeredFile, target: target)
            }
            for target in targets {
                try editor.addPackageDependency(url: sdk.url, minimumVersion: sdk.version, products: target.products, target: target.target)
                markers.append(Marker.package(target: target.target))
                for generated in target.generatedFiles {
                    let relative = relativePath(generated, from: projectFolder)
                    try editor.addSourceFile(path: relative, target: target.target)
                    markers.append(Marker.source(target: target.target, file: relative))
                }
                for excluded in target.excludedFiles {
                    let relative = relativePath(excluded, from: projectFolder)
                    try editor.excludeSourceFile(path: relative, target: target.target)
                    markers.append(Marker.exclusion(target: target.target, file: relative))
                }
            }
            return (editor.bytes, markers)
        } catch {
            throw .xcodeProject(message: error.description)
        }
    }

    /// `bytes` with what `markers` record taken out, last added first. A project Xcode can no longer
    /// parse is returned as it is: nothing of ours can be found in it.
    static func unwiring(_ bytes: [UInt8], sdk: ProjectConfig.SDKPackage, markers: [String]) -> [UInt8] {
        guard var editor = try? XcodeProjectEditor(bytes: bytes, path: "project.pbxproj") else { return bytes }
        for marker in markers.reversed() {
            let parts = marker.split(separator: Marker.separator, omittingEmptySubsequences: false).map(String.init)
            switch (parts.first, parts.count) {
            case ("package", 2): try? editor.removePackageDependency(url: sdk.url, target: parts[1])
            case ("source", 3): try? editor.removeSourceFile(path: parts[2], target: parts[1])
            case ("exclude", 3): try? editor.removeExclusion(path: parts[2], target: parts[1])
            default: continue
            }
        }
        return editor.bytes
    }

    /// A file `prepare` generated, as wiring sees it.
    struct GeneratedFile: Equatable {
        /// Relative to the project root.
        var path: String
        /// It holds view thunks, which call PatchSwiftUI's `thunkBody`.
        var importsSwiftUIRouting: Bool
    }

    /// Every file `prepare` generated in a `Patch/` folder under `roots` (relative to `root`), sorted:
    /// a target compiles the generated files of every root inside its own (a nested root's thunks serve
    /// the files both targets compile).
    static func generatedFiles(under roots: [String], root: String) -> [GeneratedFile] {
        var found: [String: GeneratedFile] = [:]
        for sourceRoot in roots {
            let folder = Preparer.join(root, sourceRoot)
            guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
            while let relative = walker.nextObject() as? String {
                let parts = relative.split(separator: "/")
                guard parts.count >= 2, parts[parts.count - 2] == Substring(Preparer.generatedFolderName),
                      relative.hasSuffix(".generated.swift"),
                      let data = FileManager.default.contents(atPath: Preparer.join(folder, relative)),
                      Preparer.isGenerated([UInt8](data)) else { continue }
                let path = Preparer.join(sourceRoot, relative)
                found[path] = GeneratedFile(path: path, importsSwiftUIRouting: String(decoding: data, as: UTF8.self).contains("\nimport PatchSwiftUI\n"))
            }
        }
        return found.values.sorted { $0.path < $1.path }
    }

    /// `path` (relative to the project root) relative to `folder` (also relative to it).
    static func relativePath(_ path: String, from folder: String) -> String {
        let base = folder.split(separator: "/").filter { $0 != "." }
        let target = path.split(separator: "/").filter { $0 != "." }
        var common = 0
        while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)).joined(separator: "/")
    }
}
