import PatchManifest
import Foundation
import SwiftParser
import SwiftSyntax

/// One parsed project file.
struct GuestSourceFile {
    /// Path relative to the sources root, with `/` separators: what diagnostics and the manifest show,
    /// identical whatever the checkout path.
    let relativePath: String
    /// The file as a device build of the index's platform compiles it (`GuestDeviceConfiguration.activeSource`).
    let tree: SourceFileSyntax
    /// The file with its `#if` directives and inactive branches, at the same offsets as `tree`.
    let written: SourceFileSyntax
    let converter: SourceLocationConverter
    /// Modules the file imports (`Foundation`, `SwiftUI`, …).
    let imports: [String]

    func line(of node: some SyntaxProtocol) -> Int {
        node.startLocation(converter: converter).line
    }

    /// `decl` of `tree` as `written` has it, `#if` blocks included: what the baseline hashes.
    func asWritten(_ decl: DeclSyntax) -> DeclSyntax {
        let start = decl.positionAfterSkippingLeadingTrivia, end = decl.endPositionBeforeTrailingTrivia
        guard let token = written.token(at: start) else { return decl }
        var node: Syntax? = Syntax(token)
        while let current = node, current.positionAfterSkippingLeadingTrivia == start, current.endPositionBeforeTrailingTrivia <= end {
            if current.endPositionBeforeTrailingTrivia == end, let found = current.as(DeclSyntax.self) { return found }
            node = current.parent
        }
        return decl
    }
}

/// Where a declaration came from, as `file:line`.
public struct GuestSourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}

/// A declaration inside a type body (or one of its extensions).
struct GuestMember {
    enum Kind: Equatable {
        case storedProperty
        case enumCase
        case nestedType
        case other
    }
    /// Base name: a function's name, a property's name, `init`, `subscript`, an operator.
    let names: [String]
    let kind: Kind
    let isStatic: Bool
    let decl: DeclSyntax
    let file: Int
    /// Index into `GuestTypeEntry.extensions`, nil for members of the main declaration.
    let extensionIndex: Int?
}

/// A struct, enum, class, actor or protocol of the project, with the members of all its extensions.
struct GuestTypeEntry {
    enum Kind: String {
        case structType = "struct"
        case enumType = "enum"
        case classType = "class"
        case actorType = "actor"
        case protocolType = "protocol"
    }
    let path: [String]
    let kind: Kind
    let decl: DeclSyntax
    let file: Int
    let isGeneric: Bool
    let inheritedNames: [String]
    var members: [GuestMember] = []
    /// The `extension` declarations of this type, in source order.
    var extensions: [(decl: ExtensionDeclSyntax, file: Int)] = []
    /// The extension of a type the project does not declare that this type is nested in
    /// (`extension Image { enum AppImageStyle … }`): its path starts with the extended type's, and the
    /// guest repeats the extension around it. Nil for the types nested in it in turn.
    var foreignExtension: ExtensionDeclSyntax? = nil

    var name: String { path.last ?? "" }
    var qualifiedName: String { path.joined(separator: ".") }
}

/// A top-level function, variable, constant or typealias.
struct GuestGlobalEntry {
    let names: [String]
    let decl: DeclSyntax
    let file: Int
    /// A member of an extension of a type the project does not declare (`extension String`):
    /// the guest repeats the extension around it.
    var foreignExtension: ExtensionDeclSyntax? = nil
}

/// Everything the generator looks up by name: the project's files parsed with swift-syntax.
struct GuestSourceIndex {
    /// The platform whose device build the index reads (its active `#if` branches).
    let platform: AppPlatform
    private(set) var files: [GuestSourceFile] = []
    private(set) var types: [GuestTypeEntry] = []
    private(set) var globals: [GuestGlobalEntry] = []
    /// The error type each async function of the project fails with (`GuestAsyncTransform.thrownTypes`),
    /// read once: every export plan and every copied async function needs it.
    private(set) var asyncThrownTypes: GuestAsyncTransform.ThrownTypes = [:]
    /// `types` by full path (the first type of a path, as a scan in order would find it) and by
    /// simple name (every type of that name, in index order): `resolveType` and `lookupType` run
    /// for each name a changed view mentions, so scanning `types` there made `build` quadratic
    /// on large apps (minutes for a hundred views). Kept in step with `types` by `indexType`,
    /// the only place that appends to it.
    private var typeByPath: [[String]: Int] = [:]
    private var typesByName: [String: [Int]] = [:]
    /// `globals` by each name they declare, in index order (`appendGlobal` keeps it in step).
    private var globalsByName: [String: [Int]] = [:]
    /// The members of foreign extensions (`extension String { func trimmed() … }`) among them.
    private var foreignExtensionGlobalsByName: [String: [Int]] = [:]
    /// Every type's members (but nested types) by each name they declare: the dependency closure
    /// looks up each member name the code it reaches uses, and scanning the members of every type
    /// it had reached made it quadratic (a large app's one build did not finish). `appendMember`
    /// keeps it in step with `types[…].members`.
    private var membersByName: [String: [(type: Int, member: Int)]] = [:]

    /// Parses every `.swift` file under `root`, or under each of `folders` (relative to `root`, in
    /// the given order; a folder may be a single file) when given. Within a folder files are sorted
    /// by relative path, so the generated guest is the same whatever order the file system lists
    /// them in; a file reached through two folders is read once. `modules`: as in `init(sources:platform:modules:)`.
    static func load(root: String, folders: [String] = [], platform: AppPlatform = .iOS, modules: Set<String> = []) throws(GuestBuildError) -> GuestSourceIndex {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: rootURL.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .sourcesUnreadable(path: root, reason: "not a directory")
        }
        let rootComponents = rootURL.resolvingSymlinksInPath().pathComponents
        var relativePaths: [String] = []
        var seen = Set<String>()
        for folder in folders.isEmpty ? ["."] : folders {
            let folderURL = folder == "." ? rootURL : rootURL.appendingPathComponent(folder)
            var folderIsDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folderURL.path, isDirectory: &folderIsDirectory) else {
                throw .sourcesUnreadable(path: folderURL.path, reason: "no such folder")
            }
            var urls: [URL] = [folderURL]
            if folderIsDirectory.boolValue {
                guard let enumerator = FileManager.default.enumerator(at: folderURL, includingPropertiesForKeys: nil) else {
                    throw .sourcesUnreadable(path: folderURL.path, reason: "cannot list the directory")
                }
                urls = enumerator.compactMap { $0 as? URL }
            }
            var found: [String] = []
            for url in urls where url.pathExtension == "swift" {
                let components = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
                guard components.starts(with: rootComponents) else { continue }
                let relative = components.dropFirst(rootComponents.count)
                // Build products and package checkouts are not project code; manifests are not sources.
                if relative.contains(where: { $0.hasPrefix(".") }) || ProjectSources.isManifest(relative.joined(separator: "/")) { continue }
                found.append(relative.joined(separator: "/"))
            }
            for relative in found.sorted() where seen.insert(relative).inserted { relativePaths.append(relative) }
        }
        var sources: [(String, String)] = []
        for relative in relativePaths {
            let path = rootURL.appendingPathComponent(relative).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .sourcesUnreadable(path: path, reason: "cannot read the file")
            }
            sources.append((relative, String(decoding: data, as: UTF8.self)))
        }
        return GuestSourceIndex(sources: sources, platform: platform, modules: modules)
    }

    /// Indexes in-memory sources: `(relative path, text)` pairs, as `platform`'s device build compiles them.
    /// - Parameter modules: the module names of the project's targets. The guest program is one
    ///   module, so code that names a type or function with its module (`Backend.Category`, written so
    ///   where another module the app imports declares a `Category` too) is read without it.
    init(sources: [(String, String)], platform: AppPlatform = .iOS, modules: Set<String> = []) {
        self.platform = platform
        let configuration = GuestDeviceConfiguration(platform: platform)
        // `prepare`'s routing files only make sense in the native binary.
        let parsed = sources.filter { !Preparer.isGenerated(Array($0.1.utf8)) }.map { relativePath, text in
            // The section `prepare` appends to a file holding private views routes them natively too.
            let userText = String(decoding: GeneratedSection.split(Array(text.utf8)).user, as: UTF8.self)
            let written = Self.unprepared(Parser.parse(source: userText))
            return (relativePath: relativePath, written: written, tree: configuration.activeSource(written))
        }
        // Swift finds a type before a module: a project type named like a module keeps its name.
        let topLevelTypes = Set(parsed.flatMap { $0.tree.statements.compactMap { $0.item.as(DeclSyntax.self).flatMap(Self.typeInfo)?.name } })
        let qualifiers = modules.subtracting(topLevelTypes)
        for (relativePath, written, activeTree) in parsed {
            let tree = qualifiers.isEmpty ? activeTree : Self.withoutModuleQualifiers(activeTree, modules: qualifiers)
            let imports = tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text }
            let file = GuestSourceFile(
                relativePath: relativePath, tree: tree, written: written,
                converter: SourceLocationConverter(fileName: relativePath, tree: tree), imports: imports)
            files.append(file)
            let fileIndex = files.count - 1
            for statement in tree.statements {
                indexTopLevel(statement.item, file: fileIndex)
            }
        }
        // Extensions are attached after every type is known: they may precede the type's file.
        for fileIndex in files.indices {
            for statement in files[fileIndex].tree.statements {
                guard let extensionDecl = statement.item.as(ExtensionDeclSyntax.self) else { continue }
                attachExtension(extensionDecl, file: fileIndex)
            }
        }
        asyncThrownTypes = GuestAsyncTransform.thrownTypes(in: self)
    }

    /// The sources as they were before `prepare`, line for line and column for column:
    /// - a prepared project's functions are `dynamic`; the guest has no dynamic-replacement runtime
    ///   (`swift_getFunctionReplacement`), and the module replaces them from the outside anyway, so
    ///   the modifier is blanked out;
    /// - a view's own body is renamed `__patch_native_body` (the routing `body` lives in a generated
    ///   file the guest skips); in the guest it is the view's `body` again, padded with spaces;
    /// - a routed async function's `AsyncPrologue` (the app's routing, calling a generated helper the
    ///   guest does not have) is blanked out.
    static func unprepared(_ tree: SourceFileSyntax) -> SourceFileSyntax {
        var bytes = Array(tree.description.utf8)
        var changed = false
        for token in tree.tokens(viewMode: .sourceAccurate) {
            let start = token.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = token.endPositionBeforeTrailingTrivia.utf8Offset
            if token.tokenKind == .keyword(.if), let body = token.parent?.parent?.parent?.parent?.as(CodeBlockItemListSyntax.self)?.parent?.as(CodeBlockSyntax.self),
               let prologue = AsyncPrologue.find(in: body), prologue.range.lowerBound == start {
                // Spaces, not nothing: lines and columns stay the user's.
                bytes.replaceSubrange(prologue.range, with: repeatElement(UInt8(ascii: " "), count: prologue.range.count))
                changed = true
            } else if token.tokenKind == .keyword(.dynamic) && token.parent?.is(DeclModifierSyntax.self) == true {
                bytes.replaceSubrange(start..<end, with: repeatElement(UInt8(ascii: " "), count: end - start))
                changed = true
            } else if token.tokenKind == .identifier(PreparedNames.nativeBody) {
                bytes.replaceSubrange(start..<end, with: Array("body".utf8) + repeatElement(UInt8(ascii: " "), count: end - start - 4))
                changed = true
            }
        }
        return changed ? Parser.parse(source: String(decoding: bytes, as: UTF8.self)) : tree
    }

    /// `tree` with each `Module.` before a name blanked (`Backend.Category` → `        Category`):
    /// spaces, so lines and columns stay the user's and `GuestSourceFile.asWritten` still finds the
    /// written declaration at the same offsets, whose hash the baseline recorded.
    static func withoutModuleQualifiers(_ tree: SourceFileSyntax, modules: Set<String>) -> SourceFileSyntax {
        final class Qualifiers: SyntaxVisitor {
            let modules: Set<String>
            var ranges: [Range<Int>] = []
            init(modules: Set<String>) {
                self.modules = modules
                super.init(viewMode: .sourceAccurate)
            }
            func blank(_ base: some SyntaxProtocol, through period: TokenSyntax) {
                ranges.append(base.positionAfterSkippingLeadingTrivia.utf8Offset..<period.endPositionBeforeTrailingTrivia.utf8Offset)
            }
            override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
                if let base = node.baseType.as(IdentifierTypeSyntax.self), base.genericArgumentClause == nil, modules.contains(base.name.text) {
                    blank(base, through: node.period)
                }
                return .visitChildren
            }
            override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
                if let base = node.base?.as(DeclReferenceExprSyntax.self), base.argumentNames == nil, modules.contains(base.baseName.text) {
                    blank(base, through: node.period)
                }
                return .visitChildren
            }
        }
        let finder = Qualifiers(modules: modules)
        finder.walk(tree)
        guard !finder.ranges.isEmpty else { return tree }
        var bytes = Array(tree.description.utf8)
        for range in finder.ranges { bytes.replaceSubrange(range, with: repeatElement(UInt8(ascii: " "), count: range.count)) }
        return Parser.parse(source: String(decoding: bytes, as: UTF8.self))
    }

    private mutating func indexTopLevel(_ item: CodeBlockItemSyntax.Item, file: Int) {
        guard let decl = item.as(DeclSyntax.self) else { return }
        if decl.is(ExtensionDeclSyntax.self) || decl.is(ImportDeclSyntax.self) { return }
        if let typeInfo = GuestSourceIndex.typeInfo(decl) {
            indexType(decl, info: typeInfo, parentPath: [], file: file)
        } else {
            let names = GuestSourceIndex.declaredNames(decl)
            if !names.isEmpty { appendGlobal(GuestGlobalEntry(names: names, decl: decl, file: file)) }
        }
    }

    private mutating func appendGlobal(_ entry: GuestGlobalEntry) {
        globals.append(entry)
        // A name a declaration repeats (`let (a, a)`) lists it once, as `names.contains` would find it.
        for name in Set(entry.names) {
            globalsByName[name, default: []].append(globals.count - 1)
            if entry.foreignExtension != nil { foreignExtensionGlobalsByName[name, default: []].append(globals.count - 1) }
        }
    }

    private mutating func appendMember(_ member: GuestMember, to type: Int) {
        types[type].members.append(member)
        guard member.kind != .nestedType else { return }
        for name in Set(member.names) { membersByName[name, default: []].append((type, types[type].members.count - 1)) }
    }

    private mutating func indexType(
        _ decl: DeclSyntax, info: (name: String, kind: GuestTypeEntry.Kind, members: MemberBlockSyntax, generic: Bool, inherited: [String]),
        parentPath: [String], file: Int
    ) {
        let path = parentPath + [info.name]
        types.append(GuestTypeEntry(path: path, kind: info.kind, decl: decl, file: file, isGeneric: info.generic, inheritedNames: info.inherited))
        let typeIndex = types.count - 1
        if typeByPath[path] == nil { typeByPath[path] = typeIndex }
        typesByName[info.name, default: []].append(typeIndex)
        for item in info.members.members {
            let member = item.decl
            if let nested = GuestSourceIndex.typeInfo(member) {
                appendMember(GuestMember(names: [nested.name], kind: .nestedType, isStatic: true, decl: member, file: file, extensionIndex: nil), to: typeIndex)
                indexType(member, info: nested, parentPath: path, file: file)
            } else if let entry = GuestSourceIndex.member(member, file: file, extensionIndex: nil) {
                appendMember(entry, to: typeIndex)
            }
        }
    }

    private mutating func attachExtension(_ decl: ExtensionDeclSyntax, file: Int) {
        let extended = decl.extendedType.trimmedText.split(separator: ".").map(String.init)
        // An extension is declared at file scope, so `extension Color` names a type declared at file
        // scope, never one nested in another (ACHNBrowserUI's `AppIconPickerView.Color` enum beside
        // its `extension Color` of SwiftUI's): the path is exact, or qualified by a module name
        // (`extension Backend.Item`).
        guard let typeIndex = type(atPath: extended) ?? (extended.count > 1 ? type(atPath: Array(extended.dropFirst())) : nil) else {
            // A standard-library or framework type (String, Image…): its members are found by name
            // like globals, its nested types as the project's, under the extended type's path.
            for item in decl.memberBlock.members {
                if let nested = GuestSourceIndex.typeInfo(item.decl) {
                    let position = types.count
                    indexType(item.decl, info: nested, parentPath: extended, file: file)
                    types[position].foreignExtension = decl
                    continue
                }
                let names = GuestSourceIndex.declaredNames(item.decl)
                if !names.isEmpty { appendGlobal(GuestGlobalEntry(names: names, decl: item.decl, file: file, foreignExtension: decl)) }
            }
            return
        }
        types[typeIndex].extensions.append((decl, file))
        let extensionIndex = types[typeIndex].extensions.count - 1
        for item in decl.memberBlock.members {
            let member = item.decl
            if let nested = GuestSourceIndex.typeInfo(member) {
                appendMember(GuestMember(names: [nested.name], kind: .nestedType, isStatic: true, decl: member, file: file, extensionIndex: extensionIndex), to: typeIndex)
                indexType(member, info: nested, parentPath: types[typeIndex].path, file: file)
            } else if let entry = GuestSourceIndex.member(member, file: file, extensionIndex: extensionIndex) {
                appendMember(entry, to: typeIndex)
            }
        }
    }

    /// The type declared at exactly `path` (the first one, should a path be declared twice).
    func type(atPath path: [String]) -> Int? { typeByPath[path] }

    /// Every type whose simple name is `name`, in index order.
    func types(named name: String) -> [Int] { typesByName[name] ?? [] }

    /// Every global declaring `name`, in index order.
    func globals(named name: String) -> [Int] { globalsByName[name] ?? [] }

    /// Every member of a foreign extension declaring `name`, in index order.
    func foreignExtensionGlobals(named name: String) -> [Int] { foreignExtensionGlobalsByName[name] ?? [] }

    /// Every member declaring `name` (nested types aside), in the order they were indexed.
    func members(named name: String) -> [(type: Int, member: Int)] { membersByName[name] ?? [] }

    /// The type whose path ends with `path` (an exact full path wins over a suffix match).
    func lookupType(path: [String]) -> Int? {
        if let exact = typeByPath[path] { return exact }
        // A suffix match ends with the same simple name.
        guard let name = path.last else { return nil }
        return typesByName[name]?.first { types[$0].path.count > path.count && types[$0].path.suffix(path.count).elementsEqual(path) }
    }

    /// Types named `name`, resolved as Swift would from inside `scope`: the innermost enclosing
    /// type's nested types first, then outward, then any type of that name.
    func resolveType(named name: String, from scope: [String]) -> [Int] {
        var prefix = scope
        while true {
            prefix.append(name)
            if let index = typeByPath[prefix] { return [index] }
            prefix.removeLast()
            if prefix.isEmpty { break }
            prefix.removeLast()
        }
        return types(named: name)
    }

    private static func typeInfo(_ decl: DeclSyntax) -> (name: String, kind: GuestTypeEntry.Kind, members: MemberBlockSyntax, generic: Bool, inherited: [String])? {
        func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
            clause?.inheritedTypes.map { $0.type.trimmedText } ?? []
        }
        if let s = decl.as(StructDeclSyntax.self) {
            return (s.name.text, .structType, s.memberBlock, s.genericParameterClause != nil, inherited(s.inheritanceClause))
        }
        if let e = decl.as(EnumDeclSyntax.self) {
            return (e.name.text, .enumType, e.memberBlock, e.genericParameterClause != nil, inherited(e.inheritanceClause))
        }
        if let c = decl.as(ClassDeclSyntax.self) {
            return (c.name.text, .classType, c.memberBlock, c.genericParameterClause != nil, inherited(c.inheritanceClause))
        }
        if let a = decl.as(ActorDeclSyntax.self) {
            return (a.name.text, .actorType, a.memberBlock, a.genericParameterClause != nil, inherited(a.inheritanceClause))
        }
        if let p = decl.as(ProtocolDeclSyntax.self) {
            return (p.name.text, .protocolType, p.memberBlock, false, inherited(p.inheritanceClause))
        }
        return nil
    }

    private static func member(_ decl: DeclSyntax, file: Int, extensionIndex: Int?) -> GuestMember? {
        let names = declaredNames(decl)
        guard !names.isEmpty else { return nil }
        let modifiers = decl.asProtocol(WithModifiersSyntax.self)?.modifiers
        let isStatic = modifiers?.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) } ?? false
        var kind = GuestMember.Kind.other
        if decl.is(EnumCaseDeclSyntax.self) {
            kind = .enumCase
        } else if let variable = decl.as(VariableDeclSyntax.self), !isStatic, isStored(variable) {
            kind = .storedProperty
        }
        return GuestMember(names: names, kind: kind, isStatic: isStatic, decl: decl, file: file, extensionIndex: extensionIndex)
    }

    /// A `var`/`let` without accessor blocks (or with only observers) stores a value.
    static func isStored(_ variable: VariableDeclSyntax) -> Bool {
        for binding in variable.bindings {
            guard let accessorBlock = binding.accessorBlock else { continue }
            switch accessorBlock.accessors {
            case .getter: return false
            case .accessors(let accessors):
                let computed = accessors.contains { accessor in
                    let kind = accessor.accessorSpecifier.tokenKind
                    return kind == .keyword(.get) || kind == .keyword(.set) || kind == .keyword(._read) || kind == .keyword(._modify)
                }
                if computed { return false }
            }
        }
        return true
    }

    /// The names a declaration introduces.
    static func declaredNames(_ decl: DeclSyntax) -> [String] {
        if let function = decl.as(FunctionDeclSyntax.self) { return [function.name.text] }
        if let variable = decl.as(VariableDeclSyntax.self) {
            return variable.bindings.flatMap { binding in
                binding.pattern.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                    if case .identifier(let name) = token.tokenKind { return name }
                    return nil
                }
            }
        }
        if decl.is(InitializerDeclSyntax.self) { return ["init"] }
        if decl.is(SubscriptDeclSyntax.self) { return ["subscript"] }
        if let alias = decl.as(TypeAliasDeclSyntax.self) { return [alias.name.text] }
        if let enumCase = decl.as(EnumCaseDeclSyntax.self) { return enumCase.elements.map { $0.name.text } }
        if let associated = decl.as(AssociatedTypeDeclSyntax.self) { return [associated.name.text] }
        if let type = typeInfo(decl) { return [type.name] }
        return []
    }
}
