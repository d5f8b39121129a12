import SwiftParser
import SwiftSyntax

/// Whether a function thunk's JSON round trip can compile: every parameter type must be `Encodable`
/// and the result `Decodable` (the thunk's `__PatchArguments`/`__PatchResult` structs synthesize
/// their conformances from them). The syntax tells which shapes never can be; the types a target
/// declares tell the rest (`CodableIndex`).
enum CodableShape {
    /// Standard containers that are Codable when their type arguments are: only those are checked.
    static let containers: Set<String> = ["Array", "ContiguousArray", "Optional", "Set", "Dictionary", "Range", "ClosedRange"]

    /// Standard library and Foundation types that are Codable (the ones a function's JSON is likely to
    /// carry); a type outside this list and the prepared targets cannot be checked, so it is refused.
    static let standardCodable: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "Int128", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "UInt128",
        "Double", "Float", "Float16", "CGFloat", "Bool", "String", "TimeInterval", "Duration", "OSStatus",
        "Date", "URL", "UUID", "Data", "Decimal", "TimeZone", "Locale", "Calendar", "DateComponents",
        "DateInterval", "IndexPath", "IndexSet", "URLComponents", "PersonNameComponents", "CharacterSet",
        "CGPoint", "CGSize", "CGRect", "CGVector", "CGAffineTransform", "NSPoint", "NSSize", "NSRect",
    ]

    /// Module names a type may be qualified with (`Swift.Int`).
    static let standardModules: Set<String> = ["Swift", "Foundation", "CoreGraphics"]

    /// Appends the named types in `type` that must be Codable, or returns why `type` never can be.
    static func collect(_ type: TypeSyntax, isResult: Bool, into references: inout [CodableReference]) -> String? {
        // One line, for messages: a type may be written across lines.
        let written = type.trimmedText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func reference(_ path: [String], arguments: GenericArgumentClauseSyntax?) -> String? {
            let path = path.count > 1 && standardModules.contains(path[0]) ? Array(path.dropFirst()) : path
            if path == ["Self"] { return "`Self` names a different type in each subclass; it cannot be decoded by one thunk" }
            if ["Any", "AnyObject", "AnyHashable", "Void", "Never", "Error", "Character"].contains(path.joined(separator: ".")) {
                return "`\(written)` is not Codable"
            }
            if !(path.count == 1 && containers.contains(path[0])) {
                references.append(CodableReference(path: path, isResult: isResult, writtenIn: written))
            }
            for argument in arguments?.arguments ?? [] {
                guard case let .type(argumentType) = argument.argument else { return "`\(written)` has a value generic argument" }
                if let reason = collect(argumentType, isResult: isResult, into: &references) { return reason }
            }
            return nil
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return reference([identifier.name.text], arguments: identifier.genericArgumentClause)
        }
        if let member = type.as(MemberTypeSyntax.self) {
            var path = [member.name.text]
            var base = member.baseType
            // Generic arguments of enclosing components (`Outer<Int>.Inner`) mean a generic type's member.
            while let inner = base.as(MemberTypeSyntax.self) {
                guard inner.genericArgumentClause == nil else { return "`\(written)` is a member of a generic type" }
                path.insert(inner.name.text, at: 0)
                base = inner.baseType
            }
            guard let root = base.as(IdentifierTypeSyntax.self), root.genericArgumentClause == nil else {
                return "`\(written)` is a member of a generic type"
            }
            path.insert(root.name.text, at: 0)
            if member.name.text == "Type" || member.name.text == "Protocol" { return "metatypes (`\(written)`) cannot travel as JSON" }
            return reference(path, arguments: member.genericArgumentClause)
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return collect(array.element, isResult: isResult, into: &references)
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return collect(dictionary.key, isResult: isResult, into: &references)
                ?? collect(dictionary.value, isResult: isResult, into: &references)
        }
        if let optional = type.as(OptionalTypeSyntax.self) {
            return collect(optional.wrappedType, isResult: isResult, into: &references)
        }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
                return collect(only.type, isResult: isResult, into: &references)
            }
            return tuple.elements.isEmpty ? "`()` carries no value" : "tuples (`\(written)`) are not Codable; use a Codable struct"
        }
        if type.is(FunctionTypeSyntax.self) { return "function types (`\(written)`) cannot travel as JSON" }
        if type.is(SomeOrAnyTypeSyntax.self) { return "opaque and existential types (`\(written)`) cannot be encoded or decoded by one thunk" }
        if type.is(MetatypeTypeSyntax.self) { return "metatypes (`\(written)`) cannot travel as JSON" }
        if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return "implicitly unwrapped optionals (`\(written)`) are not supported; use `?`" }
        if type.is(CompositionTypeSyntax.self) { return "protocol compositions (`\(written)`) cannot be encoded or decoded by one thunk" }
        return "`\(written)` is not a type prepare can check for Codable"
    }
}

/// The types, protocols and aliases every prepared target declares and the conformances their
/// declarations and extensions state: what decides whether a thunk's references are Codable.
struct CodableIndex {
    private var conformances: [String: [String]] = [:]
    private var protocols: [String: [String]] = [:]
    private var aliases: [String: TypeAliasScan] = [:]
    private var declared: Set<String> = []
    /// The type of a struct's or enum's `id` (stored, or computed with a written type): what
    /// `Type.ID` is when the type is `Identifiable`. Classes are left out: a SwiftData model's
    /// `Identifiable` conformance comes from a macro prepare does not see.
    private var identities: [String: [CodableReference]] = [:]
    private var valueTypes: Set<String> = []
    /// The top-level type and alias names each prepared target declares, by its module name: what a
    /// type written with its module (`Backend.Category`, for a `Category` the Objective-C runtime
    /// also declares) is looked up in.
    private var moduleNames: [String: Set<String>] = [:]

    /// `module`: the name the target's code is imported by (`PrepareTarget.moduleName`).
    mutating func add(_ scan: FileScan, module: String) {
        moduleNames[module, default: []].formUnion(scan.types.compactMap(\.path.first) + scan.typeAliases.compactMap(\.path.first))
        for type in scan.types {
            let key = type.path.joined(separator: ".")
            declared.insert(key)
            conformances[key, default: []] += type.inheritedTypes
            if type.kind == .structType || type.kind == .enumType { valueTypes.insert(key) }
            if type.kind == .structType, let id = type.storedProperties.properties.first(where: { $0.name == "id" }) {
                identities[key] = id.codableReferences
            }
        }
        for property in scan.functions where property.isProperty && property.baseName == "id" && !property.isStatic {
            // `var id: String { name }`: the written type, read again (the candidate's own references
            // stop at the first type it refuses).
            guard let written = property.returnType else { continue }
            var references: [CodableReference] = []
            let type = TypeSyntax(stringLiteral: written)
            guard !type.hasError, CodableShape.collect(type, isResult: true, into: &references) == nil else { continue }
            identities[property.ownerPath.joined(separator: ".")] = references
        }
        for extensionScan in scan.extensions {
            conformances[extensionScan.extendedPath.joined(separator: "."), default: []] += extensionScan.inheritedTypes
        }
        for declaredProtocol in scan.protocols {
            protocols[declaredProtocol.path.joined(separator: "."), default: []] += declaredProtocol.inheritedTypes
        }
        for alias in scan.typeAliases {
            aliases[alias.path.joined(separator: ".")] = aliases[alias.path.joined(separator: ".")] ?? alias
        }
    }

    func isProtocol(_ path: [String]) -> Bool { protocols[path.joined(separator: ".")] != nil }

    func isDeclared(_ path: [String]) -> Bool { declared.contains(path.joined(separator: ".")) }

    /// `path` without its first component when that names a prepared target's module which declares
    /// the type (`Backend.Category` → `Category`, looked up from that module's top level); nil when
    /// it does not, or when a type or alias of that name is in `scope`: Swift finds a type before a
    /// module.
    func withinModule(_ path: [String], scope: [String]) -> (module: String, path: [String])? {
        guard path.count > 1, let names = moduleNames[path[0]], names.contains(path[1]) else { return nil }
        for length in stride(from: scope.count, through: 0, by: -1) {
            let candidate = (scope.prefix(length) + [path[0]]).joined(separator: ".")
            if declared.contains(candidate) || aliases[candidate] != nil { return nil }
        }
        return (path[0], Array(path.dropFirst()))
    }

    /// The full path of the project type `path` names in `scope`, looked up as `reason(for:)` does
    /// (innermost enclosing type outwards, or from the top level of the module it is qualified with);
    /// nil for an alias or a type the targets do not declare.
    func declaredKey(_ path: [String], scope: [String]) -> String? {
        for length in stride(from: scope.count, through: 0, by: -1) {
            let candidate = (scope.prefix(length) + path).joined(separator: ".")
            if aliases[candidate] != nil { return nil }
            if declared.contains(candidate) { return candidate }
        }
        return withinModule(path, scope: scope).flatMap { declaredKey($0.path, scope: []) }
    }

    /// Generic types and protocols of the SDKs that apps commonly extend: a thunk in their extension
    /// would sit in a generic context, where its nested argument structs cannot be declared.
    static let genericOrProtocolTypes: Set<String> = [
        "Array", "ContiguousArray", "ArraySlice", "Dictionary", "Set", "Optional", "Result", "Range", "ClosedRange",
        "Sequence", "Collection", "BidirectionalCollection", "RandomAccessCollection", "MutableCollection",
        "RangeReplaceableCollection", "StringProtocol", "Numeric", "AdditiveArithmetic", "BinaryInteger", "SignedInteger",
        "UnsignedInteger", "FixedWidthInteger", "SignedNumeric", "FloatingPoint", "BinaryFloatingPoint", "Equatable",
        "Hashable", "Comparable", "Identifiable", "Encodable", "Decodable", "RawRepresentable", "CaseIterable", "Error",
        "CustomStringConvertible", "Sendable", "View", "ViewModifier", "Shape", "Scene", "App", "ObservableObject",
        "Publisher", "Subscriber", "AsyncSequence", "AsyncIteratorProtocol", "IteratorProtocol", "OptionSet", "SetAlgebra",
        "Strideable", "LosslessStringConvertible", "ExpressibleByStringLiteral", "ExpressibleByIntegerLiteral",
        "Binding", "State", "Published", "EnvironmentObject", "ForEach", "List", "UnsafePointer", "UnsafeMutablePointer",
        "UnsafeBufferPointer", "UnsafeMutableBufferPointer", "KeyPath", "WritableKeyPath", "Measurement",
    ]

    /// Why the function's thunk would not compile for want of a Codable type, nil when all its
    /// references are Codable.
    func unsupportedReason(_ function: FunctionCandidate) -> String? {
        for reference in function.codableReferences {
            if let reason = reason(for: reference.path, scope: function.ownerPath, isResult: reference.isResult, depth: 0) {
                let place = reference.isResult ? "the result type `\(reference.writtenIn)`" : "parameter type `\(reference.writtenIn)`"
                return "\(place): \(reason)"
            }
        }
        return nil
    }

    /// Why `references`, written in `scope` (a type path), are not all Codable; nil when they are.
    func unsupportedReason(_ references: [CodableReference], scope: [String]) -> String? {
        references.lazy.compactMap { reason(for: $0.path, scope: scope, isResult: $0.isResult, depth: 0) }.first
    }

    private func reason(for path: [String], scope: [String], isResult: Bool, depth: Int) -> String? {
        let written = path.joined(separator: ".")
        let requirement = isResult ? "Decodable" : "Encodable"
        // Swift looks a name up from the innermost enclosing type outwards; the thunk is an extension of
        // the function's own type at file scope, which sees only that type's members and the top level.
        for length in stride(from: scope.count, through: 0, by: -1) {
            let candidate = (scope.prefix(length) + path).joined(separator: ".")
            if let alias = aliases[candidate] {
                if let reason = alias.unsupportedReason { return "`\(written)` is an alias of a type that cannot be Codable (\(reason))" }
                guard depth < 8 else { return "`\(written)` is an alias that refers to itself" }
                let aliasScope = Array(scope.prefix(length))
                for target in alias.references {
                    if let reason = reason(for: target, scope: aliasScope, isResult: isResult, depth: depth + 1) { return reason }
                }
                return nil
            }
            guard declared.contains(candidate) else { continue }
            if length != scope.count && length != 0 {
                return "`\(written)` is found through an enclosing type, which the generated extension of `\(scope.joined(separator: "."))` cannot see; write it as `\(candidate)`"
            }
            return conforms(candidate, toAnyOf: ["Codable", requirement]) ? nil
                : "`\(candidate)` is not \(requirement); declare `\(candidate): Codable` (in the type or an extension) or patch a function that takes and returns Codable values"
        }
        if path.count == 1, CodableShape.standardCodable.contains(path[0]) { return nil }
        if let qualified = withinModule(path, scope: scope) {
            return reason(for: qualified.path, scope: [], isResult: isResult, depth: depth)
        }
        // `Donut.ID` of an `Identifiable` struct or enum that declares no `ID` of its own (found above)
        // is the type of its `id`, written in the type's scope; the guest glue resolves it alike.
        if path.count > 1, path.last == "ID", depth < 8, let identity = identity(of: Array(path.dropLast()), scope: scope) {
            for reference in identity.references {
                if let reason = reason(for: reference.path, scope: identity.type, isResult: isResult, depth: depth + 1) {
                    return "`\(written)` is the type of `\(identity.type.joined(separator: ".")).id`: \(reason)"
                }
            }
            return nil
        }
        return "`\(written)` is neither declared in the prepared targets nor a standard Codable type, so prepare cannot tell that the thunk compiles"
    }

    /// The `Identifiable` struct or enum `path` names in `scope` and the references of its `id`'s type.
    private func identity(of path: [String], scope: [String]) -> (type: [String], references: [CodableReference])? {
        // `Self.ID` inside the struct (or an extension of it).
        if path == ["Self"] {
            let key = scope.joined(separator: ".")
            return identities[key].flatMap { valueTypes.contains(key) && conforms(key, toAnyOf: ["Identifiable"]) ? (scope, $0) : nil }
        }
        for length in stride(from: scope.count, through: 0, by: -1) {
            let candidate = Array(scope.prefix(length)) + path
            let key = candidate.joined(separator: ".")
            guard declared.contains(key) else { continue }
            // As for any type: the generated extension sees the function's own type and the top level.
            guard length == scope.count || length == 0, valueTypes.contains(key), let references = identities[key],
                  conforms(key, toAnyOf: ["Identifiable"]) else { return nil }
            return (candidate, references)
        }
        return nil
    }

    /// Whether `type`, its protocols or its superclass state one of `names`.
    private func conforms(_ type: String, toAnyOf names: Set<String>) -> Bool {
        var pending = conformances[type] ?? []
        var seen = Set<String>()
        while let next = pending.popLast() {
            let name = next.hasPrefix("Swift.") ? String(next.dropFirst("Swift.".count)) : next
            guard seen.insert(name).inserted else { continue }
            if names.contains(name) { return true }
            // Inherited protocols, and a superclass's conformances (a subclass of a Codable class is Codable).
            pending += protocols[name] ?? []
            pending += conformances[name] ?? []
        }
        return false
    }
}
