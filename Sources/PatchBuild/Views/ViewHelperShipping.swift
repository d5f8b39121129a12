import PatchManifest
import SwiftParser
import SwiftSyntax

/// A changed helper of a view — a computed property or method of the view's type typed `some View`
/// or marked `@ViewBuilder` — has no thunk of its own (an opaque type cannot travel as JSON), yet
/// it ships: the guest compiles the view's members with its `body` (docs/views.md "Tokens and
/// slots"), so lowering the body again carries the helper's new code. This decides, for each such
/// change, which routed body carries it, or says precisely why none does (docs/views.md "Changed
/// helpers").
enum ViewHelperShipping {
    /// Turns the changed view helpers among `changes` that a routed body of their own type uses into
    /// patched changes, and gives the others a precise reason. Returns the body each patched helper
    /// ships with (helper id → body id): `build` lowers those bodies even when they did not change.
    ///
    /// - Parameters:
    ///   - current: the plan of the sources now (which files declare members of a type).
    ///   - targets: the sources now, read to find the helpers and what each body uses.
    static func apply(to changes: inout [DeclarationChange], baseline: Baseline, current: PreparePlan,
                      targets: [PrepareTarget]) -> [String: String] {
        let shippedViewNames = PatchNames.viewTypeNames(PatchNames.viewClaims(in: baseline))
        var parsed: [String: SourceFileSyntax] = [:]
        func syntax(of file: String, in target: String) -> SourceFileSyntax? {
            if let known = parsed[file] { return known }
            guard let source = targets.first(where: { $0.name == target })?.files.first(where: { $0.path == file }) else { return nil }
            let tree = Parser.parse(source: String(decoding: source.bytes, as: UTF8.self))
            parsed[file] = tree
            return tree
        }
        var bodies: [String: String] = [:]
        for index in changes.indices {
            let change = changes[index]
            guard change.change == .modified, change.status == .nativeOnly, change.reason == DeclarationChange.NativeReason.notRouted,
                  change.kind == .computedProperty || change.kind == .method,
                  let member = MemberName(baselineID: change.id), !member.typePath.isEmpty,
                  // A `body` that is not a view's (an `App`'s scene) has prepare's reason.
                  member.name != "body" else { continue }
            let view = PatchNames.ViewIdentity(target: member.target, path: member.typePath)
            let owner = member.typePath.joined(separator: ".")
            let shippedBody = baseline.declarations.first { $0.kind == .viewBody && PatchNames.ViewIdentity(baselineID: $0.id) == view }
            // Every file declaring a member of the type: the body may reach the helper through others.
            let memberPrefix = "\(member.target):\(owner)."
            let files = Set(current.baseline.declarations.filter { $0.id.hasPrefix(memberPrefix) }.map(\.file)).sorted()
            let members = TypeMembers.collect(path: member.typePath, in: files.compactMap { syntax(of: $0, in: member.target) })
            guard members.contains(where: { $0.name == member.name && isViewHelper($0.decl) }) else { continue }
            func keep(_ detail: String) {
                changes[index].detail = "no thunk routes a view helper by itself (a view cannot travel as JSON); " + detail
            }
            guard let shippedBody, let typeName = shippedViewNames.typeName(of: view) else {
                keep("no body patch carries it: `\(owner)` has no `body` the shipped binary routes, so its callers run the shipped code and this needs an app release (a helper of the view whose routed body uses it ships with that body)")
                continue
            }
            // Prepared sources name the native body `PreparedNames.nativeBody`.
            let bodyMembers = members.filter { $0.name == "body" || $0.name == PreparedNames.nativeBody }
            guard !bodyMembers.isEmpty, TypeMembers.reached(from: bodyMembers, in: members).contains(member.name) else {
                keep("`\(owner).body` does not use it, so the body's patch does not carry it: its callers elsewhere run the shipped code (move it into the view whose routed body uses it)")
                continue
            }
            // Whether the body lowers (changed itself or not) is the guest build's to say:
            // `ChangeSet.applying(unpatchable:)` gives the helper the body's reason when it does not.
            changes[index].status = .patched
            changes[index].reason = nil
            changes[index].detail = "ships inside its view's body patch (`\(PatchNames.viewBodyExport(typeName: typeName))`): the module lowers `\(owner).body` again with this helper's new code"
            bodies[change.id] = shippedBody.id
        }
        return bodies
    }

    /// Typed `some View` or marked `@ViewBuilder`: what a view's body calls to build part of its tree.
    /// (Not any type ending in `View`: an `AppIntent`'s `some IntentResult & ShowsSnippetView` is no view.)
    static func isViewHelper(_ decl: DeclSyntax) -> Bool {
        func isViewBuilder(_ attributes: AttributeListSyntax) -> Bool {
            attributes.contains { ["ViewBuilder", "SwiftUI.ViewBuilder"].contains($0.as(AttributeSyntax.self)?.attributeName.trimmedText ?? "") }
        }
        func isOpaqueView(_ type: TypeSyntax?) -> Bool {
            ["someView", "someSwiftUI.View"].contains(type?.textWithoutWhitespace ?? "")
        }
        if let variable = decl.as(VariableDeclSyntax.self) {
            return isViewBuilder(variable.attributes) || variable.bindings.contains { isOpaqueView($0.typeAnnotation?.type) }
        }
        if let function = decl.as(FunctionDeclSyntax.self) {
            return isViewBuilder(function.attributes) || isOpaqueView(function.signature.returnClause?.type)
        }
        return false
    }

    /// A member's baseline id taken apart: `App:Outer.Row.badge(count:Int)` → target `App`, type
    /// path `Outer.Row`, name `badge` (an `#if` clause's `#2` and the parameter types dropped).
    struct MemberName {
        var target: String
        var typePath: [String]
        var name: String

        init?(baselineID id: String) {
            guard let colon = id.firstIndex(of: ":") else { return nil }
            let local = id[id.index(after: colon)...].prefix { $0 != "#" }.prefix { $0 != "(" }
            let components = local.split(separator: ".").map(String.init)
            guard let name = components.last else { return nil }
            self.target = String(id[..<colon])
            self.typePath = Array(components.dropLast())
            self.name = name
        }
    }
}

/// The members of one type, from its declaration and its extensions in some files.
private enum TypeMembers {
    struct Member {
        var name: String
        var decl: DeclSyntax
    }

    static func collect(path: [String], in files: [SourceFileSyntax]) -> [Member] {
        let collector = Collector(path: path)
        for file in files { collector.walk(file) }
        return collector.members
    }

    /// The names of `members` that `start` uses, directly or through the members it uses (by name,
    /// as the guest's dependency closure resolves them).
    static func reached(from start: [Member], in members: [Member]) -> Set<String> {
        var reached = Set<String>()
        var pending = start
        while let member = pending.popLast() {
            let references = GuestReferenceCollector.collect(member.decl)
            for name in references.bareNames.union(references.memberNames) where reached.insert(name).inserted {
                pending += members.filter { $0.name == name }
            }
        }
        return reached
    }

    /// Walks declarations keeping the path of the enclosing types; collects the members of `path`.
    private final class Collector: SyntaxVisitor {
        let path: [String]
        private var enclosing: [[String]] = []
        var members: [Member] = []

        init(path: [String]) {
            self.path = path
            super.init(viewMode: .sourceAccurate)
        }

        private var current: [String] { enclosing.last ?? [] }

        private func enter(_ name: String) -> SyntaxVisitorContinueKind {
            enclosing.append(current + [name])
            return .visitChildren
        }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
        override func visitPost(_ node: StructDeclSyntax) { enclosing.removeLast() }
        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
        override func visitPost(_ node: ClassDeclSyntax) { enclosing.removeLast() }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
        override func visitPost(_ node: EnumDeclSyntax) { enclosing.removeLast() }
        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
        override func visitPost(_ node: ActorDeclSyntax) { enclosing.removeLast() }
        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            enclosing.append(node.extendedType.trimmedText.split(separator: ".").map(String.init))
            return .visitChildren
        }
        override func visitPost(_ node: ExtensionDeclSyntax) { enclosing.removeLast() }

        override func visit(_ node: MemberBlockItemSyntax) -> SyntaxVisitorContinueKind {
            guard current == path else { return .visitChildren }
            if let variable = node.decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        members.append(Member(name: name, decl: node.decl))
                    }
                }
            } else if let function = node.decl.as(FunctionDeclSyntax.self) {
                members.append(Member(name: function.name.text, decl: node.decl))
            }
            return .visitChildren
        }
    }
}
