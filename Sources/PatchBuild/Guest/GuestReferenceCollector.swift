import SwiftSyntax

/// The names a declaration refers to, split the way the dependency closure resolves them, plus the
/// constructs the guest tier cannot run (each with the node to locate it).
struct GuestReferences {
    /// Bare identifiers in expressions (`subtotal`, `formatPrice`, `Item`), minus local bindings.
    var bareNames: Set<String> = []
    /// Names after a dot (`.total`, `items.count`, `.premium`): members of some type.
    var memberNames: Set<String> = []
    /// Names used in type position (`Item`, `[LineItem]`, `Outer.Inner` as ["Outer", "Inner"]).
    var typeNames: Set<String> = []
    /// Operators used (`+`, `<`, `==`), which resolve to operator functions of project types.
    var operators: Set<String> = []
    /// `async`/`await` sites.
    var asyncSites: [Syntax] = []
    /// `any P` sites.
    var existentialSites: [Syntax] = []
}

/// Walks one declaration and collects `GuestReferences`. Names bound inside it (parameters, local
/// `let`/`var`, closure parameters, pattern bindings) are not references to the project's
/// declarations, so they are subtracted from the bare names.
final class GuestReferenceCollector: SyntaxVisitor {
    private var references = GuestReferences()
    private var localBindings: Set<String> = []

    static func collect(_ node: some SyntaxProtocol) -> GuestReferences {
        let collector = GuestReferenceCollector(viewMode: .sourceAccurate)
        collector.walk(node)
        var references = collector.references
        references.bareNames.subtract(collector.localBindings)
        return references
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        if let access = node.parent?.as(MemberAccessExprSyntax.self), access.declName.id == node.id {
            // `Swift.min(…)` is the standard library's, never a member the project declares.
            if access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Swift" { return .visitChildren }
            references.memberNames.insert(name)
        } else if node.parent?.is(KeyPathPropertyComponentSyntax.self) == true {
            // `\.isPremium`, `\Food.supplier?.name`: members, which the guest program reads through
            // the closure it writes for the key path (`GuestSourceWriter.keyPathFunctions`).
            references.memberNames.insert(name)
        } else if case .binaryOperator = node.baseName.tokenKind {
            references.operators.insert(name)
        } else if name != "self" && name != "Self" && name != "super" {
            references.bareNames.insert(name)
        }
        return .visitChildren
    }

    override func visit(_ node: BinaryOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        references.operators.insert(node.operator.text)
        return .visitChildren
    }

    override func visit(_ node: PrefixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        references.operators.insert(node.operator.text)
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        references.typeNames.insert(node.name.text)
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        references.typeNames.insert(node.name.text)
        return .visitChildren
    }

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        localBindings.insert(node.identifier.text)
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        localBindings.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        localBindings.insert(node.name.text)
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        localBindings.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        references.asyncSites.append(Syntax(node))
        return .visitChildren
    }

    override func visit(_ node: FunctionEffectSpecifiersSyntax) -> SyntaxVisitorContinueKind {
        if node.asyncSpecifier != nil { references.asyncSites.append(Syntax(node)) }
        return .visitChildren
    }

    override func visit(_ node: TypeEffectSpecifiersSyntax) -> SyntaxVisitorContinueKind {
        if node.asyncSpecifier != nil { references.asyncSites.append(Syntax(node)) }
        return .visitChildren
    }

    override func visit(_ node: SomeOrAnyTypeSyntax) -> SyntaxVisitorContinueKind {
        if node.someOrAnySpecifier.tokenKind == .keyword(.any) { references.existentialSites.append(Syntax(node)) }
        return .visitChildren
    }
}
