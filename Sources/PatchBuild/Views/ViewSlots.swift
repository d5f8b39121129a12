import SwiftSyntax

/// A read of a host value that is no token (`dismiss()`, `model.load()`, `Row(model: model)`,
/// `ForEach(items)` of a `@Query`, `onTap()` of a closure property): the statement holding it
/// becomes a slot, or the view stays native with `detail`.
struct HostReadProblem {
    let detail: String
    let node: Syntax
    let file: Int
    let line: Int
}

/// Statement slots (docs/views.md "Tokens and slots"): the smallest statement of a view builder that
/// reads the host other than through tokens is drawn natively by the shipped thunk and placed in the
/// guest's tree as an `opaque` node; an event modifier or presentation that reads the host
/// (`.onAppear { model.load() }`, `.sheet(isPresented: $model.showing) { … }`) fires natively from an
/// invisible view in the modified view's background.
extension ViewTokenAnalysis {
    /// A part of a member the thunk draws natively.
    struct SlotCandidate {
        var use: ViewTokenTable.Use
        /// The syntax the thunk's closure evaluates, from the UTF-8 offset `start` (a background
        /// slot's modifier without the view it modifies).
        var node: Syntax
        var start: Int
        /// The host read that made it a slot; nil for a native-only leaf.
        var hostRead: HostReadProblem?
        /// The slot is all the body is (`var body: some View { List { … } }`): the body's only
        /// statement, with no drawing modifier after the slot left to the guest.
        var isRootStatement: Bool
        /// It reads a `private` member: its thunk goes in the view's file.
        var readsPrivate = false
        /// A slot widened from a smaller one that could not capture a name: the smaller one's refusal,
        /// reported if this one fails too.
        var refusal: ViewTokenProblem?

        var tokens: [TokenSyntax] { node.tokens(viewMode: .sourceAccurate).filter { $0.positionAfterSkippingLeadingTrivia.utf8Offset >= start } }
    }

    /// Modifiers that act rather than draw: one reading the host runs natively on a `Color.clear` in
    /// the modified view's background, which appears and disappears with the view and presents
    /// like it.
    static let backgroundModifiers: Set<String> = [
        "onAppear", "onDisappear", "task", "onReceive", "onChange", "onOpenURL", "onContinueUserActivity",
        "sheet", "fullScreenCover", "alert", "confirmationDialog", "popover", "fileImporter", "fileExporter",
        "refundRequestSheet", "manageSubscriptionsSheet",
    ]
    /// Modifiers whose unlabeled closure is view content (the others', `onAppear`'s, run code).
    static let contentModifiers: Set<String> = [
        "overlay", "background", "mask", "sheet", "fullScreenCover", "popover", "alert", "confirmationDialog", "toolbar", "contextMenu",
        "swipeActions", "safeAreaInset", "tabItem", "navigationDestination", "listRowBackground",
    ]
    /// Argument labels of view content (`label:`, `header:`); any other labelled closure runs code.
    static let contentLabels: Set<String> = [
        "content", "label", "header", "footer", "actions", "message", "destination", "icon", "placeholder", "detail", "sidebar",
        "currentValueLabel", "minimumValueLabel", "maximumValueLabel", "background", "overlay",
    ]
    /// Capitalized calls whose trailing closure is code, not view content.
    static let codeTypes: Set<String> = ["Task", "Binding", "DispatchQueue", "Timer"]
    /// Standard library and Foundation methods that mutate their receiver: called on a guest state
    /// property inside a slot, they write it natively.
    static let mutatingMethods: Set<String> = [
        "toggle", "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeSubrange", "popLast", "popFirst",
        "sort", "shuffle", "reverse", "move", "swapAt", "formUnion", "formIntersection", "formSymmetricDifference", "subtract",
        "update", "updateValue", "removeValue", "merge", "replaceSubrange", "negate", "reserveCapacity",
    ]

    /// The slots of a view: its native-only leaves and the statements its host reads need, the
    /// outermost of nested ones, each checked for what the thunk's closure can capture and must not
    /// write; or the first read that cannot be in a slot.
    func slots(leaves: [SlotCandidate], hostReads: [HostReadProblem], state: Set<String>, in entry: GuestTypeEntry) -> Result<[SlotCandidate], ViewTokenProblem> {
        var candidates = leaves
        // Reads of one statement decide its slots together: the chain prefix up to the last drawing
        // modifier (or the view) that reads the host, and a background slot for each event modifier after it.
        var statements: [(expression: ExprSyntax, reads: [(problem: HostReadProblem, part: Int)])] = []
        for problem in hostReads {
            guard let expression = enclosingViewStatement(of: problem.node, in: entry) else {
                return .failure(ViewTokenProblem(detail: problem.detail, location: location(problem)))
            }
            let part = chainPart(holding: problem.node.positionAfterSkippingLeadingTrivia.utf8Offset, in: expression)
            if let index = statements.firstIndex(where: { $0.expression.id == expression.id }) {
                statements[index].reads.append((problem, part))
            } else {
                statements.append((expression, [(problem, part)]))
            }
        }
        for (expression, reads) in statements {
            let modifiers = chain(of: expression).modifiers
            func isBackground(_ part: Int) -> Bool {
                part > 0 && Self.backgroundModifiers.contains(modifierName(modifiers[part - 1]))
            }
            let drawing = reads.filter { !isBackground($0.part) }
            let prefixEnd = drawing.map(\.part).max()
            if let prefixEnd, let first = drawing.first {
                candidates.append(candidate(expression, part: prefixEnd, file: first.problem.file, hostRead: first.problem, in: entry))
            }
            for part in Set(reads.filter { isBackground($0.part) && $0.part > (prefixEnd ?? 0) }.map(\.part)).sorted() {
                let read = reads.first { $0.part == part }!.problem
                candidates.append(candidate(expression, part: part, file: read.file, hostRead: read, in: entry))
            }
        }
        while true {
            // Nested slots are part of the outermost one (a leaf in a slotted ForEach, a Button in a
            // sheet that presents natively).
            candidates.sort { ($0.use.file, $0.use.range.lowerBound, -$0.use.range.count) < ($1.use.file, $1.use.range.lowerBound, -$1.use.range.count) }
            var kept: [SlotCandidate] = []
            for candidate in candidates {
                if let outer = kept.last, outer.use.file == candidate.use.file, outer.use.range.lowerBound <= candidate.use.range.lowerBound,
                   candidate.use.range.upperBound <= outer.use.range.upperBound { continue }
                kept.append(candidate)
            }
            switch check(&kept, state: state, in: entry) {
            case .success:
                return .success(kept)
            case .failure(let widening):
                guard let wider = widening.wider, !candidates.contains(where: { $0.use.file == wider.use.file && $0.use.range == wider.use.range })
                else { return .failure(widening.problem) }
                candidates.append(wider)
            }
        }
    }

    /// Why a slot fails, and the statement around it that would hold what it captures.
    private struct Widening: Error {
        let problem: ViewTokenProblem
        let wider: SlotCandidate?
    }

    /// Checks each slot: not the body's root, capturing only what the thunk's closure can, writing no
    /// guest state. A slot that reads a name bound around it (a ForEach element, an `if let`) widens to
    /// the statement around it, which binds the name (`ForEach(model.items) { item in Row(model: item) }`
    /// as one slot), as long as that statement is no root; the refusal names the first slot tried.
    private func check(_ kept: inout [SlotCandidate], state: Set<String>, in entry: GuestTypeEntry) -> Result<Void, Widening> {
        for position in kept.indices {
            let slot = kept[position]
            let name = slot.use.token.slotLabel
            let sourceFile = index.files[slot.use.file]
            let slotLocation = GuestSourceLocation(file: sourceFile.relativePath, line: slot.use.line)
            let because = slot.hostRead.map { " (it reads the host: \($0.detail))" } ?? ""
            if slot.isRootStatement, let read = slot.hostRead {
                let problem = slot.refusal ?? ViewTokenProblem(
                    detail: "\(read.detail); the statement reading it, `\(name)(…)`, is the whole body, which cannot be a slot (a patch could change nothing); move the host read into a smaller part of the body",
                    location: location(read))
                return .failure(Widening(problem: problem, wider: nil))
            }
            var readsPrivate = false
            if let local = captures(of: slot, in: entry, readsPrivate: &readsPrivate) {
                let problem = slot.refusal ?? ViewTokenProblem(
                    detail: "`\(name)(…)` cannot be a slot\(because): it reads `\(local)`, which is not a member of \(entry.path.joined(separator: ".")) (a slot's closure in the shipped app captures only the view, not a ForEach element, an `if let` binding or a local); pass it to a view of the project that holds the native view",
                    location: slotLocation)
                var wider = enclosingStatement(of: slot, in: entry).map { outer in
                    candidate(outer, part: chainPart(holding: slot.start, in: outer), file: slot.use.file, hostRead: slot.hostRead, in: entry)
                }
                // The wider slot may not be the root either, not even for a native-only leaf.
                if let candidate = wider, candidate.isRootStatement && candidate.hostRead == nil { wider = nil }
                wider?.refusal = problem
                return .failure(Widening(problem: problem, wider: wider))
            }
            if slot.hostRead != nil, let write = writes(slot.tokens, state: state) {
                return .failure(Widening(problem: ViewTokenProblem(
                    detail: "`\(name)(…)` cannot be a slot\(because): it writes the view's state with `\(write)`, which the host would overwrite with the guest's last state (sdk-contract §5.4); keep the write in the guest or the state in a model",
                    location: slotLocation), wider: nil))
            }
            kept[position].readsPrivate = readsPrivate
        }
        return .success(())
    }

    /// The slot of `expression` for a read in `part` of its chain: a background slot for an event
    /// modifier, else the chain up to and including that part.
    private func candidate(_ expression: ExprSyntax, part: Int, file: Int, hostRead: HostReadProblem?, in entry: GuestTypeEntry) -> SlotCandidate {
        let (root, modifiers) = chain(of: expression)
        if part > 0, Self.backgroundModifiers.contains(modifierName(modifiers[part - 1])) {
            let modifier = modifiers[part - 1]
            let period = modifier.calledExpression.as(MemberAccessExprSyntax.self)!.period
            let start = period.positionAfterSkippingLeadingTrivia.utf8Offset
            let text = slotText(modifier.tokens(viewMode: .sourceAccurate).filter { $0.positionAfterSkippingLeadingTrivia.utf8Offset >= start })
            let slot = ViewToken(viewPath: entry.path, type: .view, expression: "Color.clear" + text, label: modifierName(modifier), isBackground: true)
            return SlotCandidate(use: .init(token: slot, root: slot.slotLabel, file: file, range: start..<modifier.endPositionBeforeTrailingTrivia.utf8Offset,
                                            line: index.files[file].line(of: period)),
                                 node: Syntax(modifier), start: start, hostRead: hostRead, isRootStatement: false)
        }
        let node = part == 0 ? Syntax(root) : Syntax(modifiers[part - 1])
        let slot = ViewToken(viewPath: entry.path, type: .view, expression: slotText(node.tokens(viewMode: .sourceAccurate)))
        // A drawing modifier after the slot stays in the guest, where a patch can change it
        // (`Image(name).resizable()` natively, `.scaledToFill().frame(…)` patched): then a slot of
        // the body's only statement is no longer all a patch could touch.
        let drawsAfter = modifiers[part...].contains { !Self.backgroundModifiers.contains(modifierName($0)) }
        return SlotCandidate(use: .init(token: slot, root: slot.slotLabel, file: file, range: range(of: node), line: index.files[file].line(of: node)),
                             node: node, start: node.positionAfterSkippingLeadingTrivia.utf8Offset, hostRead: hostRead,
                             isRootStatement: isBodyRoot(expression) && !drawsAfter)
    }

    /// The view statement around the one holding the slot.
    private func enclosingStatement(of slot: SlotCandidate, in entry: GuestTypeEntry) -> ExprSyntax? {
        guard let own = enclosingViewStatement(of: slot.node, in: entry) ?? slot.node.as(ExprSyntax.self),
              let item = own.parent else { return nil }
        return enclosingViewStatement(of: item, in: entry)
    }

    private func location(_ read: HostReadProblem) -> GuestSourceLocation {
        GuestSourceLocation(file: index.files[read.file].relativePath, line: read.line)
    }

    /// `view.padding().onAppear { … }`: the view (`root`) and the modifiers applied to it, innermost first.
    func chain(of expression: ExprSyntax) -> (root: ExprSyntax, modifiers: [FunctionCallExprSyntax]) {
        var modifiers: [FunctionCallExprSyntax] = []
        var current = expression
        while let call = current.as(FunctionCallExprSyntax.self), let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base {
            // `Image.logo(…)`, `Text.init(…)`: a static member of a type is the view itself.
            if let type = base.as(DeclReferenceExprSyntax.self), type.baseName.text.first?.isUppercase == true { break }
            modifiers.insert(call, at: 0)
            current = base
        }
        return (current, modifiers)
    }

    private func modifierName(_ modifier: FunctionCallExprSyntax) -> String {
        modifier.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
    }

    /// 0 when `offset` is in the chain's view, else the position (from 1) of the modifier whose
    /// name or arguments hold it.
    private func chainPart(holding offset: Int, in expression: ExprSyntax) -> Int {
        let modifiers = chain(of: expression).modifiers
        for (position, modifier) in modifiers.enumerated().reversed() {
            guard let access = modifier.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
            if offset >= access.period.positionAfterSkippingLeadingTrivia.utf8Offset { return position + 1 }
        }
        return 0
    }

    /// Whether a statement of a view builder holds `node` (a read there can be a slot).
    func isInViewStatement(_ node: Syntax, in entry: GuestTypeEntry) -> Bool {
        enclosingViewStatement(of: node, in: entry) != nil
    }

    /// The innermost statement of a view builder around `node` whose expression is a view (a
    /// capitalized call or a view helper of the type, with its modifiers), or nil.
    private func enclosingViewStatement(of node: Syntax, in entry: GuestTypeEntry) -> ExprSyntax? {
        var current = node
        while let parent = current.parent, !parent.is(MemberBlockItemSyntax.self) {
            var expression: ExprSyntax?
            if let item = parent.as(CodeBlockItemSyntax.self) {
                expression = item.item.as(ExprSyntax.self)
            } else if let statement = parent.as(ReturnStmtSyntax.self) {
                expression = statement.expression
            }
            if let expression, isView(expression, in: entry), let item = parent.as(CodeBlockItemSyntax.self) ?? parent.parent?.as(CodeBlockItemSyntax.self),
               isInViewBuilder(item, in: entry) {
                return expression
            }
            current = parent
        }
        return nil
    }

    /// `Text(…)`, `Button { } label: { }`, `content`, `header` (a view helper of the type), with
    /// any modifiers: a view, as opposed to code such as `model.load()` or `Task { … }`.
    private func isView(_ expression: ExprSyntax, in entry: GuestTypeEntry) -> Bool {
        let root = chain(of: expression).root
        var callee = root
        if let call = root.as(FunctionCallExprSyntax.self) { callee = call.calledExpression }
        if let access = callee.as(MemberAccessExprSyntax.self), let base = access.base?.as(DeclReferenceExprSyntax.self) {
            return base.baseName.text.first?.isUppercase == true
        }
        guard let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        if name.first?.isUppercase == true { return !Self.codeTypes.contains(name) }
        return name == "content" || entry.members.contains { $0.names == [name] && isViewMember($0.decl) }
    }

    /// `body`, `body(content:)`, and helpers typed `some View` or marked `@ViewBuilder`.
    func isViewMember(_ decl: some SyntaxProtocol) -> Bool {
        if let variable = decl.as(VariableDeclSyntax.self) {
            if variable.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "ViewBuilder" }) { return true }
            return variable.bindings.contains { $0.pattern.trimmedText == "body" || ($0.typeAnnotation?.type.trimmedText.hasSuffix("View") ?? false) }
        }
        if let function = decl.as(FunctionDeclSyntax.self) {
            if function.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "ViewBuilder" }) { return true }
            return function.name.text == "body" || (function.signature.returnClause?.type.trimmedText.hasSuffix("View") ?? false)
        }
        return false
    }

    /// Whether the block holding `item` builds views: a view member's body, the content closure of a
    /// container or of a content modifier, or a branch of an `if`/`switch` in one.
    private func isInViewBuilder(_ item: CodeBlockItemSyntax, in entry: GuestTypeEntry) -> Bool {
        guard let owner = item.parent?.parent else { return false }
        if let closure = owner.as(ClosureExprSyntax.self) { return isViewContent(closure) }
        if owner.is(AccessorBlockSyntax.self) || owner.is(SwitchCaseSyntax.self) {
            return isViewBranchOrMember(owner)
        }
        guard let block = owner.as(CodeBlockSyntax.self) else { return false }
        return isViewBranchOrMember(Syntax(block))
    }

    /// A block of an `if`/`switch` statement is view content when the statement is; a getter's or
    /// function's block when the member is a view member.
    private func isViewBranchOrMember(_ block: some SyntaxProtocol) -> Bool {
        var current = Syntax(block)
        while let parent = current.parent {
            if parent.is(IfExprSyntax.self) || parent.is(SwitchExprSyntax.self) || parent.is(SwitchCaseListSyntax.self)
                || parent.is(SwitchCaseSyntax.self) || parent.is(ExpressionStmtSyntax.self) {
                current = parent
                continue
            }
            if let item = parent.as(CodeBlockItemSyntax.self) {
                guard let owner = item.parent?.parent else { return false }
                if let closure = owner.as(ClosureExprSyntax.self) { return isViewContent(closure) }
                current = owner
                continue
            }
            if parent.is(AccessorDeclSyntax.self) || parent.is(AccessorDeclListSyntax.self) || parent.is(AccessorBlockSyntax.self)
                || parent.is(PatternBindingSyntax.self) || parent.is(PatternBindingListSyntax.self) {
                current = parent
                continue
            }
            return isViewMember(parent)
        }
        return false
    }

    /// A closure is view content when it is a container's content (`VStack { }`, `ForEach(…) { }`,
    /// a project view's), a labelled view argument (`label:`, `header:`) or a content modifier's
    /// (`.overlay { }`, `.sheet { }`); a Button's action, `Task { }` and `.onAppear { }` run code.
    private func isViewContent(_ closure: ClosureExprSyntax) -> Bool {
        var label: String?
        let call: FunctionCallExprSyntax?
        if let parent = closure.parent?.as(FunctionCallExprSyntax.self), parent.trailingClosure?.id == closure.id {
            call = parent
        } else if let element = closure.parent?.as(MultipleTrailingClosureElementSyntax.self) {
            label = element.label.text
            call = element.parent?.parent?.as(FunctionCallExprSyntax.self)
        } else if let argument = closure.parent?.as(LabeledExprSyntax.self) {
            label = argument.label?.text
            call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        } else {
            return false
        }
        guard let call else { return false }
        if let label { return Self.contentLabels.contains(label) }
        if let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            guard type.first?.isUppercase == true, !Self.codeTypes.contains(type) else { return false }
            // `Button(action: save) { Text("Save") }` labels with the closure; `Button("Save") { save() }` acts.
            return type != "Button" || call.arguments.contains { $0.label?.text == "action" }
        }
        if let access = call.calledExpression.as(MemberAccessExprSyntax.self) { return Self.contentModifiers.contains(access.declName.baseName.text) }
        return false
    }

    /// Whether the statement is the only view statement of the view's `body` (or `body(content:)`).
    private func isBodyRoot(_ expression: ExprSyntax) -> Bool {
        let item = expression.parent?.as(CodeBlockItemSyntax.self) ?? expression.parent?.parent?.as(CodeBlockItemSyntax.self)
        guard let list = item?.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        var owner = list.parent
        while let current = owner, !current.is(VariableDeclSyntax.self), !current.is(FunctionDeclSyntax.self) {
            if current.is(ClosureExprSyntax.self) || current.is(IfExprSyntax.self) || current.is(SwitchCaseSyntax.self) || current.is(MemberBlockItemSyntax.self) {
                return false
            }
            owner = current.parent
        }
        let isBody = owner?.as(VariableDeclSyntax.self)?.bindings.first?.pattern.trimmedText == "body"
            || owner?.as(FunctionDeclSyntax.self)?.name.text == "body"
        return isBody && list.filter { !$0.item.is(DeclSyntax.self) }.count == 1
    }

    /// The `@State`, `@Binding` and `@AppStorage` properties: the guest's state (less the host
    /// objects among them, `@State var store: Store`: writing through those is the host's).
    func guestState(of entry: GuestTypeEntry) -> Set<String> {
        var names: Set<String> = []
        for member in entry.members where member.kind == .storedProperty {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  variable.attributes.contains(where: { GuestViewLowering.supportedWrappers.contains($0.as(AttributeSyntax.self)?.attributeName.trimmedText ?? "") })
            else { continue }
            names.formUnion(member.names)
        }
        return names
    }

    /// The first name the slot's closure reads that the shipped thunk could not capture: a name
    /// the member binds outside the slot (a ForEach element, an `if let`, a parameter, a local) or
    /// an anonymous `$0` of a closure around it. Reading a `private` member sets `readsPrivate`.
    private func captures(of slot: SlotCandidate, in entry: GuestTypeEntry, readsPrivate: inout Bool) -> String? {
        let range = slot.start..<slot.use.range.upperBound
        var member = slot.node
        while let parent = member.parent, !parent.is(MemberBlockItemSyntax.self) { member = parent }
        // Names bound in the member outside the slot.
        var outer: Set<String> = []
        for token in member.tokens(viewMode: .sourceAccurate) where !range.contains(token.positionAfterSkippingLeadingTrivia.utf8Offset) {
            guard case .identifier(let name) = token.tokenKind else { continue }
            if token.parent?.is(ClosureShorthandParameterSyntax.self) == true || token.parent?.is(ClosureParameterSyntax.self) == true
                || token.parent?.is(IdentifierPatternSyntax.self) == true || token.parent?.is(FunctionParameterSyntax.self) == true {
                outer.insert(name)
            }
        }
        var declared: Set<String> = []
        for token in slot.tokens {
            guard case .identifier(let name) = token.tokenKind else { continue }
            if token.parent?.is(ClosureShorthandParameterSyntax.self) == true || token.parent?.is(ClosureParameterSyntax.self) == true
                || token.parent?.is(IdentifierPatternSyntax.self) == true {
                declared.insert(name)
            }
        }
        for token in slot.tokens {
            let text: String
            switch token.tokenKind {
            case .identifier(let identifier), .dollarIdentifier(let identifier): text = identifier
            default: continue
            }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            // `$0`: the element of the innermost closure, which must be inside the slot.
            if text.hasPrefix("$"), text.dropFirst().allSatisfy(\.isNumber) {
                var closure = reference.parent
                while let current = closure, !current.is(ClosureExprSyntax.self) { closure = current.parent }
                if let closure, !range.contains(closure.positionAfterSkippingLeadingTrivia.utf8Offset) { return text }
                continue
            }
            // `$model`, a projection of the view's wrapper, is captured with the view too.
            let name = text.hasPrefix("$") ? String(text.dropFirst()) : text
            // `x.name`, `.name`: a member of something else, not a capture.
            if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id { continue }
            if declared.contains(name) { continue }
            if let member = entry.members.first(where: { $0.names.contains(name) }) {
                if isFilePrivate(member.decl) { readsPrivate = true }
                continue
            }
            if outer.contains(name) { return name }
            // A `private` type or global of the file (`PrivateRow()`, `formatter`) is seen only from the view's file.
            if let type = index.lookupType(path: [name]), isFilePrivate(index.types[type].decl) { readsPrivate = true }
            if index.globals(named: name).contains(where: { isFilePrivate(index.globals[$0].decl) }) { readsPrivate = true }
        }
        return nil
    }

    private func isFilePrivate(_ decl: some SyntaxProtocol) -> Bool {
        decl.asProtocol(WithModifiersSyntax.self)?.modifiers.isFileScoped == true
    }

    /// The first write of the view's guest state in the slot (`isOn = true`, `count += 1`,
    /// `items.append(x)`, `isOn.toggle()`, `&count`, `$isOn`), or nil. A native write would be
    /// overwritten: the host merges the guest's last state over the view's properties (§5.4).
    func writes(_ tokens: [TokenSyntax], state: Set<String>) -> String? {
        guard !state.isEmpty else { return nil }
        for token in tokens {
            let text: String
            switch token.tokenKind {
            case .identifier(let identifier), .dollarIdentifier(let identifier): text = identifier
            default: continue
            }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if text.hasPrefix("$") {
                if state.contains(String(text.dropFirst())) { return text }
                continue
            }
            guard state.contains(text) else { continue }
            var node = Syntax(reference)
            if let access = node.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id {
                guard access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { continue }
                node = Syntax(access)
            }
            if let write = write(startingAt: node) { return write }
        }
        return nil
    }

    /// The write whose l-value begins with `start` (`start.a.b = x`, `start[i] += 1`, `start?.count -= 1`,
    /// a mutating call `start.items.append(x)`, `&start`), or nil when `start` is only read.
    func write(startingAt start: Syntax) -> String? {
        var node = start
        // The l-value: `start.a.b`, `start[i]`, `start?.a`, `start!`.
        while let parent = node.parent {
            if let access = parent.as(MemberAccessExprSyntax.self), access.base?.id == node.id {
                if let call = parent.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == parent.id,
                   Self.mutatingMethods.contains(access.declName.baseName.text) || projectMutatingMethods.contains(access.declName.baseName.text) {
                    return call.trimmedText
                }
                node = parent
            } else if let subscriptCall = parent.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == node.id {
                node = parent
            } else if parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self) {
                node = parent
            } else {
                break
            }
        }
        if node.parent?.is(InOutExprSyntax.self) == true { return node.parent!.trimmedText }
        if let sequence = node.parent?.as(ExprListSyntax.self), let position = sequence.firstIndex(where: { $0.id == node.id }) {
            let next = sequence.index(after: position)
            if next != sequence.endIndex {
                let operation = sequence[next]
                if operation.is(AssignmentExprSyntax.self) { return sequence.trimmedText }
                if let binary = operation.as(BinaryOperatorExprSyntax.self), binary.operator.text.hasSuffix("="),
                   !["==", "!=", "<=", ">=", "===", "!=="].contains(binary.operator.text) {
                    return sequence.trimmedText
                }
            }
        }
        return nil
    }
}
