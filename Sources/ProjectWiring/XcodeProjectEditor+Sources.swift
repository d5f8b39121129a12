import PBXProj

extension XcodeProjectEditor {
    /// Registers the generated source file at `path` (relative to the folder holding the
    /// .xcodeproj) in `target`: a `PBXFileReference` in the group of its folder (groups created
    /// for missing folders, e.g. `Patch` under the source root's group) and a `PBXBuildFile` in
    /// the target's Compile Sources phase. Under one of the target's Xcode 16 synchronized folders
    /// the file already belongs to the target, so nothing is added, unless an exception set of
    /// that folder excludes it from the target: then the exclusion is removed. Idempotent.
    package mutating func addSourceFile(path: String, target: String) throws(XcodeProjectError) {
        let file = try projectRelative(path)
        let targetID = try targetID(named: target)
        if let (_, exceptionSets, relative) = synchronizedFolder(containing: file, target: targetID) {
            for exceptionSet in exceptionSets {
                document.removeElements(ofArray: "membershipExceptions", ofObject: exceptionSet) { $0.string == relative }
            }
            return
        }
        guard let phase = buildPhase("PBXSourcesBuildPhase", ofTarget: targetID) else {
            throw .noSourcesPhase(target: target, path: self.path)
        }
        let tree = XcodeProjectTree(document, projectID: projectID)
        let fileReference = fileReference(at: file, tree: tree) ?? insertFileReference(file, tree: tree)
        let compiled = (document.object(phase)?["files"]?.strings ?? []).contains { document.object($0)?["fileRef"]?.string == fileReference }
        guard !compiled else { return }
        let name = XcodePath.name(of: file)
        let buildFile = document.newObjectID(seed: "patchcli build file \(targetID) \(file)")
        document.insertObject(id: buildFile, comment: "\(name) in Sources", fields: [
            ("isa", .string("PBXBuildFile")),
            ("fileRef", .string(fileReference, comment: name)),
        ], singleLine: true)
        document.insert(.string(buildFile, comment: "\(name) in Sources"), intoArray: "files", ofObject: phase)
    }

    /// Undoes `addSourceFile`: the file's build file in the target's Compile Sources phase, the
    /// file reference and groups `addSourceFile` created once nothing uses them. In a synchronized folder nothing is undone: `addSourceFile` only lifted an
    /// exclusion, which is moot once the generated file is deleted. Nothing happens when the file
    /// is not registered.
    package mutating func removeSourceFile(path: String, target: String) throws(XcodeProjectError) {
        let file = try projectRelative(path)
        let targetID = try targetID(named: target)
        if synchronizedFolder(containing: file, target: targetID) != nil { return }
        var tree = XcodeProjectTree(document, projectID: projectID)
        guard let fileReference = fileReference(at: file, tree: tree) else { return }
        if let phase = buildPhase("PBXSourcesBuildPhase", ofTarget: targetID) {
            let buildFiles = (document.object(phase)?["files"]?.strings ?? []).filter { document.object($0)?["fileRef"]?.string == fileReference }
            document.removeElements(ofArray: "files", ofObject: phase) { buildFiles.contains($0.string ?? "") }
            buildFiles.forEach { document.removeObject(id: $0) }
        }
        guard isCreated(fileReference, seed: fileSeed(file)),
              !document.objects(isa: "PBXBuildFile").contains(where: { $0.node["fileRef"]?.string == fileReference })
        else { return }
        var item = fileReference
        while let group = tree.parent[item] {
            document.removeElements(ofArray: "children", ofObject: group) { $0.string == item }
            document.removeObject(id: item)
            guard let folder = tree.location[group], isCreated(group, seed: groupSeed(folder)),
                  document.object(group)?["children"]?.elements?.isEmpty == true
            else { return }
            tree = XcodeProjectTree(document, projectID: projectID)
            item = group
        }
    }

    /// Makes sure `target` does not compile the generated file at `path` (a routing file of files the
    /// target does not compile): its build file in the target's Compile Sources phase is removed (as
    /// `removeSourceFile` does), and under one of the target's synchronized folders, which would compile
    /// it by itself, a membership exception excludes it (in the folder's exception set for the target,
    /// created when missing). Idempotent.
    package mutating func excludeSourceFile(path: String, target: String) throws(XcodeProjectError) {
        let file = try projectRelative(path)
        let targetID = try targetID(named: target)
        guard let (folder, relative) = synchronizedFolderID(containing: file, target: targetID) else {
            try removeSourceFile(path: path, target: target)
            return
        }
        if let exceptionSet = exceptionSet(of: folder, target: targetID) {
            let exceptions = document.object(exceptionSet)?["membershipExceptions"]?.strings ?? []
            guard !exceptions.contains(relative) else { return }
            // Xcode keeps the exceptions sorted.
            document.insert(.string(relative), intoArray: "membershipExceptions", ofObject: exceptionSet,
                            at: exceptions.firstIndex { $0 > relative })
            return
        }
        let exceptionSet = document.newObjectID(seed: exceptionSetSeed(folder: folder, target: targetID))
        document.insertObject(id: exceptionSet, comment: Self.exceptionSetISA, fields: [
            ("isa", .string(Self.exceptionSetISA)),
            ("membershipExceptions", .array([.string(relative)])),
            ("target", reference(targetID)),
        ], singleLine: false)
        document.insert(reference(exceptionSet), intoArray: "exceptions", ofObject: folder)
    }

    /// Undoes `excludeSourceFile`'s exception (the exception set too when `excludeSourceFile` created
    /// it and nothing else is in it). A build file it removed is not put back: the generated file it
    /// named is deleted with the rest of prepare's output.
    package mutating func removeExclusion(path: String, target: String) throws(XcodeProjectError) {
        let file = try projectRelative(path)
        let targetID = try targetID(named: target)
        guard let (folder, relative) = synchronizedFolderID(containing: file, target: targetID),
              let exceptionSet = exceptionSet(of: folder, target: targetID) else { return }
        document.removeElements(ofArray: "membershipExceptions", ofObject: exceptionSet) { $0.string == relative }
        guard isCreated(exceptionSet, seed: exceptionSetSeed(folder: folder, target: targetID)),
              document.object(exceptionSet)?["membershipExceptions"]?.elements?.isEmpty != false else { return }
        document.removeElements(ofArray: "exceptions", ofObject: folder, removingKeyWhenEmpty: true) { $0.string == exceptionSet }
        document.removeObject(id: exceptionSet)
    }

    static let exceptionSetISA = "PBXFileSystemSynchronizedBuildFileExceptionSet"

    private func exceptionSetSeed(folder: String, target: String) -> String { "patchcli exception set \(folder) \(target)" }

    /// The target's synchronized folder (its ID) holding `file`, and the file's path inside it.
    private func synchronizedFolderID(containing file: String, target: String) -> (folder: String, relative: String)? {
        let tree = XcodeProjectTree(document, projectID: projectID)
        for folder in document.object(target)?["fileSystemSynchronizedGroups"]?.strings ?? [] {
            if let location = tree.location[folder], let relative = XcodePath.relative(file, inside: location) { return (folder, relative) }
        }
        return nil
    }

    /// The exception set of synchronized folder `folder` about `target`.
    private func exceptionSet(of folder: String, target: String) -> String? {
        (document.object(folder)?["exceptions"]?.strings ?? []).first { id in
            document.isa(of: id) == Self.exceptionSetISA && document.object(id)?["target"]?.string == target
        }
    }

    /// `path` normalised, refused when it leaves the source root.
    private func projectRelative(_ path: String) throws(XcodeProjectError) -> String {
        let file = XcodePath.normalized(path)
        guard !file.hasPrefix("/"), !file.hasPrefix(".."), !file.isEmpty else {
            throw .fileOutsideProject(file: path, path: self.path)
        }
        return file
    }

    /// The target's synchronized folder holding `file`, the exception sets of that folder which
    /// exclude the file from the target, and the file's path inside the folder.
    private func synchronizedFolder(containing file: String, target: String) -> (folder: String, exceptionSets: [String], relative: String)? {
        let tree = XcodeProjectTree(document, projectID: projectID)
        for folder in document.object(target)?["fileSystemSynchronizedGroups"]?.strings ?? [] {
            guard let location = tree.location[folder], let relative = XcodePath.relative(file, inside: location) else { continue }
            let exceptionSets = (document.object(folder)?["exceptions"]?.strings ?? []).filter { id in
                let exceptionSet = document.object(id)
                return exceptionSet?["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet"
                    && exceptionSet?["target"]?.string == target
                    && exceptionSet?["membershipExceptions"]?.strings.contains(relative) == true
            }
            return (location, exceptionSets, relative)
        }
        return nil
    }

    private func fileReference(at file: String, tree: XcodeProjectTree) -> String? {
        document.objects(isa: "PBXFileReference").first { tree.location[$0.id] == file }?.id
    }

    private func groupSeed(_ folder: String) -> String { "patchcli group \(folder)" }

    private func fileSeed(_ file: String) -> String { "patchcli file \(file)" }

    private mutating func insertFileReference(_ file: String, tree: XcodeProjectTree) -> String {
        let group = ensureGroup(for: XcodePath.folder(of: file), tree: tree)
        let name = XcodePath.name(of: file)
        let id = document.newObjectID(seed: fileSeed(file))
        document.insertObject(id: id, comment: name, fields: [
            ("isa", .string("PBXFileReference")),
            ("lastKnownFileType", .string("sourcecode.swift")),
            ("path", .string(name)),
            ("sourceTree", .string("<group>")),
        ], singleLine: true)
        document.insert(.string(id, comment: name), intoArray: "children", ofObject: group)
        return id
    }

    /// The group of `folder`, creating it (and any missing parent) under the group of its parent
    /// folder; the source root's group is the main group.
    private mutating func ensureGroup(for folder: String, tree: XcodeProjectTree) -> String {
        if let existing = tree.group(for: folder, in: document) { return existing }
        let mainGroup = document.object(projectID)!["mainGroup"]!.string!
        if folder.isEmpty { return mainGroup }
        let parent = ensureGroup(for: XcodePath.folder(of: folder), tree: XcodeProjectTree(document, projectID: projectID))
        let name = XcodePath.name(of: folder)
        let id = document.newObjectID(seed: groupSeed(folder))
        document.insertObject(id: id, comment: name, fields: [
            ("isa", .string("PBXGroup")),
            ("children", .array([])),
            ("path", .string(name)),
            ("sourceTree", .string("<group>")),
        ], singleLine: false)
        document.insert(.string(id, comment: name), intoArray: "children", ofObject: parent)
        return id
    }
}
