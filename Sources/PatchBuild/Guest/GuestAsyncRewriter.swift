import SwiftSyntax

/// The statement and expression handling of `GuestAsyncTransform` (docs/async.md): turns the body of an
/// async function into continuation-passing form by byte edits that keep every line where it was.
///
/// - An await that is a whole statement (`let x = try await f()`, `x = …`, `try await f()`, `return try
///   await f()`) becomes the call with the rest of its block as trailing closure.
/// - Any other await (`foo(try await bar())`, `return try await a() + 1`, an `if`/`guard`/`switch`
///   condition, a `for` loop's sequence) is hoisted, left to right, into a suspension before its
///   statement whose value the statement reads as `__patchAwaitN`.
/// - A branch (`if`, `switch`, `do`) with awaits inside becomes `func __patchBranchN(_ __patchAfterN:)`:
///   every branch ends by calling `__patchAfterN`, the rest of the block, passed as trailing closure.
/// - A `do` with `catch` clauses whose body awaits sends the body's failures to `__patchCatchN`, which
///   throws them again into the clauses as written (`caughtDoStatement`).
/// - A loop (`for x in seq`, `while cond`, `repeat … while cond`) with awaits inside becomes
///   `func __patchLoopN(_ __patchAfterN:)` around a recursive `__patchNextN()` over an iterator or the
///   condition (checked after the body for `repeat`): the body's end calls it again, `continue` returns
///   into it, `break` returns into `__patchAfterN`.
/// - `async let a = f()` starts `f` at once (`_patchAsyncLet`), and each read of `a` waits for it.
final class GuestAsyncRewriter {
    typealias Refusal = GuestAsyncTransform.Refusal

    /// What the blocks being rewritten end with and where their `break` and `continue` go.
    struct Scope {
        /// The call a block runs when it falls off its end: the function's Void result, the branch's
        /// `__patchAfterN()`, the loop's `__patchNextN()`; empty when nothing runs.
        var tail: String
        var breakTarget: String?
        var continueTarget: String?
    }

    private let source: [UInt8]
    private let thrownTypes: GuestAsyncTransform.ThrownTypes
    /// Where the code being rewritten sends its failures: the error type it throws (nil: none of its
    /// own) and the function taking them, `_patchResume`, or inside a `do` with `catch` clauses that
    /// awaits, the statement's `__patchCatchN`. Each continuation and local function catches what its
    /// statements throw (`opening` … `closing`) and hands it there, as `then` hands an awaited call's.
    private var failure: (type: String?, route: String)
    private var opening: String { failure.type.map { "do throws(\($0)) {" } ?? "" }
    private var closing: String { failure.type == nil ? "" : " } catch { \(failure.route)(.thrown(error)) }" }
    private let resume = GuestAsyncTransform.resume
    /// `[self] ` in a method of a class (or of an extension, which may be a class's): a continuation
    /// is an escaping closure, which must capture the object explicitly to name it.
    private let selfCapture: String
    private var insertions: [Int: String] = [:]
    /// Offsets where an insertion leaves a continuation or local function open with no statement in
    /// it yet (`{ _ in `, `__patchBranchN { `): a `;` may not follow there, so the statement's own
    /// `;` goes and the block's tail follows with a space.
    private var openings: Set<Int> = []
    private var replacements: [(range: Range<Int>, replacement: String)] = []
    private var handledReturns: Set<SyntaxIdentifier> = []
    /// The `async let` names of the function and the guest handle each reads (`__patchLetN`, `then` or `thenInfallible`).
    private var asyncLets: [String: (handle: String, continues: String)] = [:]
    private var counter = 0
    /// The one expression of a body without `return` (`{ try await api.items() }`): its value is the result.
    private var implicitResult: SyntaxIdentifier?

    init(source: Syntax, thrownType: String?, thrownTypes: GuestAsyncTransform.ThrownTypes, capturesSelf: Bool) {
        self.source = Array(source.syntaxTextBytes)
        self.thrownTypes = thrownTypes
        selfCapture = capturesSelf ? "[self] " : ""
        failure = (thrownType, GuestAsyncTransform.resume)
    }

    /// The edits, utf8 offsets in the file: text inserted at one offset in the order it was added, a
    /// replacement starting there after it.
    var edits: [(range: Range<Int>, replacement: String)] {
        var insertions = insertions
        let replaced = replacements.map { edit in
            (range: edit.range, replacement: (insertions.removeValue(forKey: edit.range.lowerBound) ?? "") + edit.replacement)
        }
        return insertions.sorted { $0.key < $1.key }.map { (range: $0.key..<$0.key, replacement: $0.value) } + replaced
    }

    func insert(_ text: String, at offset: Int) {
        insertions[offset, default: ""] += text
    }

    /// Inserts before what is already inserted at `offset`: the end of a `return`'s value comes before
    /// the closers of the block it ends.
    private func insertFirst(_ text: String, at offset: Int) {
        insertions[offset] = text + (insertions[offset] ?? "")
    }

    /// Replaces the bytes of `range`, ending the replacement with the newlines they held so lines stay.
    func replace(_ range: Range<Int>, with text: String) {
        let newlines = source[range].filter { $0 == UInt8(ascii: "\n") }.count
        replacements.append((range, text + String(repeating: "\n", count: newlines)))
    }

    func remove(_ node: some SyntaxProtocol) {
        replace(node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset, with: "")
    }

    private func fresh() -> Int {
        defer { counter += 1 }
        return counter
    }

    /// The function's body: its statements, then every `return` hands its value to the continuation.
    func body(_ body: CodeBlockSyntax, returnsVoid: Bool) throws(Refusal) {
        let awaits = body.statements.contains { item in
            let found = GuestAsyncTransform.AwaitFinder(item)
            return !found.awaits.isEmpty || found.asyncLet != nil
        }
        // A `defer` runs when its scope's first part returns: at the first suspension, not at the end.
        if awaits, let deferStatement = DeferFinder(body).found {
            throw Refusal(node: deferStatement, construct: "`defer` in an async function that awaits (it would run at the first suspension)")
        }
        insert(opening, at: body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset)
        if !returnsVoid, body.statements.count == 1, let only = body.statements.first, let expression = only.item.as(ExprSyntax.self) {
            if expression.is(IfExprSyntax.self) || expression.is(SwitchExprSyntax.self) {
                throw Refusal(node: Syntax(expression), construct: "an `if` or `switch` expression as an async function's result (write `return` in each branch)")
            }
            implicitResult = only.id
        }
        try block(body.statements, end: end(of: body), scope: Scope(tail: returnsVoid ? "\(resume)(.value(()))" : ""))
        // After its hoisted suspensions, the expression becomes the result.
        if let only = body.statements.first, only.id == implicitResult {
            insert("\(resume)(.value(", at: only.positionAfterSkippingLeadingTrivia.utf8Offset)
            insertFirst("))", at: only.endPositionBeforeTrailingTrivia.utf8Offset)
        }
        insert(closing + " ", at: body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
        for returnStatement in GuestAsyncTransform.ReturnFinder(body).returns where !handledReturns.contains(returnStatement.id) {
            let keywordEnd = returnStatement.returnKeyword.endPositionBeforeTrailingTrivia.utf8Offset
            if let expression = returnStatement.expression {
                insert(" \(resume)(.value(", at: keywordEnd)
                insertFirst("))", at: expression.endPositionBeforeTrailingTrivia.utf8Offset)
            } else {
                insert(" \(resume)(.value(()))", at: keywordEnd)
            }
        }
    }

    /// Where a block's tail and closers go: before its `}`, after a `;` when the `}` shares the line of
    /// the last statement.
    private func end(of block: CodeBlockSyntax) -> (offset: Int, separator: String) {
        let sameLine = !block.statements.isEmpty && !block.rightBrace.leadingTrivia.contains { $0.isNewline }
        return (block.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset, sameLine ? "; " : " ")
    }

    /// The statements of one block. Each suspension opens a continuation holding the rest of the
    /// block; at its end the tail runs (unless the block ends in a jump) and they all close.
    private func block(_ items: CodeBlockItemListSyntax, end: (offset: Int, separator: String), scope: Scope) throws(Refusal) {
        var closers: [String] = []
        for item in items {
            try statement(item, scope: scope, closers: &closers)
            if let semicolon = item.semicolon, openings.contains(item.item.endPositionBeforeTrailingTrivia.utf8Offset) { remove(semicolon) }
        }
        let jumps = items.last.map { last in
            last.item.is(ReturnStmtSyntax.self) || last.item.is(ThrowStmtSyntax.self) || last.item.is(BreakStmtSyntax.self)
                || last.item.is(ContinueStmtSyntax.self) || last.item.is(FallThroughStmtSyntax.self)
        } ?? false
        let endsOpen = items.last.map { openings.contains($0.item.endPositionBeforeTrailingTrivia.utf8Offset) } ?? false
        let tail = jumps || scope.tail.isEmpty ? "" : (endsOpen ? " " : end.separator) + scope.tail
        insert(tail + closers.reversed().joined(), at: end.offset)
    }

    private func statement(_ item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        let found = GuestAsyncTransform.AwaitFinder(item)
        if let loop = found.forAwait { throw Refusal(node: loop, construct: "`for await` over an AsyncSequence") }
        if let closure = found.asyncClosure { throw Refusal(node: closure, construct: "an async closure (`Task { … }`, a task group…)") }
        if let variable = item.item.as(VariableDeclSyntax.self), variable.modifiers.contains(where: { $0.name.text == "async" }) {
            return try asyncLet(variable)
        }
        let reads = AsyncLetReads(item, names: Set(asyncLets.keys)).found
        guard !found.awaits.isEmpty else {
            if let asyncLet = found.asyncLet { throw Refusal(node: asyncLet, construct: "`async let` in a statement without awaits") }
            return try jumps(in: item, scope: scope)
        }
        let statement = item.item.as(StmtSyntax.self)
        let expression = statement?.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
        if let labelled = statement?.as(LabeledStmtSyntax.self) {
            throw Refusal(node: Syntax(labelled), construct: "an await inside a labelled statement")
        } else if let nested = item.item.as(DeclSyntax.self), !nested.is(VariableDeclSyntax.self) {
            throw Refusal(node: Syntax(nested), construct: "an await inside a nested declaration (a local async function or type)")
        } else if let branch = expression?.as(IfExprSyntax.self) {
            try ifStatement(branch, item: item, scope: scope, closers: &closers)
        } else if let branch = expression?.as(SwitchExprSyntax.self) {
            try switchStatement(branch, item: item, scope: scope, closers: &closers)
        } else if let guardStatement = statement?.as(GuardStmtSyntax.self) {
            if let inside = awaits(in: guardStatement.body).first {
                throw Refusal(node: Syntax(inside), construct: "an await inside a `guard`'s `else`")
            }
            try conditions(guardStatement.conditions, of: "guard", item: item, closers: &closers)
            try jumps(in: item, scope: scope)
        } else if let loop = statement?.as(ForStmtSyntax.self) {
            try forLoop(loop, item: item, scope: scope, closers: &closers)
        } else if let loop = statement?.as(WhileStmtSyntax.self) {
            try whileLoop(loop, item: item, scope: scope, closers: &closers)
        } else if let loop = statement?.as(RepeatStmtSyntax.self) {
            try repeatLoop(loop, item: item, scope: scope, closers: &closers)
        } else if let scoped = statement?.as(DoStmtSyntax.self) {
            try doStatement(scoped, item: item, scope: scope, closers: &closers)
        } else if item.id != implicitResult, reads.isEmpty, found.awaits.count == 1, found.awaits[0].parent?.as(TryExprSyntax.self)?.questionOrExclamationMark == nil,
                  let whole = GuestAsyncTransform.AwaitStatement(item, awaitExpression: found.awaits[0]) {
            try awaitStatement(whole, item: item, closers: &closers)
        } else {
            try hoist(found.awaits, reads: reads, within: Syntax(item), before: item, closers: &closers)
        }
    }

    // MARK: - Awaits as statements and inside expressions

    /// `let P = [try] await CALL` and the other statement forms: the call in place, the rest of the block its continuation.
    private func awaitStatement(_ statement: GuestAsyncTransform.AwaitStatement, item: CodeBlockItemSyntax, closers: inout [String]) throws(Refusal) {
        let call = statement.call
        let continues = try continuation(of: call)
        // `try await` (and `let P = `) go; the callee may become the guest's own awaitable.
        let start = item.positionAfterSkippingLeadingTrivia.utf8Offset
        if case .replaced(let through, let replacement) = GuestAsyncTransform.Callee(call) {
            replace(start..<through, with: replacement)
        } else {
            replace(start..<call.positionAfterSkippingLeadingTrivia.utf8Offset, with: "")
        }
        let end = call.endPositionBeforeTrailingTrivia.utf8Offset
        let continuation = " { \(selfCapture)_patchOutcome in _patchOutcome.\(continues)(\(failure.route)) { "
        switch statement.kind {
        case .binding(let binding):
            insert(continuation + "_patchValue in " + opening + " " + binding + " = _patchValue", at: end)
            closers.append(closing + " } }")
        case .discarded:
            insert(continuation + "_ in " + opening, at: end)
            openings.insert(end)
            closers.append(closing + " } }")
        case .returned(let returnStatement):
            handledReturns.insert(returnStatement.id)
            insert(continuation + "_patchValue in \(resume)(.value(_patchValue)) } }", at: end)
        }
    }

    /// `then` when the awaited call fails with the caller's error type, `thenInfallible` when it fails
    /// only in transport (a system await, a project function that throws nothing of its own).
    private func continuation(of call: FunctionCallExprSyntax) throws(Refusal) -> String {
        if call.trailingClosure != nil {
            throw Refusal(node: Syntax(call), construct: "an awaited call with a trailing closure")
        }
        switch GuestAsyncTransform.Callee(call) {
        case .refused(let construct):
            throw Refusal(node: Syntax(call), construct: construct)
        case .project:
            return GuestAsyncTransform.baseName(of: call).flatMap { thrownTypes[$0] } != nil ? "then" : "thenInfallible"
        case .replaced:
            return "thenInfallible"
        }
    }

    /// `try? await CALL`, whose failure the continuation turns into nil (`thenOptional`); nil for an
    /// await without `try?`. Any other `try?`/`try!` around an await is refused: the continuation would
    /// not turn the failure into nil or a trap.
    private func optionalTry(_ awaitExpression: AwaitExprSyntax) throws(Refusal) -> TryExprSyntax? {
        var current = awaitExpression.parent
        while let parent = current, !parent.is(CodeBlockItemSyntax.self) {
            if let tryExpression = parent.as(TryExprSyntax.self), let mark = tryExpression.questionOrExclamationMark {
                guard mark.tokenKind == .postfixQuestionMark, parent.id == awaitExpression.parent?.id,
                      awaitExpression.expression.is(FunctionCallExprSyntax.self) else {
                    throw Refusal(node: parent, construct: "`try!`, or `try?` around more than one awaited call, with an await")
                }
                return tryExpression
            }
            current = parent.parent
        }
        return nil
    }

    /// One suspension of a hoisted await: the awaited call, or a read of an `async let`.
    private enum Suspension {
        /// An awaited call; `optional` under `try?`, the whole `try? await CALL` replaced.
        case call(FunctionCallExprSyntax, optional: TryExprSyntax?)
        case read(DeclReferenceExprSyntax)

        var node: Syntax {
            switch self {
            case .call(let call, nil): Syntax(call)
            case .call(_, let optional?): Syntax(optional)
            case .read(let reference): Syntax(reference)
            }
        }
    }

    /// Hoists the awaits of `region` (a statement, a condition, a loop's sequence) left to right into
    /// suspensions before `statement`, whose values the region reads as `__patchAwaitN`.
    private func hoist(_ awaitExpressions: [AwaitExprSyntax], reads: [DeclReferenceExprSyntax], within region: Syntax,
                       before statement: CodeBlockItemSyntax, closers: inout [String]) throws(Refusal) {
        var suspensions = reads.map(Suspension.read)
        for awaitExpression in awaitExpressions {
            if let inner = awaits(in: awaitExpression.expression).first {
                throw Refusal(node: Syntax(inner), construct: "an await inside another await's operand")
            }
            let optional = try optionalTry(awaitExpression)
            if optional == nil {
                replace(awaitExpression.awaitKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<awaitExpression.expression.positionAfterSkippingLeadingTrivia.utf8Offset, with: "")
            }
            // `await (f(), g())` awaits each element's call, left to right.
            let operands = awaitExpression.expression.as(TupleExprSyntax.self).flatMap { $0.elements.count > 1 ? $0.elements.map(\.expression) : nil }
                ?? [awaitExpression.expression]
            let calls = operands.compactMap { GuestAsyncTransform.awaitedCall($0, thrownTypes: thrownTypes) }
            if !calls.isEmpty {
                for call in calls {
                    if let read = reads.first(where: { call.range.contains($0.position) }) {
                        throw Refusal(node: Syntax(read), construct: "an `async let` read inside an awaited call")
                    }
                    suspensions.append(.call(call, optional: optional))
                }
            } else if reads.isEmpty {
                throw Refusal(node: Syntax(awaitExpression), construct: "an await of something other than a call or an `async let`")
            }
        }
        suspensions.sort { $0.node.position < $1.node.position }
        let start = statement.positionAfterSkippingLeadingTrivia.utf8Offset
        for suspension in suspensions {
            try evaluatedAlways(suspension.node, within: region)
            let number = fresh()
            let node = suspension.node
            switch suspension {
            case .call(let call, let optional):
                let then = try continuation(of: call)
                let continues = optional == nil ? "\(then)(\(failure.route))" : "thenOptional"
                insert("\(try hoisted(call)) { \(selfCapture)_patchOutcome in _patchOutcome.\(continues) { __patchAwait\(number) in \(opening) ", at: start)
            case .read(let reference):
                guard let handle = asyncLets[reference.baseName.text] else { continue }
                insert("\(handle.handle).wait { \(selfCapture)_patchOutcome in _patchOutcome.\(handle.continues)(\(failure.route)) { __patchAwait\(number) in \(opening) ", at: start)
            }
            replace(node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset, with: "__patchAwait\(number)")
            closers.append(closing + " } }")
        }
    }

    /// Refuses an await Swift evaluates only sometimes: right of `&&`, `||` or `??`, in a `? :` branch,
    /// in an `if` or `switch` expression.
    private func evaluatedAlways(_ node: Syntax, within region: Syntax) throws(Refusal) {
        var child = node
        while let parent = child.parent, child.id != region.id {
            if parent.is(IfExprSyntax.self) || parent.is(SwitchExprSyntax.self) {
                throw Refusal(node: node, construct: "an await inside an `if` or `switch` expression")
            }
            if parent.is(TernaryExprSyntax.self) || parent.is(UnresolvedTernaryExprSyntax.self) {
                throw Refusal(node: node, construct: "an await in a `? :` branch (evaluated only sometimes)")
            }
            if let sequence = parent.as(ExprListSyntax.self) {
                for element in sequence {
                    if element.id == child.id { break }
                    if element.is(UnresolvedTernaryExprSyntax.self)
                        || element.as(BinaryOperatorExprSyntax.self).map({ ["&&", "||", "??"].contains($0.operator.text) }) == true {
                        throw Refusal(node: node, construct: "an await right of `&&`, `||`, `??` or in a `? :` branch (evaluated only sometimes)")
                    }
                }
            }
            child = parent
        }
    }

    /// The awaited call as the hoisted suspension starts it: on one line, system awaits as the guest's own.
    private func hoisted(_ call: FunctionCallExprSyntax) throws(Refusal) -> String {
        var text = flat(call)
        if case .replaced(let through, let replacement) = GuestAsyncTransform.Callee(call) {
            text = replacement + flat(call, from: through)
        }
        if text.contains("\n") {
            throw Refusal(node: Syntax(call), construct: "an await inside an expression whose call holds a multi-line string")
        }
        return text
    }

    /// The awaits of a node, not those of its closures.
    private func awaits(in node: some SyntaxProtocol) -> [AwaitExprSyntax] {
        let finder = AwaitsFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    private final class AwaitsFinder: SyntaxVisitor {
        var found: [AwaitExprSyntax] = []
        override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
            found.append(node)
            return .visitChildren
        }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }

    // MARK: - async let

    /// `async let a = [try] [await] CALL` → `let __patchLetN = _patchAsyncLet { CALL($0) }`: the call
    /// starts now (its request in flight with the others'), each read of `a` waits for its outcome.
    private func asyncLet(_ variable: VariableDeclSyntax) throws(Refusal) {
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else {
            throw Refusal(node: Syntax(variable), construct: "an `async let` of other than one name")
        }
        var expression = value
        while true {
            if let tried = expression.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil {
                expression = tried.expression
            } else if let awaited = expression.as(AwaitExprSyntax.self) {
                expression = awaited.expression
            } else {
                break
            }
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), let rightParen = call.rightParen else {
            throw Refusal(node: Syntax(value), construct: "an `async let` of other than a call")
        }
        let continues = try continuation(of: call)
        let handle = "__patchLet\(fresh())"
        let start = variable.positionAfterSkippingLeadingTrivia.utf8Offset
        // The call's resume argument: `$0`, named where a capture list makes the closure's signature explicit.
        let argument = selfCapture.isEmpty ? "$0" : "_patchLetResume"
        let header = "let \(handle) = _patchAsyncLet { " + (selfCapture.isEmpty ? "" : selfCapture + "_patchLetResume in ")
        if case .replaced(let through, let replacement) = GuestAsyncTransform.Callee(call) {
            replace(start..<through, with: header + replacement)
        } else {
            replace(start..<call.positionAfterSkippingLeadingTrivia.utf8Offset, with: header)
        }
        insert(call.arguments.isEmpty ? argument : ", " + argument, at: rightParen.positionAfterSkippingLeadingTrivia.utf8Offset)
        insert(" }", at: call.endPositionBeforeTrailingTrivia.utf8Offset)
        asyncLets[name] = (handle, continues)
    }

    /// Reads of the function's `async let` names in a statement (not as members, not in closures).
    private final class AsyncLetReads: SyntaxVisitor {
        var found: [DeclReferenceExprSyntax] = []
        let names: Set<String>

        init(_ node: CodeBlockItemSyntax, names: Set<String>) {
            self.names = names
            super.init(viewMode: .sourceAccurate)
            if !names.isEmpty { walk(node) }
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            if names.contains(node.baseName.text), node.parent?.as(MemberAccessExprSyntax.self)?.declName.id != node.id { found.append(node) }
            return .skipChildren
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }

    // MARK: - Branches

    /// Awaits in the first condition are hoisted before the statement; later ones would run only
    /// when the earlier conditions hold.
    private func conditions(_ conditions: ConditionElementListSyntax, of keyword: String, item: CodeBlockItemSyntax, closers: inout [String]) throws(Refusal) {
        for (index, condition) in conditions.enumerated() {
            let found = awaits(in: condition)
            let reads = AsyncLetReads(item, names: Set(asyncLets.keys)).found.filter { condition.range.contains($0.position) }
            guard !found.isEmpty || !reads.isEmpty else { continue }
            if index > 0 {
                throw Refusal(node: found.first.map(Syntax.init) ?? Syntax(reads[0]), construct: "an await in a later condition of `\(keyword)` (it runs only when the earlier ones hold)")
            }
            try hoist(found, reads: reads, within: Syntax(condition), before: item, closers: &closers)
        }
    }

    private func ifStatement(_ branch: IfExprSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        try conditions(branch.conditions, of: "if", item: item, closers: &closers)
        var bodies = [branch.body]
        var next = branch.elseBody
        var hasElse = false
        while let elseBody = next {
            switch elseBody {
            case .ifExpr(let elseIf):
                if let inside = elseIf.conditions.lazy.flatMap({ self.awaits(in: $0) }).first {
                    throw Refusal(node: Syntax(inside), construct: "an await in an `else if` condition")
                }
                bodies.append(elseIf.body)
                next = elseIf.elseBody
            case .codeBlock(let block):
                bodies.append(block)
                hasElse = true
                next = nil
            }
        }
        guard bodies.contains(where: { !awaits(in: $0).isEmpty }) else {
            return try jumps(in: item, scope: scope)
        }
        try branches(bodies.map { ($0.statements, end(of: $0)) }, of: item, breakTarget: false, missingElse: !hasElse, scope: scope, closers: &closers)
    }

    private func switchStatement(_ branch: SwitchExprSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        let subjectReads = AsyncLetReads(item, names: Set(asyncLets.keys)).found.filter { branch.subject.range.contains($0.position) }
        try hoist(awaits(in: branch.subject), reads: subjectReads, within: Syntax(branch.subject), before: item, closers: &closers)
        var cases: [SwitchCaseSyntax] = []
        for element in branch.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self) else {
                throw Refusal(node: Syntax(element), construct: "`#if` among the cases of a `switch` with awaits")
            }
            if let fallthroughStatement = switchCase.statements.first(where: { $0.item.is(FallThroughStmtSyntax.self) }) {
                throw Refusal(node: Syntax(fallthroughStatement), construct: "`fallthrough` in a `switch` with awaits")
            }
            cases.append(switchCase)
        }
        guard cases.contains(where: { !awaits(in: $0.statements).isEmpty }) else {
            return try jumps(in: item, scope: scope)
        }
        try branches(cases.map { ($0.statements, (offset: $0.statements.endPositionBeforeTrailingTrivia.utf8Offset, separator: "; ")) },
                     of: item, breakTarget: true, missingElse: false, scope: scope, closers: &closers)
    }

    /// `do { … }` without awaits in its body (or without `catch` clauses): it and the bodies of its
    /// `catch` clauses are branches, its errors caught by the `do` statement as written.
    private func doStatement(_ statement: DoStmtSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        if !statement.catchClauses.isEmpty, !awaits(in: statement.body).isEmpty {
            return try caughtDoStatement(statement, item: item, scope: scope, closers: &closers)
        }
        let bodies = [statement.body] + statement.catchClauses.map(\.body)
        try branches(bodies.map { ($0.statements, end(of: $0)) }, of: item, breakTarget: false, missingElse: false, scope: scope, closers: &closers)
    }

    /// `do { BODY } catch P1 { C1 } catch { C2 }` with awaits in `BODY`: an error thrown after a
    /// suspension leaves the `do` statement as written, so the body's failures go to a local function
    /// that throws them again into the user's clauses, in their order:
    ///
    ///     func __patchBranchN(_ __patchAfterN: …) { func __patchTryN() { BODY __patchAfterN() };
    ///     func __patchCatchN(_ __patchFailureN: _PatchAsyncOutcome<Void, E>) { guard case .thrown(let __patchErrorN)
    ///     = __patchFailureN else { transport failure → the catch-all, else passed on }; do throws(E) { throw __patchErrorN }
    ///     catch P1 { C1 __patchAfterN() } catch { __patchCatchAllN() } }; func __patchCatchAllN() { C2 __patchAfterN() };
    ///     __patchTryN() }; __patchBranchN { rest of the block }
    ///
    /// A clause that does not match passes the error on (to the function, or to an enclosing `do`). A
    /// transport failure (`URLError` natively) matches only a catch-all clause, which therefore may not
    /// read the error: the guest has no value for it. `E` is the `do`'s own `throws(E)`, else the one
    /// type its `throw`s name, else that of the first project function it awaits that has one, else
    /// the function's.
    private func caughtDoStatement(_ statement: DoStmtSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        let clauses = Array(statement.catchClauses)
        let catchAll = clauses.last.flatMap { clause in Self.catchAllName(clause).map { (clause, name: $0) } }
        if let (clause, name) = catchAll, let read = ErrorReads(clause.body, name: name).found {
            throw Refusal(node: read, construct: "a catch-all `catch` reading `\(name)` after an await in its `do` (a transport failure reaches it without an error value in the guest)")
        }
        let awaitedTypes = awaits(in: statement.body).lazy.compactMap { GuestAsyncTransform.awaitedCall($0.expression, thrownTypes: self.thrownTypes) }
            .compactMap { GuestAsyncTransform.baseName(of: $0).flatMap { self.thrownTypes[$0] } }
        let errorType = statement.throwsClause?.type?.trimmedText ?? GuestThrownError.typeName(in: Syntax(statement.body)) ?? awaitedTypes.first ?? failure.type
        if errorType == nil, let typed = clauses.first(where: { Self.catchAllName($0) == nil }) {
            throw Refusal(node: Syntax(typed), construct: "a `catch` pattern after an await in a `do` whose error type the guest cannot tell (write `do throws(E)`)")
        }
        let number = fresh()
        let (after, tryBody, catcher, catchAllBody) = ("__patchAfter\(number)", "__patchTry\(number)", "__patchCatch\(number)", "__patchCatchAll\(number)")
        let (failureHere, error, code) = ("__patchFailure\(number)", "__patchError\(number)", "__patchCode\(number)")
        let (outerFailure, outerOpening, outerClosing) = (failure, opening, closing)
        var inner = scope
        inner.tail = "\(after)()"

        // The body: its failures go to `__patchCatchN`, with the `do`'s error type.
        replace(statement.doKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<statement.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                with: "func __patchBranch\(number)(_ \(after): @escaping () -> Void) {\(outerOpening) func \(tryBody)() {" + (errorType.map { "do throws(\($0)) {" } ?? ""))
        failure = (errorType, catcher)
        try block(statement.body.statements, end: end(of: statement.body), scope: inner)
        insert(closing + " ", at: statement.body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
        failure = outerFailure

        // The dispatch: a thrown error into the clauses as written, a transport failure to the catch-all or on.
        let transport = catchAll == nil ? "if case .urlError(let \(code)) = \(failureHere) { \(outerFailure.route)(.urlError(\(code))) }" : "if case .urlError = \(failureHere) { \(catchAllBody)() }"
        var dispatch = "; func \(catcher)(_ \(failureHere): _PatchAsyncOutcome<Void, \(errorType ?? "Never")>) {\(outerOpening) "
        if let errorType {
            dispatch += "guard case .thrown(let \(error)) = \(failureHere) else { \(transport); return }; do throws(\(errorType)) { throw \(error) }"
        } else {
            dispatch += transport
        }
        insert(dispatch, at: statement.body.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset)
        for clause in clauses {
            try block(clause.body.statements, end: end(of: clause.body), scope: inner)
        }
        let start = "; \(tryBody)()\(outerClosing) }; __patchBranch\(number) {\(outerOpening) "
        if let (clause, _) = catchAll {
            // The catch-all's body becomes a function of its own, which a transport failure also calls.
            replace(clause.catchKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<clause.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                    with: (errorType == nil ? "" : "catch { \(catchAllBody)() }") + "\(outerClosing) }; func \(catchAllBody)() {\(outerOpening)")
            insert(outerClosing + " ", at: clause.body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
            insert(start, at: item.item.endPositionBeforeTrailingTrivia.utf8Offset)
        } else {
            insert("\(outerClosing) }" + start, at: item.item.endPositionBeforeTrailingTrivia.utf8Offset)
        }
        openings.insert(item.item.endPositionBeforeTrailingTrivia.utf8Offset)
        closers.append(outerClosing + " }")
    }

    /// The name a catch-all clause binds the error to: `error` for `catch {`, `x` for `catch let x {`;
    /// nil for a clause with a pattern to match or a `where` clause.
    private static func catchAllName(_ clause: CatchClauseSyntax) -> String? {
        guard clause.catchItems.count <= 1 else { return nil }
        guard let only = clause.catchItems.first else { return "error" }
        guard only.whereClause == nil, let pattern = only.pattern else { return only.whereClause == nil ? "error" : nil }
        if pattern.is(WildcardPatternSyntax.self) || pattern.as(ExpressionPatternSyntax.self)?.expression.is(DiscardAssignmentExprSyntax.self) == true { return "_" }
        return pattern.as(ValueBindingPatternSyntax.self)?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }

    /// The first read of a catch-all clause's error in its body.
    private final class ErrorReads: SyntaxVisitor {
        var found: Syntax?
        let name: String

        init(_ body: CodeBlockSyntax, name: String) {
            self.name = name
            super.init(viewMode: .sourceAccurate)
            walk(body)
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            if node.baseName.text == name, node.parent?.as(MemberAccessExprSyntax.self)?.declName.id != node.id { found = found ?? Syntax(node) }
            return .skipChildren
        }
    }

    /// `S` → `func __patchBranchN(_ __patchAfterN: @escaping () -> Void) { S }; __patchBranchN { rest of the block }`,
    /// every branch of `S` ending in `__patchAfterN()`.
    private func branches(_ blocks: [(CodeBlockItemListSyntax, (offset: Int, separator: String))], of item: CodeBlockItemSyntax,
                          breakTarget: Bool, missingElse: Bool, scope: Scope, closers: inout [String]) throws(Refusal) {
        let number = fresh()
        let after = "__patchAfter\(number)"
        insert("func __patchBranch\(number)(_ \(after): @escaping () -> Void) {\(opening) ", at: item.positionAfterSkippingLeadingTrivia.utf8Offset)
        var inner = scope
        inner.tail = "\(after)()"
        if breakTarget { inner.breakTarget = "return \(after)()" }
        for (items, end) in blocks {
            try block(items, end: end, scope: inner)
        }
        // Before the statement's own `;`, which `block` removes: `else` and the continuation follow the `}`.
        let end = item.item.endPositionBeforeTrailingTrivia.utf8Offset
        if missingElse { insert(" else { \(after)() }", at: end) }
        insert("\(closing) }; __patchBranch\(number) {\(opening) ", at: end)
        openings.insert(end)
        closers.append(closing + " }")
    }

    // MARK: - Loops

    /// `for P in SEQ where W { BODY }` → `func __patchLoopN(_ __patchAfterN: …) { var __patchIteratorN =
    /// (SEQ).makeIterator(); func __patchNextN() { guard let P = __patchIteratorN.next() else { return
    /// __patchAfterN() }; guard W else { return __patchNextN() } BODY __patchNextN() }; __patchNextN() };
    /// __patchLoopN { rest of the block }`.
    private func forLoop(_ loop: ForStmtSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        let sequenceReads = AsyncLetReads(item, names: Set(asyncLets.keys)).found.filter { loop.sequence.range.contains($0.position) }
        try hoist(awaits(in: loop.sequence), reads: sequenceReads, within: Syntax(loop.sequence), before: item, closers: &closers)
        guard !awaits(in: loop.body).isEmpty else { return try jumps(in: item, scope: scope) }
        if let caseKeyword = loop.caseKeyword {
            throw Refusal(node: Syntax(caseKeyword), construct: "an await inside a `for case` loop")
        }
        if let whereClause = loop.whereClause, let inside = awaits(in: whereClause).first {
            throw Refusal(node: Syntax(inside), construct: "an await in a `for` loop's `where` clause")
        }
        let number = fresh()
        let (after, next, iterator) = ("__patchAfter\(number)", "__patchNext\(number)", "__patchIterator\(number)")
        replace(loop.forKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<loop.sequence.positionAfterSkippingLeadingTrivia.utf8Offset,
                with: "func __patchLoop\(number)(_ \(after): @escaping () -> Void) {\(opening) var \(iterator) = (")
        let filter = loop.whereClause.map { "; guard \(flat($0.condition)) else { return \(next)() }" } ?? ""
        replace(loop.sequence.endPositionBeforeTrailingTrivia.utf8Offset..<loop.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                with: ").makeIterator(); func \(next)() {\(opening) guard let \(flat(loop.pattern))\(loop.typeAnnotation.map { flat($0) } ?? "") = \(iterator).next() else { return \(after)() }\(filter);")
        try loopBody(loop.body, number: number, scope: scope, closers: &closers)
    }

    /// `while C { BODY }` → `func __patchLoopN(_ __patchAfterN: …) { func __patchNextN() { guard C else {
    /// return __patchAfterN() } BODY __patchNextN() }; __patchNextN() }; __patchLoopN { rest of the block }`.
    private func whileLoop(_ loop: WhileStmtSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        if let inside = awaits(in: loop.conditions).first {
            throw Refusal(node: Syntax(inside), construct: "an await in a `while` condition")
        }
        let number = fresh()
        let (after, next) = ("__patchAfter\(number)", "__patchNext\(number)")
        replace(loop.whileKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<loop.conditions.positionAfterSkippingLeadingTrivia.utf8Offset,
                with: "func __patchLoop\(number)(_ \(after): @escaping () -> Void) {\(opening) func \(next)() {\(opening) guard ")
        replace(loop.conditions.endPositionBeforeTrailingTrivia.utf8Offset..<loop.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                with: " else { return \(after)() };")
        try loopBody(loop.body, number: number, scope: scope, closers: &closers)
    }

    /// `repeat { BODY } while C` → `func __patchLoopN(_ __patchAfterN: …) { func __patchTestN() { guard C
    /// else { return __patchAfterN() }; __patchNextN() }; func __patchNextN() { BODY __patchTestN() };
    /// __patchNextN() }; __patchLoopN { rest of the block }`: the body runs first, `continue` goes to the
    /// condition. The condition moves up to the loop's first line (it sees no name the body declares).
    private func repeatLoop(_ loop: RepeatStmtSyntax, item: CodeBlockItemSyntax, scope: Scope, closers: inout [String]) throws(Refusal) {
        guard !awaits(in: loop.body).isEmpty else { return try jumps(in: item, scope: scope) }
        if let inside = awaits(in: loop.condition).first {
            throw Refusal(node: Syntax(inside), construct: "an await in a `repeat` loop's condition")
        }
        let number = fresh()
        let (after, next, test) = ("__patchAfter\(number)", "__patchNext\(number)", "__patchTest\(number)")
        replace(loop.repeatKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<loop.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                with: "func __patchLoop\(number)(_ \(after): @escaping () -> Void) {\(opening) func \(test)() {\(opening) guard \(flat(loop.condition)) else { return \(after)() }; "
                    + "\(next)()\(closing) }; func \(next)() {\(opening)")
        // `while C` after the body's `}` goes: the continuation opens there instead.
        replace(loop.body.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset..<loop.condition.endPositionBeforeTrailingTrivia.utf8Offset, with: "")
        try loopBody(loop.body, number: number, tail: "\(test)()", scope: scope, closers: &closers)
        openings.insert(loop.condition.endPositionBeforeTrailingTrivia.utf8Offset)
    }

    /// A rewritten loop's body: its end runs `tail` (the next iteration, or `repeat`'s condition), which
    /// `continue` returns into; `break` returns into `__patchAfterN`; the loop's local function closes
    /// after the body and the rest of the block becomes `__patchLoopN`'s trailing closure.
    private func loopBody(_ body: CodeBlockSyntax, number: Int, tail: String? = nil, scope: Scope, closers: inout [String]) throws(Refusal) {
        let (after, next) = ("__patchAfter\(number)", "__patchNext\(number)")
        let tail = tail ?? "\(next)()"
        try block(body.statements, end: end(of: body),
                  scope: Scope(tail: tail, breakTarget: "return \(after)()", continueTarget: "return \(tail)"))
        insert(closing + " ", at: body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
        insert("; \(next)()\(closing) }; __patchLoop\(number) {\(opening) ", at: body.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset)
        openings.insert(body.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset)
        closers.append(closing + " }")
    }

    /// A node's text on one line (comments dropped), for the code that moves: a hoisted call, the parts
    /// of a loop header.
    private func flat(_ node: some SyntaxProtocol, from offset: Int = 0) -> String {
        var text = ""
        for token in node.tokens(viewMode: .sourceAccurate) where token.positionAfterSkippingLeadingTrivia.utf8Offset >= offset {
            if !text.isEmpty, token.leadingTrivia.contains(where: \.isWhitespace) || token.previousToken(viewMode: .sourceAccurate)?.trailingTrivia.contains(where: \.isWhitespace) == true {
                text += " "
            }
            text += token.text
        }
        return text
    }

    // MARK: - break and continue

    /// Maps the `break`s and `continue`s of a statement without awaits that leave a rewritten loop or
    /// `switch` to returns into its continuation.
    private func jumps(in item: CodeBlockItemSyntax, scope: Scope) throws(Refusal) {
        guard scope.breakTarget != nil || scope.continueTarget != nil else { return }
        let finder = JumpFinder(item)
        if let labelled = finder.labelled {
            throw Refusal(node: labelled, construct: "a labelled `break`/`continue` out of a loop with awaits")
        }
        for jump in finder.breaks {
            if let target = scope.breakTarget { replace(jump.positionAfterSkippingLeadingTrivia.utf8Offset..<jump.endPositionBeforeTrailingTrivia.utf8Offset, with: target) }
        }
        for jump in finder.continues {
            if let target = scope.continueTarget { replace(jump.positionAfterSkippingLeadingTrivia.utf8Offset..<jump.endPositionBeforeTrailingTrivia.utf8Offset, with: target) }
        }
    }

    /// The unlabelled `break`s and `continue`s of a statement that leave it (not those of loops and
    /// `switch`es inside it), and a labelled one whose label the statement does not define.
    private final class JumpFinder: SyntaxVisitor {
        var breaks: [BreakStmtSyntax] = []
        var continues: [ContinueStmtSyntax] = []
        var labelled: Syntax?
        private var loops = 0
        private var switches = 0
        private var labels: Set<String> = []

        init(_ item: CodeBlockItemSyntax) {
            super.init(viewMode: .sourceAccurate)
            walk(item)
        }

        override func visit(_ node: LabeledStmtSyntax) -> SyntaxVisitorContinueKind {
            labels.insert(node.label.text)
            return .visitChildren
        }
        override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
        override func visitPost(_ node: ForStmtSyntax) { loops -= 1 }
        override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
        override func visitPost(_ node: WhileStmtSyntax) { loops -= 1 }
        override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
        override func visitPost(_ node: RepeatStmtSyntax) { loops -= 1 }
        override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind { switches += 1; return .visitChildren }
        override func visitPost(_ node: SwitchExprSyntax) { switches -= 1 }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

        override func visit(_ node: BreakStmtSyntax) -> SyntaxVisitorContinueKind {
            if let label = node.label {
                if !labels.contains(label.text) { labelled = labelled ?? Syntax(node) }
            } else if loops == 0 && switches == 0 {
                breaks.append(node)
            }
            return .skipChildren
        }

        override func visit(_ node: ContinueStmtSyntax) -> SyntaxVisitorContinueKind {
            if let label = node.label {
                if !labels.contains(label.text) { labelled = labelled ?? Syntax(node) }
            } else if loops == 0 {
                continues.append(node)
            }
            return .skipChildren
        }
    }

    /// A `defer` of the function's own code (not of its closures or nested functions).
    private final class DeferFinder: SyntaxVisitor {
        var found: Syntax?

        init(_ body: CodeBlockSyntax) {
            super.init(viewMode: .sourceAccurate)
            walk(body)
        }

        override func visit(_ node: DeferStmtSyntax) -> SyntaxVisitorContinueKind {
            found = found ?? Syntax(node)
            return .skipChildren
        }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
}
