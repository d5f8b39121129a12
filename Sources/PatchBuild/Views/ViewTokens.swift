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
        /// A `Date`: a number token, seconds since 1970 (the inputs' date encoding, §5.4).
        case date = "Date"
        /// A leaf view the DSL cannot lower (`Map(…)`): a slot, which the thunk passes as a native view.
        case view = "View"
        /// A value of a Codable type (a project struct or enum, arrays, optionals and dictionaries of
        /// them, optional Strings and numbers): a string token holding its JSON, which the guest
        /// decodes with the project's generated codec. (No Swift type is spelled like the raw value.)
        case json = "<JSON>"

        var kind: Baseline.Token.Kind {
            switch self {
            case .string: .string
            case .int, .double, .cgFloat, .float, .bool, .date: .number
            case .color: .color
            case .font: .font
            case .view: .slot
            case .json: .json
            }
        }
    }

    /// `st_`/`nt_`/`ct_`/`ft_`/`op_` + `ViewToken.hash`.
    let id: String
    let type: ValueType
    /// The expression as the thunk evaluates it on the view (its tokens joined by single spaces
    /// where the source had any trivia).
    let expression: String
    /// A slot's `label` in the IR (§5.6.4 `opaque`): the name of the view it stands for (`Map`,
    /// `Button`) or of the event modifier a background slot carries (`onAppear`).
    let slotLabel: String
    /// A slot the guest places in the modified view's background (`backgroundContent`) instead of
    /// in the view's place: an event modifier or presentation that reads the host
    /// (`.onAppear { model.load() }` is `Color.clear.onAppear { model.load() }` natively).
    let isBackground: Bool
    /// A JSON token's type as the guest spells it (`[Model.Item]`, `Optional<User>`); empty for other kinds.
    let jsonType: String

    var kind: Baseline.Token.Kind { type.kind }
    var record: Baseline.Token { Baseline.Token(id: id, kind: kind, expression: expression) }

    /// The id is content-stable: the first 12 hex digits of SHA-256 of `<view type path>\n<expression>`,
    /// after the kind's prefix. Prepare (for the thunk) and build (for the guest) derive it from the
    /// same source text, so the ids agree without any table shared at runtime; the same read in
    /// another view, or another read in this one, gets another id.
    init(viewPath: [String], type: ValueType, expression: String, label: String? = nil, isBackground: Bool = false, jsonType: String = "") {
        let digest = SHA256Hasher.hex(of: Array((viewPath.joined(separator: ".") + "\n" + expression).utf8))
        self.id = type.kind.idPrefix + digest.prefix(12)
        self.type = type
        self.expression = expression
        self.slotLabel = label ?? String(expression.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        self.isBackground = isBackground
        self.jsonType = jsonType
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
        case .date: value = ".number((\(expression)).timeIntervalSince1970)"
        case .color: value = ".color(\(expression))"
        case .font: value = ".font(\(expression))"
        case .json:
            // JSONEncoder's defaults, as `callJSON` encodes (the guest's codecs read that shape). A
            // value that fails to encode passes "": the guest's read traps on it and the SDK demotes
            // the view to its native body (sdk-contract §5.2) instead of the app crashing.
            value = ".string((try? JSONEncoder().encode(\(expression))).map { String(decoding: $0, as: UTF8.self) } ?? \"\")"
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
        case .date: return "Date(timeIntervalSince1970: \(number))"
        case .color: return "Color(_patchHostToken: \"\(id)\")"
        case .font: return "Font(_patchHostToken: \"\(id)\")"
        case .json: return "_patchJSONToken(\"__strtok_\(id)\", as: \(jsonType).self)"
        case .view where isBackground: return "._patchBackgroundSlot(\"\(id)\", label: \"\(slotLabel)\")"
        case .view: return "_PatchOpaque(\"\(id)\", label: \"\(slotLabel)\")"
        }
    }
}

extension Baseline.Token.Kind {
    var idPrefix: String {
        switch self {
        case .string, .json: "st_"
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
        /// The JSON values the expression reads on the way (`model.settings` of `model.settings.theme`),
        /// longest first, each with its range: `build` reads through one the shipped thunk passes
        /// when it does not pass the token itself, so a patch may read more of a value the app passes.
        var alternatives: [(token: ViewToken, range: Range<Int>)] = []
    }
    /// Sorted by id, each once (slots too: a leaf written twice the same way is one slot).
    var tokens: [ViewToken] { Array(Set(uses.map(\.token))).sorted { $0.id < $1.id } }
    var uses: [Use] = []
    /// The `@Environment`/`@ObservedObject`… declarations (file, UTF-8 range): the guest has no
    /// such wrappers, and after the rewrite nothing reads them.
    var hostProperties: [(file: Int, range: Range<Int>)] = []
    /// The thunk must be in the view's own file: some token reads a `private`/`fileprivate` host
    /// property (`@Environment(\.colorScheme) private var colorScheme`, the usual spelling), which
    /// only that file sees, or a named color of the app (`Color.acText`), which may be declared in
    /// another module (a package of the app's design) that the view's file imports.
    var needsViewFileScope = false
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
/// `@Environment(\.key)`. Anything that is no string, number, Bool, Date, Color or Font (a collection of
/// models, an action such as `dismiss()`, a binding `$model.x`) is the problem that keeps the view native.
struct ViewTokenAnalysis {
    let index: GuestSourceIndex
    /// The names of the project's `mutating func`s: called on a guest state property inside a
    /// slot, they write it natively (`ViewSlots.swift`).
    let projectMutatingMethods: Set<String>
    /// Reads of Codable values become JSON tokens, and a scalar part of a longer chain a token of its
    /// own (`store.title` of `store.title.uppercased()`). Without (the analysis of patchcli before
    /// them), those reads are slots: `build` falls back to it for a baseline an earlier `prepare`
    /// recorded, whose thunk passes the slots (`ViewTokenRewrite`).
    private(set) var passesValues: Bool

    /// The app's members of extensions of framework types that only the host can apply
    /// (`ViewNativeExtensions`: ACHNBrowserUI's `Image.style(appStyle:)`, built on `.resizable()`).
    let nativeExtensions: ViewNativeExtensions
    /// The app's named colors (`Color.acText`), which the thunk passes as color tokens.
    let designColors: ViewDesignColors

    init(index: GuestSourceIndex, passesValues: Bool = true) {
        self.index = index
        self.passesValues = passesValues
        nativeExtensions = ViewNativeExtensions(index: index)
        designColors = ViewDesignColors(index: index)
        var names: Set<String> = []
        for type in index.types {
            for member in type.members {
                if let function = member.decl.as(FunctionDeclSyntax.self), function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.mutating) }) {
                    names.insert(function.name.text)
                }
            }
        }
        projectMutatingMethods = names
    }

    /// This analysis without value tokens, sharing what `init` gathered from the index.
    func passingNoValues() -> ViewTokenAnalysis {
        var analysis = self
        analysis.passesValues = false
        return analysis
    }

    /// Property wrappers whose values the host leaves out of the inputs (§5.4) but the thunk can read.
    /// `@Query` (SwiftData) and `@FetchRequest` (Core Data) results too: their reads are tokens
    /// (`items.count`) or slots (`ForEach(items)`).
    static let hostWrappers: Set<String> = [
        "Environment", "EnvironmentObject", "ObservedObject", "StateObject", "Bindable", "Query", "FetchRequest", "SectionedFetchRequest",
    ]

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
    /// Modifiers the IR has no case for (sdk-contract §5.6.5), which the guest DSL does not declare
    /// (ViewStatementSlotTests checks it): a statement applying one is a slot up to that modifier
    /// (`Image(name).resizable()` natively; the modifiers after it stay in the guest).
    static let nativeOnlyModifiers: Set<String> = ["resizable", "renderingMode", "contentShape", "id", "matchedGeometryEffect"]
    /// A project type conforming to one of these wraps a UIKit/AppKit view: a slot too.
    static let representableProtocols: Set<String> = [
        "UIViewRepresentable", "NSViewRepresentable", "UIViewControllerRepresentable", "NSViewControllerRepresentable",
    ]
    /// Property wrappers SwiftUI fills natively whose values no input carries (sdk-contract §5.4), and
    /// which the guest DSL does not declare. A child view of the project declaring one (an
    /// `@Environment`, `@Query` or `@FocusState` in `AccountStack`) cannot render inside another view's
    /// guest tree: its host reads would need tokens the parent's thunk does not pass, and its copy
    /// would not compile. Used as a leaf, it is a slot: the host renders the child as the shipped app does.
    static let nativeChildWrappers: Set<String> = hostWrappers.union([
        "SceneStorage", "FocusState", "AccessibilityFocusState", "ScaledMetric", "Namespace", "GestureState",
        "FocusedValue", "FocusedBinding", "FocusedObject",
    ])

    /// The `nativeChildWrappers` wrapper a stored property declares, if any.
    static func nativeChildWrapper(of variable: VariableDeclSyntax) -> String? {
        variable.attributes.lazy.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedText }.first(where: nativeChildWrappers.contains)
    }

    /// A property whose value the host does not put in the inputs. Reads through `type` may be
    /// tokens; a root without one (an environment action or object, a closure the host does not
    /// pass) can only be read inside a slot, and `opaqueReason` says why.
    struct HostRoot {
        let wrapper: String
        let type: String?
        let opaqueReason: String
    }

    /// The view's host reads and slots, or the first read that can be neither a token nor part of a
    /// slot. A view without host properties or native-only leaves gives an empty table.
    func analyze(type: Int) -> Result<ViewTokenTable, ViewTokenProblem> {
        let entry = index.types[type]
        var roots: [String: HostRoot] = [:]
        var filePrivateRoots: Set<String> = []
        var table = ViewTokenTable()
        for member in entry.members where member.kind == .storedProperty {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let file = index.files[member.file]
            let isFilePrivate = variable.modifiers.isFileScoped
            let wrappers = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
            guard let wrapper = wrappers.first(where: { Self.hostWrappers.contains($0.attributeName.trimmedText) }) else {
                // `@State var store: Store` of a class too: the guest keeps no state for a host object.
                guard variable.bindings.count == 1, let binding = variable.bindings.first,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
                let annotation = binding.typeAnnotation?.type
                if let typeName = annotation?.trimmedText ?? GuestViewLowering.namedType(of: binding.initializer?.value), isHostClass(typeName) {
                    // A plain property of a class of the project (an `@Observable` or SwiftData `@Model`
                    // model handed to a row, `var store = Store.shared`) is a host object too: the
                    // inputs cannot carry a class.
                    roots[name] = HostRoot(wrapper: "Observable", type: typeName, opaqueReason: "")
                } else if wrappers.isEmpty, let annotation, GuestViewLowering.isClosure(annotation),
                          binding.initializer == nil || !(isLet || isFilePrivate) {
                    // The host skips closures (§5.4): one the parent can set (no default, or a `var`
                    // default the memberwise initializer takes) is the parent's, which only the
                    // shipped thunk holds; the guest running the default would drop the parent's action.
                    roots[name] = HostRoot(wrapper: "closure", type: nil, opaqueReason: "`\(name)` is a closure property the parent sets, which the host does not pass in the view's inputs")
                } else {
                    continue
                }
                table.hostProperties.append((member.file, range(of: variable)))
                if isFilePrivate { filePrivateRoots.insert(name) }
                continue
            }
            let wrapperName = wrapper.attributeName.trimmedText
            guard variable.bindings.count == 1, let binding = variable.bindings.first,
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
                return .failure(ViewTokenProblem(detail: "@\(wrapperName) `\(variable.bindings.trimmedText)` declares several names; declare one per line",
                                                 location: GuestSourceLocation(file: file.relativePath, line: file.line(of: variable))))
            }
            var typeName: String?
            var opaqueReason = "cannot tell the type of @\(wrapperName) `\(name)`; declare it (`var \(name): Model`)"
            if wrapperName == "Environment", let argument = wrapper.arguments?.as(LabeledExprListSyntax.self)?.first?.expression {
                if let keyPath = argument.as(KeyPathExprSyntax.self) {
                    let key = String(keyPath.components.trimmedText.trimmingPrefix("."))
                    typeName = Self.environmentValues[key] ?? projectEnvironmentValue(key)
                    opaqueReason = "`@Environment(\\.\(key)) var \(name)` is not a value the thunk can pass as a token (an action, an object or an environment key of the app)"
                } else if let member = argument.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self", let base = member.base {
                    typeName = base.trimmedText
                }
            } else if let annotation = binding.typeAnnotation?.type {
                typeName = annotation.trimmedText
            } else if let named = GuestViewLowering.namedType(of: binding.initializer?.value) {
                // `= Model()`, `= Model.shared`.
                typeName = named
            }
            roots[name] = HostRoot(wrapper: wrapperName, type: typeName, opaqueReason: opaqueReason)
            table.hostProperties.append((member.file, range(of: variable)))
            if isFilePrivate { filePrivateRoots.insert(name) }
        }
        // Every member but the host declarations: its native-only leaves, its token reads, and the
        // host reads that are no token, each of which the statement holding it must take into a slot.
        // A helper that reads the host in code no statement holds (`func save() { model.save() }`)
        // is the host's too: the guest leaves it out, and the statements calling it are slots.
        var leaves: [SlotCandidate] = []
        var reads: [ViewTokenTable.Use] = []
        var problems: [HostReadProblem] = []
        let state = guestState(of: entry).subtracting(roots.keys)
        while true {
            leaves = []
            reads = []
            problems = []
            for member in entry.members where member.kind != .nestedType {
                if table.hostProperties.contains(where: { $0.file == member.file && $0.range == range(of: member.decl) }) { continue }
                if member.kind != .storedProperty {
                    leaves += nativeLeaves(in: member.decl, file: member.file, viewPath: entry.path)
                    problems += nativeModifiers(in: member.decl, file: member.file)
                    reads += designColorReads(in: member.decl, file: member.file)
                }
                guard !roots.isEmpty else { continue }
                let found = uses(in: member.decl, file: member.file, roots: roots, viewPath: entry.path)
                reads += found.tokens
                problems += found.problems
            }
            var hostMembers: [(member: GuestMember, read: HostReadProblem)] = []
            for problem in problems where !isInViewStatement(problem.node, in: entry) {
                guard let member = entry.members.first(where: { $0.file == problem.file && range(of: $0.decl).contains(problem.node.positionAfterSkippingLeadingTrivia.utf8Offset) }),
                      member.kind == .other, member.names.count == 1, !isViewMember(member.decl),
                      !hostMembers.contains(where: { $0.member.decl.id == member.decl.id }),
                      // A helper writing the guest's state cannot run natively (the host would overwrite the write).
                      writes(Array(member.decl.tokens(viewMode: .sourceAccurate)), state: state) == nil
                else { continue }
                hostMembers.append((member, problem))
            }
            guard !hostMembers.isEmpty else { break }
            for (member, read) in hostMembers {
                roots[member.names[0]] = HostRoot(wrapper: "helper", type: nil, opaqueReason: "`\(member.names[0])` reads the host (\(read.detail))")
                table.hostProperties.append((member.file, range(of: member.decl)))
            }
        }
        let slots: [SlotCandidate]
        switch self.slots(leaves: leaves, hostReads: problems, state: state, in: entry) {
        case .failure(let problem): return .failure(problem)
        case .success(let found): slots = found
        }
        // What a slot reads, the thunk evaluates natively with it: no token for it.
        let tokens = reads.filter { read in !slots.contains { $0.use.file == read.file && $0.use.range.contains(read.range.lowerBound) } }
        table.uses = slots.map(\.use) + tokens
        if slots.contains(where: \.readsPrivate) || tokens.contains(where: { filePrivateRoots.contains($0.root) || $0.root == Self.designColorRoot }) {
            table.needsViewFileScope = true
        }
        return .success(table)
    }

    /// `ViewTokenTable.Use.root` of a read of the app's named colors (no property of the view).
    static let designColorRoot = "Color"

    /// The member's reads of the app's named colors (`ViewDesignColors`): `Color.acText` and `.acText`,
    /// and those of the app's extension members it calls (`Text(…).style(appStyle: .title)`), which are
    /// in the extension's file: the guest's copy of the extension reads the same tokens for every view.
    private func designColorReads(in decl: DeclSyntax, file: Int) -> [ViewTokenTable.Use] {
        guard !designColors.names.isEmpty else { return [] }
        func use(_ name: String, _ access: MemberAccessExprSyntax, in file: Int) -> ViewTokenTable.Use {
            .init(token: ViewToken(designColor: name), root: Self.designColorRoot, file: file, range: range(of: access), line: index.files[file].line(of: access))
        }
        var uses: [ViewTokenTable.Use] = []
        var calledMembers: Set<String> = []
        for token in decl.tokens(viewMode: .sourceAccurate) {
            if let access = ViewDesignColors.access(named: token), let name = designColors.color(readBy: access) {
                uses.append(use(name, access, in: file))
            } else if case .identifier(let name) = token.tokenKind, designColors.extensionReads[name] != nil,
                      let reference = token.parent?.as(DeclReferenceExprSyntax.self), ViewNativeExtensions.isCalled(reference),
                      calledMembers.insert(name).inserted {
                uses += designColors.extensionReads[name, default: []].map { use($0.name, $0.access, in: $0.file) }
            }
        }
        return uses
    }

    /// The native-only leaves of a member of the view: each call `Name(…)` (with its trailing
    /// closures; the modifiers after it stay in the guest, on the opaque node) that is a statement of
    /// a view builder and names a `nativeOnlyViews` view or a representable of the project.
    private func nativeLeaves(in decl: DeclSyntax, file: Int, viewPath: [String]) -> [SlotCandidate] {
        let sourceFile = index.files[file]
        var found: [SlotCandidate] = []
        for token in decl.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                  let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id,
                  Self.nativeOnlyViews.contains(name) || isRepresentable(name) || isNativeChild(name, of: viewPath) else { continue }
            var statement = Syntax(call)
            while let parent = statement.parent {
                if let access = parent.as(MemberAccessExprSyntax.self), access.base?.id == statement.id { statement = parent; continue }
                if let modifier = parent.as(FunctionCallExprSyntax.self), modifier.calledExpression.id == statement.id { statement = parent; continue }
                break
            }
            // Elsewhere (an argument, `AnyView(Map())`) it is no leaf; the DSL's compile says why.
            guard statement.parent?.is(CodeBlockItemSyntax.self) == true else { continue }
            let slot = ViewToken(viewPath: viewPath, type: .view, expression: slotText(call.tokens(viewMode: .sourceAccurate)))
            found.append(SlotCandidate(use: .init(token: slot, root: name, file: file, range: range(of: call), line: sourceFile.line(of: call)),
                                       node: Syntax(call), start: call.positionAfterSkippingLeadingTrivia.utf8Offset, hostRead: nil, isRootStatement: false))
        }
        return found
    }

    /// The modifiers of `nativeOnlyModifiers` a member applies (`Image(name).resizable()`), and the
    /// app's extension members that apply one (`nativeExtensions`): each takes the chain up
    /// to it into a slot, as a host read in a modifier does.
    private func nativeModifiers(in decl: DeclSyntax, file: Int) -> [HostReadProblem] {
        var found: [HostReadProblem] = []
        for token in decl.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind,
                  let reference = token.parent?.as(DeclReferenceExprSyntax.self), let access = reference.parent?.as(MemberAccessExprSyntax.self),
                  access.declName.id == reference.id, access.base != nil,
                  let call = access.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == access.id else { continue }
            let extensionMember = Self.nativeOnlyModifiers.contains(name) ? nil : nativeExtensions.member(calledBy: reference)
            guard Self.nativeOnlyModifiers.contains(name) || extensionMember != nil else { continue }
            // Only a modifier of a statement's chain (not `model.id(for: x)` inside an argument).
            var statement = Syntax(call)
            while let parent = statement.parent {
                if let outer = parent.as(MemberAccessExprSyntax.self), outer.base?.id == statement.id { statement = parent; continue }
                if let modifier = parent.as(FunctionCallExprSyntax.self), modifier.calledExpression.id == statement.id { statement = parent; continue }
                break
            }
            guard statement.parent?.is(CodeBlockItemSyntax.self) == true || statement.parent?.is(ReturnStmtSyntax.self) == true else { continue }
            var detail = "`.\(name)(…)` has no modifier in the view IR (sdk-contract §5.6.5), so only the host can apply it"
            if let member = extensionMember {
                detail = "`.\(name)(…)` is the app's extension of \(member.extendedType) (\(member.location)), which applies `.\(member.modifier)(…)`: that has no modifier in the view IR (sdk-contract §5.6.5), so only the host can apply it"
            }
            found.append(HostReadProblem(detail: detail, node: Syntax(reference), file: file, line: index.files[file].line(of: reference)))
        }
        return found
    }

    private func isRepresentable(_ name: String) -> Bool {
        guard let type = index.lookupType(path: [name]) else { return false }
        return !index.types[type].inheritedNames.filter(Self.representableProtocols.contains).isEmpty
    }

    /// A view of the project (a type with a `body`), other than the one analysed, that declares a
    /// stored property with one of `nativeChildWrappers`: the host renders it.
    private func isNativeChild(_ name: String, of viewPath: [String]) -> Bool {
        index.resolveType(named: name, from: viewPath).contains { type in
            let entry = index.types[type]
            guard entry.path != viewPath, entry.members.contains(where: { $0.names == ["body"] }) else { return false }
            return entry.members.contains { member in
                member.kind == .storedProperty && member.decl.as(VariableDeclSyntax.self).flatMap(Self.nativeChildWrapper(of:)) != nil
            }
        }
    }

    /// A slot's expression as the thunk writes it: its tokens, a newline where the source had one
    /// between two of them and a space for other trivia, so statements of a closure stay apart and
    /// indentation or comments do not change the id.
    func slotText(_ tokens: some Sequence<TokenSyntax>) -> String {
        var text = ""
        var previousTrailing = Trivia()
        for token in tokens {
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

    func range(of node: some SyntaxProtocol) -> Range<Int> {
        node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset
    }

    /// A class of the project: its values live in the host, which the inputs cannot carry (§5.4).
    private func isHostClass(_ typeName: String) -> Bool {
        guard let type = index.lookupType(path: typeName.split(separator: ".").map(String.init)) else { return false }
        return index.types[type].kind == .classType
    }

    /// The member's reads of host roots: the token reads, and the others (a call, a binding, a
    /// whole model, a read through an optional) with why each is no token.
    private func uses(in decl: DeclSyntax, file: Int, roots: [String: HostRoot], viewPath: [String])
        -> (tokens: [ViewTokenTable.Use], problems: [HostReadProblem]) {
        let sourceFile = index.files[file]
        var found: [ViewTokenTable.Use] = []
        var problems: [HostReadProblem] = []
        for token in decl.tokens(viewMode: .sourceAccurate) {
            let text: String
            switch token.tokenKind {
            case .identifier(let name), .dollarIdentifier(let name): text = name
            default: continue
            }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            func problem(_ detail: String) {
                problems.append(HostReadProblem(detail: detail, node: Syntax(reference), file: file, line: sourceFile.line(of: reference)))
            }
            if text.hasPrefix("$"), let root = roots[String(text.dropFirst())] {
                problem("`\(outermostChain(from: Syntax(reference)).trimmedText)` binds to a value of the host (@\(root.wrapper)): the guest cannot write into host objects")
                continue
            }
            guard let root = roots[text] else { continue }
            var node = Syntax(reference)
            // `model` as the member of something else (`other.model`) is not the view's property.
            if let access = node.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id {
                guard access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { continue }
                node = Syntax(access)
            }
            // `nodes[i]`: the chain through its first `i` members.
            var nodes = [node]
            var members: [String] = []
            while let access = node.parent?.as(MemberAccessExprSyntax.self), access.base?.id == node.id {
                members.append(access.declName.baseName.text)
                node = Syntax(access)
                nodes.append(node)
            }
            let chain = node.trimmedText
            guard let rootType = root.type else {
                problem(root.opaqueReason)
                continue
            }
            let isCalled = node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id
            let (resolved, prefixTypes) = resolve(rootType, members: members, scope: viewPath)
            // A chain the code writes (`model.items.append(x)`, `store.user = nil`) stays the host's.
            let isWritten = write(startingAt: nodes[0]) != nil
            /// The chain through its first `length` members as a JSON token, when that part is a Codable value.
            func jsonToken(through length: Int) -> ViewToken? {
                let (type, scope) = prefixTypes[length]
                return jsonValue(type, scope: scope).map {
                    ViewToken(viewPath: viewPath, type: .json, expression: normalized(nodes[length]), jsonType: $0.spelling(index))
                }
            }
            /// The parts of the chain up to `longest` members that are JSON values, longest first.
            func alternatives(upTo longest: Int) -> [(token: ViewToken, range: Range<Int>)] {
                guard passesValues, !isWritten, longest >= 0 else { return [] }
                return stride(from: min(longest, prefixTypes.count - 1), through: 0, by: -1).compactMap { length in
                    guard ViewToken.ValueType(rawValue: prefixTypes[length].type) == nil, let token = jsonToken(through: length) else { return nil }
                    return (token, range(of: nodes[length]))
                }
            }
            // Why the whole chain is no token of today's kinds (its own read is one when it is).
            let whyNot: String
            if isCalled {
                whyNot = "calls `\(chain)(…)` on a host value (@\(root.wrapper)): actions on host objects run natively only"
            } else if node.parent?.is(OptionalChainingExprSyntax.self) == true || node.parent?.is(ForceUnwrapExprSyntax.self) == true
                || node.parent?.is(SubscriptCallExprSyntax.self) == true {
                whyNot = "`\(node.parent!.trimmedText)` reads through an optional or subscript of a host value (@\(root.wrapper)); only plain member chains become tokens"
            } else {
                switch resolved {
                case .unknown(let reason):
                    whyNot = "`\(chain)` (@\(root.wrapper)): \(reason)"
                case .value(let type):
                    found.append(.init(token: ViewToken(viewPath: viewPath, type: type, expression: normalized(node)), root: text, file: file,
                                       range: range(of: node), line: sourceFile.line(of: node), alternatives: alternatives(upTo: members.count - 1)))
                    continue
                case .comparable(let enumName):
                    // `colorScheme == .dark`: the comparison is the token, a Bool.
                    if let sequence = node.parent?.as(ExprListSyntax.self), let position = sequence.firstIndex(where: { $0.id == node.id }),
                       let operatorIndex = sequence.index(position, offsetBy: 1, limitedBy: sequence.endIndex), operatorIndex != sequence.endIndex,
                       let operation = sequence[operatorIndex].as(BinaryOperatorExprSyntax.self), ["==", "!="].contains(operation.operator.text),
                       let caseIndex = sequence.index(operatorIndex, offsetBy: 1, limitedBy: sequence.endIndex), caseIndex != sequence.endIndex,
                       let enumCase = sequence[caseIndex].as(MemberAccessExprSyntax.self), enumCase.base == nil {
                        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
                        let end = enumCase.endPositionBeforeTrailingTrivia.utf8Offset
                        let comparison = [node, Syntax(operation), Syntax(enumCase)].map { normalized($0) }.joined(separator: " ")
                        found.append(.init(token: ViewToken(viewPath: viewPath, type: .bool, expression: comparison), root: text, file: file, range: start..<end,
                                           line: sourceFile.line(of: node), alternatives: alternatives(upTo: members.count)))
                        continue
                    }
                    whyNot = "`\(chain)` is a \(enumName) of the host (@\(root.wrapper)); it lowers only compared with a case (`\(chain) == .someCase`)"
                case .type(let name):
                    whyNot = "`\(chain)` is a \(name) of the host (@\(root.wrapper)); only String, Int, Double, CGFloat, Float, Bool, Date, Color and Font reads, and values of Codable structs and enums of the project, become tokens"
                }
            }
            // The longest part of the chain that is a value the thunk can pass: a token of today's
            // kinds, or the JSON of a Codable value (`model.items` of `model.items.first?.title`,
            // `store.user` of `store.user?.name`, the whole `passIDs`). The rest of the expression (a
            // call, `?.`, a subscript, members the analysis cannot type) runs in the guest on it.
            var token: ViewToken?
            var reached = passesValues ? min(prefixTypes.count - 1, isCalled ? members.count - 1 : members.count) : -1
            while token == nil, reached >= 0 {
                if let value = ViewToken.ValueType(rawValue: prefixTypes[reached].type), value != .view, value != .json {
                    token = ViewToken(viewPath: viewPath, type: value, expression: normalized(nodes[reached]))
                } else if let json = jsonToken(through: reached) {
                    token = json
                } else {
                    reached -= 1
                }
            }
            if let token, !isWritten {
                found.append(.init(token: token, root: text, file: file, range: range(of: nodes[reached]), line: sourceFile.line(of: nodes[reached]),
                                   alternatives: alternatives(upTo: reached - 1)))
            } else {
                problem(whyNot)
            }
        }
        return (found, problems)
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

    /// The type a member chain reads, walking the project's declarations, and the type of each part
    /// of it that could be typed (`[0]` the root's, `[i]` after `i` members) with the scope its type
    /// is written in (the declaring type's, where nested names resolve).
    private func resolve(_ rootType: String, members: [String], scope: [String]) -> (Resolved, prefixes: [(type: String, scope: [String])]) {
        var current = rootType.replacingOccurrences(of: " ", with: "")
        var prefixes = [(type: current, scope: scope)]
        for member in members {
            if current.hasSuffix("?") || current.hasSuffix("!") {
                return (.unknown("reads `.\(member)` through the optional \(current)"), prefixes)
            }
            if current.hasPrefix("[") || current == "String" {
                switch member {
                case "count": current = "Int"
                case "isEmpty": current = "Bool"
                default: return (.unknown("reads `.\(member)` of a \(current); of collections only `count` and `isEmpty` become tokens"), prefixes)
                }
                prefixes.append((current, []))
                continue
            }
            guard let type = index.lookupType(path: current.split(separator: ".").map(String.init)) else {
                return (.unknown("reads `.\(member)` of \(current), which the project does not declare"), prefixes)
            }
            guard let next = declaredType(of: member, in: type) else {
                return (.unknown("cannot tell the type of \(current).\(member); declare it (`var \(member): String`)"), prefixes)
            }
            current = next
            prefixes.append((current, index.types[type].path))
        }
        if let value = ViewToken.ValueType(rawValue: current) { return (.value(value), prefixes) }
        let base = current.hasSuffix("?") ? String(current.dropLast()) : current
        if Self.frameworkEnums.contains(base) || isProjectEnum(base) { return (.comparable(current), prefixes) }
        return (.type(current), prefixes)
    }

    /// The type `written` (in `scope`) names when a thunk can pass its value as JSON and the guest
    /// decode it: JSONEncoder encodes it (every project type in it states `Codable`, as prepare's
    /// `CodableIndex` asks of a function's values) and the generated codecs read what it writes (the
    /// project's structs and enums `GuestSignatureReader.codableShape` accepts, and the ones they
    /// carry; arrays, sets, optionals and dictionaries; String, numbers, Bool, Date, UUID, URL, Data).
    /// No class (the model itself is no value) and no CoreGraphics struct (JSONEncoder writes
    /// `CGPoint` as an array, the guest's stand-in reads a view input's object).
    func jsonValue(_ written: String, scope: [String]) -> GuestValueType? {
        guard let syntax = ValueMirrorPlanner.parseType(written) else { return nil }
        let reader = GuestSignatureReader(index: index)
        guard case .success(let type) = reader.resolve(syntax, scope: scope), !Self.mentionsCharacter(type) else { return nil }
        var pending = type.projectTypes()
        guard pending.allSatisfy(reader.declaresCodable) else { return nil }
        var seen: Set<Int> = []
        while let project = pending.popLast() {
            guard seen.insert(project).inserted else { continue }
            guard case .success(let shape) = reader.codableShape(of: project) else { return nil }
            pending += shape.referencedTypes
        }
        return type
    }

    /// Character is not Codable (the guest reads one only from a view's inputs).
    private static func mentionsCharacter(_ type: GuestValueType) -> Bool {
        switch type {
        case .character: return true
        case .optional(let inner), .array(let inner), .set(let inner), .range(let inner, _): return mentionsCharacter(inner)
        case .dictionary(let key, let value): return mentionsCharacter(key) || mentionsCharacter(value)
        case .int, .int64, .int32, .double, .bool, .string, .project, .standIn: return false
        }
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
