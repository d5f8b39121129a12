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
        guard let value = MessagePackValue.parseJSON(bytes) else {
            let preview = String(decoding: bytes.prefix(80), as: UTF8.self)
            throw .invalidOutput(export: export, path: "$", detail: "not JSON (\(bytes.count) bytes: \(preview.debugDescription))")
        }
        return value
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
        try check(value, as: .structure(structure), at: "$", nodeDepth: 0)
        guard let number = value.member("schemaVersion")?.integer else { return }
        // The manifest gate is only "not newer" (§5.2); emissions must also say at least 1 (§5.5).
        let oldest = structure == "ViewManifest" ? nil : ViewSchema.oldestVersion
        guard number <= ViewSchema.newestVersion, number >= oldest ?? Int64.min else {
            let supported = oldest.map { "\($0)…\(ViewSchema.newestVersion)" } ?? "up to \(ViewSchema.newestVersion)"
            throw fail("$.schemaVersion", "schema version \(number) is not supported; this SDK reads IR schema \(supported)")
        }
    }

    /// What the host needs from the tree at `root` of a document that passed `validateDocument`.
    func validated(root: MessagePackValue) -> ValidatedTree {
        ValidatedTree(root: root, nodeCount: nodeCount, modifierCount: modifierCount, events: events,
                      slots: slots, tokens: tokens)
    }

    // MARK: Types

    private mutating func check(_ value: MessagePackValue, as type: IRType, at path: String, nodeDepth: Int) throws(ViewError) {
        switch type {
        case .string:
            guard case .string = value else { throw mismatch(path, "a string", value) }
        case .bool:
            guard case .bool = value else { throw mismatch(path, "true or false", value) }
        case .int:
            guard value.integer != nil else { throw mismatch(path, "an integer", value) }
        case .double:
            switch value {
            case .int, .uint, .double: break
            case let .string(text) where ["inf", "-inf", "nan"].contains(text): break
            default: throw mismatch(path, "a number (or \"inf\", \"-inf\", \"nan\")", value)
            }
        case let .optional(wrapped):
            if value != .null { try check(value, as: wrapped, at: path, nodeDepth: nodeDepth) }
        case let .array(element):
            guard case let .array(elements) = value else { throw mismatch(path, "an array", value) }
            for (index, item) in elements.enumerated() {
                try check(item, as: element, at: "\(path)[\(index)]", nodeDepth: nodeDepth)
            }
        case .node:
            try checkNode(value, at: path, nodeDepth: nodeDepth + 1)
        case let .structure(name):
            try checkFields(schema.structs[name, default: []], of: value, at: path, what: name, nodeDepth: nodeDepth)
            if name == "EventID" { try requireIdentity(value.member("id"), at: "\(path).id", what: "event id") }
        case let .choice(name):
            _ = try checkChoice(value, of: name, at: path, nodeDepth: nodeDepth)
        case let .rawEnum(name):
            guard case let .string(text) = value else { throw mismatch(path, "a string", value) }
            guard schema.rawEnums[name, default: []].contains(text) else {
                throw fail(path, "\"\(text)\" is not a \(name) (one of: \(schema.rawEnums[name, default: []].sorted().joined(separator: " ")))")
            }
        }
    }

    private mutating func checkFields(_ fields: [IRField], of value: MessagePackValue, at path: String, what: String,
                                      nodeDepth: Int) throws(ViewError) {
        guard case .map = value else { throw mismatch(path, "an object (\(what))", value) }
        for field in fields {
            let member = value.member(field.key) ?? .null
            if member == .null {
                if case .optional = field.type { continue }
                throw fail(path, "missing required key \"\(field.key)\" of \(what)")
            }
            try check(member, as: field.type, at: "\(path).\(field.key)", nodeDepth: nodeDepth)
        }
    }

    /// Checks a one-key enum wrapper and its payload; returns the case name and payload.
    private mutating func checkChoice(_ value: MessagePackValue, of name: String, at path: String,
                                      nodeDepth: Int) throws(ViewError) -> (String, MessagePackValue) {
        guard case let .map(entries) = value else { throw mismatch(path, "an object with one key (a \(name) case)", value) }
        guard entries.count == 1, let entry = entries.first else {
            throw fail(path, "a \(name) needs exactly one key, the case name, but has \(entries.count)\(entries.isEmpty ? "" : ": " + entries.map(\.key).joined(separator: ", "))")
        }
        guard let fields = schema.choices[name]?[entry.key] else {
            let what = name == "NodeKind" ? "node kind" : name == "Modifier" ? "modifier" : "\(name) case"
            throw fail(path, "unknown \(what) \"\(entry.key)\" (IR schema \(ViewSchema.newestVersion) has no such case)")
        }
        try checkFields(fields, of: entry.value, at: "\(path).\(entry.key)", what: "\(name).\(entry.key)", nodeDepth: nodeDepth)
        if (name == "ColorRef" && entry.key == "hostToken") || (name == "Modifier" && entry.key == "fontToken") {
            tokens.append(try requireIdentity(entry.value.member("_0"), at: "\(path).\(entry.key)._0", what: "token id"))
        }
        return (entry.key, entry.value)
    }

    // MARK: Nodes

    private mutating func checkNode(_ value: MessagePackValue, at path: String, nodeDepth: Int) throws(ViewError) {
        guard nodeDepth <= limits.nodeDepth else {
            throw fail(path, "view nodes nested deeper than \(limits.nodeDepth) levels")
        }
        guard case .map = value else { throw mismatch(path, "an object (ViewNode)", value) }
        guard let kind = value.member("kind"), kind != .null else { throw fail(path, "missing required key \"kind\" of ViewNode") }
        guard case let .array(modifiers)? = value.member("modifiers") else {
            throw value.member("modifiers").map { mismatch("\(path).modifiers", "an array", $0) }
                ?? fail(path, "missing required key \"modifiers\" of ViewNode (use [] for none)")
        }
        nodeCount += 1
        modifierCount += modifiers.count
        guard nodeCount + modifierCount <= limits.items else {
            throw fail(path, "more than \(limits.items) nodes and modifiers in one tree")
        }
        // The node's own events come before those of its sub-trees (pre-order); a malformed node
        // throws below before they are used.
        collectEvents(kind: kind, modifiers: modifiers, at: path)
        let (kindName, payload) = try checkChoice(kind, of: "NodeKind", at: "\(path).kind", nodeDepth: nodeDepth)
        try checkIdentities(of: kindName, payload, at: "\(path).kind.\(kindName)")
        for (index, modifier) in modifiers.enumerated() {
            _ = try checkChoice(modifier, of: "Modifier", at: "\(path).modifiers[\(index)]", nodeDepth: nodeDepth)
        }
    }

    private mutating func checkIdentities(of kind: String, _ payload: MessagePackValue, at path: String) throws(ViewError) {
        switch kind {
        case "opaque":
            slots.append(try requireIdentity(payload.member("id"), at: "\(path).id", what: "slot id"))
        case "button":
            try requireIdentity(payload.member("actionID"), at: "\(path).actionID", what: "action id")
        case "geometryReader":
            let id = try requireIdentity(payload.member("id"), at: "\(path).id", what: "geometry reader id")
            if let first = geometryReaderPaths[id] {
                throw fail("\(path).id", "geometry reader id \"\(id)\" is also used at \(first); the host re-locates readers by id")
            }
            geometryReaderPaths[id] = "\(path).id"
        default: break
        }
    }

    @discardableResult
    private func requireIdentity(_ value: MessagePackValue?, at path: String, what: String) throws(ViewError) -> String {
        guard case let .string(text)? = value, !text.isEmpty else {
            throw fail(path, "empty \(what): the host matches it against the thunk and dispatch tables")
        }
        return text
    }

    private mutating func collectEvents(kind wrapper: MessagePackValue, modifiers: [MessagePackValue], at path: String) {
        guard case let .map(kindEntries) = wrapper, kindEntries.count == 1, let (kind, payload) = kindEntries.first else { return }
        if let (field, valueKind) = ViewEventSource.nodeEvents[kind], let id = ViewEventSource.eventID(payload.member(field)) {
            events.append(ViewEventSource(id: id, source: kind, valueKind: valueKind, path: "\(path).kind.\(kind).\(field)", payload: payload))
        }
        for (index, modifier) in modifiers.enumerated() {
            guard case let .map(entries) = modifier, entries.count == 1, let (name, modifierPayload) = entries.first else { continue }
            // onDelete/onMove act only when attached to a forEach node (sdk-contract §5.7).
            if ["onDelete", "onMove"].contains(name) && kind != "forEach" { continue }
            for (field, valueKind) in ViewEventSource.modifierEvents[name, default: []] {
                guard let id = ViewEventSource.eventID(modifierPayload.member(field)) else { continue }
                events.append(ViewEventSource(id: id, source: name, valueKind: valueKind,
                                              path: "\(path).modifiers[\(index)].\(name).\(field)", payload: modifierPayload))
            }
        }
    }

    // MARK: Errors

    private func fail(_ path: String, _ detail: String) -> ViewError {
        .invalidOutput(export: export, path: path, detail: detail)
    }

    private func mismatch(_ path: String, _ expected: String, _ found: MessagePackValue) -> ViewError {
        fail(path, "expected \(expected), found \(found.jsonKind)")
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
