import SwiftSyntax

/// A stored property of a type's declaration, as a receiver mirror copies it.
struct StoredProperty: Sendable, Codable, Equatable {
    var name: String
    /// As written, or the type its initial value gives (`var count = 0`: `Int`; `InitialValueType.inferred`).
    var type: String
    var isLet: Bool
    /// `private` or `fileprivate`: only code in the declaring file can read it.
    var isFileScoped: Bool
    var line: Int
    /// The named types of `type` that must be Codable (`CodableShape.collect`).
    var codableReferences: [CodableReference]
    /// `let x = 1` is not a parameter of the memberwise initializer a value mirror builds the type with.
    var hasInitialValue = false
    /// Set by `prepare` for one thunk when the type is not Codable: how the mirror's field carries it
    /// (docs/prepare.md "Values that are not Codable"). Not part of the scan.
    var coding: ValueCoding? = nil
    /// Set by prepare on a class receiver's `X?` reference to another object of the target, which its
    /// mirror carries as a copy of that object (`Preparer.referencedObject`).
    var object: ReferencedObject? = nil

    enum CodingKeys: String, CodingKey { case name, type, isLet, isFileScoped, line, codableReferences, hasInitialValue, object }

    /// The type of the mirror's field.
    var fieldType: String { coding?.fieldType ?? type }
}

/// The object a class receiver's stored property references, as the receiver's mirror copies it: the
/// stored properties of `className` that travel, one level deep (docs/prepare.md "Objects the receiver
/// references").
struct ReferencedObject: Sendable, Codable, Equatable {
    var className: String
    var properties: [StoredProperty]

    /// The mirror's nested struct holding the copy of the object `property` references.
    static func mirrorName(of property: StoredProperty) -> String {
        "__Object_" + property.name.replacingOccurrences(of: "`", with: "")
    }
}

/// A stored property of a class, or of a struct whose whole value cannot travel, that its mirror does
/// not copy (docs/prepare.md "Class methods", "Views' helpers"): a method that reads or writes it
/// cannot be built into a module.
struct LeftOutProperty: Sendable, Codable, Equatable {
    var name: String
    var line: Int
    /// Why it cannot travel (`weak`, a closure type, a type that is not Codable…).
    var reason: String
}

/// The stored properties of a struct or class, or why a mirror cannot copy them all.
struct StoredProperties: Sendable, Codable, Equatable {
    var properties: [StoredProperty] = []
    /// Why no mirror can stand for the whole value (a property wrapper, `lazy`, a property without a
    /// written type, one under `#if`), naming the property and its line; nil when one can. A struct's
    /// mutating method, initializer and setter need the whole value (its new `self` comes back).
    var unsupportedReason: String?
    /// The stored properties a copy leaves out: a class keeps its identity on the device, so the
    /// module works on a copy of the properties that can travel (`ReceiverCoding.object`); a struct's
    /// non-mutating method or getter only reads `self`, so it can too (`ReceiverCoding.mirror` of the
    /// properties that travel). A method touching any of these stays native.
    var leftOut: [LeftOutProperty] = []
    /// A struct's stored property has a property wrapper (a SwiftUI view's `@State`, `@Binding`,
    /// `@Environment`…): a method only reading `self` receives a copy (`Preparer.receiver(of:)`).
    var hasPropertyWrapper = false
    /// The declaration's body declares an initializer, so the type has no memberwise one for a value
    /// mirror to build it with (`ValueMirrorPlanner`).
    var declaresInitializer = false

    /// Reads the stored properties among `members` (what the stored layout hashes). Those that cannot
    /// travel are left out of a copy (`leftOut`); a struct's also make the whole value unsupported. A
    /// class's pure-storage wrappers count as the wrapped value: `@Published var x: T` is read and
    /// written as `self.x: T`, and `@ObservationIgnored` only tells the `@Observable` macro to leave a
    /// property alone. A struct's property wrapper (`@State`, `@Binding`, `@Environment(\.date)`…)
    /// makes the whole value unsupported (its storage is not the declared value), yet its wrapped
    /// value is `self.x: T`, which a copy carries, unless it holds an object (`objectWrappers`).
    static func scan(_ members: MemberBlockItemListSyntax, isClass: Bool = false, line: (any SyntaxProtocol) -> Int) -> StoredProperties {
        var result = StoredProperties()
        func refuse(_ reason: String, _ node: some SyntaxProtocol, name: String? = nil) {
            if let name { result.leftOut.append(LeftOutProperty(name: name, line: line(node), reason: reason)) }
            if !isClass, result.unsupportedReason == nil {
                result.unsupportedReason = "\(reason) (line \(line(node)))"
            }
        }
        result.declaresInitializer = members.contains { member in
            member.decl.is(InitializerDeclSyntax.self) || member.decl.as(IfConfigDeclSyntax.self)?.clauses.contains { clause in
                guard case let .decls(decls)? = clause.elements else { return false }
                return decls.contains { $0.decl.is(InitializerDeclSyntax.self) }
            } == true
        }
        for member in members {
            if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
                let conditional = ifConfig.clauses.flatMap { clause -> [VariableDeclSyntax] in
                    guard case let .decls(decls)? = clause.elements else { return [] }
                    return decls.compactMap { $0.decl.as(VariableDeclSyntax.self) }.filter(SourceScanner.isStoredLayoutMember)
                }
                guard !conditional.isEmpty else { continue }
                if !isClass { refuse("it has stored properties under `#if`, which a mirror cannot list for every configuration", ifConfig) }
                for variable in conditional {
                    for binding in variable.bindings {
                        refuse("it is declared under `#if`, which a mirror cannot list for every configuration", binding, name: binding.pattern.trimmedText)
                    }
                }
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self), SourceScanner.isStoredLayoutMember(variable) else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let bindings = Array(variable.bindings)
            for (position, binding) in bindings.enumerated() {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    refuse("stored property `\(binding.pattern.trimmedText)` destructures a tuple", binding, name: binding.pattern.trimmedText)
                    continue
                }
                let name = identifier.identifier.text
                let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
                if let wrapper = attributes.first(where: { !isClass || !pureStorageAttributes.contains($0.attributeName.trimmedText) }) {
                    let reason = "stored property `\(name)` has the attribute `\(wrapper.trimmedText)` (a property wrapper's storage is not the declared value)"
                    if !isClass { result.hasPropertyWrapper = true }
                    if isClass || objectWrappers.contains(wrapper.attributeName.trimmedText) {
                        refuse(isClass ? reason : "stored property `\(name)` has the attribute `\(wrapper.trimmedText)`: it holds an object, which a copy cannot carry", variable, name: name)
                        continue
                    }
                    // The whole value cannot travel; a copy still carries the wrapped value.
                    if result.unsupportedReason == nil { result.unsupportedReason = "\(reason) (line \(line(variable)))" }
                }
                if variable.attributes.contains(where: { $0.is(IfConfigDeclSyntax.self) }) {
                    refuse("stored property `\(name)` has attributes under `#if`", variable, name: name)
                    continue
                }
                if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
                    refuse("stored property `\(name)` is `lazy` (reading it would run its initializer)", variable, name: name)
                    continue
                }
                if let reference = variable.modifiers.first(where: { [.keyword(.weak), .keyword(.unowned)].contains($0.name.tokenKind) }) {
                    refuse("stored property `\(name)` is `\(reference.name.text)`: a reference to another object cannot travel", variable, name: name)
                    continue
                }
                // `var x, y: Int`: an annotation also types the bindings before it that have no initial value.
                let annotation = binding.initializer == nil ? bindings[position...].lazy.compactMap(\.typeAnnotation).first?.type : binding.typeAnnotation?.type
                guard let type = annotation ?? InitialValueType.inferred(binding.initializer?.value) else {
                    refuse("stored property `\(name)` has no written type and its initial value does not say it (literals, `UUID()`, `Date()`, `Data()` and `[T](…)` do); write its type", binding, name: name)
                    continue
                }
                var references: [CodableReference] = []
                if let reason = CodableShape.collect(type, isResult: false, into: &references) {
                    refuse("stored property `\(name)`: \(reason)", binding, name: name)
                    continue
                }
                result.properties.append(StoredProperty(
                    name: name, type: type.trimmedText, isLet: isLet, isFileScoped: variable.modifiers.isFileScoped,
                    line: line(binding), codableReferences: references, hasInitialValue: binding.initializer != nil))
            }
        }
        return result
    }

    /// Attributes of a class's stored property that leave its value what the mirror reads and writes as
    /// `self.name`: `@Published` (its projected publisher fires `objectWillChange` on each write),
    /// `@ObservationIgnored`, and SwiftData's `@Attribute`, `@Relationship` and `@Transient`, which
    /// tell the `@Model` macro how to persist a property whose value `self.name` still is.
    static let pureStorageAttributes: Set<String> = ["Published", "ObservationIgnored", "Attribute", "Relationship", "Transient"]

    /// SwiftUI's property wrappers of a struct whose wrapped value is an object (or SwiftData's query of
    /// them): the copy of a view sent to the module leaves the property out.
    static let objectWrappers: Set<String> = ["ObservedObject", "StateObject", "EnvironmentObject", "Bindable", "Query"]
}

/// How an instance method's thunk sends `self` to the module as the `"self"` key of its arguments,
/// and reads the new `self` back from a mutating method's result (docs/prepare.md "Instance methods").
enum ReceiverCoding: Sendable, Equatable {
    /// A struct: a local `__PatchSelf` with one field per stored property, built from `self` — the
    /// JSON the guest's codec of the struct reads (keys = stored property names, JSONEncoder's
    /// shapes), whether or not the struct is Codable itself. A property whose type is not Codable
    /// travels through its value mirror (`StoredProperty.coding`). A method that only reads `self`
    /// sends the properties that travel when the whole value cannot (`StoredProperties.leftOut`, a
    /// view's `@ObservedObject`), a wrapper's wrapped value as `self.name` reads it.
    case mirror([StoredProperty])
    /// A class: the same mirror of the stored properties that can travel (`StoredProperties.leftOut`
    /// are not sent). Every method of a class may change the object, so each call writes back like a
    /// mutating method, but only the properties the module changed (docs/prepare.md "Class methods").
    case object([StoredProperty])
    /// An enum that is Codable itself: sent as it is. Its synthesized Codable (`{"case":{…}}`, or the
    /// raw value) is the shape the guest's codec of the enum reads.
    case value(type: String)
    /// An enum that is not Codable: through its value mirror (`ValueCoding`), the same JSON.
    case mirroredValue(ValueCoding)

    static let mirrorName = "__PatchSelf"
    /// The local the thunk of a class method keeps the sent mirror in, to compare with what comes back.
    static let sentName = "__sent"

    /// The module's result carries the receiver back (`{"value": …, "self": …}`).
    func writesBack(mutating: Bool) -> Bool {
        if case .object = self { return true }
        return mutating
    }

    /// It reads a `private` or `fileprivate` stored property: the thunk must sit in the type's file.
    var readsFileScopedProperty: Bool {
        switch self {
        case let .mirror(properties), let .object(properties): properties.contains(where: \.isFileScoped)
        case .value, .mirroredValue: false
        }
    }

    /// The type of the `__self` field of the thunk's argument and result structs.
    var fieldType: String {
        switch self {
        case .mirror, .object: Self.mirrorName
        case let .value(type): type
        case let .mirroredValue(coding): coding.fieldType
        }
    }

    /// The mirror's declaration (nil for an enum): `Encodable` for a method that only reads `self`,
    /// `Codable` for a mutating one, whose new `self` comes back in the result, `Decodable` for an
    /// initializer, which only receives one. A class's mirror also compares a property as sent and
    /// as returned (`changed`).
    func declaration(conformance: String) -> String? {
        switch self {
        case let .mirror(properties):
            let fields = properties.map { " let \(SwiftIdentifier.escaped($0.name)): \($0.fieldType)" }.joined(separator: ";")
            return "struct \(Self.mirrorName): \(conformance) {\(fields)\(fields.isEmpty ? "" : " ")}"
        case let .object(properties):
            // JSON rather than `==`: every mirrored property is Codable (it travels), not every one is
            // Equatable, and the JSON is all the module sees of it. Sorted keys make a dictionary's
            // encoding one string whatever its order in memory.
            // A referenced object travels as a nested struct copying its properties (`init(_:)` reads them).
            let fields = properties.map { property in
                guard let object = property.object else { return " let \(SwiftIdentifier.escaped(property.name)): \(property.fieldType);" }
                let name = ReferencedObject.mirrorName(of: property)
                let copied = object.properties.map { SwiftIdentifier.escaped($0.name) }
                return " let \(SwiftIdentifier.escaped(property.name)): \(name)?; struct \(name): Codable {"
                    + object.properties.map { " let \(SwiftIdentifier.escaped($0.name)): \($0.type);" }.joined()
                    + " init(_ object: \(object.className)) {" + copied.map { " self.\($0) = object.\($0);" }.joined() + " } };"
            }.joined()
            return "struct \(Self.mirrorName): Codable {\(fields) static func changed<T: Encodable>(_ sent: T, _ returned: T) -> Bool { "
                + "let encoder = JSONEncoder(); encoder.outputFormatting = .sortedKeys; return (try? encoder.encode(sent)) != (try? encoder.encode(returned)) } }"
        case .value, .mirroredValue: return nil
        }
    }

    /// The expression the thunk sends as `"self"`.
    var encodedSelf: String {
        switch self {
        case let .mirror(properties), let .object(properties):
            Self.mirrorName + "(" + properties.map { property in
                let value = "self.\(SwiftIdentifier.escaped(property.name))"
                let field = property.object == nil
                    ? property.coding?.encode(value) ?? value
                    : "\(value).map(\(Self.mirrorName).\(ReferencedObject.mirrorName(of: property)).init)"
                return "\(property.name.replacingOccurrences(of: "`", with: "")): " + field
            }.joined(separator: ", ") + ")"
        case .value: "self"
        case let .mirroredValue(coding): coding.encode("self")
        }
    }

    /// The statements that make `self` the module's new receiver, read from `decoded` (the result's
    /// `__self`): each `var` stored property is assigned; a `let` keeps its value, as it must in a
    /// mutating method unless that method replaces all of `self` (docs/prepare.md). A class's `var`
    /// is assigned only when the module changed it (compared with the sent mirror, `sentName`), so
    /// observation (`@Published`'s `objectWillChange`, `@Observable`'s tracking) fires for exactly
    /// the properties the method changed.
    func writeBack(from decoded: String) -> [String] {
        switch self {
        case let .mirror(properties):
            properties.filter { !$0.isLet }.map { property in
                let field = "\(decoded).\(SwiftIdentifier.escaped(property.name))"
                return "self.\(SwiftIdentifier.escaped(property.name)) = \(property.coding?.decode(field) ?? field)"
            }
        case let .object(properties):
            // A referenced object is never assigned: `build` refuses a body that writes to it or to the
            // property holding it, so the copy comes back as it went.
            properties.filter { !$0.isLet && $0.object == nil }.map { property in
                let name = SwiftIdentifier.escaped(property.name)
                return "if \(Self.mirrorName).changed(\(Self.sentName).\(name), \(decoded).\(name)) { self.\(name) = \(decoded).\(name) }"
            }
        case .value: ["self = \(decoded)"]
        case let .mirroredValue(coding): ["self = \(coding.decode(decoded))"]
        }
    }
}

/// An enum's cases, as a value mirror copies them (`ValueMirrorPlanner`): a local enum with the same
/// cases, raw values and payload labels, whose synthesized Codable writes what the enum's own would.
struct EnumCases: Sendable, Codable, Equatable {
    struct Case: Sendable, Codable, Equatable {
        /// As written (`` `default` `` keeps its backticks).
        var name: String
        /// The raw value's literal as written (`= "x"`), nil when implicit.
        var rawValue: String?
        var payload: [Payload]
    }

    struct Payload: Sendable, Codable, Equatable {
        var label: String?
        var type: String
    }

    var cases: [Case] = []
    /// Why no mirror can list the cases (some are under `#if`), naming the line; nil when one can.
    var unsupportedReason: String?

    static func scan(_ members: MemberBlockItemListSyntax, line: (any SyntaxProtocol) -> Int) -> EnumCases {
        var result = EnumCases()
        for member in members {
            if let ifConfig = member.decl.as(IfConfigDeclSyntax.self), result.unsupportedReason == nil, ifConfig.clauses.contains(where: { clause in
                guard case let .decls(decls)? = clause.elements else { return false }
                return decls.contains { $0.decl.is(EnumCaseDeclSyntax.self) }
            }) {
                result.unsupportedReason = "it has cases under `#if`, which a mirror cannot list for every configuration (line \(line(ifConfig)))"
            }
            guard let enumCase = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in enumCase.elements {
                let payload = (element.parameterClause?.parameters ?? []).map { parameter in
                    Payload(label: parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }, type: parameter.type.trimmedText)
                }
                result.cases.append(Case(name: element.name.text, rawValue: element.rawValue?.value.trimmedText, payload: payload))
            }
        }
        return result
    }
}
