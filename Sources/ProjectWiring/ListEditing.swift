import SwiftSyntax

/// One element of a comma-separated list (array elements, call arguments) by byte offsets, so an
/// element can be added after another in the list's own layout and taken out again exactly.
struct ListItem {
    /// The element's first byte (after its leading trivia).
    var start: Int
    /// The element's last byte + 1, before its comma.
    var contentEnd: Int
    /// The element's comma, when it has one (before the comma's trailing trivia).
    var comma: Range<Int>?
    /// Where a following element goes: right after the comma, or after a comment on the comma's line.
    var afterComma: Int?
    /// The same for an element without a comma: right after it, or after a comment on its line.
    var afterContent: Int
    /// The whitespace starting the element's line, when the element starts a line.
    var indent: String?

    init(_ node: some SyntaxProtocol, content: some SyntaxProtocol, comma: TokenSyntax?) {
        start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        contentEnd = content.endPositionBeforeTrailingTrivia.utf8Offset
        self.comma = comma.map { $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPositionBeforeTrailingTrivia.utf8Offset }
        afterComma = comma.map { ListItem.isBlank($0.trailingTrivia) ? $0.endPositionBeforeTrailingTrivia.utf8Offset : $0.endPosition.utf8Offset }
        afterContent = ListItem.isBlank(content.trailingTrivia) ? contentEnd : content.endPosition.utf8Offset
        indent = ListItem.lineIndent(node.leadingTrivia)
    }

    static func isBlank(_ trivia: Trivia) -> Bool {
        trivia.allSatisfy { piece in
            if case .spaces = piece { return true }
            if case .tabs = piece { return true }
            return false
        }
    }

    init(_ element: ArrayElementSyntax) {
        self.init(element, content: element.expression, comma: element.trailingComma)
    }

    init(_ argument: LabeledExprSyntax) {
        self.init(argument, content: argument.expression, comma: argument.trailingComma)
    }

    static func lineIndent(_ trivia: Trivia) -> String? {
        let text = trivia.description
        guard let newline = text.lastIndex(where: { $0 == "\n" || $0 == "\r" }) else { return nil }
        return String(text[text.index(after: newline)...].prefix { $0 == " " || $0 == "\t" })
    }

    /// The edits adding `text` as a new element after this one, on its own line when this element
    /// is on its own line. `removal(of:after:)` takes exactly these bytes out again.
    func insertingAfter(_ text: String) -> [SourceEdit] {
        let separator = indent.map { "\n" + $0 } ?? " "
        if let afterComma { return [.insert(separator + text + ",", at: afterComma)] }
        // The last element without a comma: the comma goes right after it, the new element after any
        // comment on its line.
        if afterContent == contentEnd { return [.insert("," + separator + text, at: contentEnd)] }
        return [.insert(",", at: contentEnd), .insert(separator + text, at: afterContent)]
    }

    /// The edits taking element `index` out of `items`: the inverse of `insertingAfter` on the
    /// element before it.
    static func removal(of index: Int, in items: [ListItem]) -> [SourceEdit] {
        let item = items[index]
        guard index > 0 else {
            let end = index + 1 < items.count ? items[index + 1].start : (item.comma?.upperBound ?? item.contentEnd)
            return [SourceEdit(range: item.start..<end, replacement: "")]
        }
        let previous = items[index - 1]
        guard let previousComma = previous.comma, let afterComma = previous.afterComma else { return [] }
        if let comma = item.comma { return [SourceEdit(range: afterComma..<comma.upperBound, replacement: "")] }
        return [SourceEdit(range: previousComma, replacement: ""), SourceEdit(range: afterComma..<item.contentEnd, replacement: "")]
    }
}

/// Reading literal values out of syntax.
enum SyntaxValue {
    /// The value of a string literal without interpolation, else nil.
    static func string(_ expression: ExprSyntax?) -> String? {
        guard let literal = expression?.as(StringLiteralExprSyntax.self), literal.segments.count <= 1 else { return nil }
        guard let segment = literal.segments.first else { return "" }
        return segment.as(StringSegmentSyntax.self)?.content.text
    }

    /// The name a call's callee ends in: `target` for `.target(...)`, `Package` for `Package(...)`.
    static func calleeName(_ call: FunctionCallExprSyntax) -> String? {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    static func argument(_ label: String, of call: FunctionCallExprSyntax) -> LabeledExprSyntax? {
        call.arguments.first { $0.label?.text == label }
    }

    /// The 1-based line of `offset` in `tree`.
    static func line(_ offset: Int, in tree: SourceFileSyntax, file: String) -> Int {
        SourceLocationConverter(fileName: file, tree: tree).location(for: AbsolutePosition(utf8Offset: offset)).line
    }
}
