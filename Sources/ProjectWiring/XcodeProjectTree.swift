import PBXProj

/// Where each group, synchronized folder and file reference of the project's navigator tree lies on
/// disk, relative to the project's source root. Items outside the source root (SDK, built
/// products, absolute paths) are left out.
struct XcodeProjectTree {
    /// Item ID to its folder (groups) or file (file references); "" is the source root itself.
    private(set) var location: [String: String] = [:]
    /// Item ID to the group listing it in `children`.
    private(set) var parent: [String: String] = [:]
    /// Groups in breadth-first order from the main group, so the shallowest group of a folder wins.
    private(set) var groups: [String] = []

    init(_ document: PBXProjDocument, projectID: String) {
        let project = document.object(projectID)
        let base = XcodePath.normalized(project?["projectDirPath"]?.string ?? "")
        guard let mainGroup = project?["mainGroup"]?.string else { return }
        location[mainGroup] = XcodePath.join(base, document.object(mainGroup)?["path"]?.string ?? "")
        walk(from: mainGroup, in: document, base: base, isInNavigator: true)
        // Items no group lists lie relative to the source root (Xcode always lists them; a project
        // written by a tool may not).
        let listed = Set(document.objects.entries!.flatMap { $0.value["children"]?.strings ?? [] })
        for entry in document.objects.entries! where location[entry.key] == nil && !listed.contains(entry.key) {
            guard Self.navigatorItems.contains(entry.value["isa"]?.string ?? ""),
                  ["<group>", "SOURCE_ROOT"].contains(entry.value["sourceTree"]?.string ?? "<group>") else { continue }
            location[entry.key] = XcodePath.join(base, entry.value["path"]?.string ?? "")
            if entry.value["children"] != nil { walk(from: entry.key, in: document, base: base, isInNavigator: false) }
        }
    }

    private static let navigatorItems: Set<String> = ["PBXGroup", "PBXVariantGroup", "PBXFileReference", "PBXFileSystemSynchronizedRootGroup"]

    /// Locates the items under `start` (already located), breadth first. Only groups in the navigator
    /// receive files we add.
    private mutating func walk(from start: String, in document: PBXProjDocument, base: String, isInNavigator: Bool) {
        var queue = [start]
        var next = 0
        while next < queue.count {
            let group = queue[next]
            next += 1
            if isInNavigator { groups.append(group) }
            for child in document.object(group)?["children"]?.strings ?? [] where location[child] == nil {
                guard let node = document.object(child) else { continue }
                let path = node["path"]?.string ?? ""
                switch node["sourceTree"]?.string ?? "<group>" {
                case "<group>": location[child] = XcodePath.join(location[group]!, path)
                case "SOURCE_ROOT": location[child] = XcodePath.join(base, path)
                default: continue
                }
                parent[child] = group
                if node["children"] != nil { queue.append(child) }
            }
        }
    }

    /// The shallowest `PBXGroup` whose folder is `folder`.
    func group(for folder: String, in document: PBXProjDocument) -> String? {
        groups.first { location[$0] == folder && document.isa(of: $0) == "PBXGroup" }
    }
}

/// Path arithmetic on project-relative paths (always `/`-separated, no leading `./`).
enum XcodePath {
    static func join(_ base: String, _ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        return normalized(base.isEmpty ? path : path.isEmpty ? base : base + "/" + path)
    }

    /// Removes `.` components and resolves `..`; a result starting with `..` lies outside the root.
    static func normalized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            if component == "..", let last = components.last, last != ".." {
                components.removeLast()
            } else {
                components.append(component)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `path` relative to `folder` when it lies inside it.
    static func relative(_ path: String, inside folder: String) -> String? {
        if folder.isEmpty { return path }
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : nil
    }
}
