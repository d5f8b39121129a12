import SwiftSyntax

/// The type Swift gives a stored property declared without one, read from its initial value where
/// that value alone decides it (`var count = 0`, `let id = UUID()`), for the mirrors `prepare`
/// generates and the guest's JSON glue, which both must spell the property's type.
enum InitialValueType {
    /// The type of a literal or of an array or dictionary literal whose elements all have one literal
    /// kind, spelled as a written type would be (`[String: Int]`); nil for anything else. `[1, 2.5]`
    /// is nil: Swift unifies it to `[Double]`, which the kinds alone do not say.
    static func literal(_ expression: ExprSyntax) -> String? {
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let negated = expression.as(PrefixOperatorExprSyntax.self), negated.operator.text == "-",
           negated.expression.is(IntegerLiteralExprSyntax.self) || negated.expression.is(FloatLiteralExprSyntax.self) {
            return literal(negated.expression)
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            let elements = Set(array.elements.map { literal($0.expression) })
            guard elements.count == 1, let element = elements.first ?? nil else { return nil }
            return "[\(element)]"
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self), case let .elements(pairs) = dictionary.content {
            let keys = Set(pairs.map { literal($0.key) })
            let values = Set(pairs.map { literal($0.value) })
            guard keys.count == 1, values.count == 1, let key = keys.first ?? nil, let value = values.first ?? nil else { return nil }
            return "[\(key): \(value)]"
        }
        return nil
    }

    /// `literal`'s type, or the type a call of a non-failable initializer gives without looking up
    /// any declaration: Foundation's argument-free `UUID()`, `Date()` and `Data()` (the guest's
    /// Foundation layer has all three), `Date.now`, and a collection of a written element type
    /// (`[Item]()`, `[String](repeating: "", count: 12)`, `[String: Int]()`, `Set<Int>(ids)`: no
    /// initializer of `Array`, `Dictionary` or `Set` is failable, so the arguments never change the
    /// type). A project type's `Name(…)` is left out: its initializer may be failable, or `Name` a
    /// function, which only the declarations tell.
    static func inferred(_ expression: ExprSyntax?) -> TypeSyntax? {
        guard let expression else { return nil }
        if let literal = literal(expression) { return TypeSyntax(stringLiteral: literal) }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "now",
           member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Date" {
            return TypeSyntax(stringLiteral: "Date")
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil, call.additionalTrailingClosures.isEmpty else { return nil }
        let callee = call.calledExpression
        if call.arguments.isEmpty, let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, argumentFreeFoundationValues.contains(name) {
            return TypeSyntax(stringLiteral: name)
        }
        // `[Item]()` and `[String: Int]()` parse as array and dictionary expressions of one type.
        if let array = callee.as(ArrayExprSyntax.self), array.elements.count == 1,
           let element = array.elements.first?.expression, isTypeName(element) {
            return TypeSyntax(stringLiteral: "[\(element.trimmedDescription)]")
        }
        if let dictionary = callee.as(DictionaryExprSyntax.self), case let .elements(pairs) = dictionary.content,
           pairs.count == 1, let pair = pairs.first, isTypeName(pair.key), isTypeName(pair.value) {
            return TypeSyntax(stringLiteral: "[\(pair.key.trimmedDescription): \(pair.value.trimmedDescription)]")
        }
        if let generic = callee.as(GenericSpecializationExprSyntax.self),
           let name = generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           ["Array", "Set", "Dictionary"].contains(name) {
            return TypeSyntax(stringLiteral: generic.trimmedDescription)
        }
        return nil
    }

    private static let argumentFreeFoundationValues: Set<String> = ["UUID", "Date", "Data"]

    /// `Item`, `Model.Item`: a capitalised name or a member chain of them, as an element type is
    /// written inside `[…]()`.
    private static func isTypeName(_ expression: ExprSyntax) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text.first?.isUppercase == true
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return isTypeName(base) && member.declName.baseName.text.first?.isUppercase == true
        }
        return false
    }
}
