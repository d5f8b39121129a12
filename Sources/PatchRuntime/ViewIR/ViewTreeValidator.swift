/// A view document that passed the IR checks, with what the host needs from it.
public struct ValidatedTree: Sendable {
    /// The `ViewNode` at the root, exactly as the guest sent it.
    public let root: MessagePackValue
    public let nodeCount: Int
    public let modifierCount: Int
    /// Everything in the tree that dispatches an event, in document order.
    public let events: [ViewEventSource]
    /// `.opaque` ids: the thunk must supply a native slot for each, or the device demotes the view.
    public let slots: [String]
    /// `hostToken` / `fontToken` ids: the thunk must supply a token for each.
    public let tokens: [String]

    /// The distinct event ids of `events`, in order.
    public var eventIDs: [String] {
        var seen: Set<String> = []
        return events.map(\.id).filter { seen.insert($0).inserted }
    }
}

/// Caps on what one view document of a guest may cost the host, so a hostile module cannot exhaust
/// it. The defaults leave real trees (hundreds of nodes) far below every cap.
public struct ViewLimits: Sendable, Equatable {
    /// Largest document accepted from a guest, in bytes.
    public var documentBytes = 4 << 20
    /// JSON nesting, checked on the bytes before parsing (Foundation's decoder stops at 512 too).
    public var jsonDepth = 512
    /// View nodes nested in one another (children, modifier content and sub-trees all count).
    public var nodeDepth = 64
    /// Nodes plus modifiers in one tree.
    public var items = 50_000

    public init() {}
}

/// Checks guest JSON against IR schema 6 the way the SDK's `Codable` decoder reads it (sdk-contract
/// §5.6.1): required keys present and non-null, one-key enum wrappers with a known case, raw-value
/// enums from their set, integral Ints, Doubles as numbers or "inf"/"-inf"/"nan", unknown struct keys
/// ignored. On top of the decoder it enforces limits (a hostile module must not exhaust the host) and
/// non-empty, unique identity strings. Every error names the JSON path of the offending item.
struct ViewTreeValidator {
    let schema = ViewSchema.current
    let export: String
    let limits: ViewLimits
    private var nodeCount = 0
    private var modifierCount = 0
    private var events: [ViewEventSource] = []
    private var slots: [String] = []
    private var tokens: [String] = []
    private var geometryReaderPaths: [String: String] = [:]
    /// Where the item being checked is. Kept as components and spelled out only for an error or an
    /// event: building the text of every item's path was most of the validator's time.
    private var path = JSONPath()

    init(export: String, limits: ViewLimits = ViewLimits()) {
        self.export = export
        self.limits = limits
    }

    // MARK: Documents

    /// Parses a guest's JSON output, refusing oversized or over-deep documents before the parser sees them.
    func parse(_ bytes: [UInt8]) throws(ViewError) -> MessagePackValue {
        guard bytes.count <= limits.documentBytes else {
            throw .invalidOutput(export: export, path: "$", detail: "\(bytes.count) bytes, over the \(limits.documentBytes)-byte limit")
        }
        if let offset = offsetPastDepthLimit(bytes) {
            throw .invalidOutput(export: export, path: "$", detail: "JSON nested deeper than \(limits.jsonDepth) levels at byte \(offset)")
        }
        do throws(JSONSyntaxError) {
            return try MessagePackValue.readJSON(bytes)
        } catch {
            let preview = String(decoding: bytes.prefix(80), as: UTF8.self)
            throw .invalidOutput(export: export, path: "$", detail: "not JSON at \(error) (\(bytes.count) bytes: \(preview.debugDescription))")
        }
    }

    /// The byte offset where bracket nesting (outside strings) first exceeds the limit, if it does.
    private func offsetPastDepthLimit(_ bytes: [UInt8]) -> Int? {
        var depth = 0, inString = false, escaped = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limits.jsonDepth { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// Checks a whole document (`BodyEmission`, `DispatchResult`, `ViewManifest`) and its optional
    /// `schemaVersion` gate.
    mutating func validateDocument(_ value: MessagePackValue, as structure: String) throws(ViewError) {
        try check(value, as: .structure(structure), nodeDepth: 0)
        guard let number = value.member("schemaVersion")?.integer else { return }
        // The manifest gate is only "not newer" (§5.2); emissions must also say at least 1 (§5.5).
        let oldest = structure == "ViewManifest" ? nil : ViewSchema.oldestVersion
        guard number <= ViewSchema.newestVersion, number >= oldest ?? Int64.min else {
            let supported = oldest.map { "\($0)…\(ViewSchema.newestVersion)" } ?? "up to \(ViewSchema.newestVersion)"
            throw fail("schema version \(number) is not supported; this SDK reads IR schema \(supported)", at: .key("schemaVersion"))
        }
    }

    /// What the host needs from the tree at `root` of a document that passed `validateDocument`.
    func validated(root: MessagePackValue) -> ValidatedTree {
        ValidatedTree(root: root, nodeCount: nodeCount, modifierCount: modifierCount, events: events,
                      slots: slots, tokens: tokens)
    }

    // MARK: Types

    /// Checks `value`, the item at `path`, as `type`.
    private mutating func check(_ value: MessagePackValue, as type: IRType, nodeDepth: Int) throws(ViewError) {
        switch type {
        case .string:
            guard case .string = value else { throw mismatch("a string", value) }
        case .bool:
            guard case .bool = value else { throw mismatch("true or false", value) }
        case .int:
            guard value.integer != nil else { throw mismatch("an integer", value) }
        case .double:
            switch value {
            case .int, .uint, .double: break
            case let .string(text) where ["inf", "-inf", "nan"].contains(text): break
            default: throw mismatch("a number (or \"inf\", \"-inf\", \"nan\")", value)
            }
        case let .optional(wrapped):
            if value != .null { try check(value, as: wrapped, nodeDepth: nodeDepth) }
        case let .array(element):
            guard case let .array(elements) = value else { throw mismatch("an array", value) }
            for (index, item) in elements.enumerated() {
                path.enter(.index(index))
                defer { path.leave() }
                try check(item, as: element, nodeDepth: nodeDepth)
            }
        case .node:
            try checkNode(value, nodeDepth: nodeDepth + 1)
        case let .structure(name):
            try checkFields(schema.structs[name, default: []], of: value, what: name, nodeDepth: nodeDepth)
            if name == "EventID" { try requireIdentity(value.member("id"), at: .key("id"), what: "event id") }
        case let .choice(name):
            _ = try checkChoice(value, of: name, nodeDepth: nodeDepth)
        case let .rawEnum(name):
            guard case let .string(text) = value else { throw mismatch("a string", value) }
            guard schema.rawEnums[name, default: []].contains(text) else {
                throw fail("\"\(text)\" is not a \(name) (one of: \(schema.rawEnums[name, default: []].sorted().joined(separator: " ")))")
            }
        }
    }

    private mutating func checkFields(_ fields: [IRField], of value: MessagePackValue, what: String,
                                      nodeDepth: Int) throws(ViewError) {
        guard case .map = value else { throw mismatch("an object (\(what))", value) }
        for field in fields {
            let member = value.member(field.key) ?? .null
            if member == .null {
                if case .optional = field.type { continue }
                throw fail("missing required key \"\(field.key)\" of \(what)")
            }
            path.enter(.key(field.key))
            defer { path.leave() }
            try check(member, as: field.type, nodeDepth: nodeDepth)
        }
    }

    /// Checks a one-key enum wrapper and its payload; returns the case name and payload.
    private mutating func checkChoice(_ value: MessagePackValue, of name: String,
                                      nodeDepth: Int) throws(ViewError) -> (String, MessagePackValue) {
        guard case let .map(entries) = value else { throw mismatch("an object with one key (a \(name) case)", value) }
        guard entries.count == 1, let entry = entries.first else {
            throw fail("a \(name) needs exactly one key, the case name, but has \(entries.count)\(entries.isEmpty ? "" : ": " + entries.map(\.key).joined(separator: ", "))")
        }
        guard let fields = schema.choices[name]?[entry.key] else {
            let what = name == "NodeKind" ? "node kind" : name == "Modifier" ? "modifier" : "\(name) case"
            throw fail("unknown \(what) \"\(entry.key)\" (IR schema \(ViewSchema.newestVersion) has no such case)")
        }
        path.enter(.key(entry.key))
        defer { path.leave() }
        try checkFields(fields, of: entry.value, what: "\(name).\(entry.key)", nodeDepth: nodeDepth)
        if (name == "ColorRef" && entry.key == "hostToken") || (name == "Modifier" && entry.key == "fontToken") {
            tokens.append(try requireIdentity(entry.value.member("_0"), at: .key("_0"), what: "token id"))
        }
        return (entry.key, entry.value)
    }

    // MARK: Nodes

    private mutating func checkNode(_ value: MessagePackValue, nodeDepth: Int) throws(ViewError) {
        guard nodeDepth <= limits.nodeDepth else {
            throw fail("view nodes nested deeper than \(limits.nodeDepth) levels")
        }
        guard case .map = value else { throw mismatch("an object (ViewNode)", value) }
        guard let kind = value.member("kind"), kind != .null else { throw fail("missing required key \"kind\" of ViewNode") }
        guard case let .array(modifiers)? = value.member("modifiers") else {
            throw value.member("modifiers").map { mismatch("an array", $0, at: .key("modifiers")) }
                ?? fail("missing required key \"modifiers\" of ViewNode (use [] for none)")
        }
        nodeCount += 1
        modifierCount += modifiers.count
        guard nodeCount + modifierCount <= limits.items else {
            throw fail("more than \(limits.items) nodes and modifiers in one tree")
        }
        // The node's own events come before those of its sub-trees (pre-order); a malformed node
        // throws below before they are used.
        collectEvents(kind: kind, modifiers: modifiers)
        do {
            path.enter(.key("kind"))
            defer { path.leave() }
            let (kindName, payload) = try checkChoice(kind, of: "NodeKind", nodeDepth: nodeDepth)
            path.enter(.key(kindName))
            defer { path.leave() }
            try checkIdentities(of: kindName, payload)
        }
        path.enter(.key("modifiers"))
        defer { path.leave() }
        for (index, modifier) in modifiers.enumerated() {
            path.enter(.index(index))
            defer { path.leave() }
            _ = try checkChoice(modifier, of: "Modifier", nodeDepth: nodeDepth)
        }
    }

    private mutating func checkIdentities(of kind: String, _ payload: MessagePackValue) throws(ViewError) {
        switch kind {
        case "opaque":
            slots.append(try requireIdentity(payload.member("id"), at: .key("id"), what: "slot id"))
        case "button":
            try requireIdentity(payload.member("actionID"), at: .key("actionID"), what: "action id")
        case "geometryReader":
            let id = try requireIdentity(payload.member("id"), at: .key("id"), what: "geometry reader id")
            if let first = geometryReaderPaths[id] {
                throw fail("geometry reader id \"\(id)\" is also used at \(first); the host re-locates readers by id", at: .key("id"))
            }
            geometryReaderPaths[id] = path.text(then: .key("id"))
        default: break
        }
    }

    /// The identity string `value`, found under `component` of the item being checked.
    @discardableResult
    private func requireIdentity(_ value: MessagePackValue?, at component: JSONPath.Component, what: String) throws(ViewError) -> String {
        guard case let .string(text)? = value, !text.isEmpty else {
            throw fail("empty \(what): the host matches it against the thunk and dispatch tables", at: component)
        }
        return text
    }

    private mutating func collectEvents(kind wrapper: MessagePackValue, modifiers: [MessagePackValue]) {
        guard case let .map(kindEntries) = wrapper, kindEntries.count == 1, let (kind, payload) = kindEntries.first else { return }
        if let (field, valueKind) = ViewEventSource.nodeEvents[kind], let id = ViewEventSource.eventID(payload.member(field)) {
            events.append(ViewEventSource(id: id, source: kind, valueKind: valueKind, path: path.text(then: .key("kind"), .key(kind), .key(field)),
                                          payload: payload))
        }
        for (index, modifier) in modifiers.enumerated() {
            guard case let .map(entries) = modifier, entries.count == 1, let (name, modifierPayload) = entries.first else { continue }
            // onDelete/onMove act only when attached to a forEach node (sdk-contract §5.7).
            if ["onDelete", "onMove"].contains(name) && kind != "forEach" { continue }
            for (field, valueKind) in ViewEventSource.modifierEvents[name, default: []] {
                guard let id = ViewEventSource.eventID(modifierPayload.member(field)) else { continue }
                events.append(ViewEventSource(id: id, source: name, valueKind: valueKind,
                                              path: path.text(then: .key("modifiers"), .index(index), .key(name), .key(field)),
                                              payload: modifierPayload))
            }
        }
    }

    // MARK: Errors

    /// An error at the item being checked, or at `components` under it.
    private func fail(_ detail: String, at components: JSONPath.Component...) -> ViewError {
        .invalidOutput(export: export, path: path.text(then: components), detail: detail)
    }

    private func mismatch(_ expected: String, _ found: MessagePackValue, at components: JSONPath.Component...) -> ViewError {
        .invalidOutput(export: export, path: path.text(then: components), detail: "expected \(expected), found \(found.jsonKind)")
    }
}

extension MessagePackValue {
    /// The value under `key` when this is a map.
    func member(_ key: String) -> MessagePackValue? {
        guard case let .map(entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value as an integer when it is one (integral doubles too: Foundation decodes `3.0` as an Int).
    var integer: Int64? {
        switch self {
        case let .int(number): return number
        case let .uint(number): return Int64(exactly: number)
        case let .double(number): return Int64(exactly: number)
        default: return nil
        }
    }

    /// What kind of JSON value this is, for error messages.
    var jsonKind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .uint, .double: return "a number"
        case let .string(text): return "the string \(text.prefix(40).debugDescription)"
        case .binary: return "binary data"
        case .array: return "an array"
        case .map: return "an object"
        }
    }
}

/// A JSON path (`$.root.kind.vstack.children[2]`) as a stack of components.
struct JSONPath {
    enum Component {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    mutating func enter(_ component: Component) { components.append(component) }
    mutating func leave() { components.removeLast() }

    /// The path's text, with `more` appended.
    func text(then more: Component...) -> String { text(then: more) }

    func text(then more: [Component]) -> String {
        var text = "$"
        for component in components + more {
            switch component {
            case let .key(key): text += ".\(key)"
            case let .index(index): text += "[\(index)]"
            }
        }
        return text
    }
}
