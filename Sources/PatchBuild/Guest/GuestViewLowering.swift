import PatchManifest
import SwiftSyntax

/// A changed SwiftUI view body the shipped binary routes: what `build` lowers into the module.
public struct GuestViewRequest: Sendable, Equatable {
    /// The baseline id of the body (`Target:Type.body`), the key of its `DeclarationChange`.
    public var declarationID: String
    /// The name the shipped thunk passes to the SDK (`PatchNames.viewTypeNames`): the manifest `type`.
    public var typeName: String
    /// The view type's path in its target (`["Outer", "Row"]`).
    public var path: [String]
    /// The host tokens the shipped thunk passes (the baseline's record of the body): all the body
    /// may read of `@Environment` and observed models.
    public var shippedTokens: [Baseline.Token]
    /// `@State` fields whose default changed since the shipped build (`ViewStateShipping`): the
    /// native view still starts them from the old one, so the guest takes its own default until its
    /// dispatch returned the field.
    public var reinitializedState: [String]
    /// The types of the Codable host values the view reads from JSON tokens, as the guest spells them
    /// (`[Model.Item]`; `ViewTokenRewrite` sets them): each project type in them gets its codec.
    var jsonTokenTypes: [String] = []

    public init(declarationID: String, typeName: String, path: [String], shippedTokens: [Baseline.Token] = [],
                reinitializedState: [String] = []) {
        self.declarationID = declarationID
        self.typeName = typeName
        self.path = path
        self.shippedTokens = shippedTokens
        self.reinitializedState = reinitializedState
    }

    public var bodyExport: String { PatchNames.viewBodyExport(typeName: typeName) }
    public var dispatchExport: String { PatchNames.viewDispatchExport(typeName: typeName) }
}

/// One view the guest compiles: its type, the inputs it reads and the `@State` it owns.
struct GuestViewPlan {
    /// How a stored property of the view is filled from the flat inputs (sdk-contract §5.4).
    struct Input {
        enum Fill {
            /// No default: the input must be present.
            case required
            /// A default in the declaration: the input overrides it when present.
            case overridesDefault
            /// `@State`: the input (the native value, or the state the last dispatch returned) wins.
            case state
            /// `@Binding`: the parent's current value, which must be in the inputs; it is state the
            /// dispatch returns, and the host writes it back into the native binding.
            case binding
            /// `@AppStorage`: the stored value the host reads into the inputs; it is state the
            /// dispatch returns, and the host writes scalars back into the store (§5.4).
            case appStorage
        }
        let name: String
        let fill: Fill
    }

    let request: GuestViewRequest
    let type: Int
    /// A `ViewModifier`: its export evaluates `body(content:)` around the native content
    /// (`_PatchModifierBody`, templates/guest/ViewDSL+ViewModifier.swift).
    let isModifier: Bool
    let inputs: [Input]
    /// A generic view's parameters and the properties holding the views the parent passes: the
    /// guest instantiates it with `_PatchOpaque`, each property the opaque node of its slot.
    var genericContent: ViewGenericContent? = nil
    /// The project's structs and enums the inputs carry (with the ones they carry in turn): each
    /// gets the generated codec of function arguments.
    var codecTypes: Set<Int> = []
    var state: [String] { inputs.filter { $0.fill != .required && $0.fill != .overridesDefault }.map(\.name) }
    /// The module has a dispatch export for the view when its body can change state.
    var isInteractive: Bool { !state.isEmpty }
}

/// Lowers view types onto the guest view DSL (templates/guest/ViewDSL.swift): the view's own
/// declaration is copied as written (its `body` compiles against the DSL's SwiftUI-shaped types), and
/// the glue built here decodes its properties from the inputs and exports `view_body__<Name>`,
/// `dispatch__<Name>` and `patch_view_manifest` (sdk-contract §5.3, §5.4).
struct GuestViewLowering {
    let index: GuestSourceIndex

    /// Property wrappers the DSL implements: the ones whose value the host puts in the inputs (§5.4).
    /// Any other (`@Environment`, `@ObservedObject`, `@SceneStorage`, …) reads something the inputs
    /// do not carry, so the view stays native.
    static let supportedWrappers: Set<String> = ["State", "Binding", "AppStorage"]
    /// The highest IR schema the DSL's trees use (§5.5; each emission states the lowest its own
    /// tree needs): the manifest's `schemaVersion`.
    static let schemaVersion = 6
    /// Host color and font tokens (`hostToken`, `fontToken`) are IR v4.
    static let tokenSchemaVersion = 4
    /// The key a dispatch's state carries (`true`) in a view that re-initialises `@State`: the inputs
    /// hold state the guest returned, not the native field's old default. No native property has
    /// this name, so the host writes nothing back for it (sdk-contract §5.4: write-back targets are
    /// the view's `@State`/`@Binding`/`@AppStorage`).
    static let dispatchedStateKey = "__patch_dispatched"
    /// Why a view whose code awaits stays native (the DSL's unavailable `.task` overloads say the same).
    static let awaitingViewDetail = "the guest has no async (no Swift concurrency in the device's WebAssembly build): a .task whose body awaits is native-only; a .task body without await lowers"

    func plan(_ request: GuestViewRequest) -> Result<GuestViewPlan, GuestUnpatchable> {
        guard let type = index.lookupType(path: request.path) else {
            return .failure(GuestUnpatchable(declarationID: request.declarationID, reason: .notFound,
                                             detail: "no declaration of \(request.path.joined(separator: ".")) in the sources a device build compiles (the active `#if` branches of \(index.platform == .iOS ? "an" : "a") \(index.platform.displayName) release build)",
                                             location: nil))
        }
        let entry = index.types[type]
        let file = index.files[entry.file]
        func problem(_ detail: String, at node: some SyntaxProtocol) -> Result<GuestViewPlan, GuestUnpatchable> {
            .failure(GuestUnpatchable(declarationID: request.declarationID, reason: .viewNotLowerable, detail: detail,
                                      location: GuestSourceLocation(file: index.files[entry.file].relativePath, line: file.line(of: node))))
        }
        guard entry.kind == .structType else {
            return problem("only struct views lower; \(entry.qualifiedName) is a\(entry.kind == .enumType || entry.kind == .actorType ? "n" : "") \(entry.kind.rawValue)", at: entry.decl)
        }
        // A generic view lowers when its parameters are the views the parent passes: the shipped
        // thunk must pass each as a slot (a thunk `prepare` generated before generic views lowered does not).
        let genericContent: ViewGenericContent?
        switch ViewGenericContent.of(type, in: index) {
        case .failure(let refusal):
            return .failure(GuestUnpatchable(declarationID: request.declarationID, reason: .viewNotLowerable, detail: refusal.detail, location: refusal.location))
        case .success(let content):
            genericContent = content
        }
        for property in genericContent?.properties ?? [] where !request.shippedTokens.contains(where: { $0.id == property.slot.id && $0.kind == .slot }) {
            let passed = request.shippedTokens.map { "`\($0.expression)`" }.joined(separator: ", ")
            return .failure(GuestUnpatchable(
                declarationID: request.declarationID, reason: .viewNeedsNewHostValue,
                detail: "uses `\(property.slot.expression)`, the view the parent passes, as the slot \(property.slot.id), which the shipped thunk does not pass (it passes \(passed.isEmpty ? "none" : passed)); ship a new app build to patch this generic view",
                location: GuestSourceLocation(file: index.files[property.file].relativePath, line: property.line)))
        }
        // Said before compiling: the guest's async transform (docs/async.md) gives the project's async
        // functions a continuation parameter, so an awaiting `.task` closure would otherwise fail on
        // the call's arguments before the DSL's `.task` could name the reason. A view's own async
        // method counts too: only a function the thunk calls runs as a task of the pump.
        for member in entry.members where member.kind != .storedProperty {
            if let site = GuestReferenceCollector.collect(member.decl).asyncSites.first {
                let memberFile = index.files[member.file]
                return .failure(GuestUnpatchable(declarationID: request.declarationID, reason: .viewNotLowerable, detail: Self.awaitingViewDetail,
                                                 location: GuestSourceLocation(file: memberFile.relativePath, line: memberFile.line(of: site))))
            }
        }
        var inputs: [GuestViewPlan.Input] = []
        var codecTypes: Set<Int> = []
        // The views the parent passes are the slots' opaque nodes (`emitGlue`), never inputs
        // (`@ViewBuilder var content: Content`, whose attribute is no wrapper of the inputs).
        let genericNames = Set(genericContent?.properties.map(\.name) ?? [])
        for member in entry.members where member.kind == .storedProperty {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.bindings.allSatisfy({ $0.pattern.as(IdentifierPatternSyntax.self).map { genericNames.contains($0.identifier.text) } ?? false }) { continue }
            let memberFile = index.files[member.file]
            var wrapper: String?
            for attribute in variable.attributes {
                guard let attribute = attribute.as(AttributeSyntax.self) else { continue }
                let name = attribute.attributeName.trimmedText
                guard Self.supportedWrappers.contains(name) else {
                    return .failure(GuestUnpatchable(
                        declarationID: request.declarationID, reason: .viewNotLowerable,
                        detail: "property wrapper @\(name) on `\(variable.bindings.trimmedText)`: the host does not put its value in the view's inputs (sdk-contract §5.4 passes plain stored properties, @State, @Binding and @AppStorage only)",
                        location: GuestSourceLocation(file: memberFile.relativePath, line: memberFile.line(of: attribute))))
                }
                wrapper = name
            }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, genericNames.contains(name) { continue }
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
                    return problem("a stored property bound by a pattern (`\(binding.pattern.trimmedText)`) does not lower", at: binding)
                }
                let hasDefault = binding.initializer != nil
                    || (!isLet && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true)
                if wrapper == nil, let type = binding.typeAnnotation?.type, Self.isClosure(type) {
                    // The host skips closures (§5.4): the declaration's default is all the guest has.
                    guard hasDefault else {
                        return problem("closure property `\(binding.trimmedText)` has no default, and the host does not pass closures in the view's inputs", at: binding)
                    }
                    continue
                }
                if wrapper != nil || !(isLet && binding.initializer != nil),
                   let unreadable = unreadableInput(binding, in: entry.path, codecTypes: &codecTypes) {
                    return .failure(GuestUnpatchable(
                        declarationID: request.declarationID, reason: .viewNotLowerable,
                        detail: "stored property `\(binding.trimmedText)` cannot be read from the view's inputs: \(unreadable.detail)",
                        location: unreadable.location ?? GuestSourceLocation(file: memberFile.relativePath, line: memberFile.line(of: binding))))
                }
                if wrapper == "Binding" {
                    inputs.append(.init(name: name, fill: .binding))
                } else if wrapper == "AppStorage" {
                    inputs.append(.init(name: name, fill: .appStorage))
                } else if wrapper != nil {
                    inputs.append(.init(name: name, fill: .state))
                } else if !hasDefault {
                    inputs.append(.init(name: name, fill: .required))
                } else if !isLet {
                    inputs.append(.init(name: name, fill: .overridesDefault))
                }
                // A `let` with a default cannot be set from outside: the inputs do not change it.
            }
        }
        for written in request.jsonTokenTypes {
            // `ViewTokenAnalysis.jsonValue` checked that the codecs read every type in it.
            if let syntax = ValueMirrorPlanner.parseType(written), case .success(let type) = GuestSignatureReader(index: index).resolve(syntax, scope: []) {
                _ = addCodecTypes(of: type, codecTypes: &codecTypes)
            }
        }
        return .success(GuestViewPlan(request: request, type: type, isModifier: Self.hasModifierBody(entry), inputs: inputs,
                                      genericContent: genericContent, codecTypes: codecTypes))
    }

    /// Whether the type declares `func body(content:)`: `prepare` routed it as a `ViewModifier`'s
    /// body (a view's `body` is a property), wherever the conformance is written.
    static func hasModifierBody(_ entry: GuestTypeEntry) -> Bool {
        entry.members.contains { member in
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "body" else { return false }
            let parameters = function.signature.parameterClause.parameters
            return parameters.count == 1 && parameters.first?.firstName.text == "content"
        }
    }

    /// A `ViewModifier` as the guest copies it: a lowered one, or one its declaration says is.
    static func isModifier(_ entry: GuestTypeEntry, lowered: Bool) -> Bool {
        hasModifierBody(entry) && (lowered || entry.inheritedNames.contains { $0 == "ViewModifier" || $0 == "SwiftUI.ViewModifier" })
    }

    /// The reader of the types a view's inputs carry: the project's structs and enums, and the DSL's
    /// Foundation stand-ins.
    var reader: GuestSignatureReader { GuestSignatureReader(index: index, resolvesViewStandIns: true) }

    /// Why a stored property cannot be decoded from the inputs, nil when it can. Its type is the one
    /// written, or that of a literal or of a project type's initializer or static member (`= Filter()`,
    /// `= Filter.all`); when neither says, the guest compiler checks it. The project types it carries,
    /// and the ones they carry in turn, are added to `codecTypes`: each gets the generated codec of
    /// function arguments.
    private func unreadableInput(_ binding: PatternBindingSyntax, in scope: [String], codecTypes: inout Set<Int>) -> GuestSignatureReader.Problem? {
        var written = binding.typeAnnotation?.type ?? InitialValueType.inferred(binding.initializer?.value)
        if written == nil, let named = Self.namedType(of: binding.initializer?.value), !index.resolveType(named: named, from: scope).isEmpty {
            written = TypeSyntax(IdentifierTypeSyntax(name: .identifier(named)))
        }
        guard let written else { return nil }
        let type: GuestValueType
        switch reader.resolve(written, scope: scope) {
        case .success(let resolved): type = resolved
        case .failure(let problem): return problem
        }
        return addCodecTypes(of: type, codecTypes: &codecTypes)
    }

    /// Adds the project types `type` carries, and the ones they carry in turn, to `codecTypes`; the
    /// problem of the first whose shape the codecs cannot read.
    private func addCodecTypes(of type: GuestValueType, codecTypes: inout Set<Int>) -> GuestSignatureReader.Problem? {
        var pending = type.projectTypes()
        while let project = pending.popLast() {
            guard codecTypes.insert(project).inserted else { continue }
            switch reader.codableShape(of: project) {
            case .success(let shape): pending.append(contentsOf: shape.referencedTypes)
            case .failure(let problem): return problem
            }
        }
        return nil
    }

    /// `Filter()`, `Filter(name: "a")`, `Filter.all`: the type the initial value names (for the
    /// project's own types, the value's type but for a static member of another type).
    static func namedType(of value: ExprSyntax?) -> String? {
        if let call = value?.as(FunctionCallExprSyntax.self) { return call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text }
        return value?.as(MemberAccessExprSyntax.self)?.base?.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    /// `() -> Void`, `((Item) -> Void)?`, `@escaping …`: a closure type.
    static func isClosure(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) { return true }
        if let optional = type.as(OptionalTypeSyntax.self) { return isClosure(optional.wrappedType) }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return isClosure(optional.wrappedType) }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isClosure(attributed.baseType) }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first { return isClosure(only.type) }
        return false
    }

    /// The members the view's copy needs: all of its own (the routing `body` `prepare` generates is
    /// not among them: generated files are not indexed).
    func units(of plan: GuestViewPlan) -> [GuestUnit] {
        var units: [GuestUnit] = [.typeShell(plan.type)]
        for (position, member) in index.types[plan.type].members.enumerated() where member.kind != .nestedType {
            units.append(.member(type: plan.type, member: position))
        }
        return units
    }

    /// Everything the view's copy needs. A view, modifier or toolbar content of the project that the
    /// body uses is evaluated through its own `body`, which no name in the code reaches: the bodies
    /// of the views, modifiers and toolbar contents in the closure are added until none is missing.
    func closure(of plan: GuestViewPlan, closureBuilder: GuestDependencyClosure) -> Set<GuestUnit> {
        var closure = units(of: plan).reduce(into: Set<GuestUnit>()) { $0.formUnion(closureBuilder.closure(of: $1)) }
        var grew = true
        while grew {
            grew = false
            for case .typeShell(let type) in closure
            where index.types[type].inheritedNames.contains("View") || index.types[type].inheritedNames.contains("ToolbarContent")
                || Self.isModifier(index.types[type], lowered: type == plan.type) {
                for (position, member) in index.types[type].members.enumerated() where member.names == ["body"] {
                    let body = GuestUnit.member(type: type, member: position)
                    guard !closure.contains(body) else { continue }
                    closure.formUnion(closureBuilder.closure(of: body))
                    grew = true
                }
            }
        }
        return closure
    }

    /// Why the view's copy cannot compile: its closure reaches a stored property of another type with
    /// a wrapper only the host fills (`ViewTokenAnalysis.nativeChildWrappers`), which the guest does
    /// not declare. A child view naming one is a slot where it is a statement of the body
    /// (`AccountStack(title:)`); this is the child reached otherwise (through a helper of another
    /// type: `screen.destination`), said before the guest compiler would fail on the copy.
    func nativeWrapperProblem(in closure: Set<GuestUnit>, for plan: GuestViewPlan) -> GuestUnpatchable? {
        for case .member(let type, let position) in closure.sorted() where type != plan.type {
            let member = index.types[type].members[position]
            guard member.kind == .storedProperty, let variable = member.decl.as(VariableDeclSyntax.self),
                  let wrapper = ViewTokenAnalysis.nativeChildWrapper(of: variable) else { continue }
            let file = index.files[member.file]
            let name = index.types[type].qualifiedName
            let declaration = variable.trimmedText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return GuestUnpatchable(
                declarationID: plan.request.declarationID, reason: .viewNotLowerable,
                detail: "its code reaches \(name), which declares `\(declaration)`: only the host fills @\(wrapper), so \(name) renders natively only as a slot, a statement of the lowered body naming it (`\(name)(…)`), not through other code such as a helper of another type",
                location: GuestSourceLocation(file: file.relativePath, line: file.line(of: variable)))
        }
        return nil
    }

    /// `init(_patchInputs:)` and the body and dispatch exports of one view.
    func emitGlue(for plan: GuestViewPlan, into writer: inout GuestSourceWriter) {
        let declaredName = index.types[plan.type].qualifiedName
        // The type the exports evaluate: a generic view instantiated with the guest's opaque node.
        let typeName = plan.genericContent.map { $0.instantiated(declaredName) } ?? declaredName
        let symbol = plan.request.typeName
        writer.line("extension \(declaredName)\(plan.genericContent.map { " " + $0.whereClause } ?? "") {")
        writer.line("    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {")
        // The body's token reads (ViewTokenRewrite) find the `__strtok_`/`__numtok_` inputs here, and
        // a GeometryReader (templates/guest/ViewDSL+Geometry.swift) the `__geo_*` ones, which any
        // view's host may pass (§5.4).
        writer.line("        _patchTokenInputs = inputs")
        if let generic = plan.genericContent {
            for property in generic.properties {
                writer.line("        self.\(SwiftIdentifier.escaped(property.name)) = \(generic.guestValue(of: property))")
            }
        }
        for input in plan.inputs {
            let key = Self.literal(input.name)
            switch input.fill {
            case .required:
                writer.line("        self.\(input.name) = try inputs.decode(\(key))")
            case .overridesDefault:
                writer.line("        if inputs.hasMember(\(key)) { self.\(input.name) = try inputs.decode(\(key)) }")
            case .state where plan.request.reinitializedState.contains(input.name):
                // Its new default, until the state a dispatch returned comes back in the inputs.
                writer.line("        if inputs.hasMember(\(Self.literal(Self.dispatchedStateKey))), inputs.hasMember(\(key)) { self._\(input.name) = State(wrappedValue: try inputs.decode(\(key))) }")
                writer.line("        self._\(input.name)._patchNamed(\(key))")
            case .state:
                writer.line("        if inputs.hasMember(\(key)) { self._\(input.name) = State(wrappedValue: try inputs.decode(\(key))) }")
                // The controls bound to it send the field's name as their event id (docs/views.md "Events").
                writer.line("        self._\(input.name)._patchNamed(\(key))")
            case .binding:
                writer.line("        self._\(input.name) = Binding(_patchValue: try inputs.decode(\(key)), name: \(key))")
            case .appStorage:
                // The wrapper keeps its key and store from the declaration; only the value is the host's.
                writer.line("        if inputs.hasMember(\(key)) { self._\(input.name).wrappedValue = try inputs.decode(\(key)) }")
            }
        }
        writer.line("    }")
        if plan.isInteractive {
            // Inside the extension, where the view's private state is visible. The guest re-emits
            // only its state fields (§5.4), sorted as the host sorts inputs.
            writer.line("    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {")
            let marks = !plan.request.reinitializedState.isEmpty
            for (position, name) in (plan.state + (marks ? [Self.dispatchedStateKey] : [])).sorted().enumerated() {
                let key = (position == 0 ? "{" : ",") + "\\\"" + name + "\\\":"
                writer.line("        writer.append(\"\(key)\")")
                writer.line(name == Self.dispatchedStateKey ? "        writer.append(\"true\")" : "        view.\(name)._patchEncode(into: &writer)")
            }
            writer.line("        writer.append(\"}\")")
            writer.line("    }")
        }
        writer.line("}")
        // A modifier's export evaluates its body around the native content, the `op_content` slot.
        let make = plan.isModifier ? "_PatchModifierBody(_modifier: try \(typeName)(_patchInputs: inputs))" : "try \(typeName)(_patchInputs: inputs)"
        writer.line("@_cdecl(\"\(plan.request.bodyExport)\")")
        writer.line("func _patch_view_body__\(symbol)(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {")
        writer.line("    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in \(make) }")
        writer.line("}")
        guard plan.isInteractive else { return }
        let writeState = plan.isModifier ? "{ body, writer in \(typeName)._patchWriteState(body._modifier, into: &writer) }" : "\(typeName)._patchWriteState"
        writer.line("@_cdecl(\"\(plan.request.dispatchExport)\")")
        writer.line("func _patch_dispatch__\(symbol)(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {")
        writer.line("    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in \(make) }, \(writeState))")
        writer.line("}")
    }

    /// `patch_view_manifest` (§5.3) listing every lowered view.
    static func emitManifest(for plans: [GuestViewPlan], into writer: inout GuestSourceWriter) {
        var views: [String] = []
        for plan in plans {
            let dispatch = plan.isInteractive ? "\\\"\(plan.request.dispatchExport)\\\"" : "null"
            views.append("{\\\"type\\\":\\\"\(plan.request.typeName)\\\",\\\"export\\\":\\\"\(plan.request.bodyExport)\\\",\\\"dispatch\\\":\(dispatch),\\\"thunkSafe\\\":true}")
        }
        writer.line("@_cdecl(\"patch_view_manifest\")")
        writer.line("func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {")
        writer.line("    var writer = _PatchJSONWriter()")
        let usesTokenReferences = plans.contains { plan in plan.request.shippedTokens.contains { $0.kind == .color || $0.kind == .font } }
        writer.line("    writer.append(\"{\\\"schemaVersion\\\":\(usesTokenReferences ? tokenSchemaVersion : schemaVersion),\\\"views\\\":[\(views.joined(separator: ","))]}\")")
        writer.line("    return writer.packedResult()")
        writer.line("}")
    }

    /// A Swift string literal of an identifier (identifiers need no escaping).
    private static func literal(_ name: String) -> String { "\"" + name + "\"" }
}
