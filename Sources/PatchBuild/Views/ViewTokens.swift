import Foundation
import PatchManifest
import SwiftSyntax

/// A value a view's body reads from something the host does not put in its inputs (sdk-contract
/// §5.4: `@Environment`, `@ObservedObject`/`@StateObject`/`@EnvironmentObject`/`@Bindable` models,
/// `@Observable` classes), which the shipped thunk evaluates natively and passes as a host token
/// (§5.1 `tokens:`): strings and numbers arrive in the inputs as `__strtok_<id>`/`__numtok_<id>`,
/// colors and fonts are referenced from the IR (`hostToken`, `fontToken`).
struct ViewToken: Hashable, Sendable {
    /// What the expression is in Swift: how the thunk wraps it and how the guest reads it back.
    enum ValueType: String, Sendable {
        case string = "String", int = "Int", double = "Double", cgFloat = "CGFloat", float = "Float"
        /// `Bool`, and a comparison of an enum read (`colorScheme == .dark`): a number token 0/1.
        case bool = "Bool"
        case color = "Color", font = "Font"
        /// A leaf view the DSL cannot lower (`Map(…)`): a slot, which the thunk passes as a native view.
        case view = "View"

        var kind: Baseline.Token.Kind {
            switch self {
            case .string: .string
            case .int, .double, .cgFloat, .float, .bool: .number
            case .color: .color
            case .font: .font
            case .view: .slot
            }
        }
    }

    /// `st_`/`nt_`/`ct_`/`ft_`/`op_` + `ViewToken.hash`.
    let id: String
    let type: ValueType
    /// The expression as the thunk evaluates it on the view (its tokens joined by single spaces
    /// where the source had any trivia).
    let expression: String

    var kind: Baseline.Token.Kind { type.kind }
    var record: Baseline.Token { Baseline.Token(id: id, kind: kind, expression: expression) }

    /// The id is content-stable: the first 12 hex digits of SHA-256 of `<view type path>\n<expression>`,
    /// after the kind's prefix. Prepare (for the thunk) and build (for the guest) derive it from the
    /// same source text, so the ids agree without any table shared at runtime; the same read in
    /// another view, or another read in this one, gets another id.
    init(viewPath: [String], type: ValueType, expression: String) {
        let digest = SHA256Hasher.hex(of: Array((viewPath.joined(separator: ".") + "\n" + expression).utf8))
        self.id = type.kind.idPrefix + digest.prefix(12)
        self.type = type
        self.expression = expression
    }

    /// The thunk's entry (`"st_…": .string(model.title)`), a `PatchHostToken` (§11); for a slot, the
    /// entry of `slots:` (`"op_…": { AnyView(Map(…)) }`), whose closure captures the view.
    var thunkEntry: String {
        let value: String
        switch type {
        case .view: return "\"\(id)\": { AnyView(\(expression)) }"
        case .string: value = ".string(\(expression))"
        case .int, .double, .cgFloat, .float: value = ".number(Double(\(expression)))"
        case .bool: value = ".number((\(expression)) ? 1 : 0)"
        case .color: value = ".color(\(expression))"
        case .font: value = ".font(\(expression))"
        }
        return "\"\(id)\": \(value)"
    }

    /// What replaces the expression in the guest's copy of the view (templates/guest/ViewDSL+Tokens.swift).
    var guestRead: String {
        let number = "_patchNumberToken(\"__numtok_\(id)\")"
        switch type {
        case .string: return "_patchStringToken(\"__strtok_\(id)\")"
        case .double, .cgFloat: return number
        case .int: return "Int(\(number))"
        case .float: return "Float(\(number))"
        case .bool: return "(\(number) != 0)"
        case .color: return "Color(_patchHostToken: \"\(id)\")"
        case .font: return "Font(_patchHostToken: \"\(id)\")"
        case .view: return "_PatchOpaque(\"\(id)\", label: \"\(slotLabel)\")"
        }
    }

    /// A slot's `label` in the IR (§5.6.4 `opaque`): the name of the view it stands for (`Map`).
    var slotLabel: String {
        String(expression.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
    }
}

extension Baseline.Token.Kind {
    var idPrefix: String {
        switch self {
        case .string: "st_"
        case .number: "nt_"
        case .color: "ct_"
        case .font: "ft_"
        case .slot: "op_"
        }
    }
}

/// A view's host reads: the tokens, where each is read, and the declarations of the host properties.
struct ViewTokenTable {
    struct Use {
        let token: ViewToken
        /// The host property the expression starts from.
        let root: String
        let file: Int
        /// UTF-8 offsets of the expression in the file's text.
        let range: Range<Int>
        let line: Int
    }
    /// Sorted by id, each once (slots too: a leaf written twice the same way is one slot).
    var tokens: [ViewToken] { Array(Set(uses.map(\.token))).sorted { $0.id < $1.id } }
    var uses: [Use] = []
    /// The `@Environment`/`@ObservedObject`… declarations (file, UTF-8 range): the guest has no
    /// such wrappers, and after the rewrite nothing reads them.
    var hostProperties: [(file: Int, range: Range<Int>)] = []
    /// Some token reads a `private`/`fileprivate` host property (`@Environment(\.colorScheme)
    /// private var colorScheme`, the usual spelling): only a thunk in the view's own file sees it.
    var readsFilePrivateProperty = false
    var isEmpty: Bool { hostProperties.isEmpty && uses.isEmpty }
}

/// Why a view's host reads cannot become tokens: the detail names the expression, at file:line.
struct ViewTokenProblem: Error, Equatable {
    let detail: String
    let location: GuestSourceLocation
}

/// Finds the expressions of a view's members (its `body` and the helpers it declares) rooted in a
/// host property, and gives each a token kind from the declared types it reads through: the
/// project's declarations (`class Model { var title: String }`) and `environmentValues` for
/// `@Environment(\.key)`. Anything that is no string, number, Bool, Color or Font (a collection of
/// models, an action such as `dismiss()`, a binding `$model.x`) is the problem that keeps the view native.
struct ViewTokenAnalysis {
    let index: GuestSourceIndex

    /// Property wrappers whose values the host leaves out of the inputs (§5.4) but the thunk can read.
    static let hostWrappers: Set<String> = ["Environment", "EnvironmentObject", "ObservedObject", "StateObject", "Bindable"]

    /// `@Environment(\.key)` values a body reads, by key: their types. Actions (`dismiss`, `openURL`)
    /// and objects (`modelContext`) are missing on purpose: the guest cannot call back into them.
    static let environmentValues: [String: String] = [
        "colorScheme": "ColorScheme", "colorSchemeContrast": "ColorSchemeContrast",
        "horizontalSizeClass": "UserInterfaceSizeClass?", "verticalSizeClass": "UserInterfaceSizeClass?",
        "dynamicTypeSize": "DynamicTypeSize", "layoutDirection": "LayoutDirection", "scenePhase": "ScenePhase",
        "isEnabled": "Bool", "isSearching": "Bool", "isFocused": "Bool", "isPresented": "Bool",
        "accessibilityReduceMotion": "Bool", "accessibilityReduceTransparency": "Bool",
        "accessibilityDifferentiateWithoutColor": "Bool", "accessibilityInvertColors": "Bool",
        "legibilityWeight": "LegibilityWeight?", "displayScale": "CGFloat", "pixelLength": "CGFloat",
        "font": "Font?", "lineLimit": "Int?", "sizeCategory": "ContentSizeCategory",
    ]
    /// Framework enums a body compares against a case (`colorScheme == .dark`): a Bool token.
    static let frameworkEnums: Set<String> = [
        "ColorScheme", "ColorSchemeContrast", "UserInterfaceSizeClass", "DynamicTypeSize", "LayoutDirection",
        "ScenePhase", "LegibilityWeight", "ContentSizeCategory",
    ]

    private enum Resolved {
        case value(ViewToken.ValueType)
        /// An enum (or an optional enum) whose reads lower as comparisons with a case.
        case comparable(String)
        /// Another type: not a token.
        case type(String)
        /// The chain's type cannot be told: why.
        case unknown(String)
    }

    /// Views of Apple's frameworks the guest DSL has no form of (none of them is declared in
    /// templates/guest/ViewDSL*.swift; ViewSlotTests checks it): as a leaf of a body, each is a slot.
    static let nativeOnlyViews: Set<String> = [
        "Map", "Canvas", "VideoPlayer", "SignInWithAppleButton", "ShareLink", "AsyncImage", "TimelineView", "Chart",
    ]
    /// A project type conforming to one of these wraps a UIKit/AppKit view: a slot too.
    static let representableProtocols: Set<String> = [
        "UIViewRepresentable", "NSViewRepresentable", "UIViewControllerRepresentable", "NSViewControllerRepresentable",
    ]

    /// The view's host reads and slots, or the first one that cannot be a token or slot. A view
    /// without host properties or native-only leaves gives an empty table.
    func analyze(type: Int) -> Result<ViewTokenTable, ViewTokenProblem> {
        let entry = index.types[type]
        var roots: [String: (type: String, wrapper: String)] = [:]
        var filePrivateRoots: Set<String> = []
        var table = ViewTokenTable()
        // Slots first: what a slot reads, the thunk evaluates natively with the leaf (no token needed).
        var slotRanges: [Int: [Range<Int>]] = [:]
        for member in entry.members where member.kind != .nestedType && member.kind != .storedProperty {
            switch slots(in: member.decl, file: member.file, of: type) {
            case .failure(let problem): return .failure(problem)
            case .success(let found):
                for (use, readsPrivate) in found {
                    table.uses.append(use)
                    slotRanges[use.file, default: []].append(use.range)
                    if readsPrivate { table.readsFilePrivateProperty = true }
                }
            }
        }
        for member in entry.members where member.kind == .storedProperty {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let file = index.files[member.file]
            func fail(_ detail: String, _ node: some SyntaxProtocol) -> Result<ViewTokenTable, ViewTokenProblem> {
                .failure(ViewTokenProblem(detail: detail, location: GuestSourceLocation(file: file.relativePath, line: file.line(of: node))))
            }
            let wrappers = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
            guard let wrapper = wrappers.first(where: { Self.hostWrappers.contains($0.attributeName.trimmedText) }) else {
                // A plain property of an `@Observable` class of the project is a host object too.
                if let binding = variable.bindings.first, variable.bindings.count == 1,
                   let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                   let typeName = binding.typeAnnotation?.type.trimmedText, isObservableClass(typeName) {
                    roots[name] = (typeName, "Observable")
                    table.hostProperties.append((member.file, range(of: variable)))
                }
                continue
            }
            let wrapperName = wrapper.attributeName.trimmedText
            guard variable.bindings.count == 1, let binding = variable.bindings.first,
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
                return fail("@\(wrapperName) `\(variable.bindings.trimmedText)` declares several names; declare one per line", variable)
            }
            var typeName: String?
            if wrapperName == "Environment", let argument = wrapper.arguments?.as(LabeledExprListSyntax.self)?.first?.expression {
                if let keyPath = argument.as(KeyPathExprSyntax.self) {
                    let key = keyPath.components.trimmedText.trimmingPrefix(".")
                    guard let known = Self.environmentValues[String(key)] ?? projectEnvironmentValue(String(key)) else {
                        return fail("`@Environment(\\.\(key)) var \(name)` is not a value the thunk can pass (an action, an object or an environment key of the app); only \(Self.environmentValues.keys.sorted().joined(separator: ", ")) are", wrapper)
                    }
                    typeName = known
                } else if let member = argument.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self", let base = member.base {
                    typeName = base.trimmedText
                }
            } else if let annotation = binding.typeAnnotation?.type {
                typeName = annotation.trimmedText
            } else if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) {
                typeName = call.calledExpression.trimmedText
            }
            guard let typeName else {
                return fail("cannot tell the type of @\(wrapperName) `\(name)`; declare it (`var \(name): Model`)", variable)
            }
            roots[name] = (typeName, wrapperName)
            table.hostProperties.append((member.file, range(of: variable)))
            if variable.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) }) { filePrivateRoots.insert(name) }
        }
        guard !roots.isEmpty else { return .success(table) }
        for member in entry.members where member.kind != .nestedType {
            if member.kind == .storedProperty, table.hostProperties.contains(where: { $0.file == member.file && $0.range == range(of: member.decl) }) { continue }
            switch uses(in: member.decl, file: member.file, roots: roots, viewPath: entry.path, skipping: slotRanges[member.file] ?? []) {
            case .failure(let problem): return .failure(problem)
            case .success(let found): table.uses += found
            }
        }
        if table.uses.contains(where: { filePrivateRoots.contains($0.root) }) { table.readsFilePrivateProperty = true }
        return .success(table)
    }

    /// The native-only leaves of a member of the view: each call `Name(…)` (with its trailing
    /// closures; the modifiers after it stay in the guest, on the opaque node) that is a statement of
    /// a view builder and names a `nativeOnlyViews` view or a representable of the project. A slot's
    /// closure in the shipped app captures the view, so the leaf may read only the view's members,
    /// literals and names it declares itself (closure parameters): a `ForEach` element cannot be
    /// captured. Each slot comes with whether it reads a `private` member (its thunk then goes in
    /// the view's file).
    private func slots(in decl: DeclSyntax, file: Int, of type: Int) -> Result<[(ViewTokenTable.Use, Bool)], ViewTokenProblem> {
        let entry = index.types[type]
        let sourceFile = index.files[file]
        var found: [(ViewTokenTable.Use, Bool)] = []
        for token in decl.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                  let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id,
                  Self.nativeOnlyViews.contains(name) || isRepresentable(name) else { continue }
            let range = range(of: call)
            // A leaf inside a slot (a representable in a `TimelineView`'s closure) is part of that slot.
            if found.contains(where: { $0.0.range.contains(range.lowerBound) }) { continue }
            var statement = Syntax(call)
            while let parent = statement.parent {
                if let access = parent.as(MemberAccessExprSyntax.self), access.base?.id == statement.id { statement = parent; continue }
                if let modifier = parent.as(FunctionCallExprSyntax.self), modifier.calledExpression.id == statement.id { statement = parent; continue }
                break
            }
            // Elsewhere (an argument, `AnyView(Map())`) it is no leaf; the DSL's compile says why.
            guard statement.parent?.is(CodeBlockItemSyntax.self) == true else { continue }
            let line = sourceFile.line(of: call)
            var readsPrivate = false
            switch captures(of: call, in: entry, readsPrivate: &readsPrivate) {
            case .some(let local):
                return .failure(ViewTokenProblem(
                    detail: "`\(name)(…)` cannot be a slot: it reads `\(local)`, which is not a member of \(entry.path.joined(separator: ".")) (a slot's closure in the shipped app captures only the view, not a ForEach element or a local); pass it to a view of the project that holds the native view",
                    location: GuestSourceLocation(file: sourceFile.relativePath, line: line)))
            case .none:
                break
            }
            let slot = ViewToken(viewPath: entry.path, type: .view, expression: slotText(call))
            found.append((.init(token: slot, root: name, file: file, range: range, line: line), readsPrivate))
        }
        return .success(found)
    }

    private func isRepresentable(_ name: String) -> Bool {
        guard let type = index.lookupType(path: [name]) else { return false }
        return !index.types[type].inheritedNames.filter(Self.representableProtocols.contains).isEmpty
    }

    /// The first name the call reads that the shipped thunk's closure could not capture, or nil.
    private func captures(of call: FunctionCallExprSyntax, in entry: GuestTypeEntry, readsPrivate: inout Bool) -> String? {
        var declared: Set<String> = []
        for token in call.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind else { continue }
            if token.parent?.is(ClosureShorthandParameterSyntax.self) == true || token.parent?.is(ClosureParameterSyntax.self) == true
                || token.parent?.is(IdentifierPatternSyntax.self) == true {
                declared.insert(name)
            }
        }
        for token in call.tokens(viewMode: .sourceAccurate) {
            let text: String
            switch token.tokenKind {
            case .identifier(let identifier), .dollarIdentifier(let identifier): text = identifier
            default: continue
            }
            // `$model`, a projection of the view's wrapper, is captured with the view too.
            let name = text.hasPrefix("$") ? String(text.dropFirst()) : text
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            // `x.name`, `.name`: a member of something else, not a capture.
            if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id { continue }
            // Types (`MKCoordinateRegion(…)`, the leaf's own name) and the closure's own names.
            if name.first?.isUppercase == true || declared.contains(name) { continue }
            guard let member = entry.members.first(where: { $0.names.contains(name) }) else { return name }
            if member.decl.asProtocol(WithModifiersSyntax.self)?.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) }) == true {
                readsPrivate = true
            }
        }
        return nil
    }

    /// A slot's expression as the thunk writes it: its tokens, a newline where the source had one
    /// between two of them and a space for other trivia, so statements of a closure stay apart and
    /// indentation or comments do not change the id.
    private func slotText(_ node: some SyntaxProtocol) -> String {
        var text = ""
        var previousTrailing = Trivia()
        for token in node.tokens(viewMode: .sourceAccurate) {
            let between = previousTrailing + token.leadingTrivia
            if !text.isEmpty && !between.isEmpty {
                text += between.contains(where: \.isNewline) ? "\n" : " "
            }
            text += token.text
            previousTrailing = token.trailingTrivia
        }
        return text
    }

    /// The type of an environment value the app declares (`extension EnvironmentValues { var isEditing: Bool … }`).
    private func projectEnvironmentValue(_ key: String) -> String? {
        for global in index.globals where global.names == [key] && global.foreignExtension?.extendedType.trimmedText == "EnvironmentValues" {
            if let type = global.decl.as(VariableDeclSyntax.self)?.bindings.first?.typeAnnotation?.type { return type.textWithoutWhitespace }
        }
        return nil
    }

    private func range(of node: some SyntaxProtocol) -> Range<Int> {
        node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset
    }

    private func isObservableClass(_ typeName: String) -> Bool {
        guard let type = index.lookupType(path: typeName.split(separator: ".").map(String.init)) else { return false }
        let entry = index.types[type]
        guard entry.kind == .classType, let decl = entry.decl.as(ClassDeclSyntax.self) else { return false }
        return entry.inheritedNames.contains("ObservableObject")
            || decl.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "Observable" }
    }

    private func uses(in decl: DeclSyntax, file: Int, roots: [String: (type: String, wrapper: String)], viewPath: [String],
                      skipping slots: [Range<Int>]) -> Result<[ViewTokenTable.Use], ViewTokenProblem> {
        let sourceFile = index.files[file]
        var found: [ViewTokenTable.Use] = []
        for token in decl.tokens(viewMode: .sourceAccurate) {
            if slots.contains(where: { $0.contains(token.positionAfterSkippingLeadingTrivia.utf8Offset) }) { continue }
            let text: String
            switch token.tokenKind {
            case .identifier(let name), .dollarIdentifier(let name): text = name
            default: continue
            }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            func fail(_ detail: String) -> Result<[ViewTokenTable.Use], ViewTokenProblem> {
                .failure(ViewTokenProblem(detail: detail, location: GuestSourceLocation(file: sourceFile.relativePath, line: sourceFile.line(of: reference))))
            }
            if text.hasPrefix("$"), roots[String(text.dropFirst())] != nil {
                return fail("`\(outermostChain(from: Syntax(reference)).trimmedText)` binds to a value of the host (@\(roots[String(text.dropFirst())]!.wrapper)): the guest cannot write into host objects")
            }
            guard let root = roots[text] else { continue }
            var node = Syntax(reference)
            // `model` as the member of something else (`other.model`) is not the view's property.
            if let access = node.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id {
                guard access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { continue }
                node = Syntax(access)
            }
            var members: [String] = []
            while let access = node.parent?.as(MemberAccessExprSyntax.self), access.base?.id == node.id {
                members.append(access.declName.baseName.text)
                node = Syntax(access)
            }
            let chain = node.trimmedText
            if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id {
                return fail("calls `\(chain)(…)` on a host value (@\(root.wrapper)): actions on host objects run natively only")
            }
            if node.parent?.is(OptionalChainingExprSyntax.self) == true || node.parent?.is(ForceUnwrapExprSyntax.self) == true
                || node.parent?.is(SubscriptCallExprSyntax.self) == true {
                return fail("`\(node.parent!.trimmedText)` reads through an optional or subscript of a host value (@\(root.wrapper)); only plain member chains become tokens")
            }
            switch resolve(root.type, members: members) {
            case .unknown(let reason):
                return fail("`\(chain)` (@\(root.wrapper)): \(reason)")
            case .value(let type):
                found.append(.init(token: ViewToken(viewPath: viewPath, type: type, expression: normalized(node)), root: text, file: file,
                                   range: range(of: node), line: sourceFile.line(of: node)))
            case .comparable(let enumName):
                // `colorScheme == .dark`: the comparison is the token, a Bool.
                guard let sequence = node.parent?.as(ExprListSyntax.self), let position = sequence.firstIndex(where: { $0.id == node.id }),
                      let operatorIndex = sequence.index(position, offsetBy: 1, limitedBy: sequence.endIndex), operatorIndex != sequence.endIndex,
                      let operation = sequence[operatorIndex].as(BinaryOperatorExprSyntax.self), ["==", "!="].contains(operation.operator.text),
                      let caseIndex = sequence.index(operatorIndex, offsetBy: 1, limitedBy: sequence.endIndex), caseIndex != sequence.endIndex,
                      let enumCase = sequence[caseIndex].as(MemberAccessExprSyntax.self), enumCase.base == nil
                else {
                    return fail("`\(chain)` is a \(enumName) of the host (@\(root.wrapper)); it lowers only compared with a case (`\(chain) == .someCase`)")
                }
                let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
                let end = enumCase.endPositionBeforeTrailingTrivia.utf8Offset
                let comparison = [node, Syntax(operation), Syntax(enumCase)].map { normalized($0) }.joined(separator: " ")
                found.append(.init(token: ViewToken(viewPath: viewPath, type: .bool, expression: comparison), root: text, file: file, range: start..<end,
                                   line: sourceFile.line(of: node)))
            case .type(let name):
                return fail("`\(chain)` is a \(name) of the host (@\(root.wrapper)); only String, Int, Double, CGFloat, Float, Bool, Color and Font reads become tokens")
            }
        }
        return .success(found)
    }

    private func outermostChain(from start: Syntax) -> Syntax {
        var node = start
        while let access = node.parent?.as(MemberAccessExprSyntax.self), access.base?.id == node.id { node = Syntax(access) }
        return node
    }

    /// The node's tokens, one space where the source had any trivia between two of them.
    private func normalized(_ node: some SyntaxProtocol) -> String {
        var text = ""
        var previousTrailing = false
        for token in node.tokens(viewMode: .sourceAccurate) {
            if !text.isEmpty && (previousTrailing || !token.leadingTrivia.isEmpty) { text += " " }
            text += token.text
            previousTrailing = !token.trailingTrivia.isEmpty
        }
        return text
    }

    /// The type a member chain reads, walking the project's declarations.
    private func resolve(_ rootType: String, members: [String]) -> Resolved {
        var current = rootType.replacingOccurrences(of: " ", with: "")
        for member in members {
            if current.hasSuffix("?") || current.hasSuffix("!") {
                return .unknown("reads `.\(member)` through the optional \(current)")
            }
            if current.hasPrefix("[") || current == "String" {
                switch member {
                case "count": current = "Int"; continue
                case "isEmpty": current = "Bool"; continue
                default: return .unknown("reads `.\(member)` of a \(current); of collections only `count` and `isEmpty` become tokens")
                }
            }
            guard let type = index.lookupType(path: current.split(separator: ".").map(String.init)) else {
                return .unknown("reads `.\(member)` of \(current), which the project does not declare")
            }
            guard let next = declaredType(of: member, in: type) else {
                return .unknown("cannot tell the type of \(current).\(member); declare it (`var \(member): String`)")
            }
            current = next
        }
        if let value = ViewToken.ValueType(rawValue: current) { return .value(value) }
        let base = current.hasSuffix("?") ? String(current.dropLast()) : current
        if Self.frameworkEnums.contains(base) || isProjectEnum(base) { return .comparable(current) }
        return .type(current)
    }

    private func isProjectEnum(_ name: String) -> Bool {
        index.lookupType(path: name.split(separator: ".").map(String.init)).map { index.types[$0].kind == .enumType } ?? false
    }

    /// A property's declared type (`var title: String`), or the one its literal or initializer call implies.
    private func declaredType(of name: String, in type: Int) -> String? {
        for member in index.types[type].members where member.names == [name] {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  let binding = variable.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) else { continue }
            if let annotation = binding.typeAnnotation?.type { return annotation.textWithoutWhitespace }
            guard let value = binding.initializer?.value else { return nil }
            if value.is(StringLiteralExprSyntax.self) { return "String" }
            if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
            if value.is(FloatLiteralExprSyntax.self) { return "Double" }
            if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
            if let call = value.as(FunctionCallExprSyntax.self) { return call.calledExpression.trimmedText }
            return nil
        }
        return nil
    }
}
