/// Why `init` could not wire a file; each names the place and how to go on by hand.
public enum WiringError: Error, CustomStringConvertible, Equatable {
    /// The manifest has a shape the syntax edit does not handle (no `Package(...)` call, a
    /// `dependencies:` that is not an array literal).
    case unsupportedManifest(path: String, line: Int, reason: String)
    /// No `.target(name:)` / `.executableTarget(name:)` for a configured target in its manifest.
    case targetNotDeclared(target: String, path: String)
    /// The `@main` app delegate has no `application(_:didFinishLaunchingWithOptions:)` to start Patch in.
    case noLaunchMethod(path: String, line: Int, type: String)
    /// The Xcode project could not be read or edited (the message names the file and the fix).
    case xcodeProject(message: String)

    public var description: String {
        switch self {
        case let .unsupportedManifest(path, line, reason): return "\(path):\(line): cannot add the Patch SDK here (\(reason))"
        case let .targetNotDeclared(target, path): return "\(path): declares no target named \(target)"
        case let .noLaunchMethod(path, line, type): return "\(path):\(line): \(type) has no application(_:didFinishLaunchingWithOptions:) to start Patch in"
        case let .xcodeProject(message): return message
        }
    }

    public var kind: String {
        switch self {
        case .unsupportedManifest, .targetNotDeclared: return "unsupported_manifest"
        case .noLaunchMethod: return "no_launch_method"
        case .xcodeProject: return "unsupported_project"
        }
    }

    public var hint: String {
        switch self {
        case .unsupportedManifest: return "add the dependency and products by hand (`patchcli init --no-wire` prints them), then run init again"
        case let .targetNotDeclared(target, _): return "set \"manifest\" of target \(target) in patch.json to the Package.swift that declares it"
        case .noLaunchMethod: return "add application(_:didFinishLaunchingWithOptions:) to the app delegate, or add the launch code by hand (`patchcli init --no-wire` prints it)"
        case .xcodeProject: return "fix the project as the message says, or wire it by hand (`patchcli init --no-wire` prints what to add)"
        }
    }
}
