import SwiftParser
import SwiftSyntax

/// How a thunk's argument or result field carries a value whose type holds a project struct or enum
/// that is not Codable (docs/prepare.md "Values that are not Codable"): through a local mirror type,
/// `__PatchValue_<type path>`, whose synthesized Codable writes what the type's own synthesized
/// Codable would (a struct: an object keyed by stored property names; an enum: its raw value, or
/// `{"case":{"_0":…,"label":…}}`), the JSON the guest's codec of the type reads and writes
/// (`GuestCodecGenerator`). The user's type gains no conformance: a new `Codable` could change
/// which overloads its callers resolve to.
indirect enum ValueCoding: Sendable, Equatable {
    /// Codable as it is, spelled so that the thunk finds it.
    case same(String)
    /// A project struct or enum (`type`, its full path) through its mirror.
    case mirror(type: String, mirror: String)
    case optional(ValueCoding)
    case array(ValueCoding)
    /// Only the values: a mirror used as a key would have to be Hashable and JSONEncoder would write
    /// the dictionary as an array.
    case dictionary(key: String, value: ValueCoding)

    /// The member of a mirror that builds the mirrored value back.
    static let valueMember = "__patchValue"

    var fieldType: String {
        switch self {
        case let .same(type): type
        case let .mirror(_, mirror): mirror
        case let .optional(wrapped): wrapped.fieldType + "?"
        case let .array(element): "[\(element.fieldType)]"
        case let .dictionary(key, value): "[\(key): \(value.fieldType)]"
        }
    }

    /// Some part of the value goes through a mirror.
    var hasMirror: Bool {
        switch self {
        case .same: false
        case .mirror: true
        case let .optional(inner), let .array(inner), let .dictionary(_, inner): inner.hasMirror
        }
    }

    /// `value`, of the type, as the field's type.
    func encode(_ value: String) -> String {
        guard hasMirror else { return value }
        switch self {
        case .same: return value
        case let .mirror(_, mirror): return "\(mirror)(\(value))"
        case let .optional(inner), let .array(inner): return "\(Self.operand(value)).map { \(inner.encode("$0")) }"
        case let .dictionary(_, inner): return "\(Self.operand(value)).mapValues { \(inner.encode("$0")) }"
        }
    }

    /// `value`, of the field's type, as the type.
    func decode(_ value: String) -> String {
        guard hasMirror else { return value }
        switch self {
        case .same: return value
        case .mirror: return "\(Self.operand(value)).\(Self.valueMember)"
        case let .optional(inner), let .array(inner): return "\(Self.operand(value)).map { \(inner.decode("$0")) }"
        case let .dictionary(_, inner): return "\(Self.operand(value)).mapValues { \(inner.decode("$0")) }"
        }
    }

    /// `try x.get()` must be parenthesized before a member access.
    private static func operand(_ value: String) -> String {
        value.contains(" ") ? "(\(value))" : value
    }
}

/// The codings of one function thunk's parameters and result, and the mirrors they (and the
/// receiver's stored properties) use, declared as local types at the top of the replacement.
struct ValueCodings: Sendable, Equatable {
    var declarations: [String] = []
    /// By parameter internal name (as written).
    var parameters: [String: ValueCoding] = [:]
    var result: ValueCoding?
    /// A mirror reads a `private` stored property or names a `private` type: the thunk goes in the
    /// section of the file that declares them (the planner refuses any other file).
    var readsFileScoped = false

    func fieldType(ofParameter name: String, written: String) -> String { parameters[name]?.fieldType ?? written }
    func encode(parameter name: String, _ value: String) -> String { parameters[name]?.encode(value) ?? value }
}

/// Decides how each value of one thunk travels when Codable alone does not do: the mirrors of the
/// target's non-Codable structs and enums, recursively, or why one cannot be made, with its file:line.
struct ValueMirrorPlanner {
    let index: CodableIndex
    /// The target's declared types and their files, and the `public` enums of other targets: a
    /// mirror builds a struct with its memberwise initializer, which another module cannot call.
    let types: [String: DeclaredType]
    let typeFiles: [String: String]
    /// The file the function is declared in.
    let file: String
    /// The `#if` conditions the thunk is generated under: a mirrored type declared under `#if` must be
    /// under no other (a macOS-only enum's macOS-only method).
    let conditions: Set<String>

    /// The directions each mirror is planned for (`false`: encoded, `true`: decoded, as `CodableReference.isResult`).
    private var directions: [String: Set<Bool>] = [:]
    private var declarations: [String: String] = [:]
    private var order: [String] = []
    private var visiting: Set<String> = []
    /// How each planned mirror names its type (`Backend.Category` when written so).
    private var spellings: [String: String] = [:]
    private var readsFileScoped = false

    init(index: CodableIndex, types: [String: DeclaredType], typeFiles: [String: String], file: String, conditions: [String]) {
        self.index = index
        self.types = types
        self.typeFiles = typeFiles
        self.file = file
        self.conditions = Set(conditions)
    }

    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// The mirrors planned so far, and the given codings.
    func codings(parameters: [String: ValueCoding], result: ValueCoding?) -> ValueCodings {
        ValueCodings(declarations: order.compactMap { declarations[$0] }, parameters: parameters, result: result, readsFileScoped: readsFileScoped)
    }

    /// How a value of `written` (a type as written in `scope`) travels in `directions`.
    mutating func coding(of written: String, scope: [String], directions: Set<Bool>) -> Result<ValueCoding, Refusal> {
        guard let type = Self.parseType(written) else { return .failure(Refusal(reason: "`\(written)` does not parse as a type")) }
        return coding(of: type, scope: scope, directions: directions)
    }

    static func parseType(_ text: String) -> TypeSyntax? {
        let tree = Parser.parse(source: "let _: \(text)")
        guard !tree.hasError, tree.statements.count == 1,
              let variable = tree.statements.first?.item.as(VariableDeclSyntax.self) else { return nil }
        return variable.bindings.first?.typeAnnotation?.type
    }

    private mutating func coding(of type: TypeSyntax, scope: [String], directions: Set<Bool>) -> Result<ValueCoding, Refusal> {
        let written = type.trimmedText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let array = type.as(ArrayTypeSyntax.self) {
            return coding(of: array.element, scope: scope, directions: directions).map { .array($0) }
        }
        if let optional = type.as(OptionalTypeSyntax.self) {
            return coding(of: optional.wrappedType, scope: scope, directions: directions).map { .optional($0) }
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return dictionaryCoding(key: dictionary.key, value: dictionary.value, scope: scope, directions: directions, written: written)
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
            return coding(of: only.type, scope: scope, directions: directions)
        }
        var path: [String] = []
        var arguments: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            path = [identifier.name.text]
            arguments = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), let components = Self.memberPath(member) {
            path = components
            arguments = member.genericArgumentClause
        } else {
            var references: [CodableReference] = []
            return .failure(Refusal(reason: CodableShape.collect(type, isResult: directions.contains(true), into: &references)
                ?? "`\(written)` is not a type prepare can check for Codable"))
        }
        if path.count > 1, CodableShape.standardModules.contains(path[0]) { path.removeFirst() }
        // `Backend.Category`: looked up in that module, and spelled with it in the thunk, where the
        // bare name may be ambiguous (the Objective-C runtime's `Category`).
        var module: String?
        var lookupScope = scope
        if let qualified = index.withinModule(path, scope: scope) {
            (module, path, lookupScope) = (qualified.module, qualified.path, [])
        }
        let typeArguments = arguments?.arguments.compactMap { argument -> TypeSyntax? in
            if case let .type(type) = argument.argument { return type }
            return nil
        } ?? []
        if path.count == 1, CodableShape.containers.contains(path[0]), typeArguments.count == arguments?.arguments.count {
            switch (path[0], typeArguments.count) {
            case ("Optional", 1): return coding(of: typeArguments[0], scope: scope, directions: directions).map { .optional($0) }
            case ("Array", 1): return coding(of: typeArguments[0], scope: scope, directions: directions).map { .array($0) }
            case ("Dictionary", 2): return dictionaryCoding(key: typeArguments[0], value: typeArguments[1], scope: scope, directions: directions, written: written)
            default:
                // `Set`, `Range`…: their elements would have to be Hashable or Comparable mirrors.
                let elements = typeArguments.map { coding(of: $0, scope: scope, directions: directions) }
                for element in elements {
                    switch element {
                    case let .failure(refusal): return .failure(refusal)
                    case let .success(coding) where coding.hasMirror:
                        return .failure(Refusal(reason: "`\(written)`: only an Array, Optional or Dictionary value can hold a type that is not Codable"))
                    case .success: continue
                    }
                }
                return .success(.same(written))
            }
        }
        // A project type is checked by its full path: a mirror's fields are written in another type's
        // scope. One that is Codable is never mirrored (its own coding may differ from the synthesized).
        let key = index.declaredKey(path, scope: lookupScope)
        let references = directions.map { CodableReference(path: key.map { $0.split(separator: ".").map(String.init) } ?? path, isResult: $0, writtenIn: written) }
        let spelling = key.map { (module.map { $0 + "." } ?? "") + $0 }
        guard let reason = index.unsupportedReason(references, scope: key == nil ? lookupScope : []) else {
            // Spelled by its full path: a mirror's fields are written in another type's scope.
            return .success(.same(spelling.map { $0 + (arguments?.trimmedText ?? "") } ?? written))
        }
        guard let key, let spelling, let declared = types[key], arguments == nil else {
            return .failure(Refusal(reason: reason))
        }
        return mirror(key, spelled: spelling, declared: declared, directions: directions).map { .mirror(type: key, mirror: $0) }
    }

    private mutating func dictionaryCoding(key: TypeSyntax, value: TypeSyntax, scope: [String], directions: Set<Bool>, written: String) -> Result<ValueCoding, Refusal> {
        switch coding(of: key, scope: scope, directions: directions) {
        case let .failure(refusal): return .failure(refusal)
        case let .success(keyCoding):
            guard !keyCoding.hasMirror else {
                return .failure(Refusal(reason: "`\(written)`: a dictionary's key must be Codable itself (a mirrored key would be written as an array)"))
            }
            return coding(of: value, scope: scope, directions: directions).map { .dictionary(key: keyCoding.fieldType, value: $0) }
        }
    }

    private static func memberPath(_ member: MemberTypeSyntax) -> [String]? {
        var path = [member.name.text]
        var base = member.baseType
        while let inner = base.as(MemberTypeSyntax.self) {
            guard inner.genericArgumentClause == nil else { return nil }
            path.insert(inner.name.text, at: 0)
            base = inner.baseType
        }
        guard let root = base.as(IdentifierTypeSyntax.self), root.genericArgumentClause == nil else { return nil }
        return [root.name.text] + path
    }

    /// The mirror of an object a parameter receives (`Preparer.objectCopyCoding`): an `Encodable`
    /// struct of the stored properties `object` copies, built from the object. Only sent: the module
    /// cannot give the app an object back, so a class is never decoded.
    mutating func objectCopy(_ object: ReferencedObject) -> String {
        let key = object.className
        let name = "__PatchValue_" + key.replacingOccurrences(of: ".", with: "_")
        guard declarations[key] == nil else { return name }
        let fields = object.properties.map { SwiftIdentifier.escaped($0.name) }
        let members = zip(fields, object.properties).map { "let \($0): \($1.type)" }
        let copy = "init(_ __v: \(key)) { " + fields.map { "self.\($0) = __v.\($0)" }.joined(separator: "; ") + " }"
        declarations[key] = "struct \(name): Encodable { " + (members + [copy]).joined(separator: "; ") + " }"
        directions[key] = [false]
        order.append(key)
        return name
    }

    /// The mirror of the struct or enum `key` for `directions` (a mirror already planned for fewer is
    /// planned again for all: a decoded mirror must be able to build the value). `written`: how the
    /// thunk names the type, `key` or `Module.key`; once written with its module, the mirror keeps it.
    private mutating func mirror(_ key: String, spelled written: String, declared: DeclaredType, directions wanted: Set<Bool>) -> Result<String, Refusal> {
        let name = "__PatchValue_" + key.replacingOccurrences(of: ".", with: "_")
        let known = directions[key] ?? []
        let spelling = written == key ? spellings[key] ?? key : written
        if wanted.isSubset(of: known) && spellings[key] == spelling { return .success(name) }
        let place = "`\(key)` (\(typeFiles[key] ?? "?"):\(declared.line))"
        func refuse(_ reason: String) -> Result<String, Refusal> { .failure(Refusal(reason: "\(place) is not Codable and \(reason)")) }
        if visiting.contains(key) { return refuse("contains itself, which a mirror cannot copy; declare `\(key): Codable`") }
        if declared.isGeneric { return refuse("is generic: one mirror cannot copy every specialization") }
        if let condition = declared.context.conditions.first(where: { !conditions.contains($0) }) {
            return refuse("is declared under `#if \(condition)`, which the function is not")
        }
        if declared.isFileScoped {
            guard typeFiles[key] == file else { return refuse("is private to its file, where the thunk would have to be; declare the function there") }
            readsFileScoped = true
        }
        let all = known.union(wanted)
        visiting.insert(key)
        defer { visiting.remove(key) }
        let conformance = all == [false] ? "Encodable" : all == [true] ? "Decodable" : "Codable"
        var members: [String] = []
        var encodes: [String] = []
        var decodes: [String] = []
        switch declared.kind {
        case .structType:
            let stored = declared.storedProperties
            if let reason = stored.unsupportedReason { return refuse("a mirror cannot copy it: \(reason)") }
            if all.contains(true), stored.declaresInitializer {
                return refuse("declares an initializer, so it has no memberwise one for the thunk to build the module's value with; declare `\(key): Codable`")
            }
            var arguments: [String] = []
            for property in stored.properties {
                if property.isFileScoped {
                    guard typeFiles[key] == file else {
                        return refuse("its stored property `\(property.name)` is private to \(typeFiles[key] ?? "?"):\(property.line), which the thunk must read; declare the function in that file")
                    }
                    readsFileScoped = true
                }
                switch coding(of: property.type, scope: declared.path, directions: all) {
                case let .failure(refusal): return .failure(Refusal(reason: "\(place)'s stored property `\(property.name)` (line \(property.line)): \(refusal.reason)"))
                case let .success(coding):
                    let field = SwiftIdentifier.escaped(property.name)
                    members.append("let \(field): \(coding.fieldType)")
                    encodes.append("self.\(field) = \(coding.encode("__v.\(field)"))")
                    if !(property.isLet && property.hasInitialValue) {
                        arguments.append("\(property.name.replacingOccurrences(of: "`", with: "")): \(coding.decode(field))")
                    }
                }
            }
            decodes = ["\(spelling)(\(arguments.joined(separator: ", ")))"]
            let header = "struct \(name): \(conformance) {"
            var body = members
            if all.contains(false) { body.append("init(_ __v: \(spelling)) { \(encodes.joined(separator: "; ")) }") }
            if all.contains(true) { body.append("var \(ValueCoding.valueMember): \(spelling) { \(decodes[0]) }") }
            declarations[key] = header + " " + body.joined(separator: "; ") + " }"
        case .enumType:
            let cases = declared.enumCases
            if let reason = cases.unsupportedReason { return refuse("a mirror cannot copy it: \(reason)") }
            if cases.cases.isEmpty { return refuse("has no cases") }
            let rawType = declared.inheritedTypes.first.flatMap { GuestDependencyClosure.rawValueTypes.contains($0) ? $0 : nil }
            if rawType == "Character" { return refuse("its raw type `Character` is not Codable") }
            for enumCase in cases.cases {
                var payload: [String] = []
                var bindings: [String] = []
                var encoded: [String] = []
                var decoded: [String] = []
                for (position, element) in enumCase.payload.enumerated() {
                    switch coding(of: element.type, scope: declared.path, directions: all) {
                    case let .failure(refusal): return .failure(Refusal(reason: "\(place)'s case `\(enumCase.name)`: \(refusal.reason)"))
                    case let .success(coding):
                        let label = element.label.map { "\($0): " } ?? ""
                        payload.append(label + coding.fieldType)
                        bindings.append("v\(position)")
                        encoded.append(label + coding.encode("v\(position)"))
                        decoded.append(label + coding.decode("v\(position)"))
                    }
                }
                let pattern = bindings.isEmpty ? "case .\(enumCase.name)" : "case let .\(enumCase.name)(\(bindings.joined(separator: ", ")))"
                let built = { (values: [String]) in ".\(enumCase.name)" + (values.isEmpty ? "" : "(\(values.joined(separator: ", ")))") }
                members.append("case \(enumCase.name)" + (payload.isEmpty ? "" : "(\(payload.joined(separator: ", ")))") + (enumCase.rawValue.map { " = \($0)" } ?? ""))
                encodes.append("\(pattern): self = \(built(encoded))")
                decodes.append("\(pattern): return \(built(decoded))")
            }
            var body = members
            if all.contains(false) { body.append("init(_ __v: \(spelling)) { switch __v { \(encodes.joined(separator: "; ")) } }") }
            if all.contains(true) { body.append("var \(ValueCoding.valueMember): \(spelling) { switch self { \(decodes.joined(separator: "; ")) } }") }
            declarations[key] = "enum \(name): \(rawType.map { $0 + ", " } ?? "")\(conformance) { " + body.joined(separator: "; ") + " }"
        case .classType, .actorType:
            return refuse("is \(declared.kind == .actorType ? "an" : "a") \(declared.kind.rawValue): only structs and enums travel as values")
        }
        directions[key] = all
        spellings[key] = spelling
        if !order.contains(key) { order.append(key) }
        return .success(name)
    }
}
