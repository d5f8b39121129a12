import PatchManifest

/// Path globs as `patch.json`'s `include`/`exclude` use them, matched against `/`-separated paths
/// relative to the project root: `*` matches within one path component, `?` one character, `**` any
/// number of whole components (`Sources/**/*.swift` matches `Sources/A.swift` and `Sources/a/b/C.swift`).
public struct Glob: Sendable, Equatable {
    private let components: [Substring]

    public init(_ pattern: String) {
        components = pattern.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// Why `pattern` can never match what the user meant, or nil: the matcher takes any text, so a
    /// glob that would silently match nothing (or something else) is refused where the config is read.
    public static func problem(in pattern: String) -> String? {
        if pattern.isEmpty { return "is empty" }
        if pattern.hasPrefix("/") { return "is absolute; globs are relative to \(ProjectConfig.fileName) (`Sources/Generated/**`)" }
        if pattern.contains("\\") { return "contains `\\`; separate folders with `/`" }
        if let special = pattern.first(where: { "[]{}".contains($0) }) {
            return "contains `\(special)`; only `*`, `?` and `**` are special (write one glob per alternative)"
        }
        for component in pattern.split(separator: "/") {
            if component == ".." || component == "." { return "has a `\(component)` component; paths are matched as written under the project folder" }
            if component != "**" && component.contains("**") {
                return "has `**` inside `\(component)`; `**` must be a whole path component (`Sources/**/Net*.swift`)"
            }
        }
        return nil
    }

    public func matches(_ path: String) -> Bool {
        Self.match(components[...], path.split(separator: "/", omittingEmptySubsequences: true)[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            // Zero components, or consume one and stay on `**`.
            return match(pattern.dropFirst(), path) || (!path.isEmpty && match(pattern, path.dropFirst()))
        }
        guard let component = path.first, matchComponent(Array(head.utf8)[...], Array(component.utf8)[...]) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    private static func matchComponent(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        switch head {
        case UInt8(ascii: "*"):
            var rest = text
            while true {
                if matchComponent(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case UInt8(ascii: "?"):
            return !text.isEmpty && matchComponent(pattern.dropFirst(), text.dropFirst())
        default:
            return text.first == head && matchComponent(pattern.dropFirst(), text.dropFirst())
        }
    }
}
