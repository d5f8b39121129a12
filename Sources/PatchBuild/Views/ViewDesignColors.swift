import SwiftSyntax

/// The app's named colors: the static `Color` members of its extensions of `Color` (ACHNBrowserUI's
/// `extension Color { static var acText: Color { Color("ACText", bundle: .module) } }`, read as
/// `Color.acText` or `.foregroundColor(.acText)`). Their values come from the app's asset catalogs
/// (light, dark and high-contrast variants) or from code the app compiles, which the guest cannot
/// evaluate and the view IR's `named` colors do not cover (sdk-contract §5.6.3: the system colors). So
/// the shipped thunk evaluates each read natively and passes it as a color token (`ct_`, §5.1), and
/// the guest's copy of the body reads the token: a patch shows exactly the color the device shows.
///
/// A read's token does not depend on the view reading it (`ViewToken.init(designColor:)`): every view
/// that reads `Color.acText` passes it under the same id.
struct ViewDesignColors {
    /// Each named color, by its name (`acText`).
    private(set) var names: Set<String> = []
    /// The files declaring them (`GuestSourceFile.relativePath`).
    private(set) var declaringFiles: Set<String> = []
    /// Names other declarations of the project use too for an enum case or a static member
    /// (`enum Tint { case accent }` beside `Color.accent`): an implicit member `.accent` may be either,
    /// so only `Color.accent` is a token.
    private var ambiguousNames: Set<String> = []

    /// A read of a named color in the app's extension of another framework type.
    struct ExtensionRead {
        let name: String
        let access: MemberAccessExprSyntax
        let file: Int
    }
    /// By member name, the reads of named colors in the app's extension members of that name
    /// (`Text.style(appStyle:)`, overloads together) and in the extension members they call, in turn
    /// (its private `rowTitle()` reading `.acText`): a view calling the member passes their tokens,
    /// and the guest's copy of the extension reads them (the ids are the same in every view).
    private(set) var extensionReads: [String: [ExtensionRead]] = [:]
    /// The files declaring those members (`GuestSourceFile.relativePath`).
    private(set) var extensionFiles: Set<String> = []

    init(index: GuestSourceIndex) {
        var others: Set<String> = []
        var memberGlobals: [GuestGlobalEntry] = []
        for global in index.globals {
            guard let extended = global.foreignExtension else { continue }
            if Self.extendsColor(extended), let name = Self.colorName(declaredBy: global.decl) {
                names.insert(name)
                declaringFiles.insert(index.files[global.file].relativePath)
                continue
            }
            if global.decl.as(VariableDeclSyntax.self)?.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) == true {
                others.formUnion(global.names)
            }
            if global.decl.is(FunctionDeclSyntax.self) || global.decl.is(VariableDeclSyntax.self) { memberGlobals.append(global) }
        }
        // A project without named colors (most) walks no extension member's code.
        guard !names.isEmpty else { return }
        let members = memberGlobals.map { global in
            (global: global, calls: Set(global.decl.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                      ViewNativeExtensions.isCalled(reference) else { return nil }
                return name
            }))
        }
        for type in index.types {
            for member in type.members where member.kind == .enumCase || member.isStatic { others.formUnion(member.names) }
        }
        ambiguousNames = names.intersection(others.union(Self.frameworkStyleNames))

        let direct = members.map { member in
            member.global.decl.tokens(viewMode: .sourceAccurate).compactMap { token -> ExtensionRead? in
                guard let access = Self.access(named: token), let name = color(readBy: access) else { return nil }
                return ExtensionRead(name: name, access: access, file: member.global.file)
            }
        }
        var declaring: [String: [Int]] = [:]
        for (position, member) in members.enumerated() { for name in member.global.names { declaring[name, default: []].append(position) } }
        for name in declaring.keys {
            // The members this name reaches through the calls of their code, each once.
            var reached: Set<Int> = []
            var pending = declaring[name] ?? []
            while let next = pending.popLast() {
                guard reached.insert(next).inserted else { continue }
                pending += members[next].calls.flatMap { declaring[$0] ?? [] }
            }
            let reads = reached.sorted().flatMap { direct[$0] }
            guard !reads.isEmpty else { continue }
            extensionReads[name] = reads
            for position in reached where !direct[position].isEmpty { extensionFiles.insert(index.files[members[position].global.file].relativePath) }
        }
    }

    /// The member access a token names (`acText` of `.acText` or `Color.acText`).
    static func access(named token: TokenSyntax) -> MemberAccessExprSyntax? {
        guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
              let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id else { return nil }
        return access
    }


    /// The named color `access` reads: `Color.acText`, or `.acText` whose name no other declaration uses.
    func color(readBy access: MemberAccessExprSyntax) -> String? {
        let name = access.declName.baseName.text
        guard names.contains(name), access.declName.argumentNames == nil else { return nil }
        guard let base = access.base else { return ambiguousNames.contains(name) ? nil : name }
        return Self.colorTypeNames.contains(base.trimmedText) ? name : nil
    }

    private static let colorTypeNames: Set<String> = ["Color", "SwiftUI.Color"]
    /// SwiftUI's own colors and shape styles: an app may redeclare one (enchanted's `static let primary
    /// = Color(.label)`), but where a shape style is expected `.primary` is still SwiftUI's
    /// hierarchical style, so an implicit member of those names is left as the framework's.
    private static let frameworkStyleNames: Set<String> = [
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown",
        "white", "gray", "black", "clear", "primary", "secondary", "tertiary", "quaternary", "quinary", "accentColor",
        "tint", "foreground", "background", "separator", "selection", "placeholder", "link", "fill", "windowBackground",
    ]

    /// `extension Color`, or `extension ShapeStyle where Self == Color` (what lets `.foregroundStyle(.acText)` compile).
    private static func extendsColor(_ extensionDecl: ExtensionDeclSyntax) -> Bool {
        let extended = extensionDecl.extendedType.trimmedText
        if colorTypeNames.contains(extended) { return true }
        guard extended == "ShapeStyle", let requirements = extensionDecl.genericWhereClause?.requirements else { return false }
        return requirements.contains { requirement in
            guard let sameType = requirement.requirement.as(SameTypeRequirementSyntax.self) else { return false }
            return sameType.leftType.trimmedText == "Self" && colorTypeNames.contains(sameType.rightType.trimmedText)
        }
    }

    /// The name of a `static var`/`static let` whose value is a `Color`: declared so
    /// (`static var acText: Color { … }`) or initialized with `Color(…)`.
    private static func colorName(declaredBy decl: DeclSyntax) -> String? {
        guard let variable = decl.as(VariableDeclSyntax.self),
              variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
              variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
        if let annotation = binding.typeAnnotation?.type.trimmedText { return colorTypeNames.contains(annotation) ? name : nil }
        let called = binding.initializer?.value.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText
        return called.map(colorTypeNames.contains) == true ? name : nil
    }
}

extension ViewToken {
    /// The color token of the app's named color `name` (`ViewDesignColors`): the thunk evaluates
    /// `Color.<name>`; the id is the same in every view (the hash of the expression alone), so a
    /// read in code that several views share reads one token.
    init(designColor name: String) {
        self.init(viewPath: [], type: .color, expression: "Color.\(name)")
    }
}
