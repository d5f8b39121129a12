/// Renders a validated view tree as an indented outline: one node per line with its payload's values
/// and its modifiers (in application order), sub-trees (children, labels, modifier content, tabs…)
/// indented below. Null optionals are left out; `_N` payload keys show as bare values.
public enum ViewOutline {
    public static func render(_ root: MessagePackValue) -> String {
        var writer = Writer()
        writer.node(root, depth: 0)
        return writer.lines.joined(separator: "\n")
    }

    private struct Writer {
        let schema = ViewSchema.current
        var lines: [String] = []

        mutating func node(_ value: MessagePackValue, depth: Int) {
            guard let (kind, payload) = Self.onlyEntry(value.member("kind")) else { return }
            let kindFields = schema.choices["NodeKind"]?[kind] ?? []
            var line = String(repeating: "  ", count: depth) + kind + inline(kindFields, payload)
            var modifierSections: [(String, [IRField], MessagePackValue)] = []
            if case let .array(modifiers)? = value.member("modifiers") {
                for modifier in modifiers {
                    guard let (name, modifierPayload) = Self.onlyEntry(modifier) else { continue }
                    let fields = schema.choices["Modifier"]?[name] ?? []
                    line += " ." + name + inline(fields, modifierPayload)
                    modifierSections.append((".\(name)", fields, modifierPayload))
                }
            }
            lines.append(line)
            for (prefix, fields, modifierPayload) in modifierSections {
                subtrees(fields, of: modifierPayload, depth: depth + 1, prefix: prefix + " ")
            }
            subtrees(kindFields, of: payload, depth: depth + 1, prefix: "")
        }

        /// The node-holding fields of a payload; `children` sit directly below, others under a heading.
        private mutating func subtrees(_ fields: [IRField], of payload: MessagePackValue, depth: Int, prefix: String) {
            for field in fields where field.type.holdsNodes(in: schema) {
                guard let value = payload.member(field.key), value != .null, value != .array([]) else { continue }
                if field.key == "children" && prefix.isEmpty {
                    section(value, as: field.type, depth: depth)
                } else {
                    lines.append(String(repeating: "  ", count: depth) + prefix + field.key + ":")
                    section(value, as: field.type, depth: depth + 1)
                }
            }
        }

        private mutating func section(_ value: MessagePackValue, as type: IRType, depth: Int) {
            switch (type, value) {
            case (.node, _):
                node(value, depth: depth)
            case let (.optional(wrapped), _):
                section(value, as: wrapped, depth: depth)
            case let (.array(element), .array(items)):
                for item in items {
                    if case .node = element {
                        node(item, depth: depth)
                    } else {
                        lines.append(String(repeating: "  ", count: depth) + "- " + format(item, as: element))
                        section(item, as: element, depth: depth + 1)
                    }
                }
            case let (.structure(name), _):
                subtrees(schema.structs[name] ?? [], of: value, depth: depth, prefix: "")
            case let (.choice(name), _):
                guard let (caseName, payload) = Self.onlyEntry(value) else { return }
                subtrees(schema.choices[name]?[caseName] ?? [], of: payload, depth: depth, prefix: "")
            default:
                break
            }
        }

        /// `(a, key: b)` for the payload's values that are not sub-trees; empty when there are none.
        private func inline(_ fields: [IRField], _ payload: MessagePackValue) -> String {
            let parts = fields.compactMap { field -> String? in
                guard !field.type.holdsNodes(in: schema), let value = payload.member(field.key), value != .null else { return nil }
                let text = format(value, as: field.type)
                return field.key.hasPrefix("_") ? text : "\(field.key): \(text)"
            }
            return parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")"
        }

        private func format(_ value: MessagePackValue, as type: IRType) -> String {
            switch type {
            case .string:
                if case let .string(text) = value { return MessagePackValue.quoted(text) }
            case .double:
                if case let .string(text) = value { return text }
            case let .optional(wrapped):
                return value == .null ? "nil" : format(value, as: wrapped)
            case let .array(element):
                if case let .array(items) = value { return "[" + items.map { format($0, as: element) }.joined(separator: ", ") + "]" }
            case .structure("EventID"):
                if case let .string(id)? = value.member("id") { return "#" + id }
            case let .structure(name):
                let inner = inline(schema.structs[name] ?? [], value)
                return inner.isEmpty ? "{}" : "{" + inner.dropFirst().dropLast() + "}"
            case let .choice(name):
                if let (caseName, payload) = Self.onlyEntry(value) {
                    return caseName + inline(schema.choices[name]?[caseName] ?? [], payload)
                }
            case .rawEnum:
                if case let .string(text) = value { return text }
            case .bool, .int, .node:
                break
            }
            return value.renderJSON(pretty: false)
        }

        private static func onlyEntry(_ value: MessagePackValue?) -> (String, MessagePackValue)? {
            guard case let .map(entries)? = value, entries.count == 1, let entry = entries.first else { return nil }
            return (entry.key, entry.value)
        }
    }
}
