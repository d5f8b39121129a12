import SwiftSyntax

/// A generic view whose generic parameters are views the parent passes (docs/views.md "Generic
/// views"): `struct Shelf<Content: View>: View { @ViewBuilder var content: Content }`, or a view
/// builder the body calls, `var label: () -> Label`. Its body is one code for every instantiation,
/// so it lowers once, under the type's name without arguments (`PatchNames.viewTypeName`). What the
/// parent passes is native layout the host renders: the shipped thunk passes each such property as
/// a slot (`"op_…": { AnyView(content) }`, `{ AnyView(label()) }`), and the guest instantiates the
/// view with `_PatchOpaque` for every parameter, each property holding (or returning) the opaque
/// node of its slot, so the body's `content.padding(12)` lowers around it.
struct ViewGenericContent {
    /// A stored property whose type is a generic parameter of the view.
    struct Property {
        let name: String
        /// `() -> Label`: a view builder the body calls; otherwise the view itself (`Content`).
        let isBuilder: Bool
        /// The slot the thunk passes: the property's view, as the body evaluates it.
        let slot: ViewToken
        /// `private`/`fileprivate`: the thunk reading it must be in the view's file.
        let isFileScoped: Bool
        let file: Int
        let line: Int
    }

    /// The generic parameters, in declaration order.
    let parameters: [String]
    let properties: [Property]

    /// The one constraint a generic parameter may have: what the guest's `_PatchOpaque` satisfies.
    static let viewConstraints: Set<String> = ["View", "SwiftUI.View"]
    /// The guest's stand-in for every generic parameter (templates/guest/ViewDSL+Slots.swift).
    static let guestArgument = "_PatchOpaque"

    /// The instantiation the guest's exports evaluate: `Shelf<_PatchOpaque>`.
    func instantiated(_ typeName: String) -> String {
        typeName + "<" + parameters.map { _ in Self.guestArgument }.joined(separator: ", ") + ">"
    }

    /// The constraint of the glue's extension, whose initializer fills the properties with opaque nodes.
    var whereClause: String {
        "where " + parameters.map { "\($0) == \(Self.guestArgument)" }.joined(separator: ", ")
    }

    /// What the glue's initializer assigns to a property: the opaque node, or a builder returning it.
    func guestValue(of property: Property) -> String {
        property.isBuilder ? "{ \(property.slot.guestRead) }" : property.slot.guestRead
    }

    /// The generic content of a view type: nil when the type is not generic; a problem naming the
    /// parameter or property when a generic parameter is no view the parent passes (`Row<Item:
    /// Identifiable>`), or a property holds one in a shape the guest cannot stand in for
    /// (`(Model) -> Content`).
    static func of(_ type: Int, in index: GuestSourceIndex) -> Result<ViewGenericContent?, ViewTokenProblem> {
        let entry = index.types[type]
        func problem(_ detail: String, at node: some SyntaxProtocol, in fileIndex: Int? = nil) -> Result<ViewGenericContent?, ViewTokenProblem> {
            let source = index.files[fileIndex ?? entry.file]
            return .failure(ViewTokenProblem(detail: detail, location: GuestSourceLocation(file: source.relativePath, line: source.line(of: node))))
        }
        for length in (1..<max(entry.path.count, 1)).reversed() {
            if let outer = index.lookupType(path: Array(entry.path.prefix(length))), index.types[outer].isGeneric {
                return problem("\(entry.qualifiedName) is nested in the generic type \(index.types[outer].qualifiedName): only a view's own generic parameters lower (as the native views the parent passes)", at: entry.decl)
            }
        }
        guard entry.isGeneric, let decl = entry.decl.as(StructDeclSyntax.self), let clause = decl.genericParameterClause else { return .success(nil) }
        // A conditional conformance (`extension Box: View where Value: View`) constrains them too.
        let conformances = entry.extensions.map(\.decl).filter { $0.inheritanceClause?.inheritedTypes.contains { viewConstraints.contains($0.type.trimmedText) } == true }
        let requirements = Array(clause.genericWhereClause?.requirements ?? []) + Array(decl.genericWhereClause?.requirements ?? [])
            + conformances.flatMap { Array($0.genericWhereClause?.requirements ?? []) }
        var parameters: [String] = []
        for parameter in clause.parameters {
            let name = parameter.name.text
            var constraints = parameter.inheritedType.map { [$0] } ?? []
            for requirement in requirements {
                switch requirement.requirement {
                case .conformanceRequirement(let conformance) where conformance.leftType.trimmedText == name:
                    constraints.append(conformance.rightType)
                case .sameTypeRequirement(let same) where same.leftType.trimmedText == name || same.rightType.trimmedText == name:
                    return problem("generic parameter `\(name)` of \(entry.qualifiedName) is fixed by `\(same.trimmedText)`: only generic parameters that are views the parent passes (`\(name): View`) lower", at: parameter)
                default:
                    continue
                }
            }
            let written = constraints.isEmpty ? name : name + ": " + constraints.map(\.trimmedText).joined(separator: " & ")
            guard parameter.specifier == nil, !constraints.isEmpty,
                  constraints.allSatisfy({ $0.trimmedText.split(separator: "&").allSatisfy { viewConstraints.contains($0.filter { !$0.isWhitespace }) } }) else {
                return problem("generic parameter `\(written)` of \(entry.qualifiedName) is not a view the parent passes: only generic parameters constrained to `View` alone lower (the host renders what the parent passes as a slot); a view generic over a value stays native", at: parameter)
            }
            parameters.append(name)
        }
        var properties: [Property] = []
        for member in entry.members where member.kind == .storedProperty {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let memberFile = index.files[member.file]
            for binding in variable.bindings {
                guard let type = binding.typeAnnotation?.type,
                      let parameter = type.tokens(viewMode: .sourceAccurate).first(where: { parameters.contains($0.text) })?.text else { continue }
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                let wrappers = variable.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedText }.filter { $0 != "ViewBuilder" }
                let isBuilder: Bool
                if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == parameter, identifier.genericArgumentClause == nil {
                    isBuilder = false
                } else if let function = type.as(FunctionTypeSyntax.self), function.parameters.isEmpty, function.effectSpecifiers == nil,
                          function.returnClause.type.as(IdentifierTypeSyntax.self)?.name.text == parameter {
                    isBuilder = true
                } else {
                    return problem("stored property `\(binding.trimmedText)` holds the generic view `\(parameter)` in a shape the guest cannot stand in for: only `\(parameter)` or a view builder without arguments (`() -> \(parameter)`) lower, as the native view the parent passes", at: binding, in: member.file)
                }
                guard let name, wrappers.isEmpty, binding.initializer == nil else {
                    return problem("stored property `\(binding.trimmedText)` of the generic view \(entry.qualifiedName) must be a plain property the parent sets (no pattern, wrapper or default) to lower as the native view the parent passes", at: binding, in: member.file)
                }
                let expression = isBuilder ? SwiftIdentifier.escaped(name) + "()" : SwiftIdentifier.escaped(name)
                properties.append(Property(name: name, isBuilder: isBuilder,
                                           slot: ViewToken(viewPath: entry.path, type: .view, expression: expression, label: name),
                                           isFileScoped: variable.modifiers.isFileScoped, file: member.file, line: memberFile.line(of: binding)))
            }
        }
        return .success(ViewGenericContent(parameters: parameters, properties: properties))
    }
}
