import PatchManifest
import SwiftSyntax

/// One patchable function: how its glue decodes the input, calls it and encodes the result.
struct GuestExportPlan {
    struct Parameter {
        /// The argument label at the call site, `_` when unlabeled.
        let label: String
        /// The internal name: the JSON key the thunk sends (conventions: input keys).
        let name: String
        let type: GuestValueType
    }

    let name: GuestExportName
    let unit: GuestUnit
    /// The function, or the computed property whose getter is exported.
    let decl: DeclSyntax
    /// The enclosing type, nil for a top-level function.
    let owner: Int?
    /// An instance method: the receiver travels as the `"self"` key.
    let isInstanceMethod: Bool
    /// A `mutating` method: the glue returns the new receiver as `"self"` beside `"value"`.
    var isMutating = false
    let parameters: [Parameter]
    /// nil for a Void function.
    let result: GuestValueType?
    /// A throwing function's error type (`GuestThrownError`): the glue catches it and returns
    /// `{"thrown": …}`; nil when the function does not throw.
    var thrownError: GuestValueType? = nil
    let location: GuestSourceLocation
    /// An async function (docs/async.md): exported as the kickoff `patch_start_<export>` of the
    /// async pump contract instead of a packed call, and without a scalar fast path.
    var isAsync = false

    /// The export the app's thunk calls: the packed-JSON one, or an async function's kickoff.
    var exportSymbol: String {
        isAsync ? PatchNames.asyncStartExport(functionExport: name.jsonSymbol) : name.jsonSymbol
    }

    /// A scalar fast path exists when nothing needs JSON: no receiver, scalar parameters, a scalar
    /// or Void result.
    var hasScalarFastPath: Bool {
        !isAsync && !isInstanceMethod && parameters.allSatisfy { $0.type.scalarWasmType != nil } && (result?.scalarWasmType != nil || result == nil)
    }

    /// The fast path's wasm signature, e.g. `(i64,i64)->i64`.
    var scalarWasmSignature: String {
        "(" + parameters.compactMap { $0.type.scalarWasmType }.joined(separator: ",") + ")->" + (result?.scalarWasmType ?? "()")
    }

    /// The Swift signature as written (no body, no attributes), for the manifest.
    var swiftSignature: String {
        if let initializer = decl.as(InitializerDeclSyntax.self) {
            return ("init" + initializer.signature.trimmedText).split(whereSeparator: { $0 == "\n" || $0 == " " }).joined(separator: " ")
        }
        guard let function = decl.as(FunctionDeclSyntax.self) else {
            let variable = decl.as(VariableDeclSyntax.self)
            let isStatic = variable?.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" } == true
            let type = variable?.bindings.first?.typeAnnotation?.type.trimmedText ?? ""
            return (isStatic ? "static " : "") + "var \(name.baseName): \(type) { \(name.isSetter ? "set" : "get") }"
        }
        var text = "func " + function.name.text
        if let generics = function.genericParameterClause { text += generics.trimmedText }
        text += function.signature.trimmedText
        let collapsed = text.split(whereSeparator: { $0 == "\n" || $0 == " " }).joined(separator: " ")
        let modifiers = function.modifiers.map { $0.name.text }.filter { $0 == "static" || $0 == "mutating" }
        return (modifiers + [collapsed]).joined(separator: " ")
    }
}

/// Reads an exported function's signature into a plan, or says why it cannot be exported.
struct GuestSignatureReader {
    let index: GuestSourceIndex
    /// Whether `UUID`, `URL`, `CGFloat` and the CoreGraphics structs resolve to the view DSL's stand-ins:
    /// only in a view's inputs and the project types they carry (function exports compile without the
    /// DSL). The Foundation layer's types (`GuestValueType.foundationLayer`) resolve everywhere.
    var resolvesViewStandIns = false

    func plan(for name: GuestExportName) -> Result<GuestExportPlan, GuestUnpatchable> {
        guard let (decl, unit, owner, file) = find(name) else {
            let detail = name.typePath.isEmpty || index.lookupType(path: name.typePath) != nil
                ? (name.isGetter || name.isSetter ? "no computed property with this name in the sources" : "no function with this name and these argument labels in the sources")
                : "no type \(name.typePath.joined(separator: ".")) in the sources"
            return .failure(GuestUnpatchable(declarationID: name.declarationID, reason: .notFound, detail: detail, location: nil))
        }
        // A computed property's getter is a function of no parameters returning the property's type.
        let function = decl.as(FunctionDeclSyntax.self)
        // An initializer is a static function returning its type (`Cart.init(items:)`).
        let initializer = decl.as(InitializerDeclSyntax.self)
        let property = decl.as(VariableDeclSyntax.self)
        let getter = property?.bindings.first
        let sourceFile = index.files[file]
        let nameToken: TokenSyntax? = function?.name ?? initializer?.initKeyword ?? getter?.pattern.as(IdentifierPatternSyntax.self)?.identifier
        let location = GuestSourceLocation(file: sourceFile.relativePath, line: nameToken.map { sourceFile.line(of: $0) } ?? sourceFile.line(of: decl))
        func fail(_ reason: GuestUnpatchable.Reason, _ detail: String, at node: (any SyntaxProtocol)? = nil) -> Result<GuestExportPlan, GuestUnpatchable> {
            let place = node.map { GuestSourceLocation(file: sourceFile.relativePath, line: sourceFile.line(of: $0)) } ?? location
            return .failure(GuestUnpatchable(declarationID: name.declarationID, reason: reason, detail: detail, location: place))
        }
        var effects = function?.signature.effectSpecifiers ?? initializer?.signature.effectSpecifiers
        if case let .accessors(accessors)? = getter?.accessorBlock?.accessors, let get = accessors.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }) {
            effects = get.effectSpecifiers.map { FunctionEffectSpecifiersSyntax(asyncSpecifier: $0.asyncSpecifier, throwsClause: $0.throwsClause) }
        }
        var transform: GuestAsyncTransform?
        if let async = effects?.asyncSpecifier {
            guard let function else {
                return fail(.asyncCode, "async \(initializer != nil ? "initializers" : "getters") stay native: the guest transforms async functions only (docs/async.md)", at: async)
            }
            switch GuestAsyncTransform.transform(function, thrownTypes: index.asyncThrownTypes) {
            case .success(let transformed): transform = transformed
            case .failure(let refusal): return fail(.asyncCode, "\(refusal.construct) stays native: the guest runs only the async forms docs/async.md lists", at: refusal.node)
            }
        }
        var thrownError: GuestValueType?
        if let throwsClause = effects?.throwsClause {
            // An async function fails with its own error type or the one it passes on
            // (`GuestAsyncTransform.thrownTypes`); with neither, only with its requests' transport
            // failures, which travel apart (`{"urlError": code}`).
            let written = transform.map { $0.thrownType.map { TypeSyntax(IdentifierTypeSyntax(name: .identifier($0))) } }
            switch written {
            case .some(nil): break
            case .some(let type?):
                switch resolve(type, scope: owner.map { index.types[$0].path } ?? []) {
                case .success(.project(let project)): thrownError = .project(project)
                case .success: return fail(.unsupportedSignature, "thrown type \(type.trimmedText) is not a struct or enum of the project", at: throwsClause)
                case .failure(let problem): return fail(problem.reason, "thrown type: \(problem.detail)", at: throwsClause)
                }
            case nil:
                switch thrownType(of: decl, throwsClause: throwsClause, scope: owner.map { index.types[$0].path } ?? []) {
                case .success(let type): thrownError = type
                case .failure(let problem): return fail(problem.reason, problem.detail, at: throwsClause)
                }
            }
        }
        if let generics = function?.genericParameterClause ?? initializer?.genericParameterClause {
            return fail(.unsupportedLanguageFeature, "generic functions cannot be exported (the glue needs concrete types)", at: generics)
        }
        let modifiers = (function?.modifiers ?? initializer?.modifiers ?? property?.modifiers)?.map { $0.name.text } ?? []
        let isStatic = modifiers.contains("static") || modifiers.contains("class") || initializer != nil
        var scope: [String] = []
        if let owner {
            let entry = index.types[owner]
            scope = entry.path
            if entry.kind == .actorType || entry.kind == .protocolType || (entry.kind == .classType && initializer != nil) {
                return fail(.unsupportedLanguageFeature, "\(initializer != nil ? "initializers" : "methods") of a\(entry.kind == .actorType ? "n" : "") \(entry.kind.rawValue) are native-only")
            }
            if !isStatic, entry.isGeneric {
                return fail(.unsupportedLanguageFeature, "methods of generic type \(entry.qualifiedName) cannot be exported")
            }
        }
        var parameters: [GuestExportPlan.Parameter] = []
        for parameter in function?.signature.parameterClause.parameters ?? initializer?.signature.parameterClause.parameters ?? [] {
            let internalName = (parameter.secondName ?? parameter.firstName).text
            if parameter.ellipsis != nil {
                return fail(.unsupportedSignature, "variadic parameter `\(internalName)` is not supported", at: parameter)
            }
            if let attributed = parameter.type.as(AttributedTypeSyntax.self), attributed.specifiers.contains(where: { $0.trimmedText == "inout" }) {
                return fail(.unsupportedLanguageFeature, "inout parameter `\(internalName)`: the caller's variable cannot be updated through the thunk", at: parameter)
            }
            switch resolve(parameter.type, scope: scope) {
            case .success(let type):
                parameters.append(.init(label: parameter.firstName.text, name: internalName, type: type))
            case .failure(let problem):
                return fail(problem.reason, "parameter `\(internalName)`: \(problem.detail)", at: parameter)
            }
        }
        // A failable initializer answers `{"value": null}` when it fails.
        var result: GuestValueType? = initializer.flatMap { initializer in
            owner.map { initializer.optionalMark == nil ? GuestValueType.project($0) : .optional(.project($0)) }
        }
        if let resultType = function?.signature.returnClause?.type ?? getter?.typeAnnotation?.type, !["Void", "()"].contains(resultType.trimmedText) {
            switch resolve(resultType, scope: scope) {
            case .success(let type): result = type
            case .failure(let problem): return fail(problem.reason, "result: \(problem.detail)", at: resultType)
            }
        }
        let isInstanceMethod = owner != nil && !isStatic
        // Any method of a class may change the object: its new stored values always come back.
        let isObject = isInstanceMethod && owner.map { index.types[$0].kind == .classType } == true
        if name.isSetter {
            // The setter is a mutating method of one parameter, `newValue`, of the property's type.
            guard isInstanceMethod, let type = result, Self.setAccessor(of: getter) != nil else {
                return fail(.unsupportedSignature, "only the `set` of an instance computed property is exported (a static one has no receiver to change)")
            }
            parameters = [.init(label: "_", name: "newValue", type: type)]
            result = nil
        }
        let plan = GuestExportPlan(
            name: name, unit: unit, decl: decl, owner: owner, isInstanceMethod: isInstanceMethod,
            isMutating: isInstanceMethod && (modifiers.contains("mutating") || isObject || name.isSetter), parameters: parameters, result: result,
            thrownError: thrownError, location: location, isAsync: transform != nil)
        // Every project type the glue encodes or decodes must itself be codable.
        var pending = parameters.flatMap { $0.type.projectTypes() } + (result?.projectTypes() ?? []) + (isInstanceMethod ? [owner!] : [])
            + (thrownError?.projectTypes() ?? [])
        var checked: Set<Int> = []
        let objects = (isObject ? referencedObjects(ofReceiver: owner!) : []).union(parameterObjects(parameters).values)
        while let type = pending.popLast() {
            guard checked.insert(type).inserted else { continue }
            switch codableShape(of: type, asReceiver: isInstanceMethod && type == owner, asReferenced: objects.contains(type)) {
            case .success(let shape): pending.append(contentsOf: shape.referencedTypes)
            case .failure(let problem): return .failure(GuestUnpatchable(declarationID: name.declarationID, reason: problem.reason, detail: problem.detail, location: problem.location ?? location))
            }
        }
        return .success(plan)
    }

    /// The type a throwing export's glue catches: the project struct or enum its `throw`s name
    /// (`GuestThrownError`), which the guest compiles as its typed `throws(…)`.
    private func thrownType(of decl: DeclSyntax, throwsClause: ThrowsClauseSyntax, scope: [String]) -> Result<GuestValueType, Problem> {
        if throwsClause.throwsSpecifier.tokenKind == .keyword(.rethrows) {
            return .failure(Problem(reason: .unsupportedSignature, detail: "rethrowing functions take closures, which cannot travel as JSON"))
        }
        let written: TypeSyntax
        if let type = throwsClause.type {
            written = type
        } else if let name = GuestThrownError.typeName(in: Syntax(decl)) {
            written = TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
        } else {
            return .failure(Problem(reason: .unsupportedSignature, detail: "the guest needs one error type for a throwing function (Embedded Swift has no untyped `throws`), and the `throw` statements of this one do not name exactly one (`throw E.case`, `throw E(…)`): write `throws(E)`"))
        }
        switch resolve(written, scope: scope) {
        case .success(.project(let type)):
            return .success(.project(type))
        case .success:
            return .failure(Problem(reason: .unsupportedSignature, detail: "thrown type \(written.trimmedText) is not a struct or enum of the project"))
        case .failure(let problem):
            return .failure(Problem(reason: problem.reason, detail: "thrown type: \(problem.detail)", location: problem.location))
        }
    }

    /// The setter a changed computed property ships beside its getter: the `set` of an instance
    /// property (docs/prepare.md "Setters"); nil for anything else.
    func setter(of name: GuestExportName) -> GuestExportName? {
        guard name.isGetter, let (decl, _, owner, _) = find(name), owner != nil,
              let property = decl.as(VariableDeclSyntax.self), Self.setAccessor(of: property.bindings.first) != nil,
              !property.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else { return nil }
        return name.setter
    }

    private static func setAccessor(of binding: PatternBindingSyntax?) -> AccessorDeclSyntax? {
        guard case let .accessors(accessors)? = binding?.accessorBlock?.accessors else { return nil }
        return accessors.first { $0.accessorSpecifier.tokenKind == .keyword(.set) }
    }

    private func find(_ name: GuestExportName) -> (DeclSyntax, GuestUnit, Int?, Int)? {
        func matches(_ decl: DeclSyntax) -> Bool {
            if name.isGetter || name.isSetter {
                // One binding with accessors: the computed property.
                guard let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1, let binding = variable.bindings.first else { return false }
                return binding.accessorBlock != nil && binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name.baseName
            }
            if let initializer = decl.as(InitializerDeclSyntax.self) {
                return name.baseName == "init" && initializer.signature.parameterClause.parameters.map { $0.firstName.text } == name.labels
            }
            guard let function = decl.as(FunctionDeclSyntax.self) else { return false }
            return function.name.text == name.baseName && function.signature.parameterClause.parameters.map { $0.firstName.text } == name.labels
        }
        if name.typePath.isEmpty {
            for (globalIndex, global) in index.globals.enumerated() {
                if matches(global.decl) { return (global.decl, .global(globalIndex), nil, global.file) }
            }
            return nil
        }
        guard let type = index.type(atPath: name.typePath) else { return nil }
        for (memberIndex, member) in index.types[type].members.enumerated() {
            if matches(member.decl) { return (member.decl, .member(type: type, member: memberIndex), type, member.file) }
        }
        return nil
    }

    struct Problem: Error {
        let reason: GuestUnpatchable.Reason
        let detail: String
        var location: GuestSourceLocation? = nil
    }

    /// Maps a written type onto what the glue supports.
    func resolve(_ type: TypeSyntax, scope: [String], aliasDepth: Int = 0) -> Result<GuestValueType, Problem> {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return resolve(optional.wrappedType, scope: scope, aliasDepth: aliasDepth).map { .optional($0) }
        }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return resolve(optional.wrappedType, scope: scope, aliasDepth: aliasDepth).map { .optional($0) }
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return resolve(array.element, scope: scope, aliasDepth: aliasDepth).map { .array($0) }
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return resolveDictionary(key: dictionary.key, value: dictionary.value, scope: scope, aliasDepth: aliasDepth)
        }
        let text = type.trimmedText
        if let tuple = type.as(TupleTypeSyntax.self) {
            // `(Int)` is Int; a real tuple has no Codable conformance and no encoding in the inputs.
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
                return resolve(only.type, scope: scope, aliasDepth: aliasDepth)
            }
            return .failure(Problem(reason: .unsupportedSignature, detail: "tuple type \(text) has no JSON encoding (neither JSONEncoder nor the host's encoding of a view's inputs writes tuples); declare a struct instead"))
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            let arguments = identifier.genericArgumentClause?.arguments.compactMap { $0.argument.as(TypeSyntax.self) } ?? []
            switch (identifier.name.text, arguments.count) {
            case ("Int", 0): return .success(.int)
            case ("Int64", 0): return .success(.int64)
            case ("Int32", 0): return .success(.int32)
            case ("Double", 0): return .success(.double)
            case ("Bool", 0): return .success(.bool)
            case ("String", 0): return .success(.string)
            case ("Character", 0): return .success(.character)
            case ("Optional", 1): return resolve(arguments[0], scope: scope, aliasDepth: aliasDepth).map { .optional($0) }
            case ("Array", 1): return resolve(arguments[0], scope: scope, aliasDepth: aliasDepth).map { .array($0) }
            case ("Set", 1): return resolve(arguments[0], scope: scope, aliasDepth: aliasDepth).map { .set($0) }
            case ("Range", 1), ("ClosedRange", 1):
                let closed = identifier.name.text == "ClosedRange"
                return resolve(arguments[0], scope: scope, aliasDepth: aliasDepth).map { .range($0, closed: closed) }
            case ("Dictionary", 2): return resolveDictionary(key: arguments[0], value: arguments[1], scope: scope, aliasDepth: aliasDepth)
            default: break
            }
            if arguments.isEmpty {
                let name = identifier.name.text
                // As Swift looks a name up: from the innermost enclosing type outwards, its nested types
                // and its aliases (`typealias ID = String` inside the model), then the top level.
                var prefix = scope
                while !prefix.isEmpty {
                    if let type = index.type(atPath: prefix + [name]) { return .success(.project(type)) }
                    if let owner = index.type(atPath: prefix), let alias = memberAlias(name, of: owner, aliasDepth: aliasDepth) { return alias }
                    prefix.removeLast()
                }
                if let type = index.type(atPath: [name]) { return .success(.project(type)) }
                if let alias = index.globals(named: name).lazy.compactMap({ self.index.globals[$0].decl.as(TypeAliasDeclSyntax.self) }).first {
                    return resolveAlias(alias, scope: [], aliasDepth: aliasDepth)
                }
                if let type = index.types(named: name).first { return .success(.project(type)) }
            }
            if arguments.isEmpty, let standIn = GuestValueType.foundationLayer[identifier.name.text]
                ?? (resolvesViewStandIns ? GuestValueType.viewStandIns[identifier.name.text] : nil) {
                return .success(standIn)
            }
            if let module = GuestFrameworkNames.types[identifier.name.text] {
                return .failure(Problem(reason: .osFrameworkAPI, detail: "type \(text) comes from \(module), which the guest does not have"))
            }
        }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil {
            let path = text.split(separator: ".").map(String.init)
            if let type = index.lookupType(path: path) { return .success(.project(type)) }
            // `City.ID`, `Self.ID`: an alias the type declares, or its Identifiable identity.
            let baseName = member.baseType.as(IdentifierTypeSyntax.self)?.name.text
            if let base = baseName == "Self" ? index.type(atPath: scope) : baseName.flatMap({ index.resolveType(named: $0, from: scope).first })
                ?? index.lookupType(path: Array(path.dropLast())),
               let alias = memberAlias(member.name.text, of: base, aliasDepth: aliasDepth) {
                return alias
            }
        }
        if type.is(SomeOrAnyTypeSyntax.self) {
            return .failure(Problem(reason: .unsupportedLanguageFeature, detail: "existential or opaque type \(text) cannot cross the JSON boundary"))
        }
        return .failure(Problem(reason: .unsupportedSignature, detail: "type \(text) cannot be carried as JSON (supported: Int, Int64, Int32, Double, Bool, String, Character, Optional, Array, Set, Dictionary, Range, ClosedRange, project structs and enums, and aliases of them)"))
    }

    /// `[Key: Value]`: String and Int keys travel as object members, any other key in an array
    /// (the prelude's Dictionary codec), so every key type the glue carries is accepted.
    private func resolveDictionary(key: TypeSyntax, value: TypeSyntax, scope: [String], aliasDepth: Int) -> Result<GuestValueType, Problem> {
        resolve(key, scope: scope, aliasDepth: aliasDepth).flatMap { key in
            resolve(value, scope: scope, aliasDepth: aliasDepth).map { .dictionary(key: key, value: $0) }
        }
    }

    /// The type `name` stands for as a member of `owner`: a `typealias` the type declares, or, for an
    /// `Identifiable` type without one, `ID` as the type of its `id`. nil when `owner` declares neither.
    private func memberAlias(_ name: String, of owner: Int, aliasDepth: Int) -> Result<GuestValueType, Problem>? {
        let entry = index.types[owner]
        if let alias = entry.members.lazy.compactMap({ $0.decl.as(TypeAliasDeclSyntax.self) }).first(where: { $0.name.text == name }) {
            return resolveAlias(alias, scope: entry.path, aliasDepth: aliasDepth)
        }
        let conformances = entry.inheritedNames + entry.extensions.flatMap { $0.decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedText } ?? [] }
        guard name == "ID", conformances.contains(where: { $0 == "Identifiable" || $0 == "Swift.Identifiable" }) else { return nil }
        for member in entry.members where member.names == ["id"] && !member.isStatic {
            guard let binding = member.decl.as(VariableDeclSyntax.self)?.bindings.first else { continue }
            var written = binding.typeAnnotation?.type ?? InitialValueType.inferred(binding.initializer?.value)
            if written == nil, let named = GuestViewLowering.namedType(of: binding.initializer?.value) {
                written = TypeSyntax(IdentifierTypeSyntax(name: .identifier(named)))
            }
            guard let written, aliasDepth < 8 else { break }
            if written.trimmedText == "Self" { return .success(.project(owner)) }
            return resolve(written, scope: entry.path, aliasDepth: aliasDepth + 1)
        }
        return .failure(Problem(reason: .unsupportedSignature, detail: "\(entry.qualifiedName).ID: the type of \(entry.qualifiedName)'s `id` is not written where the glue can read it (give `id` a type annotation)"))
    }

    /// Resolves through `typealias Name = Type`; a tuple alias says so by its name.
    private func resolveAlias(_ alias: TypeAliasDeclSyntax, scope: [String], aliasDepth: Int) -> Result<GuestValueType, Problem> {
        guard aliasDepth < 8 else {
            return .failure(Problem(reason: .unsupportedSignature, detail: "typealias \(alias.name.text) does not resolve to a type within 8 aliases"))
        }
        guard alias.genericParameterClause == nil else {
            return .failure(Problem(reason: .unsupportedSignature, detail: "generic typealias \(alias.name.text) cannot be resolved by the glue"))
        }
        return resolve(alias.initializer.value, scope: scope, aliasDepth: aliasDepth + 1).mapError { problem in
            Problem(reason: problem.reason, detail: "typealias \(alias.name.text) = \(alias.initializer.value.trimmedText): \(problem.detail)", location: problem.location)
        }
    }

    /// A struct's stored properties or an enum's cases, as the generated codec reads them.
    struct CodableShape {
        struct Field {
            let name: String
            /// The JSON key: the name, or the raw value of its case in the type's `CodingKeys`.
            let key: String
            let type: GuestValueType
            /// `let` with an initial value: encoded, never decoded (Codable synthesis does the same).
            let isConstant: Bool
            /// `var` with an initial value: decoded only when present.
            let hasDefault: Bool
        }
        struct Case {
            let name: String
            /// (JSON key, type): the label, or `_0`, `_1`… for unlabeled associated values.
            let payload: [(key: String, label: String?, type: GuestValueType)]
            /// A String raw value when it is known as plain text: written out, or the case name.
            var stringRawValue: String? = nil
        }
        var fields: [Field] = []
        var cases: [Case] = []
        /// The raw type of a raw-value enum, encoded as its raw value.
        var rawType: GuestValueType?
        var isEnum = false
        /// A class's mirror (`receiverMirror(of:)`): its codec's initializer sits in the class's body.
        var isClass = false

        var referencedTypes: [Int] {
            fields.flatMap { $0.type.projectTypes() } + cases.flatMap { $0.payload.flatMap { $0.type.projectTypes() } } + (rawType?.projectTypes() ?? [])
        }
    }

    /// `asReceiver`: a class whose method is exported travels as its mirror (`receiverMirror(of:)`);
    /// `asReferenced`: a class a receiver's stored property references travels as a copy one level
    /// deep (`referencedObjectMirror(of:)`). Anywhere else a class is a reference, which the glue
    /// cannot carry.
    func codableShape(of type: Int, asReceiver: Bool = false, asReferenced: Bool = false) -> Result<CodableShape, Problem> {
        let entry = index.types[type]
        let file = index.files[entry.file]
        let location = GuestSourceLocation(file: file.relativePath, line: file.line(of: entry.decl))
        if asReceiver || asReferenced, entry.kind == .classType, !entry.isGeneric {
            var shape = CodableShape()
            shape.isClass = true
            shape.fields = asReceiver ? receiverMirror(of: type).fields : referencedObjectMirror(of: type).fields
            return .success(shape)
        }
        if asReceiver, !entry.isGeneric, let copy = structCopy(of: type) {
            var shape = CodableShape()
            shape.fields = copy.fields
            return .success(shape)
        }
        guard entry.kind == .structType || entry.kind == .enumType else {
            return .failure(Problem(reason: .unsupportedLanguageFeature, detail: "\(entry.qualifiedName) is a \(entry.kind.rawValue); only structs and enums travel by value through the JSON glue", location: location))
        }
        guard !entry.isGeneric else {
            return .failure(Problem(reason: .unsupportedLanguageFeature, detail: "generic type \(entry.qualifiedName) cannot be encoded by the glue", location: location))
        }
        var shape = CodableShape()
        shape.isEnum = entry.kind == .enumType
        // The native side encodes with the type's own Codable implementation: a hand-written one
        // cannot be matched by generated glue, custom CodingKeys can.
        if let custom = entry.members.first(where: { GuestDependencyClosure.isCodableImplementation($0.decl) }) {
            let customFile = index.files[custom.file]
            return .failure(Problem(reason: .unsupportedSignature, detail: "\(entry.qualifiedName) implements init(from:) or encode(to:) itself; the guest's generated JSON codec would not encode it the same way",
                                    location: GuestSourceLocation(file: customFile.relativePath, line: customFile.line(of: custom.decl))))
        }
        let codingKeys = codingKeys(of: entry)
        if shape.isEnum, let raw = entry.inheritedNames.first, GuestDependencyClosure.rawValueTypes.contains(raw) {
            guard let rawType = ["String": GuestValueType.string, "Int": .int, "Int64": .int64, "Int32": .int32, "Double": .double, "Bool": .bool][raw] else {
                return .failure(Problem(reason: .unsupportedSignature, detail: "raw type \(raw) of \(entry.qualifiedName) is not supported by the glue", location: location))
            }
            shape.rawType = rawType
        }
        for member in entry.members {
            let memberFile = index.files[member.file]
            let memberLocation = GuestSourceLocation(file: memberFile.relativePath, line: memberFile.line(of: member.decl))
            if member.kind == .storedProperty, let variable = member.decl.as(VariableDeclSyntax.self) {
                let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
                if variable.attributes.contains(where: { $0.trimmedText.hasPrefix("@") }) {
                    return .failure(Problem(reason: .unsupportedLanguageFeature, detail: "property wrapper or attribute on a stored property of \(entry.qualifiedName)", location: memberLocation))
                }
                for binding in variable.bindings {
                    guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                        return .failure(Problem(reason: .unsupportedSignature, detail: "destructuring stored property in \(entry.qualifiedName)", location: memberLocation))
                    }
                    let name = identifier.identifier.text
                    let written: TypeSyntax? = binding.typeAnnotation?.type ?? InitialValueType.inferred(binding.initializer?.value)
                    guard let written else {
                        return .failure(Problem(reason: .unsupportedSignature, detail: "stored property \(entry.qualifiedName).\(name) needs a type annotation for the generated JSON glue", location: memberLocation))
                    }
                    // A property CodingKeys leaves out is not coded (Swift requires it to have a default).
                    let key: String
                    if let codingKeys {
                        guard let listed = codingKeys[name] else { continue }
                        key = listed
                    } else {
                        key = name
                    }
                    switch resolve(written, scope: entry.path) {
                    case .success(let resolved):
                        shape.fields.append(.init(name: name, key: key, type: resolved, isConstant: isLet && binding.initializer != nil, hasDefault: !isLet && binding.initializer != nil))
                    case .failure(let problem):
                        return .failure(Problem(reason: problem.reason, detail: "stored property \(entry.qualifiedName).\(name): \(problem.detail)", location: memberLocation))
                    }
                }
            } else if member.kind == .enumCase, let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
                for element in caseDecl.elements {
                    var payload: [(key: String, label: String?, type: GuestValueType)] = []
                    for (position, parameter) in (element.parameterClause?.parameters ?? []).enumerated() {
                        let label = parameter.firstName.map { $0.text == "_" ? nil : $0.text } ?? nil
                        switch resolve(parameter.type, scope: entry.path) {
                        case .success(let resolved): payload.append((label ?? "_\(position)", label, resolved))
                        case .failure(let problem):
                            return .failure(Problem(reason: problem.reason, detail: "case \(entry.qualifiedName).\(element.name.text): \(problem.detail)", location: memberLocation))
                        }
                    }
                    shape.cases.append(.init(name: element.name.text, payload: payload,
                                             stringRawValue: shape.rawType == .string ? Self.plainStringRawValue(element) : nil))
                }
            }
        }
        return .success(shape)
    }

    /// A class's stored properties as its thunk's mirror sends them (`ReceiverCoding.object`), or a
    /// struct's as a method that only reads `self` sends them when the whole value cannot travel
    /// (`ReceiverCoding.mirror`, `structCopy(of:)`), and those it leaves out: the ones
    /// `StoredProperties.scan` leaves out (`weak`, closures, a class's wrappers other than
    /// `@Published`, a view's `@ObservedObject`…) and those whose type the guest cannot hold
    /// (`URLSession`, another class). Only the fields are part of the guest's copy of the type.
    /// `copyingReferences`: whether a class's optional references to other objects travel as copies (a
    /// receiver's do; those of an object it references do not, `referencedObjectMirror(of:)`).
    func receiverMirror(of type: Int, copyingReferences: Bool = true) -> (fields: [CodableShape.Field], leftOut: [LeftOutProperty]) {
        let entry = index.types[type]
        let file = index.files[entry.file]
        let isClass = entry.kind == .classType
        guard let members = entry.decl.as(ClassDeclSyntax.self)?.memberBlock.members ?? (isClass ? nil : entry.decl.as(StructDeclSyntax.self)?.memberBlock.members)
        else { return ([], []) }
        let stored = StoredProperties.scan(members, isClass: isClass, line: { file.line(of: $0) })
        var leftOut = stored.leftOut
        var fields: [CodableShape.Field] = []
        var bindings: [String: PatternBindingSyntax] = [:]
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { bindings[name] = binding }
            }
        }
        for property in stored.properties {
            guard let binding = bindings[property.name] else { continue }
            let written = binding.typeAnnotation?.type ?? InitialValueType.inferred(binding.initializer?.value)
            switch written.map({ resolve($0, scope: entry.path) }) {
            case .success(let resolved)? where !isClass:
                // A value the glue cannot encode (an object, an enum with an `Any` payload) has no
                // value mirror in prepare either: left out on both sides. Not Codable, it travels as
                // its value mirror, the JSON this field's codec reads.
                if let problem = valueProblem(resolved) {
                    leftOut.append(LeftOutProperty(name: property.name, line: property.line, reason: "stored property `\(property.name)`: \(problem)"))
                } else {
                    fields.append(.init(name: property.name, key: property.name, type: resolved,
                                        isConstant: property.isLet && binding.initializer != nil, hasDefault: !property.isLet && binding.initializer != nil))
                }
            case .success(.optional(.project(let object)))? where index.types[object].kind == .classType && !copyingReferences:
                leftOut.append(LeftOutProperty(name: property.name, line: property.line, reason: "stored property `\(property.name)` references class \(index.types[object].qualifiedName) from an object the receiver references: objects travel one level deep, so a cycle cannot"))
            case .success(.optional(.project(let object)))? where referencedObjectProblem(object) == nil:
                // `var species: BirdSpecies?`: a copy of the object, one level deep (`referencedObjectMirror`).
                fields.append(.init(name: property.name, key: property.name, type: .optional(.project(object)), isConstant: false, hasDefault: false))
            case .success(let resolved)? where resolved.projectTypes().contains(where: { [.classType, .actorType].contains(index.types[$0].kind) }):
                let object = resolved.projectTypes().first { [.classType, .actorType].contains(index.types[$0].kind) }!
                let why: String
                if case .optional(.project(object)) = resolved, let problem = referencedObjectProblem(object) {
                    why = problem
                } else if case .project(object) = resolved {
                    why = "only an optional reference (`\(index.types[object].qualifiedName)?`) travels, as a copy of the object"
                } else {
                    why = "a collection of objects does not travel (only an optional reference to one, as a copy)"
                }
                leftOut.append(LeftOutProperty(name: property.name, line: property.line, reason: "stored property `\(property.name)` references \(index.types[object].kind.rawValue) \(index.types[object].qualifiedName): \(why)"))
            case .success(let resolved)?:
                // The thunk's mirror has only Codable properties (prepare's `CodableIndex`): the guest's
                // copy must decode exactly those keys.
                if let type = resolved.projectTypes().first(where: { !declaresCodable($0) }) {
                    leftOut.append(LeftOutProperty(name: property.name, line: property.line,
                                                   reason: "stored property `\(property.name)`: `\(index.types[type].qualifiedName)` is not Codable"))
                    continue
                }
                fields.append(.init(name: property.name, key: property.name, type: resolved,
                                    isConstant: property.isLet && binding.initializer != nil, hasDefault: !property.isLet && binding.initializer != nil))
            case .failure(let problem)?:
                leftOut.append(LeftOutProperty(name: property.name, line: property.line, reason: "stored property `\(property.name)`: \(problem.detail)"))
            case nil:
                continue
            }
        }
        return (fields, leftOut)
    }

    /// The copy of a struct with property wrappers (a view) that a method only reading `self`
    /// receives (prepare's `receiver(of:)`): the fields of `receiverMirror(of:)`, those it leaves out,
    /// and the wrapped properties with their attribute (`@State var x: T` is a plain `var x: T` in the
    /// copy). Nil for a struct without wrappers, which travels whole as its own codec has it.
    func structCopy(of type: Int) -> (fields: [CodableShape.Field], leftOut: [LeftOutProperty], wrapped: [String: String])? {
        let entry = index.types[type]
        guard entry.kind == .structType, let members = entry.decl.as(StructDeclSyntax.self)?.memberBlock.members else { return nil }
        var wrapped: [String: String] = [:]
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), SourceScanner.isStoredLayoutMember(variable),
                  let attribute = variable.attributes.first?.as(AttributeSyntax.self) else { continue }
            for binding in variable.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { wrapped[name] = attribute.trimmedText }
            }
        }
        guard !wrapped.isEmpty else { return nil }
        let mirror = receiverMirror(of: type)
        return (mirror.fields, mirror.leftOut, wrapped)
    }

    /// Why the glue cannot encode a value of `type` (a project type it holds, at any depth, is a
    /// class or has no codec), nil when it can.
    private func valueProblem(_ type: GuestValueType) -> String? {
        var pending = type.projectTypes()
        var checked: Set<Int> = []
        while let next = pending.popLast() {
            guard checked.insert(next).inserted else { continue }
            switch codableShape(of: next) {
            case .success(let shape): pending += shape.referencedTypes
            case .failure(let problem): return problem.detail
            }
        }
        return nil
    }

    /// The classes whose objects the mirror of a receiver of class `owner` carries copies of.
    func referencedObjects(ofReceiver owner: Int) -> Set<Int> {
        Set(receiverMirror(of: owner).fields.flatMap { $0.type.projectTypes() }.filter { index.types[$0].kind == .classType })
    }

    /// The parameters that receive a copy of an object (`bird: Bird`, `bird: Bird?`), by internal name,
    /// with the object's class: a class that can be copied as a receiver's reference is
    /// (`referencedObjectProblem`), one level deep and read-only — what prepare's thunk sends
    /// (`Preparer.objectCopyCoding`; docs/prepare.md "Objects as parameters").
    func parameterObjects(_ parameters: [GuestExportPlan.Parameter]) -> [String: Int] {
        var objects: [String: Int] = [:]
        for parameter in parameters {
            switch parameter.type {
            case .project(let object), .optional(.project(let object)):
                if index.types[object].kind == .classType, referencedObjectProblem(object) == nil { objects[parameter.name] = object }
            default: continue
            }
        }
        return objects
    }

    /// The mirror of an object a receiver's stored property references (`var species: BirdSpecies?`),
    /// which prepare's thunk sends as a copy of the object's own stored properties, one level deep
    /// (`Preparer.referencedObject`): its references are left out too, so a cycle never reaches the glue.
    func referencedObjectMirror(of type: Int) -> (fields: [CodableShape.Field], leftOut: [LeftOutProperty]) {
        receiverMirror(of: type, copyingReferences: false)
    }

    /// Why a receiver's reference to an object of class `type` cannot carry a copy of it (nil when it
    /// can): the checks prepare makes of a receiver's class (`Preparer.copyProblem`), as the copy must
    /// be all that the object holds and its methods the ones that run.
    func referencedObjectProblem(_ type: Int) -> String? {
        let entry = index.types[type]
        guard entry.kind == .classType else { return "\(entry.qualifiedName) is an \(entry.kind.rawValue), whose state is isolated to it" }
        guard !entry.isGeneric else { return "generic class \(entry.qualifiedName) cannot be copied by the glue" }
        // Prepare's `objectCopy` refuses it: the copy's initializer could not read it.
        if entry.decl.as(ClassDeclSyntax.self)?.attributes.contains(where: { $0.as(AttributeSyntax.self).map { ["MainActor", "_Concurrency.MainActor"].contains($0.attributeName.trimmedText) } == true }) == true {
            return "it is `@MainActor`, and the app's copy of it is built outside the main actor"
        }
        let modifiers = entry.decl.as(ClassDeclSyntax.self)?.modifiers.map(\.name.text) ?? []
        if let superclass = entry.inheritedNames.first, index.resolveType(named: superclass, from: entry.path).contains(where: { index.types[$0].kind == .classType }) {
            return "it inherits from \(superclass), whose stored properties a copy of it would not carry"
        }
        let copied = Set(referencedObjectMirror(of: type).fields.map(\.name))
        let file = index.files[entry.file]
        let stored = StoredProperties.scan(entry.decl.as(ClassDeclSyntax.self)?.memberBlock.members ?? [], isClass: true, line: { file.line(of: $0) }).properties
        if let hidden = stored.first(where: { $0.isFileScoped && copied.contains($0.name) }) {
            return "its stored property `\(hidden.name)` (\(file.relativePath):\(hidden.line)) is `private` to its file, which the thunk cannot read"
        }
        guard !modifiers.contains("final") else { return nil }
        if modifiers.contains("open") { return "it is `open`: a subclass in another module could override what the module runs" }
        if let subclass = index.types.first(where: { $0.kind == .classType && $0.inheritedNames.first == entry.qualifiedName }) {
            return "it has the subclass \(subclass.qualifiedName), whose overrides the module would not run"
        }
        return nil
    }

    /// The type states `Codable` (or both halves) in its declaration or an extension, directly or
    /// through a protocol of the project that inherits it — what prepare's `CodableIndex` accepts of a
    /// project type, so a class's mirror has the same fields on both sides.
    func declaresCodable(_ type: Int) -> Bool {
        let entry = index.types[type]
        var pending = entry.inheritedNames + entry.extensions.flatMap { $0.decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedText } ?? [] }
        var seen: Set<String> = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            if name == "Codable" || seen.isSuperset(of: ["Encodable", "Decodable"]) { return true }
            for protocolIndex in index.resolveType(named: name, from: entry.path) where index.types[protocolIndex].kind == .protocolType {
                pending += index.types[protocolIndex].inheritedNames
            }
        }
        return false
    }

    /// The JSON key of each property a struct's nested `CodingKeys` enum lists (its String raw value
    /// or its name), nil without one. A key whose raw value is not plain text keeps the property's name.
    private func codingKeys(of entry: GuestTypeEntry) -> [String: String]? {
        guard entry.kind == .structType,
              let keysType = index.types(named: "CodingKeys").first(where: { index.types[$0].path == entry.path + ["CodingKeys"] })
        else { return nil }
        let keys = index.types[keysType]
        let isString = keys.inheritedNames.first == "String"
        var mapping: [String: String] = [:]
        for member in keys.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let name = element.name.text.filter { $0 != "`" }
                mapping[name] = isString ? (Self.plainStringRawValue(element) ?? name) : name
            }
        }
        return mapping
    }

    /// `case usd = "USD"` → `USD`, `case tea` → `tea`; nil for literals with escapes or interpolation.
    static func plainStringRawValue(_ element: EnumCaseElementSyntax) -> String? {
        guard let rawValue = element.rawValue else { return element.name.text.filter { $0 != "`" } }
        guard let literal = rawValue.value.as(StringLiteralExprSyntax.self), literal.segments.count <= 1 else { return nil }
        guard let segment = literal.segments.first else { return "" }
        guard let text = segment.as(StringSegmentSyntax.self)?.content.text, !text.contains("\\") else { return nil }
        return text
    }
}
