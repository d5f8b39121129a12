import SwiftSyntax

/// What a throwing function throws, read from its `throw` statements. Embedded Swift has no
/// untyped `throws` (it would need `any Error`), so the guest compiles `func f() throws` as
/// `func f() throws(E)` with `E` the one type its `throw`s name (docs/prepare.md "Throwing functions").
enum GuestThrownError {
    /// The type every `throw` of the declaration's own code names — `throw E.case`,
    /// `throw E.case(…)`, `throw E(…)`, `throw Outer.E.case` — or nil when there is no `throw`, one
    /// names no type (`throw error`, `throw .case`), or two name different types. Throws inside
    /// closures and nested functions belong to them and are not read. `decl` may also be a block (a
    /// `do` statement's body), whose nested functions are not read either.
    static func typeName(in decl: Syntax) -> String? {
        final class Finder: SyntaxVisitor {
            var names: [String?] = []
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            // The declaration itself is entered; a function nested in it is not.
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { entered ? .skipChildren : enter() }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { entered ? .skipChildren : enter() }
            override func visit(_ node: ThrowStmtSyntax) -> SyntaxVisitorContinueKind {
                names.append(GuestThrownError.typeName(of: node.expression))
                return .skipChildren
            }
            var entered = false
            private func enter() -> SyntaxVisitorContinueKind {
                entered = true
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.entered = !decl.is(DeclSyntax.self)
        finder.walk(decl)
        guard let first = finder.names.first, let name = first, finder.names.allSatisfy({ $0 == name }) else { return nil }
        return name
    }

    /// `E.case`, `E.case(…)`, `E(…)` → `E`; a qualified `A.E.case` → `A.E`. Type names start with an
    /// uppercase letter (Swift's convention, which is all a syntax reader can go by).
    private static func typeName(of expression: ExprSyntax) -> String? {
        var expression = expression
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return typeReference(reference) }
            expression = call.calledExpression
        }
        guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        if let reference = base.as(DeclReferenceExprSyntax.self) { return typeReference(reference) }
        guard base.is(MemberAccessExprSyntax.self) else { return nil }
        let text = base.trimmedText
        return text.split(separator: ".").allSatisfy({ $0.first?.isUppercase == true }) ? text : nil
    }

    private static func typeReference(_ reference: DeclReferenceExprSyntax) -> String? {
        reference.baseName.text.first?.isUppercase == true ? reference.baseName.text : nil
    }

    /// The edit that makes an untyped `throws` of a copied function `throws(E)`: the range of its
    /// `throws` keyword (offsets in the file) and the replacement; nil when the declaration has no
    /// untyped `throws` or its error type cannot be read (it then fails to compile, and `build`
    /// attributes that to the exports using it).
    static func typedThrowsEdit(in decl: DeclSyntax) -> (range: Range<Int>, replacement: String)? {
        // An async function's clause goes with the rest of its signature (`GuestAsyncTransform`).
        guard !GuestAsyncTransform.isAsyncFunction(decl) else { return nil }
        let clause = decl.as(FunctionDeclSyntax.self)?.signature.effectSpecifiers?.throwsClause
            ?? decl.as(InitializerDeclSyntax.self)?.signature.effectSpecifiers?.throwsClause
        guard let clause, clause.type == nil, clause.throwsSpecifier.tokenKind == .keyword(.throws), let name = typeName(in: Syntax(decl)) else { return nil }
        let keyword = clause.throwsSpecifier
        return (keyword.positionAfterSkippingLeadingTrivia.utf8Offset..<keyword.endPositionBeforeTrailingTrivia.utf8Offset, "throws(\(name))")
    }
}
