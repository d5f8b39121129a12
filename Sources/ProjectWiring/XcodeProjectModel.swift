import PBXProj

/// What project detection and `prepare` need to know about one native target.
package struct XcodeNativeTarget: Sendable, Equatable {
    package var name: String
    package var productType: String?
    /// Swift files of its Compile Sources phase, relative to the project's source root.
    package var swiftSources: [String]
    /// Xcode 16 synchronized folders of the target (every file inside belongs to it, minus the
    /// exceptions), relative to the source root.
    package var synchronizedFolders: [String]
    /// `INFOPLIST_FILE` of its build configurations, distinct, as written (may hold `$(SRCROOT)`).
    package var infoPlistFiles: [String]
    /// Files and folders inside its synchronized folders that it does not compile (the
    /// `membershipExceptions` of its exception sets on those folders), relative to the source root.
    package var synchronizedExclusions: [String] = []
    /// Files inside synchronized folders of other targets that it compiles (the exceptions of its
    /// exception sets on folders it does not synchronize), relative to the source root.
    package var synchronizedInclusions: [String] = []

    /// Whether the target compiles the file at `path` (relative to the source root), as Xcode decides
    /// it: listed in Compile Sources, or inside one of its synchronized folders and not excepted, or
    /// added to it by an exception of another folder.
    package func compiles(_ path: String) -> Bool {
        swiftSources.contains(path) || synchronizesMembership(of: path)
    }

    /// Whether its synchronized folders and their exceptions make `path` one of its files (the
    /// Compile Sources phase aside).
    package func synchronizesMembership(of path: String) -> Bool {
        func isInside(_ folder: String) -> Bool { folder.isEmpty || path == folder || path.hasPrefix(folder + "/") }
        if synchronizedInclusions.contains(where: isInside) { return true }
        return synchronizedFolders.contains(where: isInside) && !synchronizedExclusions.contains(where: isInside)
    }
}

extension XcodeProjectEditor {
    /// The native targets, in the order of the project's `targets` (then any other, in file order).
    package var nativeTargets: [XcodeNativeTarget] {
        let tree = XcodeProjectTree(document, projectID: projectID)
        let exceptions = synchronizedExceptions(tree: tree)
        let order = document.object(projectID)?["targets"]?.strings ?? []
        let targets = document.objects(isa: "PBXNativeTarget").sorted { first, second in
            (order.firstIndex(of: first.id) ?? order.count) < (order.firstIndex(of: second.id) ?? order.count)
        }
        return targets.map { id, node in
            let sources = buildPhase("PBXSourcesBuildPhase", ofTarget: id).map { phase in
                (document.object(phase)?["files"]?.strings ?? []).compactMap { buildFile -> String? in
                    guard let file = document.object(buildFile)?["fileRef"]?.string, let location = tree.location[file],
                          location.hasSuffix(".swift") else { return nil }
                    return location
                }
            } ?? []
            let folderIDs = node["fileSystemSynchronizedGroups"]?.strings ?? []
            let folders = folderIDs.compactMap { tree.location[$0] }
            var infoPlists: [String] = []
            let configurations = document.object(node["buildConfigurationList"]?.string ?? "")?["buildConfigurations"]?.strings ?? []
            for configuration in configurations {
                if let file = document.object(configuration)?["buildSettings"]?["INFOPLIST_FILE"]?.string, !infoPlists.contains(file) {
                    infoPlists.append(file)
                }
            }
            let own = exceptions.filter { $0.target == id }
            return XcodeNativeTarget(name: node["name"]?.string ?? "", productType: node["productType"]?.string,
                                     swiftSources: sources, synchronizedFolders: folders, infoPlistFiles: infoPlists,
                                     synchronizedExclusions: own.filter { folderIDs.contains($0.folder) }.flatMap(\.paths),
                                     synchronizedInclusions: own.filter { !folderIDs.contains($0.folder) }.flatMap(\.paths))
        }
    }

    /// Each `PBXFileSystemSynchronizedBuildFileExceptionSet` of a synchronized folder: the folder, the
    /// target it is about, and its membership exceptions relative to the source root. Exceptions
    /// written with a leading `/` (localized variants Xcode records by their variant group) name no
    /// Swift file and are left out.
    private func synchronizedExceptions(tree: XcodeProjectTree) -> [(folder: String, target: String, paths: [String])] {
        document.objects(isa: "PBXFileSystemSynchronizedRootGroup").flatMap { folder, node -> [(folder: String, target: String, paths: [String])] in
            guard let location = tree.location[folder] else { return [] }
            return (node["exceptions"]?.strings ?? []).compactMap { id in
                guard let set = document.object(id), set["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
                      let target = set["target"]?.string else { return nil }
                let paths = (set["membershipExceptions"]?.strings ?? []).filter { !$0.hasPrefix("/") }.map { XcodePath.join(location, $0) }
                return (folder, target, paths)
            }
        }
    }

    /// `relativePath` of every `XCLocalSwiftPackageReference` (local packages the project uses),
    /// normalised, relative to the source root.
    package var localPackagePaths: [String] {
        let base = document.object(projectID)?["projectDirPath"]?.string ?? ""
        return document.objects(isa: "XCLocalSwiftPackageReference").compactMap { $0.node["relativePath"]?.string }
            .map { XcodePath.join(base, $0) }
    }

    /// Folders added to the project as references (`lastKnownFileType` `folder` or `wrapper`: how a
    /// package folder dragged into Xcode is recorded), relative to the source root, in file order.
    package var folderReferences: [String] {
        let tree = XcodeProjectTree(document, projectID: projectID)
        return document.objects(isa: "PBXFileReference").compactMap { id, node in
            ["wrapper", "folder"].contains(node["lastKnownFileType"]?.string ?? "") ? tree.location[id] : nil
        }
    }

    /// Synchronized folders that no target synchronizes, relative to the source root, in file order.
    package var unusedSynchronizedFolders: [String] {
        let tree = XcodeProjectTree(document, projectID: projectID)
        let used = Set(document.objects(isa: "PBXNativeTarget").flatMap { $0.node["fileSystemSynchronizedGroups"]?.strings ?? [] })
        return document.objects(isa: "PBXFileSystemSynchronizedRootGroup").compactMap { id, _ in
            used.contains(id) ? nil : tree.location[id]
        }
    }
}
