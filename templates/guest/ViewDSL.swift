// Guest view DSL: compiled into modules that ship SwiftUI view bodies (never into function-only
// modules). It mirrors the names and shapes of SwiftUI that a body uses, so a body copied from the
// project compiles unchanged in Embedded Swift, and evaluating it writes the SDK's view IR
// (sdk-contract §5.6.1: `{"kind":{…},"modifiers":[…]}` trees, enums as one-key objects, payload
// labels or `_N`, non-finite Doubles as "inf"/"-inf"/"nan").
//
// No existentials, key paths or Foundation (none compile here): containers are generic over their
// content, a node is written to bytes as soon as it is complete, and a modifier appends its bytes
// to the nodes its content wrote. Button actions are collected in tree order while a body is
// evaluated; `dispatch__<View>` evaluates the body again with the same state and runs the action
// whose id the event names.
//
// Names starting with `_Patch`/`_patch` are the glue's; the rest are SwiftUI's.

typealias CGFloat = Double

// MARK: - IR bytes

/// Bytes of IR JSON under construction.
struct _PatchIR {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// A JSON string, escaped by the prelude's writer (one escaping rule for every guest).
    mutating func string(_ text: String) {
        var writer = _PatchJSONWriter()
        var copy = text
        copy.withUTF8 { writer.writeString($0) }
        bytes.append(contentsOf: writer.bytes.buffer)
    }

    /// A Double as the IR decoder reads it: non-finite values are the strings "inf", "-inf", "nan".
    mutating func number(_ value: Double) {
        if value.isNaN { raw("\"nan\""); return }
        if value.isInfinite { value > 0 ? raw("\"inf\"") : raw("\"-inf\""); return }
        var writer = _PatchJSONWriter()
        writer.writeDouble(value)
        bytes.append(contentsOf: writer.bytes.buffer)
    }

    mutating func optionalNumber(_ value: Double?) {
        if let value { number(value) } else { raw("null") }
    }

    mutating func integer(_ value: Int) {
        var writer = _PatchJSONWriter()
        writer.writeInteger(Int64(value))
        bytes.append(contentsOf: writer.bytes.buffer)
    }

    /// `"key":`
    mutating func key(_ name: StaticString) {
        raw("\"")
        raw(name)
        raw("\":")
    }
}

/// One node of the tree: its kind's JSON and its modifiers' JSON, comma-separated in order.
struct _PatchNode {
    var kind: [UInt8]
    var modifiers: [UInt8] = []

    func write(into ir: inout _PatchIR) {
        ir.raw("{\"kind\":")
        ir.raw(kind)
        ir.raw(",\"modifiers\":[")
        ir.raw(modifiers)
        ir.raw("]}")
    }
}

/// Everything one evaluation of a body produces: the nodes written at the current level, the
/// Button actions in tree order (their ids are `action_<position>`), and coverage counts.
struct _PatchEmission {
    var nodes: [_PatchNode] = []
    var actions: [() -> Void] = []
    var nodeCount = 0
    var modifierCount = 0
    /// The lowest IR schema with every case the tree uses (§5.5): shapes, shape styles and the
    /// modifiers past the base set are version 2.
    var schemaVersion = 1

    mutating func requires(schema version: Int) {
        if version > schemaVersion { schemaVersion = version }
    }

    mutating func append(_ kind: _PatchIR) {
        nodes.append(_PatchNode(kind: kind.bytes))
        nodeCount += 1
    }

    /// Evaluates `content` on its own level and returns its nodes as a JSON array.
    mutating func children<Content: View>(of content: Content) -> [UInt8] {
        let outer = nodes
        nodes = []
        content._patchEmit(into: &self)
        var ir = _PatchIR()
        ir.raw("[")
        for (position, node) in nodes.enumerated() {
            if position > 0 { ir.raw(",") }
            node.write(into: &ir)
        }
        ir.raw("]")
        nodes = outer
        return ir.bytes
    }

    /// Appends a container node, `{"<kind>":{<fields>"children":[…]}}`: `opening` is `{"<kind>":{`,
    /// `fields` writes the container's own fields, each followed by a comma.
    mutating func appendContainer<Content: View>(_ opening: StaticString, content: Content,
                                                 fields: (inout _PatchIR) -> Void = { _ in }) {
        let childNodes = self.children(of: content)
        var ir = _PatchIR()
        ir.raw(opening)
        fields(&ir)
        ir.raw("\"children\":")
        ir.raw(childNodes)
        ir.raw("}}")
        append(ir)
    }

    /// The next Button's action id; the same body with the same state numbers its buttons alike.
    mutating func registerAction(_ action: @escaping () -> Void) -> [UInt8] {
        var ir = _PatchIR()
        ir.raw("action_")
        ir.integer(actions.count)
        actions.append(action)
        return ir.bytes
    }
}

// MARK: - View and builder

protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
    /// Appends this view's nodes to the emission's current level.
    func _patchEmit(into emission: inout _PatchEmission)
}

extension View {
    func _patchEmit(into emission: inout _PatchEmission) {
        body._patchEmit(into: &emission)
    }
}

/// A view the DSL writes itself rather than through a body.
protocol _PatchPrimitiveView: View where Body == Never {}

extension _PatchPrimitiveView {
    var body: Never { fatalError("a primitive view has no body") }
}

extension Never: View {
    typealias Body = Never
    var body: Never { fatalError("Never has no body") }
    func _patchEmit(into emission: inout _PatchEmission) {}
}

struct EmptyView: _PatchPrimitiveView {
    init() {}
    func _patchEmit(into emission: inout _PatchEmission) {}
}

/// Two builder children side by side; longer blocks nest them (`buildPartialBlock`).
struct _PatchPair<First: View, Second: View>: _PatchPrimitiveView {
    let first: First
    let second: Second
    func _patchEmit(into emission: inout _PatchEmission) {
        first._patchEmit(into: &emission)
        second._patchEmit(into: &emission)
    }
}

enum _PatchConditional<TrueContent: View, FalseContent: View>: _PatchPrimitiveView {
    case first(TrueContent)
    case second(FalseContent)
    func _patchEmit(into emission: inout _PatchEmission) {
        switch self {
        case .first(let content): content._patchEmit(into: &emission)
        case .second(let content): content._patchEmit(into: &emission)
        }
    }
}

extension Optional: View where Wrapped: View {
    typealias Body = Never
    var body: Never { fatalError("Optional has no body") }
    func _patchEmit(into emission: inout _PatchEmission) {
        if let wrapped = self { wrapped._patchEmit(into: &emission) }
    }
}

@resultBuilder
enum ViewBuilder {
    static func buildBlock() -> EmptyView { EmptyView() }
    static func buildPartialBlock<Content: View>(first: Content) -> Content { first }
    static func buildPartialBlock<First: View, Next: View>(accumulated: First, next: Next) -> _PatchPair<First, Next> {
        _PatchPair(first: accumulated, second: next)
    }
    static func buildEither<T: View, F: View>(first: T) -> _PatchConditional<T, F> { .first(first) }
    static func buildEither<T: View, F: View>(second: F) -> _PatchConditional<T, F> { .second(second) }
    static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    static func buildLimitedAvailability<Content: View>(_ content: Content) -> Content { content }
}

// MARK: - State

/// Guest-owned state (sdk-contract §5.4): the value lives in a box, so an action closure that
/// captured a copy of the view writes the state the next evaluation reads.
@propertyWrapper
struct State<Value> {
    final class _Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    let _box: _Box

    init(wrappedValue: Value) { _box = _Box(wrappedValue) }
    init(initialValue: Value) { _box = _Box(initialValue) }

    var wrappedValue: Value {
        get { _box.value }
        nonmutating set { _box.value = newValue }
    }

    var projectedValue: Binding<Value> {
        let box = _box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

@propertyWrapper
struct Binding<Value> {
    let _get: () -> Value
    let _set: (Value) -> Void

    init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        _get = get
        _set = set
    }

    /// A binding the guest owns: the parent's value arrives in the inputs, and a change goes back
    /// to the host in the dispatch state, which writes it into the native binding (§5.4).
    init(_patchValue value: Value) {
        let box = State<Value>._Box(value)
        self.init(get: { box.value }, set: { box.value = $0 })
    }

    static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    var wrappedValue: Value {
        get { _get() }
        nonmutating set { _set(newValue) }
    }

    var projectedValue: Binding<Value> { self }
}

// MARK: - Export plumbing

/// The root node of `nodes`: the only one, or a group of them.
private func _patchRoot(_ nodes: [_PatchNode], into ir: inout _PatchIR) {
    if nodes.count == 1 {
        nodes[0].write(into: &ir)
        return
    }
    ir.raw("{\"kind\":{\"group\":{\"children\":[")
    for (position, node) in nodes.enumerated() {
        if position > 0 { ir.raw(",") }
        node.write(into: &ir)
    }
    ir.raw("]}},\"modifiers\":[]}")
}

private func _patchCoverage(_ emission: _PatchEmission, into ir: inout _PatchIR) {
    ir.raw("\"coverage\":{\"totalNodes\":")
    ir.integer(emission.nodeCount)
    ir.raw(",\"opaqueNodes\":0,\"totalModifiers\":")
    ir.integer(emission.modifierCount)
    ir.raw(",\"opaqueModifiers\":0},\"schemaVersion\":")
    ir.integer(emission.schemaVersion)
}

private func _patchResult(_ ir: _PatchIR) -> Int64 {
    var writer = _PatchJSONWriter()
    ir.bytes.withUnsafeBufferPointer { writer.append($0) }
    return writer.packedResult()
}

private func _patchFailure(_ error: _PatchDecodeError) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.writeError(error)
    return writer.packedResult()
}

/// `view_body__<View>`: flat inputs (§5.4) → BodyEmission JSON.
func _patchViewBody<V: View>(_ input: UnsafePointer<UInt8>?, _ length: Int32,
                             _ make: (_PatchJSONValue) throws(_PatchDecodeError) -> V) -> Int64 {
    do throws(_PatchDecodeError) {
        // The host sends `{}` for a view without inputs; an empty buffer means the same.
        let view: V
        if length == 0 {
            let empty: StaticString = "{}"
            view = try make(try _PatchJSONReader.parse(empty.utf8Start, 2))
        } else {
            let inputs = try _PatchJSONReader.parse(input, length)
            guard inputs.isObject else { throw _PatchDecodeError("expected the view's inputs as a JSON object") }
            view = try make(inputs)
        }
        var emission = _PatchEmission()
        view._patchEmit(into: &emission)
        var ir = _PatchIR()
        ir.raw("{\"root\":")
        _patchRoot(emission.nodes, into: &ir)
        ir.raw(",")
        _patchCoverage(emission, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}

/// `dispatch__<View>`: `{"state":"<inputs JSON>","event":{"event":{"id":…},"value":…}}` →
/// DispatchResult. Runs the Button action the event names (none for an unknown id), then writes
/// the view's `@State` fields as the new state and the tree they give.
func _patchViewDispatch<V: View>(_ input: UnsafePointer<UInt8>?, _ length: Int32,
                                 _ make: (_PatchJSONValue) throws(_PatchDecodeError) -> V,
                                 _ writeState: (V, inout _PatchJSONWriter) -> Void) -> Int64 {
    do throws(_PatchDecodeError) {
        let request = try _PatchJSONReader.parse(input, length)
        guard let stateText = try request.member("state").string() else { throw _PatchDecodeError("expected a string", key: "state") }
        guard let eventID = try request.member("event").member("event").member("id").string() else {
            throw _PatchDecodeError("expected a string", key: "id")
        }
        let state = stateText.buffer
        let view: V
        if state.count == 0 {
            let empty: StaticString = "{}"
            view = try make(try _PatchJSONReader.parse(empty.utf8Start, 2))
        } else {
            let inputs = try _PatchJSONReader.parse(state.baseAddress, Int32(state.count))
            guard inputs.isObject else { throw _PatchDecodeError("expected the state as a JSON object", key: "state") }
            view = try make(inputs)
        }
        var before = _PatchEmission()
        view._patchEmit(into: &before)
        let id = eventID.buffer
        let prefix: StaticString = "action_"
        var isAction = id.count > prefix.utf8CodeUnitCount
        for offset in 0..<prefix.utf8CodeUnitCount where isAction && id[offset] != prefix.utf8Start[offset] { isAction = false }
        if isAction {
            var position = 0
            var numeric = true
            for byte in id[prefix.utf8CodeUnitCount...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { numeric = false; break }
                position = position * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if numeric, position < before.actions.count { before.actions[position]() }
        }
        var newState = _PatchJSONWriter()
        writeState(view, &newState)
        var after = _PatchEmission()
        view._patchEmit(into: &after)
        var ir = _PatchIR()
        ir.raw("{\"state\":")
        ir.string(String(decoding: newState.bytes.buffer, as: UTF8.self))
        ir.raw(",\"tree\":")
        _patchRoot(after.nodes, into: &ir)
        ir.raw(",")
        _patchCoverage(after, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}
