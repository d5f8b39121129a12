import Foundation
import PatchManifest

/// A generated file that the wired Xcode project does not compile in exactly the targets that need
/// it (`PreparePlan.generatedFileTargets`): a target missing it cannot link its views' routing, a
/// target compiling it without the files it routes fails to compile.
public struct GeneratedFileRegistration: Sendable, Equatable {
    /// Relative to patch.json.
    public var path: String
    /// Targets that need the file and do not compile it.
    public var missingFrom: [String]
    /// Targets that compile the file and must not.
    public var extraIn: [String]

    /// "PATH: not compiled by A; compiled by B", one line per file.
    public var description: String {
        var parts: [String] = []
        if !missingFrom.isEmpty { parts.append("not compiled by \(missingFrom.joined(separator: ", "))") }
        if !extraIn.isEmpty { parts.append("compiled by \(extraIn.joined(separator: ", ")) although it compiles none of the files it routes") }
        return "\(path): " + parts.joined(separator: "; ")
    }

    /// The generated files of `generatedFileTargets` whose registration in the configured Xcode
    /// project file differs, sorted by path; empty for a Swift package. Checked whether or not `init`
    /// wired the project (its wiring state is not committed, and a project wired by hand breaks the
    /// same way).
    public static func mismatches(config: ProjectConfig, root: String, generatedFileTargets: [String: [String]]) throws(ProjectError) -> [GeneratedFileRegistration] {
        let xcodeTargets = try TargetMembership.xcodeTargets(config: config, root: root)
        // SwiftPM targets of the same patch.json compile every file under their roots: nothing to check.
        let checked = config.targets.filter { $0.manifest == nil }.compactMap { target in xcodeTargets[target.name].map { (target.name, $0.compiledFiles) } }
        var mismatches: [GeneratedFileRegistration] = []
        for (path, compilers) in generatedFileTargets.sorted(by: { $0.key < $1.key }) {
            var mismatch = GeneratedFileRegistration(path: path, missingFrom: [], extraIn: [])
            for (name, compiled) in checked {
                switch (compilers.contains(name), compiled.contains(path)) {
                case (true, false): mismatch.missingFrom.append(name)
                case (false, true): mismatch.extraIn.append(name)
                default: continue
                }
            }
            if !mismatch.missingFrom.isEmpty || !mismatch.extraIn.isEmpty { mismatches.append(mismatch) }
        }
        return mismatches
    }
}
