import PBXProj

/// Why an Xcode project could not be read or wired, naming the project file and what to do.
package enum XcodeProjectError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(path: String, PlistParseError)
    /// The property list parses but lacks what every Xcode project has (`rootObject`, `mainGroup`).
    case incomplete(path: String, missing: String)
    case targetNotFound(name: String, available: [String], path: String)
    case noSourcesPhase(target: String, path: String)
    /// A file to register lies outside the folder holding the .xcodeproj.
    case fileOutsideProject(file: String, path: String)

    package var description: String {
        switch self {
        case let .malformed(path, error):
            return "\(path): \(error)"
        case let .incomplete(path, missing):
            return "\(path): the project has no \(missing); the file is damaged or not written by Xcode (open it in Xcode and save, or restore it from version control)"
        case let .targetNotFound(name, available, path):
            return "\(path): no native target named \"\(name)\"; the project has: \(available.map { "\"\($0)\"" }.joined(separator: ", ")) (check `target` in patch.json)"
        case let .noSourcesPhase(target, path):
            return "\(path): target \"\(target)\" has no Compile Sources build phase; add one in Xcode (Build Phases, +) and run the command again"
        case let .fileOutsideProject(file, path):
            return "\(path): \(file) is outside the folder holding the project; generated files must live inside it"
        }
    }
}
