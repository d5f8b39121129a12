import PatchManifest
import SwiftSyntax

/// What of a declaration's text decides what it does at run time (`Baseline.Behaviour`), so `build`
/// tells an edit devices would notice from one they would not (docs/prepare.md "Behaviour").
///
/// Left out of the behaviour hash, each deliberately:
/// - access control (`public`, `private`, `private(set)`, …): it decides which code may name the
///   declaration, not what it does; code that starts or stops naming it changes on its own.
/// - `final`: a program that compiles with it has no override, so every call reaches the same code
///   whether it is dispatched statically or through the class's table.
/// - `nonisolated` and `@MainActor` on synchronous code: isolation is checked when compiling and a
///   synchronous call never hops, so the same code runs on the same thread. On `async` code they
///   decide the executor it runs on, and count.
/// - `@discardableResult` (a warning) and `@available` (checked when compiling callers).
/// Everything else counts: `@objc`, `dynamic`, `@inline`, `@inlinable`, property wrappers, macros
/// (`@ObservationIgnored`), `lazy`, `weak`, `mutating`, `static`.
enum BehaviourDigest {
    /// A function or method: its signature is what the routing thunk was generated from.
    static func of(function: FunctionDeclSyntax, hash: String) -> Baseline.Behaviour {
        let signature = function.signature
        var parts = signatureModifiers(function.modifiers)
        parts.append((function.genericParameterClause.map(spaced) ?? "") + parameterNames(signature.parameterClause))
        if let effects = signature.effectSpecifiers { parts.append(spaced(effects)) }
        if let result = signature.returnClause { parts.append("-> " + spaced(result.type)) }
        if let whereClause = function.genericWhereClause { parts.append(spaced(whereClause)) }
        return digest(of: function, attributes: function.attributes, modifiers: function.modifiers,
                      isAsync: signature.effectSpecifiers?.asyncSpecifier != nil, hash: hash, signature: parts.joined(separator: " "))
    }

    static func of(initializer: InitializerDeclSyntax, hash: String) -> Baseline.Behaviour {
        let signature = initializer.signature
        var parts = signatureModifiers(initializer.modifiers)
        parts.append("init" + (initializer.optionalMark?.text ?? "") + (initializer.genericParameterClause.map(spaced) ?? "")
            + parameterNames(signature.parameterClause))
        if let effects = signature.effectSpecifiers { parts.append(spaced(effects)) }
        if let whereClause = initializer.genericWhereClause { parts.append(spaced(whereClause)) }
        return digest(of: initializer, attributes: initializer.attributes, modifiers: initializer.modifiers,
                      isAsync: signature.effectSpecifiers?.asyncSpecifier != nil, hash: hash, signature: parts.joined(separator: " "))
    }

    /// A property with accessors (computed, or stored with observers), recorded per binding:
    /// `static Int { get throws set }`. Observers do not change how the property is read.
    static func of(property variable: VariableDeclSyntax, binding: PatternBindingSyntax, hash: String) -> Baseline.Behaviour {
        var accessors: [String] = []
        var isAsync = false
        // A stored property with observers: its default value is the type's initialization, reported
        // with the type's layout, so here only its observers and declaration count.
        var initialization: [Syntax] = []
        switch binding.accessorBlock?.accessors {
        case .getter?: accessors = ["get"]
        case let .accessors(list)?:
            if let initializer = binding.initializer { initialization.append(Syntax(initializer)) }
            for accessor in list where ![.keyword(.willSet), .keyword(.didSet)].contains(accessor.accessorSpecifier.tokenKind) {
                isAsync = isAsync || accessor.effectSpecifiers?.asyncSpecifier != nil
                accessors.append(([accessor.modifier.map(spaced), accessor.accessorSpecifier.text, accessor.effectSpecifiers.map(spaced)]
                    .compactMap { $0 }).joined(separator: " "))
            }
        case nil: break
        }
        let parts = signatureModifiers(variable.modifiers) + [binding.typeAnnotation.map { spaced($0.type) } ?? "_"]
            + (accessors.isEmpty ? [] : ["{ " + accessors.joined(separator: " ") + " }"])
        return digest(of: variable, attributes: variable.attributes, modifiers: variable.modifiers, isAsync: isAsync, hash: hash,
                      signature: parts.joined(separator: " "), omitting: initialization)
    }

    /// A view body, hashed over its code alone: nothing of it is inert.
    static func ofCode(hash: String) -> Baseline.Behaviour {
        Baseline.Behaviour(hash: hash)
    }

    /// A type's stored layout from its stored properties and enum cases in order. `layout` covers
    /// what the native binary's memory layout depends on; `hash` adds the default values and
    /// `let`/`var`, which only the type's initializers act on (the memberwise and `Decodable`
    /// initializers take a `var` with a default and skip a `let` with one). Property observers are
    /// code of the property, recorded with it (`Type.name`), not here.
    static func ofLayout(storedProperties: [VariableDeclSyntax], cases: [EnumCaseDeclSyntax]) -> Baseline.Behaviour {
        var layout = ContentHash.TokenBytes()
        var initialization = ContentHash.TokenBytes()
        var inert: [String] = []
        var members: [Baseline.StoredMember] = []
        for variable in storedProperties {
            let names = variable.bindings.map(\.pattern.textWithoutWhitespace).joined(separator: ",")
            // This declaration's own parts, also recorded on their own (`Baseline.StoredMember`).
            var memberLayout = ContentHash.TokenBytes()
            var memberValue = ContentHash.TokenBytes()
            var attributes: [String] = []
            var type: String?
            for element in variable.attributes {
                if let attribute = element.as(AttributeSyntax.self), isInert(attribute, isAsync: false) {
                    inert.append(names + ":" + collapsed(attribute))
                } else {
                    memberLayout.append(element)
                    if let attribute = element.as(AttributeSyntax.self) { attributes.append(attribute.attributeName.trimmedText) }
                }
            }
            for modifier in variable.modifiers {
                if isInert(modifier, isAsync: false) { inert.append(names + ":" + collapsed(modifier: modifier)) } else { memberLayout.append(modifier) }
            }
            memberValue.append(variable.bindingSpecifier)
            for binding in variable.bindings {
                memberLayout.append(binding.pattern)
                memberValue.append(binding.pattern)
                // As text, so that writing the type a literal default already gave (`= false` →
                // `: Bool = false`) is no change.
                if let annotation = binding.typeAnnotation {
                    let written = spaced(annotation.type)
                    memberLayout.append(text: written)
                    type = type ?? written
                } else if let value = binding.initializer?.value {
                    // Without a written type the default decides it: a literal's kind is its type
                    // (`3` → `5` keeps `Int`), any other expression counts whole.
                    if let literal = InitialValueType.literal(value) {
                        memberLayout.append(text: literal)
                        type = type ?? literal
                    } else {
                        memberLayout.append(value)
                    }
                }
                if let initializer = binding.initializer { memberValue.append(initializer) }
            }
            layout.append(contentsOf: memberLayout)
            initialization.append(contentsOf: memberValue)
            layout.endPart()
            initialization.endPart()
            members.append(Baseline.StoredMember(name: names, attributes: attributes, type: type,
                                                 layout: String(memberLayout.hash.prefix(16)), value: String(memberValue.hash.prefix(16)),
                                                 hasDefault: variable.bindings.contains { $0.initializer != nil }))
        }
        for enumCase in cases {
            for element in enumCase.attributes {
                if let attribute = element.as(AttributeSyntax.self), isInert(attribute, isAsync: false) {
                    inert.append(enumCase.elements.map(\.name.text).joined(separator: ",") + ":" + collapsed(attribute))
                } else {
                    layout.append(element)
                }
            }
            layout.append(enumCase.modifiers)
            layout.append(enumCase.caseKeyword)
            layout.append(enumCase.elements)
            layout.endPart()
        }
        var behaviour = layout
        behaviour.endPart()
        behaviour.append(text: "initialization")
        behaviour.append(contentsOf: initialization)
        return Baseline.Behaviour(hash: behaviour.hash, inert: inert, layout: layout.hash, properties: members)
    }

    // MARK: - What is inert

    private static let accessModifiers: Set<String> = ["public", "private", "fileprivate", "internal", "package", "open"]

    /// Modifiers that only the compiler reads (see the type's comment).
    static func isInert(_ modifier: DeclModifierSyntax, isAsync: Bool) -> Bool {
        let name = modifier.name.text
        return accessModifiers.contains(name) || name == "final" || (name == "nonisolated" && !isAsync)
    }

    static func isInert(_ attribute: AttributeSyntax, isAsync: Bool) -> Bool {
        switch attribute.attributeName.trimmedText {
        case "discardableResult", "available": return true
        case "MainActor", "_Concurrency.MainActor": return !isAsync
        default: return false
        }
    }

    /// What an inert item is, for the report: access control, isolation, `final` or an attribute.
    static func category(ofInert item: Substring) -> String {
        let word = item.prefix { $0 != "(" }
        if accessModifiers.contains(String(word)) { return "access control" }
        if word == "nonisolated" || word == "@MainActor" || word == "@_Concurrency.MainActor" { return "isolation of synchronous code" }
        if word == "final" { return "`final`" }
        return "attributes without runtime effect"
    }

    // MARK: - Helpers

    /// `omitting`: parts that are not inert but reported elsewhere.
    private static func digest(of node: some SyntaxProtocol, attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax, isAsync: Bool,
                               hash: String, signature: String, omitting: [Syntax] = []) -> Baseline.Behaviour {
        var omitted = omitting
        var inert: [String] = []
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self), isInert(attribute, isAsync: isAsync) else { continue }
            omitted.append(Syntax(attribute))
            inert.append(collapsed(attribute))
        }
        for modifier in modifiers where isInert(modifier, isAsync: isAsync) {
            omitted.append(Syntax(modifier))
            inert.append(collapsed(modifier: modifier))
        }
        // Most declarations have nothing inert: their behaviour hash is their hash.
        return Baseline.Behaviour(hash: omitted.isEmpty ? hash : ContentHash.of(node, omitting: omitted), inert: inert, signature: signature)
    }

    private static let signatureModifierNames: Set<String> = ["static", "class", "mutating", "nonmutating", "consuming", "borrowing", "__consuming"]

    private static func signatureModifiers(_ modifiers: DeclModifierListSyntax) -> [String] {
        modifiers.filter { signatureModifierNames.contains($0.name.text) }.map { $0.name.text }
    }

    /// `(cents, region)`: the thunk sends arguments under these names (labels and types are in the id).
    private static func parameterNames(_ clause: FunctionParameterClauseSyntax) -> String {
        "(" + clause.parameters.map { ($0.secondName ?? $0.firstName).text }.joined(separator: ", ") + ")"
    }

    /// The node's tokens with one space where two words meet and after `,`, `:` and around `->`:
    /// the same text however the source is formatted.
    static func spaced(_ node: some SyntaxProtocol) -> String {
        var text = ""
        var previous: TokenSyntax?
        for token in node.tokens(viewMode: .sourceAccurate) {
            if let previous {
                let isWord = { (character: Character?) in character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
                if (isWord(previous.text.last) && isWord(token.text.first)) || [",", ":", "->"].contains(previous.text) || token.text == "->" {
                    text += " "
                }
            }
            text += token.text
            previous = token
        }
        return text
    }

    /// The source text with each run of whitespace as one space (an attribute may span lines).
    private static func collapsed(_ node: some SyntaxProtocol) -> String {
        node.trimmedText.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// A modifier as `collapsed`, with `fileprivate` read as `private` as `ContentHash` reads it: a
    /// routed `private` member is `fileprivate` in the prepared file (`PrivateMemberWidening`).
    private static func collapsed(modifier: DeclModifierSyntax) -> String {
        let text = collapsed(modifier)
        return modifier.name.tokenKind == .keyword(.fileprivate) ? String(text.dropFirst(PrivateMemberWidening.insertion.count)) : text
    }
}
