import SwiftSyntax

/// The writes a declaration makes to stored places, each as the chain of names it writes through:
/// `species?.name = "x"` → `["species", "name"]`, `self.count += 1` → `["self", "count"]`,
/// `&items[0]` → `["items"]`, `tags.append(t)` → `["tags"]`. What a method of a class receiver writes to
/// `self` comes back to the app (`ReceiverCoding.object`); what it writes to a copy of an object the
/// receiver references would not, so `GuestSourceGenerator.staticProblem` refuses such a body with
/// the write's place rather than lose it.
struct GuestObjectWrite {
    let chain: [String]
    let node: Syntax
}

final class GuestObjectWriteCollector: SyntaxVisitor {
    private var writes: [GuestObjectWrite] = []

    /// Methods of the standard library's value types that change the value they are called on.
    static let mutatingMethods: Set<String> = [
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeSubrange", "removeValue",
        "popLast", "sort", "reverse", "shuffle", "toggle", "formUnion", "formIntersection", "formSymmetricDifference",
        "subtract", "updateValue", "merge", "replaceSubrange", "negate",
    ]

    static func collect(_ node: some SyntaxProtocol) -> [GuestObjectWrite] {
        let collector = GuestObjectWriteCollector(viewMode: .sourceAccurate)
        collector.walk(node)
        return collector.writes
    }

    /// `a.b?.c[i]!` → `["a", "b", "c"]`; nil for anything not a chain of names (a call's result).
    static func chain(of expression: ExprSyntax) -> [String]? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return [reference.baseName.text] }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base { return chain(of: base).map { $0 + [member.declName.baseName.text] } }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return chain(of: optional.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return chain(of: forced.expression) }
        if let subscripted = expression.as(SubscriptCallExprSyntax.self) { return chain(of: subscripted.calledExpression) }
        if let parenthesized = expression.as(TupleExprSyntax.self), parenthesized.elements.count == 1, let only = parenthesized.elements.first {
            return chain(of: only.expression)
        }
        return nil
    }

    /// The names `decl` binds to a value (`let s = species`, `if let s = species`, `if let species`),
    /// with the value's expression.
    static func bindings(in decl: DeclSyntax) -> [(name: String, value: ExprSyntax)] {
        final class Finder: SyntaxVisitor {
            var found: [(String, ExprSyntax)] = []
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value { found.append((name, value)) }
                return .visitChildren
            }
            override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
                if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                    found.append((name, node.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name)))))
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(decl)
        return finder.found
    }

    private func record(_ target: ExprSyntax, at node: some SyntaxProtocol) {
        if let chain = Self.chain(of: target) { writes.append(GuestObjectWrite(chain: chain, node: Syntax(node))) }
    }

    // Unfolded sequences: `place = value`, `place += value` (a compound assignment operator).
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        for (position, element) in elements.enumerated() where position > 0 {
            let assigns = element.is(AssignmentExprSyntax.self)
                || element.as(BinaryOperatorExprSyntax.self).map { operation in
                    let text = operation.operator.text
                    return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
                } == true
            if assigns { record(elements[position - 1], at: elements[position - 1]) }
        }
        return .visitChildren
    }

    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
        record(node.expression, at: node)
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let callee = node.calledExpression.as(MemberAccessExprSyntax.self), let base = callee.base,
           Self.mutatingMethods.contains(callee.declName.baseName.text) {
            record(base, at: node)
        }
        return .visitChildren
    }
}

/// The objects an export's module receives copies of: its class receiver, the objects the
/// receiver's optional stored properties reference (`var species: BirdSpecies?`) and those its
/// parameters receive (`bird: Bird`), one level deep (docs/prepare.md "Objects the receiver
/// references", "Objects as parameters"). It says why the module has no copy of another class, and
/// finds a write to a copy that the app's object would never see.
struct ObjectCopies {
    let reader: GuestSignatureReader
    let receiver: Int?
    /// The receiver's stored properties that reference an object, with the object's class.
    let references: [String: Int]
    /// The exported declaration's parameters that receive a copy of an object, with its class
    /// (`GuestSignatureReader.parameterObjects`).
    let parameters: [String: Int]
    /// The exported declaration: only its body names the parameters.
    let exported: GuestUnit?
    /// The classes of `references` and `parameters`, read for every unit and write checked.
    let classes: Set<Int>
    private var index: GuestSourceIndex { reader.index }

    init(receiver: Int?, parameters: [String: Int] = [:], exported: GuestUnit? = nil, reader: GuestSignatureReader) {
        self.reader = reader
        self.receiver = receiver
        var references: [String: Int] = [:]
        if let receiver {
            for field in reader.receiverMirror(of: receiver).fields {
                if case .optional(.project(let object)) = field.type, reader.index.types[object].kind == .classType { references[field.name] = object }
            }
        }
        self.references = references
        self.parameters = parameters
        self.exported = exported
        classes = Set(references.values).union(parameters.values)
    }

    /// Why code using `type` (an actor, or a class neither the receiver nor referenced by it) cannot
    /// be built: a receiver's property that references it and is left out says its own reason.
    func whyNoCopy(of type: Int) -> String {
        let entry = index.types[type]
        let uses = "uses \(entry.kind.rawValue) \(entry.qualifiedName)"
        if entry.kind == .actorType { return uses + "; an actor's state is isolated to it, so the module cannot work on a copy" }
        if let receiver, let property = reader.receiverMirror(of: receiver).leftOut.first(where: { writtenType(of: $0.name, in: receiver).contains(entry.name) }) {
            let file = index.files[index.types[receiver].file].relativePath
            return uses + ", which the receiver's `\(property.name)` (\(file):\(property.line)) references but its copy leaves out (\(property.reason))"
        }
        return uses + "; the module receives copies of objects only as the receiver of a class's method, the objects its optional stored properties reference and the objects its parameters receive (`X` or `X?`), not as results, collections, globals or objects it creates"
    }

    /// The first write in `decl` (the declaration of `unit`) that would change a copy of a referenced
    /// object rather than the app's object, with the reason to report.
    func lostWrite(in decl: DeclSyntax, of unit: GuestUnit) -> (GuestObjectWrite, String)? {
        guard !classes.isEmpty else { return nil }
        var unitType: Int?
        if case .member(let type, _) = unit { unitType = type }
        // The parameters that hold a copy of an object: the exported body's, and those of a function it
        // calls with one (`touch(bird)`: in the module every object of a copied class is a copy).
        let parameterObjects = unit == exported ? parameters : copiedObjectParameters(of: decl, in: unitType)
        // Locals bound to a referenced object (`let s = species`, `if let s = self.species`) are that object.
        var aliases: [String: Int] = [:]
        if unitType == receiver || !parameterObjects.isEmpty {
            for (name, value) in GuestObjectWriteCollector.bindings(in: decl) {
                var chain = GuestObjectWriteCollector.chain(of: value) ?? []
                if chain.first == "self" { chain.removeFirst() }
                if chain.count == 1, let object = (unitType == receiver ? references[chain[0]] : nil) ?? parameterObjects[chain[0]] { aliases[name] = object }
            }
        }
        for write in GuestObjectWriteCollector.collect(decl) {
            var names = write.chain
            var owner: Int?
            if names.first == "self" {
                owner = unitType
                names.removeFirst()
            } else if let unitType, storedNames(of: unitType).contains(names[0]), aliases[names[0]] == nil {
                owner = unitType
            }
            guard let first = names.first else { continue }
            let place = "`" + write.chain.joined(separator: ".") + "`"
            // A parameter shadows the stored property of its name.
            if write.chain.first == first, names.count > 1, let object = parameterObjects[first] {
                return (write, "writes \(place) through the parameter `\(first)`, an object of class \(index.types[object].qualifiedName): the module changes a copy of that object, and the write would not reach the app's")
            }
            if owner == receiver, let object = references[first] {
                let objectClass = index.types[object].qualifiedName
                if names.count == 1 {
                    return (write, "assigns \(place), which references an object of class \(objectClass): the module has a copy of that object and cannot make the app's object reference another")
                }
                return (write, "writes \(place) through `\(first)`, which references an object of class \(objectClass): the module changes a copy of that object, and the write would not reach the app's")
            }
            if owner == nil, let object = aliases[first], names.count > 1 {
                let held = references.values.contains(object) && unitType == receiver ? "that the receiver references" : "that a parameter receives"
                return (write, "writes \(place) of `\(first)`, an object of class \(index.types[object].qualifiedName) \(held): the module changes a copy of that object, and the write would not reach the app's")
            }
            if let owner, owner != receiver, classes.contains(owner), storedNames(of: owner).contains(first) {
                let via = references.filter { $0.value == owner }.keys.sorted().map { "the receiver's `\($0)` references it" }
                    + parameters.filter { $0.value == owner }.keys.sorted().map { "the parameter `\($0)` receives it" }
                return (write, "writes \(place) of class \(index.types[owner].qualifiedName), whose object the module receives as a copy (\(via.joined(separator: ", "))): the write would not reach the app's object")
            }
        }
        return nil
    }

    /// The parameters of a function or initializer `decl` (declared in `type`, nil at the top level)
    /// whose type is `X` or `X?` for a class the module receives copies of, by internal name.
    private func copiedObjectParameters(of decl: DeclSyntax, in type: Int?) -> [String: Int] {
        let parameters = decl.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters
            ?? decl.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters ?? []
        var objects: [String: Int] = [:]
        for parameter in parameters {
            let written = parameter.type.as(OptionalTypeSyntax.self)?.wrappedType ?? parameter.type
            guard let identifier = written.as(IdentifierTypeSyntax.self) else { continue }
            let scope = type.map { index.types[$0].path } ?? []
            if let object = index.resolveType(named: identifier.name.text, from: scope).first(where: classes.contains) {
                objects[(parameter.secondName ?? parameter.firstName).text] = object
            }
        }
        return objects
    }

    /// The names in the written type of `type`'s stored property `name` (`BirdSpecies!` → BirdSpecies).
    private func writtenType(of name: String, in type: Int) -> Set<String> {
        for member in index.types[type].members where member.kind == .storedProperty && member.names.contains(name) {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let annotation = variable.bindings.first { $0.pattern.trimmedDescription == name }?.typeAnnotation ?? variable.bindings.compactMap(\.typeAnnotation).last
            return Set(annotation?.type.tokens(viewMode: .sourceAccurate).map(\.text) ?? [])
        }
        return []
    }

    private func storedNames(of type: Int) -> Set<String> {
        guard index.types[type].kind == .classType else { return [] }
        let mirror = reader.receiverMirror(of: type)
        return Set(mirror.fields.map(\.name) + mirror.leftOut.map(\.name))
    }
}
