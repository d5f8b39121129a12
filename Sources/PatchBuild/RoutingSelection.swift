import PatchManifest

/// What a declaration `prepare` may route (a function today; methods, initializers and properties as
/// they become routable) tells `RoutingSelection` about itself.
protocol RoutingCandidate {
    /// Its key in patch.json's `patchableFunctions` (`PatchNames.functionKey`).
    var key: String { get }
    /// Marked `// @patchable`.
    var hasMarker: Bool { get }
    /// Marked `// @native`.
    var hasNativeMarker: Bool { get }
}

/// Which declarations `prepare` tries to route: patch.json's `routing`, `routingExclude` and
/// `patchableFunctions` and the `// @patchable` / `// @native` markers, as one predicate that every
/// kind of candidate goes through (docs/prepare.md "Routing"). Selected is not routed: a selected
/// declaration that cannot be routed is reported as skipped, with why.
public struct RoutingSelection: Sendable {
    public var mode: ProjectConfig.Routing
    public var patchableFunctions: Set<String>
    /// Files whose declarations `all` leaves alone unless they are marked or listed.
    public var excludedFiles: [Glob]

    public init(mode: ProjectConfig.Routing, patchableFunctions: Set<String> = [], excludedFiles: [String] = []) {
        self.mode = mode
        self.patchableFunctions = patchableFunctions
        self.excludedFiles = excludedFiles.map(Glob.init)
    }

    /// The selection a project's patch.json asks for.
    public init(config: ProjectConfig) {
        self.init(mode: config.routingMode, patchableFunctions: Set(config.patchableFunctions), excludedFiles: config.routingExclude)
    }

    /// Only what is marked `// @patchable`.
    public static let marked = RoutingSelection(mode: .marked)
    /// Everything `prepare` can route.
    public static let all = RoutingSelection(mode: .all)

    /// `// @native` wins over everything, since it names the declaration itself; an explicit opt-in
    /// (the marker or the list) wins over the mode and the path globs.
    func selects(_ candidate: some RoutingCandidate, inFile path: String) -> Bool {
        if candidate.hasNativeMarker { return false }
        if candidate.hasMarker || patchableFunctions.contains(candidate.key) { return true }
        return mode == .all && !excludedFiles.contains { $0.matches(path) }
    }
}
