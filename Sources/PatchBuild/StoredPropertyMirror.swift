import SwiftSyntax

/// A stored property of a type's declaration, as a receiver mirror copies it.
struct StoredProperty: Sendable, Codable, Equatable {
    var name: String
    /// As written, or the type of a plain literal initial value (`var count = 0`: `Int`).
    var type: String
    var isLet: Bool
    /// `private` or `fileprivate`: only code in the declaring file can read it.
    var isFileScoped: Bool
    var line: Int
    /// The named types of `type` that must be Codable (`CodableShape.collect`).
    var codableReferences: [CodableReference]
}

/// The stored properties of a struct, or why a mirror cannot copy them all.
struct StoredProperties: Sendable, Codable, Equatable {
    var properties: [StoredProperty] = []
    /// Why no mirror can stand for the value (a property wrapper, `lazy`, a property without a written
    /// type, one under `#if`), naming the property and its line; nil when one can.
    var unsupportedReason: String?

    /// Reads the stored properties among `members` (what the stored layout hashes).
    static func scan(_ members: MemberBlockItemListSyntax, line: (any SyntaxProtocol) -> Int) -> StoredProperties {
        var result = StoredProperties()
        func refuse(_ reason: String, _ node: some SyntaxProtocol) {
            if result.unsupportedReason == nil { result.unsupportedReason = "\(reason) (line \(line(node)))" }
        }
        for member in members {
            if let ifConfig = member.decl.as(IfConfigDeclSyntax.self),
               ifConfig.clauses.contains(where: { clause in
                   guard case let .decls(decls)? = clause.elements else { return false }
                   return decls.contains { $0.decl.as(VariableDeclSyntax.self).map(SourceScanner.isStoredLayoutMember) == true }
               }) {
                refuse("it has stored properties under `#if`, which a mirror cannot list for every configuration", ifConfig)
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self), SourceScanner.isStoredLayoutMember(variable) else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let bindings = Array(variable.bindings)
            for (position, binding) in bindings.enumerated() {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    refuse("stored property `\(binding.pattern.trimmedText)` destructures a tuple", binding)
                    continue
                }
                let name = identifier.identifier.text
                if let wrapper = variable.attributes.compactMap({ $0.as(AttributeSyntax.self) }).first {
                    refuse("stored property `\(name)` has the attribute `\(wrapper.trimmedText)` (a property wrapper's storage is not the declared value)", variable)
                    continue
                }
                if variable.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) {
                    refuse("stored property `\(name)` has attributes under `#if`", variable)
                    continue
                }
                if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
                    refuse("stored property `\(name)` is `lazy` (reading it would run its initializer)", variable)
                    continue
                }
                // `var x, y: Int`: an annotation also types the bindings before it that have no initial value.
                let annotation = binding.initializer == nil ? bindings[position...].lazy.compactMap(\.typeAnnotation).first?.type : binding.typeAnnotation?.type
                guard let type = annotation ?? GuestSignatureReader.literalType(binding.initializer?.value) else {
                    refuse("stored property `\(name)` has no written type (only an integer, decimal, string or Boolean literal's is inferred); write its type", binding)
                    continue
                }
                var references: [CodableReference] = []
                if let reason = CodableShape.collect(type, isResult: false, into: &references) {
                    refuse("stored property `\(name)`: \(reason)", binding)
                    continue
                }
                result.properties.append(StoredProperty(
                    name: name, type: type.trimmedText, isLet: isLet, isFileScoped: variable.modifiers.isFileScoped,
                    line: line(binding), codableReferences: references))
            }
        }
        return result
    }
}

/// How an instance method's thunk sends `self` to the module as the `"self"` key of its arguments,
/// and reads the new `self` back from a mutating method's result (docs/prepare.md "Instance methods").
enum ReceiverCoding: Sendable, Equatable {
    /// A struct: a local `__PatchSelf` with one field per stored property, built from `self` — the
    /// JSON the guest's codec of the struct reads (keys = stored property names, JSONEncoder's
    /// shapes), whether or not the struct is Codable itself.
    case mirror([StoredProperty])
    /// An enum that is Codable itself: sent as it is. Its synthesized Codable (`{"case":{…}}`, or the
    /// raw value) is the shape the guest's codec of the enum reads.
    case value(type: String)

    static let mirrorName = "__PatchSelf"

    /// It reads a `private` or `fileprivate` stored property: the thunk must sit in the type's file.
    var readsFileScopedProperty: Bool {
        guard case let .mirror(properties) = self else { return false }
        return properties.contains(where: \.isFileScoped)
    }

    /// The type of the `__self` field of the thunk's argument and result structs.
    var fieldType: String {
        switch self {
        case .mirror: Self.mirrorName
        case let .value(type): type
        }
    }

    /// The mirror's declaration (nil for an enum): `Encodable` for a method that only reads `self`,
    /// `Codable` for a mutating one, whose new `self` comes back in the result, `Decodable` for an
    /// initializer, which only receives one.
    func declaration(conformance: String) -> String? {
        guard case let .mirror(properties) = self else { return nil }
        let fields = properties.map { " let \(SwiftIdentifier.escaped($0.name)): \($0.type)" }.joined(separator: ";")
        return "struct \(Self.mirrorName): \(conformance) {\(fields)\(fields.isEmpty ? "" : " ")}"
    }

    /// The expression the thunk sends as `"self"`.
    var encodedSelf: String {
        switch self {
        case let .mirror(properties):
            Self.mirrorName + "(" + properties.map { "\($0.name.replacingOccurrences(of: "`", with: "")): self.\(SwiftIdentifier.escaped($0.name))" }
                .joined(separator: ", ") + ")"
        case .value: "self"
        }
    }

    /// The statements that make `self` the module's new receiver, read from `decoded` (the result's
    /// `__self`): each `var` stored property is assigned; a `let` keeps its value, as it must in a
    /// mutating method unless that method replaces all of `self` (docs/prepare.md).
    func writeBack(from decoded: String) -> [String] {
        switch self {
        case let .mirror(properties):
            properties.filter { !$0.isLet }.map { "self.\(SwiftIdentifier.escaped($0.name)) = \(decoded).\(SwiftIdentifier.escaped($0.name))" }
        case .value: ["self = \(decoded)"]
        }
    }
}
