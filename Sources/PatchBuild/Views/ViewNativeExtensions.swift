import SwiftSyntax

/// The app's members of extensions of types it does not declare (`extension Image`, `extension
/// View`) that apply a modifier the view IR has no case for (`ViewTokenAnalysis.nativeOnlyModifiers`),
/// directly or through another such member: ACHNBrowserUI's `extension Image { func style(appStyle:)
/// -> some View }` returns a `barButton()` built on `self.resizable()`. Such a member cannot lower
/// (the guest DSL has no `resizable`), so where a body calls it as a modifier of a statement
/// (`Image(systemName: "gear").style(appStyle: .barButton)`) the chain up to that call is a slot, as
/// it is for the modifier itself (docs/views.md "Tokens and slots"). Members that lower are copied into
/// the guest with their extension (`GuestDependencyClosure`), nested types included.
struct ViewNativeExtensions {
    struct Member {
        /// The extended type as the extension spells it (`Image`).
        let extendedType: String
        /// The native-only modifier the member applies in the end (`resizable`).
        let modifier: String
        let location: GuestSourceLocation
    }

    /// Every member of a foreign extension by name, with what makes it native (nil: it may lower).
    /// An overloaded name can be both: ACHNBrowserUI's `Text.style(appStyle:)` applies no native-only
    /// modifier, its `Image.style(appStyle:)` does.
    private let membersByName: [String: [(extendedType: String, file: String, native: Member?)]]
    /// The native-only members (`GuestSourceIndex.globals` positions).
    let nativeGlobals: Set<Int>

    init(index: GuestSourceIndex) {
        // Each member's calls are collected once; the passes below only look them up.
        var entries: [(global: Int, names: [String], extendedType: String, calls: [DeclReferenceExprSyntax])] = []
        for (position, global) in index.globals.enumerated() {
            guard let extended = global.foreignExtension?.extendedType.trimmedText,
                  global.decl.is(FunctionDeclSyntax.self) || global.decl.is(VariableDeclSyntax.self) else { continue }
            let calls = global.decl.tokens(viewMode: .sourceAccurate).compactMap { token -> DeclReferenceExprSyntax? in
                guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                      Self.isCalled(reference) else { return nil }
                return reference
            }
            entries.append((position, global.names, extended, calls))
        }
        var native: [Int: Member] = [:]
        var byName: [String: [(extendedType: String, file: String, native: Member?)]] = [:]
        // A fixed point: the members naming a native-only modifier, then those calling one found,
        // until none is added (`style` calls `barButton`, which calls `resizable`).
        var added = true
        while added {
            added = false
            byName = [:]
            for entry in entries {
                let file = index.files[index.globals[entry.global].file].relativePath
                for name in entry.names { byName[name, default: []].append((entry.extendedType, file, native[entry.global])) }
            }
            let current = ViewNativeExtensions(membersByName: byName)
            for entry in entries where native[entry.global] == nil {
                let modifier = entry.calls.lazy.compactMap { reference -> String? in
                    let name = reference.baseName.text
                    if ViewTokenAnalysis.nativeOnlyModifiers.contains(name) { return name }
                    return current.member(calledBy: reference, implicitSelf: entry.extendedType)?.modifier
                }.first
                guard let modifier else { continue }
                let global = index.globals[entry.global]
                let file = index.files[global.file]
                native[entry.global] = Member(extendedType: entry.extendedType, modifier: modifier,
                                              location: GuestSourceLocation(file: file.relativePath, line: file.line(of: global.decl)))
                added = true
            }
        }
        membersByName = byName
        nativeGlobals = Set(native.keys)
    }

    /// The names of the native-only members: what `prepare` searches the app's files for
    /// (`.style(`), as it searches them for the native-only modifiers.
    var nativeNames: Set<String> {
        Set(membersByName.filter { $0.value.contains { $0.native != nil } }.keys)
    }

    /// The files declaring them and the overloads of their names (`GuestSourceFile.relativePath`):
    /// what an analysis must read to tell a call of one from a call of the other.
    var declaringFiles: Set<String> {
        Set(membersByName.values.filter { $0.contains { $0.native != nil } }.flatMap { $0.map(\.file) })
    }

    private init(membersByName: [String: [(extendedType: String, file: String, native: Member?)]]) {
        self.membersByName = membersByName
        nativeGlobals = []
    }

    /// The native-only member a call names (`style` of `Image(…).style(appStyle: .barButton)`), or nil.
    /// When the name also has a member that may lower, the call's receiver tells them apart: the type
    /// its chain starts from (`Image(…)`, `Image.donutSymbol`), or `implicitSelf` for a call without
    /// one (or on `self`) inside an extension; a receiver that cannot be told is taken to be the one
    /// that may lower (the guest's compile says so if it does not).
    func member(calledBy reference: DeclReferenceExprSyntax, implicitSelf: String? = nil) -> Member? {
        guard let candidates = membersByName[reference.baseName.text] else { return nil }
        let natives = candidates.compactMap(\.native)
        guard let first = natives.first else { return nil }
        if natives.count == candidates.count { return first }
        var receiver: String? = implicitSelf
        if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id {
            receiver = access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) ? implicitSelf : access.base.flatMap(Self.rootTypeName)
        }
        return natives.first { $0.extendedType == receiver }
    }

    /// `Image` of `Image(systemName: "x").renderingMode(.template)` or `Image.donutSymbol`: the
    /// capitalized name a chain of calls and member accesses starts from.
    private static func rootTypeName(_ expression: ExprSyntax) -> String? {
        var current = expression
        while true {
            if let call = current.as(FunctionCallExprSyntax.self) {
                current = call.calledExpression
            } else if let access = current.as(MemberAccessExprSyntax.self), let base = access.base {
                current = base
            } else if let reference = current.as(DeclReferenceExprSyntax.self), reference.baseName.text.first?.isUppercase == true {
                return reference.baseName.text
            } else {
                return nil
            }
        }
    }

    /// `reference` is called: `name(…)` or `x.name(…)` (a trailing closure alone included).
    static func isCalled(_ reference: DeclReferenceExprSyntax) -> Bool {
        var called = Syntax(reference)
        if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id { called = Syntax(access) }
        return called.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == called.id
    }
}
