import SwiftSyntax

/// A piece of project code the guest may include: a top-level declaration, the "shell" of a type
/// (its header, stored properties and enum cases, which fix its layout), or one member of a type.
enum GuestUnit: Hashable, Comparable {
    case global(Int)
    case typeShell(Int)
    case member(type: Int, member: Int)
}

/// Computes which units an export needs, by resolving names over the syntax trees until nothing new
/// is reached. Resolution is by name, not by type: a member named like something the code uses is
/// pulled in even when it belongs to another type. That over-approximates (the compiler strips what
/// is unused) but never misses a dependency the project declares.
struct GuestDependencyClosure {
    let index: GuestSourceIndex
    /// What this builder has computed: every changed view starts closures at its type and at each of
    /// its members, and views share most of what they reach (their models, the app's helpers), so
    /// without it a large app's build repeated the same walks hundreds of times. A closure depends on
    /// its start unit alone, so a remembered one is the one computing it again would give.
    private let memo = Memo()

    private final class Memo {
        var closures: [GuestUnit: Set<GuestUnit>] = [:]
        var references: [GuestUnit: GuestReferences] = [:]
    }

    /// Members of extensions of framework types the guest lacks are never reached (`extendsGuestType`).
    let withoutFrameworkExtensions: Bool

    /// A struct with property wrappers (a view) is laid out as the copy a method only reading `self`
    /// receives (`GuestSignatureReader.structCopy`): the stored properties it leaves out are not part of
    /// it. Function exports' closures only; a lowered view keeps all its properties.
    let laysOutStructCopies: Bool

    /// Members of extensions of framework types built on a modifier the guest DSL does not have
    /// (`ViewNativeExtensions`: `extension Image { func style(…) … self.resizable() }`). A body's
    /// calls of them are slots, but the closure finds members by name, and a call of an overload
    /// (`Text.style(appStyle:)`) would pull them in: they could only fail the guest's compile.
    let nativeOnlyGlobals: Set<Int>

    init(index: GuestSourceIndex, withoutFrameworkExtensions: Bool = false, laysOutStructCopies: Bool = false) {
        self.index = index
        self.withoutFrameworkExtensions = withoutFrameworkExtensions
        self.laysOutStructCopies = laysOutStructCopies
        nativeOnlyGlobals = withoutFrameworkExtensions ? [] : ViewNativeExtensions(index: index).nativeGlobals
    }

    /// Protocols of the standard library a guest type may keep conforming to, with the members that
    /// implement them (synthesized when absent).
    static let keptStandardProtocols: [String: [String]] = [
        "Equatable": ["=="], "Hashable": ["hash", "=="], "Comparable": ["<", "=="], "CaseIterable": ["allCases"],
        "Identifiable": ["id"], "Sendable": [], "Error": [], "RawRepresentable": ["rawValue", "init"],
        "CustomStringConvertible": ["description"], "BitwiseCopyable": [],
    ]
    /// Raw-value types an enum's inheritance clause may name.
    static let rawValueTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "Character", "Bool",
    ]

    func closure(of start: GuestUnit) -> Set<GuestUnit> {
        if let known = memo.closures[start] { return known }
        var state = State()
        state.pending.append(start)
        while let unit = state.pending.popLast() {
            switch unit {
            case .global(let global) where nativeOnlyGlobals.contains(global): continue
            case .typeShell(let type), .member(let type, _):
                if withoutFrameworkExtensions && !extendsGuestType(nestedIn: type) { continue }
            default: break
            }
            guard state.included.insert(unit).inserted else { continue }
            expand(unit, into: &state)
            // A type reached late may own members named by code reached earlier, and vice versa.
            if case .typeShell(let type) = unit {
                let (names, operators) = (state.memberNames, state.operators)
                addMembers(of: type, into: &state) { names.contains($0) || operators.contains($0) }
            }
        }
        memo.closures[start] = state.included
        return state.included
    }

    /// The names `unit`'s declaration refers to (a walk of its syntax, done once per unit).
    private func references(of unit: GuestUnit, _ decl: DeclSyntax) -> GuestReferences {
        if let known = memo.references[unit] { return known }
        let found = GuestReferenceCollector.collect(decl)
        memo.references[unit] = found
        return found
    }

    private struct State {
        var included: Set<GuestUnit> = []
        var pending: [GuestUnit] = []
        var memberNames: Set<String> = []
        var operators: Set<String> = []
        var includedTypes: Set<Int> = []
        /// Type names the code writes, and the `typealias` members of the types reached so far that
        /// no such name has reached yet: an alias is a member the code names as a type
        /// (`var id: ID`, `Set<Plant.ID>`), brought in when both its type and its name are reached.
        var typeNames: Set<String> = []
        var pendingAliases: [String: [GuestUnit]] = [:]
    }

    /// Inheritance entries kept in the guest: project protocols, kept standard protocols, raw types.
    func keptInheritance(_ names: [String]) -> [String] {
        names.filter { name in
            if GuestDependencyClosure.keptStandardProtocols[name] != nil || GuestDependencyClosure.rawValueTypes.contains(name) { return true }
            return index.lookupType(path: name.split(separator: ".").map(String.init)).map { index.types[$0].kind == .protocolType } ?? false
        }
    }

    private func expand(_ unit: GuestUnit, into state: inout State) {
        switch unit {
        case .global(let global):
            resolve(references(of: unit, index.globals[global].decl), scope: [], file: index.globals[global].file, into: &state)
        case .typeShell(let type):
            let entry = index.types[type]
            state.includedTypes.insert(type)
            for (memberIndex, member) in entry.members.enumerated() where member.decl.is(TypeAliasDeclSyntax.self) {
                for name in member.names {
                    if state.typeNames.contains(name) {
                        state.pending.append(.member(type: type, member: memberIndex))
                    } else {
                        state.pendingAliases[name, default: []].append(.member(type: type, member: memberIndex))
                    }
                }
            }
            if entry.path.count > 1, entry.foreignExtension == nil, let parent = index.lookupType(path: Array(entry.path.dropLast())) {
                state.pending.append(.typeShell(parent))
            }
            var requirementNames: Set<String> = []
            for name in keptInheritance(entry.inheritedNames) {
                requirementNames.formUnion(GuestDependencyClosure.keptStandardProtocols[name] ?? [])
                for protocolIndex in index.resolveType(named: name, from: entry.path) { state.pending.append(.typeShell(protocolIndex)) }
            }
            for (extensionIndex, extensionEntry) in entry.extensions.enumerated() {
                let kept = keptInheritance(extensionEntry.decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedText } ?? [])
                guard !kept.isEmpty else { continue }
                // A conformance the guest keeps needs the members that implement it.
                for (memberIndex, member) in entry.members.enumerated() where member.extensionIndex == extensionIndex && member.kind != .nestedType {
                    state.pending.append(.member(type: type, member: memberIndex))
                }
                for name in kept {
                    for protocolIndex in index.resolveType(named: name, from: entry.path) { state.pending.append(.typeShell(protocolIndex)) }
                }
            }
            // A class travels as its mirror: the stored properties it leaves out are not part of the
            // guest's copy (code that touches one is refused, `GuestSourceGenerator.staticProblem`).
            // Nor, here, are its references to other objects, which only a receiver's copy holds: the
            // generator adds them to the closure of an export whose receiver the class is.
            let reader = GuestSignatureReader(index: index)
            let leftOut = entry.kind == .classType ? Set(reader.referencedObjectMirror(of: type).leftOut.map(\.name))
                : laysOutStructCopies ? Set(reader.structCopy(of: type)?.leftOut.map(\.name) ?? []) : []
            for (memberIndex, member) in entry.members.enumerated() {
                let layout = (member.kind == .storedProperty && leftOut.isDisjoint(with: member.names)) || member.kind == .enumCase
                let required = entry.kind == .protocolType || !requirementNames.isDisjoint(with: member.names)
                if (layout || required) && member.kind != .nestedType && !GuestDependencyClosure.isCodableImplementation(member.decl) {
                    state.pending.append(.member(type: type, member: memberIndex))
                }
            }
            resolveHeader(of: entry, into: &state)
        case .member(let type, let memberIndex):
            state.pending.append(.typeShell(type))
            let member = index.types[type].members[memberIndex]
            resolve(references(of: unit, member.decl), scope: index.types[type].path, file: member.file, into: &state)
        }
    }

    private func resolveHeader(of entry: GuestTypeEntry, into state: inout State) {
        // Generic constraints and raw types in the header can name project types too.
        var references = GuestReferences()
        for name in entry.inheritedNames { references.typeNames.insert(name) }
        resolve(references, scope: entry.path, file: entry.file, into: &state)
    }

    /// `init(from:)` and `encode(to:)` implement Codable, which the guest replaces with generated glue.
    static func isCodableImplementation(_ decl: DeclSyntax) -> Bool {
        if let initializer = decl.as(InitializerDeclSyntax.self) {
            return initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
                && initializer.signature.parameterClause.parameters.count == 1
        }
        if let function = decl.as(FunctionDeclSyntax.self) {
            return function.name.text == "encode" && function.signature.parameterClause.parameters.first?.firstName.text == "to"
        }
        return false
    }

    /// `file`: where the code naming them is; another file's `private`/`fileprivate` globals are not
    /// what it means (`GuestPrivateNames`), and pulling them in would bring their dependencies too.
    private func resolve(_ references: GuestReferences, scope: [String], file: Int, into state: inout State) {
        for name in references.bareNames {
            // Members of the enclosing types (implicit self) first, then the project's top level.
            var prefix = scope
            while !prefix.isEmpty {
                if let type = index.type(atPath: prefix) {
                    for (owner, memberIndex) in index.members(named: name) where owner == type {
                        state.pending.append(.member(type: type, member: memberIndex))
                    }
                }
                prefix.removeLast()
            }
            for globalIndex in index.globals(named: name) where visible(globalIndex, from: file) && extendsGuestType(globalIndex) {
                state.pending.append(.global(globalIndex))
            }
            let types = index.resolveType(named: name, from: scope)
            for type in types {
                state.pending.append(.typeShell(type))
                // `Item(...)` calls an initializer.
                addMembers(of: type, into: &state) { $0 == "init" }
            }
        }
        for name in references.typeNames {
            for type in index.resolveType(named: name, from: scope) { state.pending.append(.typeShell(type)) }
            for globalIndex in index.globals(named: name) where index.globals[globalIndex].decl.is(TypeAliasDeclSyntax.self) && visible(globalIndex, from: file) {
                state.pending.append(.global(globalIndex))
            }
            if state.typeNames.insert(name).inserted { state.pending.append(contentsOf: state.pendingAliases.removeValue(forKey: name) ?? []) }
        }
        let newMemberNames = references.memberNames.subtracting(state.memberNames)
        let newOperators = references.operators.subtracting(state.operators)
        state.memberNames.formUnion(newMemberNames)
        state.operators.formUnion(newOperators)
        // The members so named of every type reached so far.
        for name in newMemberNames.union(newOperators) {
            for (type, memberIndex) in index.members(named: name) where state.includedTypes.contains(type) {
                guard !GuestDependencyClosure.isCodableImplementation(index.types[type].members[memberIndex].decl) else { continue }
                state.pending.append(.member(type: type, member: memberIndex))
            }
        }
        for name in newOperators {
            for globalIndex in index.globals(named: name) where extendsGuestType(globalIndex) {
                state.pending.append(.global(globalIndex))
            }
        }
        // `text.trimmed()` with `extension String { func trimmed() … }` in the project.
        for name in newMemberNames {
            for globalIndex in index.foreignExtensionGlobals(named: name) where extendsGuestType(globalIndex) { state.pending.append(.global(globalIndex)) }
        }
        // `.init(...)` / `.member` on a nested type name: resolve nested types named like members.
        for name in newMemberNames {
            for type in index.types(named: name) where index.types[type].path.count > 1 {
                state.pending.append(.typeShell(type))
            }
        }
    }

    /// Not a member of an extension of a framework type the guest does not have (`extension CGPoint
    /// { static func + }`) when that cannot be what a name means: a function export's code holds no
    /// value of such a type (code that does is refused for the type), so its members, found by name
    /// (`+`, `min`), are never what it calls. A view's may, through the view DSL's stand-ins.
    private func extendsGuestType(_ global: Int) -> Bool {
        guard withoutFrameworkExtensions, let foreignExtension = index.globals[global].foreignExtension else { return true }
        return Self.extendsGuestType(foreignExtension)
    }

    /// The same for a type nested in such an extension (`extension CGPoint { enum Quadrant … }`) and
    /// for the types and members inside it: a function export's closure never includes them.
    private func extendsGuestType(nestedIn type: Int) -> Bool {
        let path = index.types[type].path
        for length in 1..<max(path.count, 1) {
            guard let enclosing = index.type(atPath: Array(path.prefix(length + 1))),
                  let foreignExtension = index.types[enclosing].foreignExtension else { continue }
            return Self.extendsGuestType(foreignExtension)
        }
        return true
    }

    /// Whether `foreignExtension` extends a type the guest declares too (not a framework type it lacks).
    private static func extendsGuestType(_ foreignExtension: ExtensionDeclSyntax) -> Bool {
        let extended = foreignExtension.extendedType.trimmedText
        return GuestFrameworkNames.types[String(extended.prefix { $0 != "." && $0 != "<" })] == nil
    }

    private func visible(_ global: Int, from file: Int) -> Bool {
        index.globals[global].file == file || !GuestPrivateNames.isFilePrivate(index.globals[global])
    }

    /// The members of `type` (but nested types and Codable's implementation) with a name `matches` accepts.
    private func addMembers(of type: Int, into state: inout State, matching matches: (String) -> Bool) {
        for (memberIndex, member) in index.types[type].members.enumerated()
        where member.kind != .nestedType && member.names.contains(where: matches) && !GuestDependencyClosure.isCodableImplementation(member.decl) {
            state.pending.append(.member(type: type, member: memberIndex))
        }
    }
}
