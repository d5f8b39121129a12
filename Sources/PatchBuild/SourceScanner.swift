import PatchManifest
import SwiftSyntax

/// Where a declaration sits: its enclosing types, the `#if` clauses and `@available` attributes
/// around it, and whether anything around it limits access to its file.
struct DeclarationContext: Sendable, Codable, Equatable {
    var typePath: [String] = []
    /// `#if` conditions that must all hold, each already parenthesized (`(os(iOS))`, `!(DEBUG)`).
    var conditions: [String] = []
    /// `@available(...)` attributes of the enclosing declarations, in source form.
    var availability: [String] = []
    /// A private or fileprivate type or extension encloses it: generated code must share its file.
    var isFileScoped = false
    /// The `where` clause of the enclosing extension, which generated members must repeat.
    var extensionWhereClause: String?
    /// Declared in an extension rather than in the type's own declaration: the type's `#if`
    /// conditions and `@available` attributes are then not part of this context yet.
    var isInExtension = false
    /// A generic type's declaration encloses it (extensions of generic types are known only to the
    /// target: `DeclaredType.isGeneric`).
    var isInGenericType = false
}

/// A type declared in a file (struct, class, enum or actor).
struct DeclaredType: Sendable, Codable, Equatable {
    var path: [String]
    var inheritedTypes: [String]
    var context: DeclarationContext
    var availability: [String]
    var isFileScoped: Bool
    /// It has generic parameters, or a generic type encloses it.
    var isGeneric: Bool
    var kind: Kind = .structType
    /// The line of its name.
    var line = 0
    /// Its stored properties: what an instance method's thunk mirrors to send `self` (`ReceiverCoding`).
    var storedProperties = StoredProperties()
    /// An enum's cases: what a value mirror of a non-Codable enum copies (`ValueMirrorPlanner`).
    var enumCases = EnumCases()
    /// A class's `final` and `open`: whether a subclass's override could replace what its methods call.
    var isFinal = false
    var isOpen = false
    /// `public` or `open`: another target can name its members (a value mirror of an enum of another target).
    var isPublic = false
    /// Declared `@MainActor`: only code isolated to the main actor reads its properties, which the
    /// nonisolated initializer of a copy of its object is not (`Preparer.objectCopy`).
    var isMainActor = false

    enum Kind: String, Sendable, Codable {
        case structType = "struct", classType = "class", enumType = "enum", actorType = "actor"
    }
}

/// A protocol declared in a file, with the protocols it inherits (a type conforming to
/// `protocol Model: Codable` is Codable).
struct DeclaredProtocol: Sendable, Codable, Equatable {
    var path: [String]
    var inheritedTypes: [String]
}

/// A named type a function thunk encodes (a parameter's) or decodes (the result's): it must be
/// `Encodable` or `Decodable` for the thunk to compile. Standard containers (`[T]`, `T?`,
/// `[K: V]`, `Set<T>`) are looked through, so only their elements are references.
struct CodableReference: Sendable, Codable, Equatable {
    /// As written (`Nested.Result`, `Swift.Int`).
    var path: [String]
    /// The result's type (decoded) rather than a parameter's (encoded).
    var isResult: Bool
    /// The parameter or result type it appears in, as written, for messages.
    var writtenIn: String
}

/// An extension in a file: what it extends and which conformances it adds.
struct ExtensionScan: Sendable, Codable, Equatable {
    var extendedPath: [String]
    var inheritedTypes: [String]
}

/// A `body` property that may be a view's body, or a `body(content:)` method that may be a
/// `ViewModifier`'s, with everything needed to rewrite and route it.
struct BodyCandidate: Sendable, Codable, Equatable {
    /// The `content` parameter of a `ViewModifier.body(content:)`, which the generated `body(content:)`
    /// declares as written and passes to the module as a slot (docs/prepare.md "ViewModifier bodies").
    struct ModifierContent: Sendable, Codable, Equatable {
        var internalName: String
        var type: String
    }

    var ownerPath: [String]
    var context: DeclarationContext
    /// The property's own `@available` attributes.
    var availability: [String]
    /// Byte range of the `body` name token (renamed to `__patch_native_body`).
    var nameRange: Range<Int>
    var isPrepared: Bool
    /// Where `@ViewBuilder ` and `@MainActor ` go when the property lacks them: the renamed body is no
    /// longer the protocol witness, so it would lose the result builder and the main-actor isolation
    /// it inherited from `View.body`.
    var attributeInsertion: Int
    /// The existing `@ViewBuilder` / `@MainActor` attributes with their trailing whitespace (what
    /// `--revert` removes when `prepare` inserted them).
    var viewBuilderRange: Range<Int>?
    var mainActorRange: Range<Int>?
    /// Access modifiers the generated `body` repeats (`public`, `package`).
    var accessModifiers: [String]
    var contentHash: String
    var line: Int
    /// Why this `body` cannot be routed, if it cannot.
    var unsupportedReason: String?
    /// Set for a `func body(content:)`, nil for a `var body`.
    var modifierContent: ModifierContent? = nil
}

/// A function that may be routed (`RoutingSelection` decides which are).
struct FunctionCandidate: Sendable, Codable, Equatable, RoutingCandidate {
    struct Parameter: Sendable, Codable, Equatable {
        var label: String?
        var internalName: String
        var type: String
    }

    var ownerPath: [String]
    var context: DeclarationContext
    var availability: [String]
    /// Its baseline id without the target prefix (`Pricing.total(of:Int)`).
    var localID: String
    var baseName: String
    var parameters: [Parameter]
    var returnType: String?
    var isStatic: Bool
    var staticKeyword: String
    /// A `mutating` method: the module returns the new `self` with the result.
    var isMutating = false
    /// A computed property (`var total: Int { … }`), routed by its getter: no parameters, the property's
    /// type as the result (docs/prepare.md "Computed properties").
    var isProperty = false
    /// An initializer of a struct or enum: the module returns the new stored values (docs/prepare.md "Initializers").
    var isInitializer = false
    /// A failable initializer (`init?`): the module's `{"value": null}` makes it return nil.
    var isFailable = false
    /// A computed property with a `set`: its replacement has a setter too, which an instance
    /// property routes like a mutating method (docs/prepare.md "Setters").
    var hasSetter = false
    var throwsEffect: Bool
    /// Marked `// @patchable`.
    var hasMarker: Bool
    var isDynamic: Bool
    /// Where `dynamic ` is inserted (the `func` keyword).
    var dynamicInsertion: Int
    /// The existing `dynamic` modifier with its trailing whitespace.
    var dynamicRange: Range<Int>?
    var isAccessFileScoped: Bool
    var contentHash: String
    var line: Int
    var unsupportedReason: String?
    /// The named types of its parameters and result, which the target must show to be Codable.
    var codableReferences: [CodableReference] = []
    /// Marked `// @native`: never routed (`RoutingSelection`).
    var hasNativeMarker = false
    /// A member's own `private` keyword (not `private(set)`): where `prepare` inserts `file` to route
    /// it (`PrivateMemberWidening`).
    var privateKeyword: Int? = nil
    /// A member's own `fileprivate` keyword: where `--revert` takes out a `file` that `prepare` inserted.
    var fileprivateKeyword: Int? = nil
    /// Why widening this `private` member to `fileprivate` would change its file's program, as far as
    /// the file shows (`PrivateMemberWidening.overrideConflicts`).
    var wideningReason: String? = nil
    /// An `async` function: routed by the `AsyncPrologue` at the top of its body, not by a replacement.
    var isAsync = false
    /// Where an async function's prologue goes: just after its body's `{`.
    var prologueInsertion: Int? = nil
    /// The prologue an earlier `prepare` put in its body.
    var prologue: AsyncPrologue.Found? = nil
    /// Where the `return` of a single-expression body goes when a prologue comes before it.
    var prologueReturnInsertion: Int? = nil

    /// Whether it returns a value: a result type other than `Void` or `()`.
    var returnsValue: Bool { !["Void", "()", ""].contains(returnType?.filter { !$0.isWhitespace } ?? "") }

    var key: String {
        isProperty ? PatchNames.propertyKey(typePath: ownerPath, name: baseName)
            : PatchNames.functionKey(typePath: ownerPath, baseName: baseName, argumentLabels: parameters.map(\.label))
    }

    /// An instance property's setter goes to the module (`PatchNames.propertySetterExport`); a
    /// `static` one has no receiver for the module to change, and its replacement calls the original.
    var routesSetter: Bool { hasSetter && !isStatic }

    /// The module export its thunk calls.
    var export: String {
        isProperty ? PatchNames.propertyGetterExport(typePath: ownerPath, name: baseName)
            : PatchNames.functionExport(typePath: ownerPath, baseName: baseName, argumentLabels: parameters.map(\.label))
    }
}

/// A `typealias` and the Codable shape of the type it names.
struct TypeAliasScan: Sendable, Codable, Equatable {
    var path: [String]
    var references: [[String]]
    var unsupportedReason: String?
    /// The aliased type as written, without whitespace (`View`, `SwiftUI.View&Themed`): an alias of
    /// `View` or of a protocol refining it makes its conforming types views.
    var aliasedType: String
}

/// A baseline entry before the target name is prefixed to its id.
struct ScannedDeclaration: Sendable, Codable, Equatable {
    var localID: String
    var kind: Baseline.Declaration.Kind
    var contentHash: String
    /// What of it changes behaviour (`BehaviourDigest`).
    var behaviour: Baseline.Behaviour
    /// Where it starts: what `build`'s report shows (not part of the baseline, where moving code
    /// must not count as a change).
    var line: Int
    /// For a `func body(content:)` (recorded as the `viewBody` `Type.body`, hashed over its code block
    /// only, so `prepare`'s rename and attributes do not change it): the method it is when the type
    /// turns out not to be a `ViewModifier`, as any other method is recorded.
    var methodForm: MethodForm? = nil

    struct MethodForm: Sendable, Codable, Equatable {
        var localID: String
        var contentHash: String
        var behaviour: Baseline.Behaviour
    }
}

/// Everything `prepare` needs from one parsed file.
struct FileScan: Sendable, Codable, Equatable {
    var types: [DeclaredType] = []
    var extensions: [ExtensionScan] = []
    var bodies: [BodyCandidate] = []
    var functions: [FunctionCandidate] = []
    var protocols: [DeclaredProtocol] = []
    /// `typealias` declarations by path, with the references of the aliased type (or why it cannot
    /// be Codable), so a parameter of an alias type is checked like the type itself.
    var typeAliases: [TypeAliasScan] = []
    var declarations: [ScannedDeclaration] = []
    /// The file's unconditional imports, as written (`import Foundation`): generated code that
    /// spells the file's types needs them.
    var imports: [String] = []
}

/// Walks one file's syntax tree, tracking the context of every declaration. Function bodies are not
/// entered: types declared inside functions cannot be extended, so they are never routed.
struct SourceScanner {
    private let lines: LineTable
    private(set) var result = FileScan()

    /// - Parameter source: the bytes `file` was parsed from (for line numbers).
    static func scan(_ file: SourceFileSyntax, source: [UInt8]) -> FileScan {
        var scanner = SourceScanner(lines: LineTable(source))
        scanner.visit(statements: file.statements, context: DeclarationContext())
        scanner.result.imports = file.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedText }
        PrivateMemberWidening.overrideConflicts(in: &scanner.result)
        return scanner.result
    }

    private init(lines: LineTable) {
        self.lines = lines
    }

    private func line(of node: some SyntaxProtocol) -> Int {
        lines.line(at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    }

    // MARK: - Walking

    private mutating func visit(statements: CodeBlockItemListSyntax, context: DeclarationContext) {
        for item in statements {
            switch item.item {
            case let .decl(decl): visit(decl: decl, context: context)
            default: break
            }
        }
    }

    private mutating func visit(members: MemberBlockItemListSyntax, context: DeclarationContext) {
        for member in members {
            visit(decl: member.decl, context: context)
        }
    }

    private mutating func visit(decl: DeclSyntax, context: DeclarationContext) {
        if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
            visit(ifConfig: ifConfig, context: context)
        } else if let structDecl = decl.as(StructDeclSyntax.self) {
            visitType(structDecl, name: structDecl.name, inheritance: structDecl.inheritanceClause, members: structDecl.memberBlock,
                      isGeneric: structDecl.genericParameterClause != nil, kind: .structType, context: context)
        } else if let classDecl = decl.as(ClassDeclSyntax.self) {
            visitType(classDecl, name: classDecl.name, inheritance: classDecl.inheritanceClause, members: classDecl.memberBlock,
                      isGeneric: classDecl.genericParameterClause != nil, kind: .classType, context: context)
        } else if let enumDecl = decl.as(EnumDeclSyntax.self) {
            visitType(enumDecl, name: enumDecl.name, inheritance: enumDecl.inheritanceClause, members: enumDecl.memberBlock,
                      isGeneric: enumDecl.genericParameterClause != nil, kind: .enumType, context: context)
        } else if let actorDecl = decl.as(ActorDeclSyntax.self) {
            visitType(actorDecl, name: actorDecl.name, inheritance: actorDecl.inheritanceClause, members: actorDecl.memberBlock,
                      isGeneric: actorDecl.genericParameterClause != nil, kind: .actorType, context: context)
        } else if let protocolDecl = decl.as(ProtocolDeclSyntax.self) {
            result.protocols.append(DeclaredProtocol(path: context.typePath + [protocolDecl.name.text],
                                                     inheritedTypes: Self.inheritedNames(protocolDecl.inheritanceClause)))
        } else if let alias = decl.as(TypeAliasDeclSyntax.self), alias.genericParameterClause == nil {
            var references: [CodableReference] = []
            let reason = CodableShape.collect(alias.initializer.value, isResult: false, into: &references)
            result.typeAliases.append(TypeAliasScan(path: context.typePath + [alias.name.text], references: references.map(\.path),
                                                    unsupportedReason: reason, aliasedType: alias.initializer.value.textWithoutWhitespace))
        } else if let extensionDecl = decl.as(ExtensionDeclSyntax.self) {
            visitExtension(extensionDecl, context: context)
        } else if let variable = decl.as(VariableDeclSyntax.self) {
            visitVariable(variable, context: context)
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            visitFunction(function, context: context)
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            visitInitializer(initializer, context: context)
        }
    }

    /// Each clause of `#if … #elseif … #else` holds only when its own condition holds and every
    /// earlier one does not.
    private mutating func visit(ifConfig: IfConfigDeclSyntax, context: DeclarationContext) {
        var earlierConditions: [String] = []
        for clause in ifConfig.clauses {
            var clauseContext = context
            clauseContext.conditions += earlierConditions.map { "!\($0)" }
            if let condition = clause.condition {
                let text = "(\(condition.trimmedText))"
                clauseContext.conditions.append(text)
                earlierConditions.append(text)
            }
            switch clause.elements {
            case let .statements(statements)?: visit(statements: statements, context: clauseContext)
            case let .decls(members)?: visit(members: members, context: clauseContext)
            default: break
            }
        }
    }

    private mutating func visitType(_ decl: some DeclGroupSyntax, name: TokenSyntax, inheritance: InheritanceClauseSyntax?,
                                    members: MemberBlockSyntax, isGeneric: Bool, kind: DeclaredType.Kind, context: DeclarationContext) {
        let availability = Self.availabilityAttributes(decl.attributes)
        var inner = context
        inner.typePath.append(name.text)
        inner.availability += availability
        inner.isFileScoped = context.isFileScoped || decl.modifiers.isFileScoped
        inner.extensionWhereClause = nil
        inner.isInExtension = false
        inner.isInGenericType = context.isInGenericType || isGeneric
        result.types.append(DeclaredType(
            path: inner.typePath, inheritedTypes: Self.inheritedNames(inheritance), context: context,
            availability: availability, isFileScoped: inner.isFileScoped, isGeneric: inner.isInGenericType, kind: kind, line: line(of: name),
            storedProperties: kind == .structType || kind == .classType
                ? StoredProperties.scan(members.members, isClass: kind == .classType, line: { line(of: $0) }) : StoredProperties(),
            enumCases: kind == .enumType ? EnumCases.scan(members.members, line: { line(of: $0) }) : EnumCases(),
            isFinal: decl.modifiers.contains { $0.name.tokenKind == .keyword(.final) },
            isOpen: decl.modifiers.contains { $0.name.tokenKind == .keyword(.open) },
            isPublic: decl.modifiers.contains { [.keyword(.public), .keyword(.open)].contains($0.name.tokenKind) },
            isMainActor: decl.attributes.contains { attribute in
                attribute.as(AttributeSyntax.self).map { ["MainActor", "_Concurrency.MainActor"].contains($0.attributeName.trimmedText) } == true
            }))
        // The layout hash covers the stored properties' hashes, then the enum cases' hashes.
        var storedProperties: [VariableDeclSyntax] = []
        var cases: [EnumCaseDeclSyntax] = []
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                if Self.isStoredLayoutMember(variable) { storedProperties.append(variable) }
            } else if let enumCase = member.decl.as(EnumCaseDeclSyntax.self) {
                cases.append(enumCase)
            }
        }
        var hasher = SHA256Hasher()
        for var memberHash in storedProperties.map(ContentHash.of) + cases.map(ContentHash.of) {
            memberHash.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        }
        result.declarations.append(ScannedDeclaration(
            localID: inner.typePath.joined(separator: "."), kind: .storedLayout, contentHash: hasher.finalizeHex(),
            behaviour: BehaviourDigest.ofLayout(storedProperties: storedProperties, cases: cases), line: line(of: name)))
        visit(members: members.members, context: inner)
    }

    private mutating func visitExtension(_ decl: ExtensionDeclSyntax, context: DeclarationContext) {
        let extendedPath = Self.typePath(of: decl.extendedType)
        result.extensions.append(ExtensionScan(extendedPath: extendedPath, inheritedTypes: Self.inheritedNames(decl.inheritanceClause)))
        var inner = context
        inner.typePath = extendedPath
        inner.availability += Self.availabilityAttributes(decl.attributes)
        inner.isFileScoped = context.isFileScoped || decl.modifiers.isFileScoped
        inner.extensionWhereClause = decl.genericWhereClause?.trimmedText
        inner.isInExtension = true
        inner.isInGenericType = false
        visit(members: decl.memberBlock.members, context: inner)
    }

    private mutating func visitVariable(_ variable: VariableDeclSyntax, context: DeclarationContext) {
        let isStatic = variable.modifiers.contains { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
        for binding in variable.bindings {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self), binding.accessorBlock != nil else { continue }
            let name = identifier.identifier.text
            let isBody = !context.typePath.isEmpty && !isStatic && (name == "body" || name == PreparedNames.nativeBody)
            if isBody, let accessors = binding.accessorBlock {
                // Only the body's code: `prepare` adds `@ViewBuilder` to the declaration, which must
                // not make a prepared file's baseline differ from the original's.
                let contentHash = record(localID: Self.qualified(context.typePath, "body"), kind: .viewBody, node: accessors,
                                         behaviour: BehaviourDigest.ofCode(hash:))
                result.bodies.append(bodyCandidate(variable, binding: binding, name: identifier.identifier, contentHash: contentHash, context: context))
            } else {
                let contentHash = record(localID: Self.qualified(context.typePath, name), kind: .computedProperty, node: variable) {
                    BehaviourDigest.of(property: variable, binding: binding, hash: $0)
                }
                result.functions.append(propertyCandidate(variable, binding: binding, name: identifier.identifier, contentHash: contentHash, context: context))
            }
        }
    }

    /// An initializer, recorded, and a candidate whose module returns the new stored values (docs/prepare.md "Initializers").
    private mutating func visitInitializer(_ initializer: InitializerDeclSyntax, context: DeclarationContext) {
        let signature = initializer.signature
        let labels = signature.parameterClause.parameters.map { Self.signatureComponent($0) }
        let localID = Self.qualified(context.typePath, "init(\(labels.joined(separator: ",")))")
        let contentHash = record(localID: localID, kind: .initializer, node: initializer) { BehaviourDigest.of(initializer: initializer, hash: $0) }
        guard !context.typePath.isEmpty else { return }
        let dynamicModifier = initializer.modifiers.first { $0.name.tokenKind == .keyword(.dynamic) }
        let markers = Self.routingMarkers(initializer, keyword: initializer.initKeyword)
        var candidate = FunctionCandidate(
            ownerPath: context.typePath, context: context, availability: Self.availabilityAttributes(initializer.attributes),
            localID: localID, baseName: "init",
            parameters: signature.parameterClause.parameters.map { parameter in
                FunctionCandidate.Parameter(label: parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text,
                                            internalName: (parameter.secondName ?? parameter.firstName).text, type: parameter.type.trimmedText)
            },
            returnType: nil, isStatic: false, staticKeyword: "", isInitializer: true,
            throwsEffect: signature.effectSpecifiers?.throwsClause != nil,
            hasMarker: markers.patchable,
            isDynamic: dynamicModifier != nil, dynamicInsertion: initializer.initKeyword.positionAfterSkippingLeadingTrivia.utf8Offset,
            dynamicRange: dynamicModifier.map(Self.rangeWithTrailingSpace),
            isAccessFileScoped: context.isFileScoped || initializer.modifiers.isFileScoped,
            contentHash: contentHash, line: line(of: initializer.initKeyword), unsupportedReason: nil)
        candidate.hasNativeMarker = markers.native
        Self.recordAccessKeywords(initializer.modifiers, of: &candidate)
        candidate.isFailable = initializer.optionalMark?.text == "?"
        if initializer.optionalMark?.text == "!" {
            candidate.unsupportedReason = "implicitly unwrapped failable initializers (`init!`) are not routed; write `init?`"
        } else if signature.parameterClause.parameters.isEmpty {
            candidate.unsupportedReason = "an initializer without parameters: its replacement needs argument labels of its own (`init(__patch_…)`) and has none to take them from"
        } else if initializer.genericParameterClause != nil || initializer.genericWhereClause != nil {
            candidate.unsupportedReason = "generic initializers cannot be called through JSON with a fixed export"
        } else if signature.effectSpecifiers?.asyncSpecifier != nil {
            candidate.unsupportedReason = "async initializers are not supported (callJSON is synchronous)"
        } else if let throwsClause = signature.effectSpecifiers?.throwsClause,
                  throwsClause.throwsSpecifier.tokenKind == .keyword(.rethrows) || throwsClause.type != nil {
            candidate.unsupportedReason = "rethrowing and typed-`throws` initializers are not supported"
        } else if let modifier = initializer.modifiers.first(where: { [.keyword(.convenience), .keyword(.required), .keyword(.override)].contains($0.name.tokenKind) }) {
            candidate.unsupportedReason = "`\(modifier.name.text)` initializers belong to classes, whose initializers are not routed"
        } else if initializer.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) {
            candidate.unsupportedReason = "attributes under `#if` are not supported"
        } else if let inlined = initializer.attributes.compactMap({ $0.as(AttributeSyntax.self)?.attributeName.trimmedText })
            .first(where: { ["inlinable", "_transparent", "_alwaysEmitIntoClient", "objc"].contains($0) }) {
            candidate.unsupportedReason = "`@\(inlined)` initializers cannot be replaced"
        } else {
            for parameter in signature.parameterClause.parameters {
                let name = (parameter.secondName ?? parameter.firstName).text
                if parameter.ellipsis != nil || parameter.type.is(AttributedTypeSyntax.self) || (parameter.secondName ?? parameter.firstName).tokenKind == .wildcard
                    || parameter.type.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .arrow }) {
                    candidate.unsupportedReason = "parameter `\(parameter.trimmedText)`: variadic, `inout`, attributed, function-typed and unnamed parameters cannot travel as JSON"
                    break
                }
                if let reason = CodableShape.collect(parameter.type, isResult: false, into: &candidate.codableReferences) {
                    candidate.unsupportedReason = "parameter `\(name)`: \(reason)"
                    break
                }
            }
        }
        result.functions.append(candidate)
    }

    /// A computed property as a function of no parameters returning its type: opted in, checked and
    /// routed as functions are, its getter replaced (`ThunkEmitter.function`).
    private func propertyCandidate(_ variable: VariableDeclSyntax, binding: PatternBindingSyntax, name: TokenSyntax,
                                   contentHash: String, context: DeclarationContext) -> FunctionCandidate {
        let staticModifier = variable.modifiers.first { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
        let dynamicModifier = variable.modifiers.first { $0.name.tokenKind == .keyword(.dynamic) }
        let markers = Self.routingMarkers(variable, keyword: variable.bindingSpecifier)
        var candidate = FunctionCandidate(
            ownerPath: context.typePath, context: context, availability: Self.availabilityAttributes(variable.attributes),
            localID: Self.qualified(context.typePath, name.text), baseName: name.text, parameters: [],
            returnType: binding.typeAnnotation?.type.trimmedText, isStatic: staticModifier != nil, staticKeyword: staticModifier?.name.text ?? "",
            isProperty: true, isInitializer: false, throwsEffect: false,
            hasMarker: markers.patchable,
            isDynamic: dynamicModifier != nil, dynamicInsertion: variable.bindingSpecifier.positionAfterSkippingLeadingTrivia.utf8Offset,
            dynamicRange: dynamicModifier.map(Self.rangeWithTrailingSpace),
            isAccessFileScoped: context.isFileScoped || variable.modifiers.isFileScoped,
            contentHash: contentHash, line: line(of: name), unsupportedReason: nil)
        candidate.hasNativeMarker = markers.native
        Self.recordAccessKeywords(variable.modifiers, of: &candidate)
        // `get` alone, or `get` and `set`: the setter is replaced too (`ThunkEmitter.function`).
        let plainAccessors: Bool
        switch binding.accessorBlock?.accessors {
        case .getter?: plainAccessors = true
        case let .accessors(list)?:
            plainAccessors = list.contains { $0.accessorSpecifier.tokenKind == .keyword(.get) } && list.allSatisfy {
                [.keyword(.get), .keyword(.set)].contains($0.accessorSpecifier.tokenKind) && $0.effectSpecifiers == nil && $0.modifier == nil
            }
            candidate.hasSetter = list.contains { $0.accessorSpecifier.tokenKind == .keyword(.set) }
        case nil: plainAccessors = false
        }
        if !plainAccessors {
            candidate.unsupportedReason = "only computed properties with a plain `get` (and `set`) are routed; this one has effects (`get async`/`get throws`), a `mutating get`, a `nonmutating set` or observers"
        } else if variable.bindings.count > 1 {
            candidate.unsupportedReason = "the property shares its declaration with other variables"
        } else if let type = binding.typeAnnotation?.type {
            if variable.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "objc" }) {
                candidate.unsupportedReason = "`@objc` properties are dispatched by the Objective-C runtime; prepare replaces only native Swift properties"
            } else if let inlined = variable.attributes.compactMap({ $0.as(AttributeSyntax.self)?.attributeName.trimmedText })
                .first(where: { ["inlinable", "_transparent", "_alwaysEmitIntoClient"].contains($0) }) {
                candidate.unsupportedReason = "`@\(inlined)` properties are inlined into their callers and cannot be `dynamic`"
            } else if variable.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) {
                candidate.unsupportedReason = "attributes under `#if` are not supported"
            } else if let reason = CodableShape.collect(type, isResult: true, into: &candidate.codableReferences)
                        ?? (candidate.routesSetter ? CodableShape.collect(type, isResult: false, into: &candidate.codableReferences) : nil) {
                candidate.unsupportedReason = "the property's type: \(reason)"
            }
        } else {
            candidate.unsupportedReason = "the property has no written type"
        }
        return candidate
    }

    /// `contentHash`: the hash of the body's accessor block, already computed for its declaration.
    private func bodyCandidate(_ variable: VariableDeclSyntax, binding: PatternBindingSyntax, name: TokenSyntax,
                               contentHash: String, context: DeclarationContext) -> BodyCandidate {
        let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
        let viewBuilder = attributes.first { ["ViewBuilder", "SwiftUI.ViewBuilder"].contains($0.attributeName.trimmedText) }
        let mainActor = attributes.first { ["MainActor", "_Concurrency.MainActor"].contains($0.attributeName.trimmedText) }
        let insertionToken = variable.modifiers.first?.firstToken(viewMode: .sourceAccurate) ?? variable.bindingSpecifier
        let accessModifiers = variable.modifiers.map(\.name.text).filter { ["public", "package", "open"].contains($0) }
        var candidate = BodyCandidate(
            ownerPath: context.typePath, context: context, availability: Self.availabilityAttributes(variable.attributes),
            nameRange: name.positionAfterSkippingLeadingTrivia.utf8Offset..<name.endPositionBeforeTrailingTrivia.utf8Offset,
            isPrepared: name.text == PreparedNames.nativeBody,
            attributeInsertion: insertionToken.positionAfterSkippingLeadingTrivia.utf8Offset,
            viewBuilderRange: viewBuilder.map(Self.rangeWithTrailingSpace),
            mainActorRange: mainActor.map(Self.rangeWithTrailingSpace),
            accessModifiers: accessModifiers == ["open"] ? ["public"] : accessModifiers,
            contentHash: contentHash,
            line: line(of: name), unsupportedReason: nil)
        if variable.modifiers.isFileScoped { candidate.context.isFileScoped = true }
        let typeText = binding.typeAnnotation?.type.textWithoutWhitespace
        if typeText != "someView" && typeText != "someSwiftUI.View" {
            candidate.unsupportedReason = "`body` is declared as `\(binding.typeAnnotation?.type.trimmedText ?? "(no type)")`, not `some View`; routing would change its type"
        } else if variable.bindings.count > 1 {
            candidate.unsupportedReason = "`body` shares its declaration with other variables"
        } else if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) {
            candidate.unsupportedReason = "`body` is nonisolated; the routing call runs on the main actor"
        } else if case let .accessors(accessors)? = binding.accessorBlock?.accessors,
                  accessors.contains(where: { $0.accessorSpecifier.tokenKind != .keyword(.get) }) {
            candidate.unsupportedReason = "`body` has accessors other than `get`"
        } else if variable.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) {
            candidate.unsupportedReason = "`body` has attributes under `#if`"
        }
        return candidate
    }

    private mutating func visitFunction(_ function: FunctionDeclSyntax, context: DeclarationContext) {
        if Self.isModifierBody(function, context: context) {
            visitModifierBody(function, context: context)
            return
        }
        let signature = function.signature
        let components = signature.parameterClause.parameters.map { Self.signatureComponent($0) }
        let kind: Baseline.Declaration.Kind = context.typePath.isEmpty ? .function : .method
        let localID = Self.qualified(context.typePath, "\(function.name.text)(\(components.joined(separator: ",")))")
        let contentHash = record(localID: localID, kind: kind, node: function) { BehaviourDigest.of(function: function, hash: $0) }
        // Functions in extensions of types and free functions alike can be opted in.
        let markers = Self.routingMarkers(function, keyword: function.funcKeyword)
        let staticModifier = function.modifiers.first { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
        let parameters = signature.parameterClause.parameters.map { parameter in
            FunctionCandidate.Parameter(
                label: parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text,
                internalName: (parameter.secondName ?? parameter.firstName).text,
                type: parameter.type.trimmedText)
        }
        var candidate = FunctionCandidate(
            ownerPath: context.typePath, context: context, availability: Self.availabilityAttributes(function.attributes),
            localID: localID, baseName: function.name.text, parameters: parameters, returnType: signature.returnClause?.type.trimmedText,
            isStatic: staticModifier != nil, staticKeyword: staticModifier?.name.text ?? "",
            isMutating: function.modifiers.contains { $0.name.tokenKind == .keyword(.mutating) },
            throwsEffect: signature.effectSpecifiers?.throwsClause != nil,
            hasMarker: markers.patchable,
            isDynamic: function.modifiers.contains { $0.name.tokenKind == .keyword(.dynamic) },
            dynamicInsertion: function.funcKeyword.positionAfterSkippingLeadingTrivia.utf8Offset,
            dynamicRange: function.modifiers.first { $0.name.tokenKind == .keyword(.dynamic) }.map(Self.rangeWithTrailingSpace),
            isAccessFileScoped: context.isFileScoped || function.modifiers.isFileScoped,
            contentHash: contentHash, line: line(of: function.name), unsupportedReason: nil)
        candidate.hasNativeMarker = markers.native
        Self.recordAccessKeywords(function.modifiers, of: &candidate)
        if signature.effectSpecifiers?.asyncSpecifier != nil {
            candidate.isAsync = true
            candidate.prologueInsertion = function.body?.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset
            candidate.prologue = function.body.flatMap(AsyncPrologue.find(in:))
            candidate.prologueReturnInsertion = function.body.flatMap { AsyncPrologue.returnInsertion(in: $0, returnsValue: candidate.returnsValue) }
        }
        candidate.unsupportedReason = Self.functionUnsupportedReason(function, candidate: candidate)
            ?? Self.collectCodableReferences(function, into: &candidate.codableReferences)
        result.functions.append(candidate)
    }

    /// `func body(content:)` of a type: the shape of `ViewModifier.body(content:)`, whether or not the
    /// type is a `ViewModifier` (the planner knows its conformances).
    private static func isModifierBody(_ function: FunctionDeclSyntax, context: DeclarationContext) -> Bool {
        guard !context.typePath.isEmpty, function.body != nil,
              function.name.text == "body" || function.name.text == PreparedNames.nativeBody,
              !function.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) else { return false }
        let parameters = function.signature.parameterClause.parameters
        return parameters.count == 1 && parameters.first?.firstName.text == "content"
    }

    /// A modifier body is recorded like a view's `body` (`Type.body`, its code block hashed), so
    /// `build` finds a changed one among the view bodies and names it by the same rule.
    private mutating func visitModifierBody(_ function: FunctionDeclSyntax, context: DeclarationContext) {
        guard let code = function.body, let parameter = function.signature.parameterClause.parameters.first else { return }
        let contentHash = ContentHash.of(code)
        let methodID = Self.qualified(context.typePath, "body(\(Self.signatureComponent(parameter)))")
        let methodHash = ContentHash.of(function)
        result.declarations.append(ScannedDeclaration(
            localID: Self.qualified(context.typePath, "body"), kind: .viewBody, contentHash: contentHash,
            behaviour: BehaviourDigest.ofCode(hash: contentHash), line: line(of: function),
            methodForm: .init(localID: methodID, contentHash: methodHash, behaviour: BehaviourDigest.of(function: function, hash: methodHash))))
        let attributes = function.attributes.compactMap { $0.as(AttributeSyntax.self) }
        let viewBuilder = attributes.first { ["ViewBuilder", "SwiftUI.ViewBuilder"].contains($0.attributeName.trimmedText) }
        let mainActor = attributes.first { ["MainActor", "_Concurrency.MainActor"].contains($0.attributeName.trimmedText) }
        let insertionToken = function.modifiers.first?.firstToken(viewMode: .sourceAccurate) ?? function.funcKeyword
        let accessModifiers = function.modifiers.map(\.name.text).filter { ["public", "package", "open"].contains($0) }
        let name = function.name
        var candidate = BodyCandidate(
            ownerPath: context.typePath, context: context, availability: Self.availabilityAttributes(function.attributes),
            nameRange: name.positionAfterSkippingLeadingTrivia.utf8Offset..<name.endPositionBeforeTrailingTrivia.utf8Offset,
            isPrepared: name.text == PreparedNames.nativeBody,
            attributeInsertion: insertionToken.positionAfterSkippingLeadingTrivia.utf8Offset,
            viewBuilderRange: viewBuilder.map(Self.rangeWithTrailingSpace),
            mainActorRange: mainActor.map(Self.rangeWithTrailingSpace),
            accessModifiers: accessModifiers == ["open"] ? ["public"] : accessModifiers,
            contentHash: contentHash, line: line(of: name), unsupportedReason: nil,
            modifierContent: .init(internalName: (parameter.secondName ?? parameter.firstName).text, type: parameter.type.trimmedText))
        if function.modifiers.isFileScoped { candidate.context.isFileScoped = true }
        let returnType = function.signature.returnClause?.type.textWithoutWhitespace
        if returnType != "someView" && returnType != "someSwiftUI.View" {
            candidate.unsupportedReason = "`body(content:)` returns `\(function.signature.returnClause?.type.trimmedText ?? "()")`, not `some View`; routing would change its type"
        } else if function.genericParameterClause != nil || function.genericWhereClause != nil {
            candidate.unsupportedReason = "`body(content:)` is generic; the routing method must be the protocol witness"
        } else if function.signature.effectSpecifiers != nil {
            candidate.unsupportedReason = "`body(content:)` is `async` or `throws`, which `ViewModifier.body(content:)` is not"
        } else if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) {
            candidate.unsupportedReason = "`body(content:)` is nonisolated; the routing call runs on the main actor"
        } else if (parameter.secondName ?? parameter.firstName).tokenKind == .wildcard {
            candidate.unsupportedReason = "`body(content _:)` does not name its content, which the routing method passes on"
        } else if function.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) {
            candidate.unsupportedReason = "`body(content:)` has attributes under `#if`"
        }
        result.bodies.append(candidate)
    }

    /// A member's own `private` or `fileprivate` keyword: `prepare` routes a `private` member by
    /// widening it to `fileprivate` (`PrivateMemberWidening`); free functions need no widening.
    private static func recordAccessKeywords(_ modifiers: DeclModifierListSyntax, of candidate: inout FunctionCandidate) {
        guard !candidate.ownerPath.isEmpty else { return }
        candidate.privateKeyword = PrivateMemberWidening.privateKeyword(modifiers)
        candidate.fileprivateKeyword = PrivateMemberWidening.fileprivateKeyword(modifiers)
    }

    /// Why a `mutating` async method is not routed: the guest refuses it (docs/async.md).
    static let mutatingAsyncReason = "`mutating` async methods are not routed: the module's copy of `self` would have to be written back across the suspension (docs/async.md)"

    private static func functionUnsupportedReason(_ function: FunctionDeclSyntax, candidate: FunctionCandidate) -> String? {
        let signature = function.signature
        // Whether an instance method's receiver can travel is the planner's to say: it knows the type.
        switch function.name.tokenKind {
        case .binaryOperator, .prefixOperator, .postfixOperator:
            return "operators cannot be replaced through a named thunk; move the logic into a named static function and call it from the operator"
        default: break
        }
        if candidate.context.isInGenericType {
            return "members of generic types cannot be replaced (one export would have to serve every specialization)"
        }
        if function.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "objc" }) {
            return "`@objc` functions are dispatched by the Objective-C runtime; prepare replaces only native Swift functions (remove `@objc` or patch a function it calls)"
        }
        if let inlined = function.attributes.compactMap({ $0.as(AttributeSyntax.self)?.attributeName.trimmedText })
            .first(where: { ["inlinable", "_transparent", "_alwaysEmitIntoClient"].contains($0) }) {
            return "`@\(inlined)` functions are inlined into their callers and cannot be `dynamic`; remove `@\(inlined)` to patch it"
        }
        if function.genericParameterClause != nil || function.genericWhereClause != nil {
            return "generic functions cannot be called through JSON with a fixed export"
        }
        if signature.effectSpecifiers?.asyncSpecifier != nil {
            // Routed by a prologue in its body (`AsyncPrologue`), which a requirement has not.
            if function.body == nil { return "an async function without a body has nothing to route" }
            if candidate.isMutating { return mutatingAsyncReason }
        }
        if let throwsClause = signature.effectSpecifiers?.throwsClause, throwsClause.throwsSpecifier.tokenKind == .keyword(.rethrows) {
            return "rethrowing functions take closures, which cannot travel as JSON"
        }
        if signature.effectSpecifiers?.throwsClause?.type != nil {
            return "typed `throws(…)` is not supported: the thunk can only rethrow what the original throws untyped"
        }
        if let ownership = function.modifiers.first(where: { [.keyword(.consuming), .keyword(.borrowing), .keyword(.nonmutating)].contains($0.name.tokenKind) }) {
            return "`\(ownership.name.text)` methods are not supported (the thunk reads and writes `self` as an ordinary or `mutating` method does)"
        }
        // A Void function is routed: the module runs its effects (through host bridges) and answers
        // `{}` (docs/prepare.md "Void functions"). One that never returns has no answer to wait for.
        let returnType = candidate.returnType ?? "Void"
        if returnType == "Never" {
            return "the function never returns (`Never`); a module call must return to its caller"
        }
        if returnType.hasPrefix("some ") || returnType.hasPrefix("any ") { return "opaque or existential results cannot be decoded from JSON" }
        for parameter in signature.parameterClause.parameters {
            if parameter.ellipsis != nil { return "variadic parameters are not supported" }
            if let attributed = parameter.type.as(AttributedTypeSyntax.self), !attributed.specifiers.isEmpty {
                return "`inout` and ownership-annotated parameters are not supported"
            }
            if parameter.type.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .arrow }) {
                return "parameters of function type cannot travel as JSON"
            }
            if (parameter.secondName ?? parameter.firstName).tokenKind == .wildcard {
                return "a parameter without a name (`_: \(parameter.type.trimmedText)`) cannot be passed to the module, which receives arguments by name; name it"
            }
        }
        if function.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) { return "attributes under `#if` are not supported" }
        return nil
    }

    /// The named types the parameters and the result must show Codable, or why a type never can be.
    private static func collectCodableReferences(_ function: FunctionDeclSyntax, into references: inout [CodableReference]) -> String? {
        for parameter in function.signature.parameterClause.parameters {
            let name = (parameter.secondName ?? parameter.firstName).text
            if let reason = CodableShape.collect(parameter.type, isResult: false, into: &references) {
                return "parameter `\(name)`: \(reason)"
            }
        }
        if let returnType = function.signature.returnClause?.type, !["Void", "()"].contains(returnType.textWithoutWhitespace),
           let reason = CodableShape.collect(returnType, isResult: true, into: &references) {
            return "the result: \(reason)"
        }
        return nil
    }

    /// The `// @patchable` and `// @native` comments of a declaration: on the lines above it (`///`
    /// too) or between its attributes, its modifiers and `keyword` (`func`, `var`, `init`, `subscript`).
    static func routingMarkers(_ decl: some WithAttributesSyntax & WithModifiersSyntax, keyword: TokenSyntax) -> (patchable: Bool, native: Bool) {
        var markers = (patchable: false, native: false)
        // The declaration's own leading trivia is its first token's: the first attribute's, modifier's or the keyword's.
        for trivia in decl.attributes.map(\.leadingTrivia) + decl.modifiers.map(\.leadingTrivia) + [keyword.leadingTrivia] {
            for piece in trivia {
                let text: String
                switch piece {
                case let .lineComment(comment), let .docLineComment(comment): text = comment
                default: continue
                }
                markers.patchable = markers.patchable || isMarkerComment(text, PreparedNames.patchableMarker)
                markers.native = markers.native || isMarkerComment(text, PreparedNames.nativeMarker)
            }
        }
        return markers
    }

    /// `// @native`, `// @native: hot path`, not `// @nativeLayout`.
    private static func isMarkerComment(_ text: String, _ marker: String) -> Bool {
        let content = text.drop { $0 == "/" }.trimmingPrefix(while: { $0 == " " })
        guard content.hasPrefix(marker) else { return false }
        guard let next = content.dropFirst(marker.count).first else { return true }
        return !(next.isLetter || next.isNumber || next == "_")
    }

    // MARK: - Helpers

    private static func rangeWithTrailingSpace(_ node: some SyntaxProtocol) -> Range<Int> {
        node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPosition.utf8Offset
    }

    /// Records a declaration and returns its content hash; `behaviour` digests it given that hash.
    @discardableResult
    private mutating func record(localID: String, kind: Baseline.Declaration.Kind, node: some SyntaxProtocol,
                                 behaviour: (String) -> Baseline.Behaviour) -> String {
        let contentHash = ContentHash.of(node)
        result.declarations.append(ScannedDeclaration(localID: localID, kind: kind, contentHash: contentHash, behaviour: behaviour(contentHash),
                                                      line: line(of: node)))
        return contentHash
    }

    private static func qualified(_ path: [String], _ member: String) -> String {
        (path + [member]).joined(separator: ".")
    }

    /// `label:Type` with the type's tokens joined without spaces, so formatting never changes ids.
    private static func signatureComponent(_ parameter: FunctionParameterSyntax) -> String {
        let type = parameter.type.tokens(viewMode: .sourceAccurate).map(\.text).joined()
        return "\(parameter.firstName.text):\(type)\(parameter.ellipsis == nil ? "" : "...")"
    }

    /// Stored properties (no accessors, or only observers) make up a type's layout.
    static func isStoredLayoutMember(_ variable: VariableDeclSyntax) -> Bool {
        guard !variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) else { return false }
        return variable.bindings.allSatisfy { binding in
            guard let accessors = binding.accessorBlock else { return true }
            if case let .accessors(list) = accessors.accessors {
                return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
            }
            return false
        }
    }

    static func typePath(of type: TypeSyntax) -> [String] {
        if let member = type.as(MemberTypeSyntax.self) {
            return typePath(of: member.baseType) + [member.name.text]
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return [identifier.name.text]
        }
        return [type.trimmedText]
    }

    private static func inheritedNames(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map(\.type.textWithoutWhitespace) ?? []
    }

    private static func availabilityAttributes(_ attributes: AttributeListSyntax) -> [String] {
        attributes.compactMap { element in
            guard let attribute = element.as(AttributeSyntax.self), attribute.attributeName.trimmedText == "available" else { return nil }
            return attribute.trimmedText
        }
    }
}

/// 1-based line numbers of byte offsets, counted as `SourceLocationConverter` counts them (`\n`,
/// `\r\n` and a lone `\r` end a line) but from the bytes alone: building a converter walks every
/// trivia piece of the tree, a tenth of a file's scan.
struct LineTable {
    /// Offset of the first byte of each line.
    private var lineStarts = [0]

    init(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                lineStarts.append(index + 1)
            case UInt8(ascii: "\r"):
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
                lineStarts.append(index + 1)
            default:
                break
            }
            index += 1
        }
    }

    func line(at offset: Int) -> Int {
        // The number of lines starting at or before `offset`.
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
