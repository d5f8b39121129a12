import PBXProj

extension XcodeProjectEditor {
    /// Adds the remote package `url` (requirement: up to the next major version from
    /// `minimumVersion`) to the project and its `products` to `target`: an
    /// `XCRemoteSwiftPackageReference` in the project's `packageReferences`, an
    /// `XCSwiftPackageProductDependency` per product in the target's `packageProductDependencies`,
    /// and a `PBXBuildFile` per product in the target's Frameworks phase (created when missing).
    /// Idempotent: a reference to the same repository under any spelling of its URL is reused, and
    /// products already linked are left alone.
    package mutating func addPackageDependency(url: String, minimumVersion: String, products: [String], target: String) throws(XcodeProjectError) {
        let targetID = try targetID(named: target)
        let package = packageReference(url: url) ?? insertPackageReference(url: url, minimumVersion: minimumVersion)
        for product in products {
            let dependency = productDependency(package: package, product: product, target: targetID)
                ?? insertProductDependency(package: package, product: product, target: targetID)
            let phase = buildPhase("PBXFrameworksBuildPhase", ofTarget: targetID) ?? insertFrameworksPhase(target: targetID)
            let linked = (document.object(phase)?["files"]?.strings ?? []).contains { document.object($0)?["productRef"]?.string == dependency }
            if linked { continue }
            let buildFile = document.newObjectID(seed: "patchcli framework build file \(targetID) \(dependency)")
            document.insertObject(id: buildFile, comment: "\(product) in Frameworks", fields: [
                ("isa", .string("PBXBuildFile")),
                ("productRef", reference(dependency)),
            ], singleLine: true)
            document.insert(.string(buildFile, comment: "\(product) in Frameworks"), intoArray: "files", ofObject: phase)
        }
    }

    /// Undoes `addPackageDependency` for `target`: its products of that package, their build files,
    /// the Frameworks phase if `addPackageDependency` created it and it is empty again, and the
    /// package reference once no target uses it. Nothing happens when the package is not there.
    package mutating func removePackageDependency(url: String, target: String) throws(XcodeProjectError) {
        let targetID = try targetID(named: target)
        guard let package = packageReference(url: url) else { return }
        let dependencies = (document.object(targetID)?["packageProductDependencies"]?.strings ?? [])
            .filter { document.object($0)?["package"]?.string == package }
        let phase = buildPhase("PBXFrameworksBuildPhase", ofTarget: targetID)
        for dependency in dependencies {
            if let phase {
                let buildFiles = (document.object(phase)?["files"]?.strings ?? []).filter { document.object($0)?["productRef"]?.string == dependency }
                document.removeElements(ofArray: "files", ofObject: phase) { buildFiles.contains($0.string ?? "") }
                buildFiles.forEach { document.removeObject(id: $0) }
            }
            // Xcode omits `packageProductDependencies` when it is empty.
            document.removeElements(ofArray: "packageProductDependencies", ofObject: targetID, removingKeyWhenEmpty: true) { $0.string == dependency }
            document.removeObject(id: dependency)
        }
        if let phase, isCreated(phase, seed: frameworksPhaseSeed(targetID)), document.object(phase)?["files"]?.elements?.isEmpty == true {
            document.removeElements(ofArray: "buildPhases", ofObject: targetID) { $0.string == phase }
            document.removeObject(id: phase)
        }
        let stillUsed = document.objects(isa: "XCSwiftPackageProductDependency").contains { $0.node["package"]?.string == package }
        if !stillUsed {
            document.removeElements(ofArray: "packageReferences", ofObject: projectID, removingKeyWhenEmpty: true) { $0.string == package }
            document.removeObject(id: package)
        }
    }

    /// The `XCRemoteSwiftPackageReference` for the repository at `url`, whatever its spelling.
    func packageReference(url: String) -> String? {
        let wanted = Self.repositoryKey(url)
        return document.objects(isa: "XCRemoteSwiftPackageReference")
            .first { Self.repositoryKey($0.node["repositoryURL"]?.string ?? "") == wanted }?.id
    }

    /// One spelling per repository: case, a trailing `/` and a `.git` suffix do not matter.
    static func repositoryKey(_ url: String) -> String {
        var key = url.lowercased()
        while key.hasSuffix("/") { key.removeLast() }
        if key.hasSuffix(".git") { key.removeLast(4) }
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }

    private func productDependency(package: String, product: String, target: String) -> String? {
        (document.object(target)?["packageProductDependencies"]?.strings ?? []).first {
            document.object($0)?["package"]?.string == package && document.object($0)?["productName"]?.string == product
        }
    }

    private mutating func insertPackageReference(url: String, minimumVersion: String) -> String {
        let id = document.newObjectID(seed: "patchcli package \(Self.repositoryKey(url))")
        let comment = "XCRemoteSwiftPackageReference \"\(Self.packageName(url))\""
        document.insertObject(id: id, comment: comment, fields: [
            ("isa", .string("XCRemoteSwiftPackageReference")),
            ("repositoryURL", .string(url)),
            ("requirement", .dictionary([("kind", .string("upToNextMajorVersion")), ("minimumVersion", .string(minimumVersion))])),
        ], singleLine: false)
        document.insert(.string(id, comment: comment), intoArray: "packageReferences", ofObject: projectID)
        return id
    }

    private mutating func insertProductDependency(package: String, product: String, target: String) -> String {
        let id = document.newObjectID(seed: "patchcli product \(target) \(package) \(product)")
        document.insertObject(id: id, comment: product, fields: [
            ("isa", .string("XCSwiftPackageProductDependency")),
            ("package", reference(package)),
            ("productName", .string(product)),
        ], singleLine: false)
        document.insert(.string(id, comment: product), intoArray: "packageProductDependencies", ofObject: target)
        return id
    }

    private func frameworksPhaseSeed(_ target: String) -> String { "patchcli frameworks phase \(target)" }

    /// A Frameworks phase placed after the Sources phase, where Xcode puts it.
    private mutating func insertFrameworksPhase(target: String) -> String {
        let id = document.newObjectID(seed: frameworksPhaseSeed(target))
        document.insertObject(id: id, comment: "Frameworks", fields: [
            ("isa", .string("PBXFrameworksBuildPhase")),
            ("buildActionMask", .string("2147483647")),
            ("files", .array([])),
            ("runOnlyForDeploymentPostprocessing", .string("0")),
        ], singleLine: false)
        let phases = document.object(target)?["buildPhases"]?.strings ?? []
        let sources = phases.firstIndex { document.isa(of: $0) == "PBXSourcesBuildPhase" }
        document.insert(.string(id, comment: "Frameworks"), intoArray: "buildPhases", ofObject: target, at: sources.map { $0 + 1 })
        return id
    }
}
