import PBXProj

/// What project detection needs to know about one native target.
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
}

extension XcodeProjectEditor {
    /// The native targets, in file order.
    package var nativeTargets: [XcodeNativeTarget] {
        let tree = XcodeProjectTree(document, projectID: projectID)
        return document.objects(isa: "PBXNativeTarget").map { id, node in
            let sources = buildPhase("PBXSourcesBuildPhase", ofTarget: id).map { phase in
                (document.object(phase)?["files"]?.strings ?? []).compactMap { buildFile -> String? in
                    guard let file = document.object(buildFile)?["fileRef"]?.string, let location = tree.location[file],
                          location.hasSuffix(".swift") else { return nil }
                    return location
                }
            } ?? []
            let folders = (node["fileSystemSynchronizedGroups"]?.strings ?? []).compactMap { tree.location[$0] }
            var infoPlists: [String] = []
            let configurations = document.object(node["buildConfigurationList"]?.string ?? "")?["buildConfigurations"]?.strings ?? []
            for configuration in configurations {
                if let file = document.object(configuration)?["buildSettings"]?["INFOPLIST_FILE"]?.string, !infoPlists.contains(file) {
                    infoPlists.append(file)
                }
            }
            return XcodeNativeTarget(name: node["name"]?.string ?? "", productType: node["productType"]?.string,
                                     swiftSources: sources, synchronizedFolders: folders, infoPlistFiles: infoPlists)
        }
    }

    /// `relativePath` of every `XCLocalSwiftPackageReference` (local packages the project uses),
    /// normalised, relative to the source root.
    package var localPackagePaths: [String] {
        let base = document.object(projectID)?["projectDirPath"]?.string ?? ""
        return document.objects(isa: "XCLocalSwiftPackageReference").compactMap { $0.node["relativePath"]?.string }
            .map { XcodePath.join(base, $0) }
    }
}
