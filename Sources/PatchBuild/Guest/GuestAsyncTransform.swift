import SwiftSyntax

/// How `build` compiles an `async` function for the Embedded wasm32 guest, which has no
/// _Concurrency (docs/async.md): the function becomes a plain one taking its continuation,
///
///     func f(a: A) async throws -> R          func f(a: A, _ _patchResume: @escaping (_PatchAsyncOutcome<R, E>) -> Void)
///
/// and each `await` statement splits the body there: the call starts the awaited work with the rest
/// of the body as its trailing closure, which the guest's executor runs when the host answers
/// (templates/guest/Foundation+Async.swift). The transform is a list of byte edits to the copied
/// declaration, so lines stay where they were and the project's own `#sourceLocation`s still hold.
///
/// Covered: awaits of `URLSession.shared.data(from:)` / `data(for:)`, `Task.sleep(nanoseconds:)` /
/// `Task.sleep(for:)`, `Task.yield()` or another async function of the project (transformed the same
/// way), as statements, inside expressions, branches, loops and `do`/`catch`, and `async let` pairs: the statement
/// and expression handling is GuestAsyncRewriter's. Anything else with an await is refused with the
/// construct named, and the function stays native (`async_code`).
struct GuestAsyncTransform {
    /// The edits (utf8 offsets in the file) turning the declaration into its continuation form.
    var edits: [(range: Range<Int>, replacement: String)]
    /// The error type the guest's function fails with (`throws(E)` or the one type its `throw`s
    /// name); nil when it throws nothing of its own (a request's transport failure aside).
    var thrownType: String?

    struct Refusal: Error {
        var node: Syntax
        var construct: String
    }

    /// The continuation parameter every transformed function takes last.
    static let resume = "_patchResume"

    /// Whether `decl` is an async function (the only async declarations the guest can take).
    static func isAsyncFunction(_ decl: some SyntaxProtocol) -> Bool {
        decl.as(FunctionDeclSyntax.self)?.signature.effectSpecifiers?.asyncSpecifier != nil
    }

    /// The error type each async function of the project fails with in the guest, by base name
    /// (`thrownTypes(in:)`): what a caller awaiting it passes on.
    typealias ThrownTypes = [String: String]

    /// An async function's own error type (`throws(E)`, or the one type its `throw`s name), else the
    /// one it passes on from the first project async function it awaits that has one: natively its
    /// untyped `throws` rethrows what that function throws. Functions that throw nothing have none.
    static func thrownTypes(in index: GuestSourceIndex) -> ThrownTypes {
        let functions = (index.globals.map(\.decl) + index.types.flatMap { $0.members.map(\.decl) })
            .compactMap { $0.as(FunctionDeclSyntax.self) }.filter(isAsyncFunction)
        var types: ThrownTypes = [:]
        for function in functions {
            if let own = ownThrownType(function), types[function.name.text] == nil { types[function.name.text] = own }
        }
        // Passed on through chains of awaits: each round settles one more link.
        var changed = true
        while changed {
            changed = false
            for function in functions where types[function.name.text] == nil && function.signature.effectSpecifiers?.throwsClause != nil {
                if let passed = awaitedProjectCallees(function).lazy.compactMap({ types[$0] }).first {
                    types[function.name.text] = passed
                    changed = true
                }
            }
        }
        return types
    }

    private static func ownThrownType(_ function: FunctionDeclSyntax) -> String? {
        guard let clause = function.signature.effectSpecifiers?.throwsClause, clause.throwsSpecifier.tokenKind == .keyword(.throws) else { return nil }
        return clause.type?.trimmedText ?? GuestThrownError.typeName(in: Syntax(function))
    }

    /// The base names of the calls the function's own code awaits that are not system awaits.
    private static func awaitedProjectCallees(_ function: FunctionDeclSyntax) -> [String] {
        guard let body = function.body else { return [] }
        // What it awaits, and what its `async let`s start (`async let a = fetch()`, no await written).
        let awaited = body.statements.flatMap { item -> [ExprSyntax] in
            let found = AwaitFinder(item)
            let started = found.asyncLet?.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value
            return found.awaits.map(\.expression) + (started.map { [$0] } ?? [])
        }
        return awaited.compactMap { expression -> String? in
            var operand = expression
            while let inner = operand.as(TryExprSyntax.self)?.expression ?? operand.as(AwaitExprSyntax.self)?.expression { operand = inner }
            guard let call = awaitedCall(operand, thrownTypes: [:]), case .project = Callee(call) else { return nil }
            return baseName(of: call)
        }
    }

    /// The call an `await` suspends at: of the calls along its operand's chain (`fetch(id: 1).text.count`,
    /// `load().map { … }`), the innermost that is a system await or an async function of the project
    /// known to throw, else the innermost (a syntax reader cannot tell which of the others is async).
    static func awaitedCall(_ operand: ExprSyntax, thrownTypes: ThrownTypes) -> FunctionCallExprSyntax? {
        var calls: [FunctionCallExprSyntax] = []
        var node: ExprSyntax? = operand
        while let current = node {
            if let call = current.as(FunctionCallExprSyntax.self) {
                calls.insert(call, at: 0)
                node = call.calledExpression
            } else if let member = current.as(MemberAccessExprSyntax.self) {
                node = member.base
            } else if let unwrapped = current.as(ForceUnwrapExprSyntax.self) {
                node = unwrapped.expression
            } else if let chained = current.as(OptionalChainingExprSyntax.self) {
                node = chained.expression
            } else if let subscripted = current.as(SubscriptCallExprSyntax.self) {
                node = subscripted.calledExpression
            } else {
                node = nil
            }
        }
        return calls.first { call in
            guard case .project = Callee(call) else { return true }
            return baseName(of: call).map { thrownTypes[$0] != nil } ?? false
        } ?? calls.first
    }

    static func baseName(of call: FunctionCallExprSyntax) -> String? {
        call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    /// The transform of an async function, or the construct that keeps it native. `thrownTypes`:
    /// `thrownTypes(in:)` of the project.
    static func transform(_ function: FunctionDeclSyntax, thrownTypes: ThrownTypes) -> Result<GuestAsyncTransform, Refusal> {
        let signature = function.signature
        guard let body = function.body else { return .failure(Refusal(node: Syntax(function), construct: "an async function without a body")) }
        if let ownership = function.modifiers.first(where: { ["mutating", "consuming"].contains($0.name.text) }) {
            return .failure(Refusal(node: Syntax(ownership), construct: "a `\(ownership.name.text)` async method (its `self` would be captured across a suspension)"))
        }
        var thrownType: String?
        if let clause = signature.effectSpecifiers?.throwsClause {
            if clause.throwsSpecifier.tokenKind == .keyword(.rethrows) {
                return .failure(Refusal(node: Syntax(clause), construct: "a `rethrows` async function"))
            }
            thrownType = ownThrownType(function) ?? thrownTypes[function.name.text]
        }
        let resultType = signature.returnClause.map { $0.type.trimmedText } ?? "Void"
        let returnsVoid = ["Void", "()"].contains(resultType)
        let isInstanceMember = !function.modifiers.contains { ["static", "class"].contains($0.name.text) }
            && function.parent?.parent?.parent?.parent.map { $0.is(ClassDeclSyntax.self) || $0.is(ExtensionDeclSyntax.self) } == true
        let rewriter = GuestAsyncRewriter(source: function.root, thrownType: thrownType, thrownTypes: thrownTypes, capturesSelf: isInstanceMember)
        if let async = signature.effectSpecifiers?.asyncSpecifier { rewriter.remove(async) }
        if let clause = signature.effectSpecifiers?.throwsClause { rewriter.remove(clause) }
        if let returnClause = signature.returnClause { rewriter.remove(returnClause) }
        let parameters = signature.parameterClause
        let separator = parameters.parameters.isEmpty ? "" : ", "
        rewriter.insert("\(separator)_ \(resume): @escaping (_PatchAsyncOutcome<\(resultType), \(thrownType ?? "Never")>) -> Void",
                        at: parameters.rightParen.positionAfterSkippingLeadingTrivia.utf8Offset)
        do throws(Refusal) {
            try rewriter.body(body, returnsVoid: returnsVoid)
        } catch {
            return .failure(error)
        }
        return .success(GuestAsyncTransform(edits: rewriter.edits, thrownType: thrownType))
    }

    /// The awaits of one statement, and an async closure among them (which the guest cannot run).
    final class AwaitFinder: SyntaxVisitor {
        var awaits: [AwaitExprSyntax] = []
        var asyncClosure: Syntax?
        var asyncLet: Syntax?
        /// `for await`/`for try await`, whose suspension is its keyword, not an await expression.
        var forAwait: Syntax?

        init(_ node: CodeBlockItemSyntax) {
            super.init(viewMode: .sourceAccurate)
            walk(node)
        }

        override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
            awaits.append(node)
            return .visitChildren
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            if AwaitFinder.containsAwait(node) { asyncClosure = asyncClosure ?? Syntax(node) }
            return .skipChildren
        }

        override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
            if node.awaitKeyword != nil { forAwait = forAwait ?? Syntax(node) }
            return .visitChildren
        }

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            if node.modifiers.contains(where: { $0.name.text == "async" }) { asyncLet = asyncLet ?? Syntax(node) }
            return .visitChildren
        }

        static func containsAwait(_ node: some SyntaxProtocol) -> Bool {
            node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.await) }
        }
    }

    /// The function's own `return`s: not those of closures or nested functions.
    final class ReturnFinder: SyntaxVisitor {
        var returns: [ReturnStmtSyntax] = []

        init(_ body: CodeBlockSyntax) {
            super.init(viewMode: .sourceAccurate)
            walk(body)
        }

        override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
            returns.append(node)
            return .visitChildren
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }

    /// A statement whose one await is the whole of what it computes.
    struct AwaitStatement {
        enum Kind {
            /// `let P = …` or `x = …`: what receives the value (`let (data, response)`, `var items: [Item]`, `total`).
            case binding(String)
            case discarded
            case returned(ReturnStmtSyntax)
        }

        var kind: Kind
        var call: FunctionCallExprSyntax

        init?(_ item: CodeBlockItemSyntax, awaitExpression: AwaitExprSyntax) {
            guard let call = awaitExpression.expression.as(FunctionCallExprSyntax.self) else { return nil }
            self.call = call
            // The awaited expression with its `try`, if any: what the statement holds.
            let whole: ExprSyntax = awaitExpression.parent?.as(TryExprSyntax.self).map(ExprSyntax.init) ?? ExprSyntax(awaitExpression)
            if let variable = item.item.as(VariableDeclSyntax.self) {
                guard variable.bindings.count == 1, let binding = variable.bindings.first, binding.accessorBlock == nil,
                      binding.initializer?.value.id == whole.id else { return nil }
                let pattern = binding.pattern.trimmedDescription + (binding.typeAnnotation.map { $0.trimmedDescription } ?? "")
                kind = .binding(variable.bindingSpecifier.text + " " + pattern)
            } else if let returnStatement = item.item.as(ReturnStmtSyntax.self) {
                guard returnStatement.expression?.id == whole.id else { return nil }
                kind = .returned(returnStatement)
            } else if let expression = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression {
                // `x = try await f()`: the assignment moves into the continuation, as a binding does.
                if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                   let target = sequence.elements.first, sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
                   sequence.elements.last?.id == whole.id {
                    kind = .binding(target.trimmedDescription)
                    return
                }
                guard expression.id == whole.id else { return nil }
                kind = .discarded
            } else {
                return nil
            }
        }
    }

    /// What an awaited call becomes in the guest.
    enum Callee {
        /// Another async function of the project: called as written, now with a continuation.
        case project
        /// A system await: the text from the statement's start up to `through` (an offset in the
        /// file) becomes `replacement`, the rest of the call (its arguments) stays.
        case replaced(through: Int, String)
        case refused(String)

        init(_ call: FunctionCallExprSyntax) {
            let callee = call.calledExpression.trimmedDescription.filter { !$0.isWhitespace }
            let labels = call.arguments.map { $0.label?.text ?? "_" }
            // The callee and the first argument's label (with its colon) are replaced; its value stays.
            let afterLabel = call.arguments.first?.colon?.endPositionBeforeTrailingTrivia.utf8Offset
            switch (callee, labels) {
            case ("URLSession.shared.data", ["from"]):
                self = afterLabel.map { .replaced(through: $0, "_patchHTTPGet(") } ?? .refused("URLSession")
            case ("URLSession.shared.data", ["for"]):
                self = afterLabel.map { .replaced(through: $0, "_patchHTTPRequest(") } ?? .refused("URLSession")
            case ("Task.sleep", ["nanoseconds"]), ("Task.sleep", ["for"]), ("Task.yield", []):
                self = .replaced(through: call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset,
                                 callee == "Task.yield" ? "_patchYield" : "_patchSleep")
            default:
                if callee.hasPrefix("URLSession") || callee.hasSuffix(".data") || callee.hasSuffix(".bytes") || callee.hasSuffix(".upload") || callee.hasSuffix(".download") {
                    self = .refused("`\(callee)(\(labels.map { $0 + ":" }.joined()))`: of URLSession only `URLSession.shared.data(from:)` and `data(for:)` are bridged")
                } else if callee.hasPrefix("Task.") || callee.hasPrefix("withTaskGroup") || callee.hasPrefix("withThrowingTaskGroup")
                            || callee.hasPrefix("withCheckedContinuation") || callee.hasPrefix("withCheckedThrowingContinuation")
                            || callee.hasPrefix("withUnsafeContinuation") || callee.hasPrefix("withUnsafeThrowingContinuation") {
                    self = .refused("`\(callee)`, which the guest has no runtime for")
                } else {
                    self = .project
                }
            }
        }
    }
}
