/// Which protocols and typealiases of a project stand for SwiftUI's `View` (or `ViewModifier`): a
/// type conforming to `protocol ThemedView: View` (or to a protocol refining that one, or to
/// `typealias Screen = View`) is a view whose `body` `prepare` routes like any other.
///
/// Names are resolved as Swift finds them for code of a target: its own declarations first, then
/// those of the other targets (the packages it imports); the project's targets do not record which
/// of them a target imports, so any other target's declaration counts.
struct ViewConformance {
    /// A protocol's inherited types, or the components of an alias's type, as written.
    private struct Refinement {
        var target: String
        var names: [String]
    }

    /// Where a protocol extension declares a `body`, by protocol name.
    private var extensionBodies: [String: (file: String, line: Int)] = [:]
    private var refinements: [String: [Refinement]] = [:]

    init(_ targets: [(name: String, scans: [(path: String, scan: FileScan)])]) {
        var protocolNames = Set<String>()
        for target in targets {
            for (_, scan) in target.scans {
                for declared in scan.protocols {
                    let name = declared.path.joined(separator: ".")
                    protocolNames.insert(name)
                    refinements[name, default: []].append(Refinement(target: target.name, names: declared.inheritedTypes))
                }
                for alias in scan.typeAliases {
                    refinements[alias.path.joined(separator: "."), default: []].append(Refinement(target: target.name, names: [alias.aliasedType]))
                }
            }
        }
        for target in targets {
            for (path, scan) in target.scans {
                for body in scan.bodies where body.context.isInExtension {
                    let owner = body.ownerPath.joined(separator: ".")
                    if protocolNames.contains(owner), extensionBodies[owner] == nil { extensionBodies[owner] = (path, body.line) }
                }
            }
        }
    }

    /// Whether a type of `target` that lists `written` among its conformances is a view.
    func isView(_ written: String, in target: String) -> Bool {
        var visited = Set<String>()
        return conforms(written, to: "View", in: target, visited: &visited)
    }

    /// Whether a type of `target` that lists `written` among its conformances is a `ViewModifier`.
    func isViewModifier(_ written: String, in target: String) -> Bool {
        var visited = Set<String>()
        return conforms(written, to: "ViewModifier", in: target, visited: &visited)
    }

    /// Whether a type of `target` that lists `written` among its conformances is `ToolbarContent`
    /// (SwiftUI's `CustomizableToolbarContent` refines it).
    func isToolbarContent(_ written: String, in target: String) -> Bool {
        var visited = Set<String>()
        return conforms(written, to: "ToolbarContent", in: target, visited: &visited)
            || conforms(written, to: "CustomizableToolbarContent", in: target, visited: &visited)
    }

    /// The first of `protocols` (SwiftUI or WidgetKit names: `App`, `PreviewProvider`…) that a type
    /// of `target` listing `written` among its conformances conforms to, directly or through the
    /// project's protocols and typealiases; nil for none.
    func conformance(of written: String, among protocols: [String], in target: String) -> String? {
        protocols.first { name in
            var visited = Set<String>()
            return conforms(written, to: name, in: target, visited: &visited)
        }
    }

    /// The protocol, among those `written` stands for, whose extension gives a conforming type its
    /// `body`, and where that `body` is: a type without a body of its own gets this one.
    func extensionBody(through written: String, in target: String) -> (protocolName: String, file: String, line: Int)? {
        var visited = Set<String>()
        return extensionBody(through: written, in: target, visited: &visited)
    }

    /// `swiftUIProtocol`: the SwiftUI protocol's name, also found spelled `SwiftUI.<name>`.
    private func conforms(_ written: String, to swiftUIProtocol: String, in target: String, visited: inout Set<String>) -> Bool {
        for name in Self.components(of: written) {
            if name == swiftUIProtocol || name == "SwiftUI." + swiftUIProtocol { return true }
            guard visited.insert(name).inserted else { continue }
            for refinement in declarations(of: name, from: target)
            where refinement.names.contains(where: { conforms($0, to: swiftUIProtocol, in: refinement.target, visited: &visited) }) {
                return true
            }
        }
        return false
    }

    private func extensionBody(through written: String, in target: String, visited: inout Set<String>) -> (protocolName: String, file: String, line: Int)? {
        for name in Self.components(of: written) where visited.insert(name).inserted {
            let declarations = declarations(of: name, from: target)
            if !declarations.isEmpty, let body = extensionBodies[name] ?? extensionBodies[Self.unqualified(name)] {
                return (name, body.file, body.line)
            }
            for refinement in declarations {
                for inherited in refinement.names {
                    if let found = extensionBody(through: inherited, in: refinement.target, visited: &visited) { return found }
                }
            }
        }
        return nil
    }

    /// The declarations a name refers to in `target`: the target's own, else the other targets'.
    /// A qualified name (`Kit.ThemedView`) that no declaration's path matches is looked up by its last
    /// component, the module prefix being the usual reason.
    private func declarations(of name: String, from target: String) -> [Refinement] {
        let all = refinements[name] ?? refinements[Self.unqualified(name)] ?? []
        let own = all.filter { $0.target == target }
        return own.isEmpty ? all : own
    }

    /// The protocols a written conformance names: `View&Themed` is two, `Themed<Int>` is `Themed`.
    private static func components(of written: String) -> [String] {
        written.split(separator: "&").map { component in
            String(component.prefix { $0 != "<" })
        }.filter { !$0.isEmpty }
    }

    private static func unqualified(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
