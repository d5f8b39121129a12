import PBXProj

/// Reads and wires an Xcode project (`project.pbxproj`) as data: the package dependency on
/// PatchSDK, the generated source files, and what project detection needs (targets, their Swift
/// files, synchronized folders, local packages). Every operation is idempotent and has an exact
/// inverse; bytes outside the edited objects never change (`PBXProjDocument`).
///
/// Paths are relative to the folder holding the `.xcodeproj` (the project's source root).
package struct XcodeProjectEditor: Sendable {
    package internal(set) var document: PBXProjDocument
    /// The project file's path, for error messages only.
    package let path: String
    let projectID: String

    package init(bytes: [UInt8], path: String) throws(XcodeProjectError) {
        do {
            document = try PBXProjDocument(bytes: bytes)
        } catch {
            throw .malformed(path: path, error)
        }
        self.path = path
        guard let projectID = document.rootObjectID, document.isa(of: projectID) == "PBXProject" else {
            throw .incomplete(path: path, missing: "rootObject naming a PBXProject")
        }
        guard let mainGroup = document.object(projectID)?["mainGroup"]?.string, document.object(mainGroup) != nil else {
            throw .incomplete(path: path, missing: "mainGroup")
        }
        self.projectID = projectID
    }

    package var bytes: [UInt8] { document.bytes }

    // MARK: Targets

    /// The ID of the native target called `name`.
    func targetID(named name: String) throws(XcodeProjectError) -> String {
        let targets = document.objects(isa: "PBXNativeTarget")
        if let match = targets.first(where: { $0.node["name"]?.string == name }) { return match.id }
        throw .targetNotFound(name: name, available: targets.compactMap { $0.node["name"]?.string }, path: path)
    }

    /// The target's first build phase of `isa` (`PBXSourcesBuildPhase`, `PBXFrameworksBuildPhase`).
    func buildPhase(_ isa: String, ofTarget targetID: String) -> String? {
        document.object(targetID)?["buildPhases"]?.strings.first { document.isa(of: $0) == isa }
    }

    /// The comment Xcode writes after an object's ID when it is referenced.
    func annotation(of id: String) -> String? {
        guard let object = document.object(id) else { return nil }
        switch object["isa"]?.string {
        case "PBXSourcesBuildPhase": return "Sources"
        case "PBXFrameworksBuildPhase": return "Frameworks"
        case "PBXResourcesBuildPhase": return "Resources"
        case "XCRemoteSwiftPackageReference", "XCLocalSwiftPackageReference":
            let location = object["repositoryURL"]?.string ?? object["relativePath"]?.string ?? ""
            return "\(object["isa"]!.string!) \"\(Self.packageName(location))\""
        case "XCSwiftPackageProductDependency": return object["productName"]?.string
        case Self.exceptionSetISA: return Self.exceptionSetISA
        default: return object["name"]?.string ?? object["path"]?.string
        }
    }

    /// An object ID followed by its annotation, as array elements and references are written.
    func reference(_ id: String) -> PlistText {
        .string(id, comment: annotation(of: id))
    }

    /// Whether `id` is the object that `seed` names: objects we create get IDs derived from a seed,
    /// which is how an inverse operation knows the object was ours to remove.
    func isCreated(_ id: String, seed: String) -> Bool {
        ObjectID.derive(from: seed, avoiding: document.objectIDs.subtracting([id])) == id
    }

    /// The last path component without a `.git` suffix: Xcode's name for a package.
    static func packageName(_ location: String) -> String {
        var name = location
        while name.hasSuffix("/") { name.removeLast() }
        name = String(name.split(separator: "/").last ?? "")
        return name.hasSuffix(".git") ? String(name.dropLast(4)) : name
    }
}
