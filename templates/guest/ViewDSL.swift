// Guest view DSL: compiled into modules that ship SwiftUI view bodies (never into function-only
// modules). It mirrors the names and shapes of SwiftUI that a body uses, so a body copied from the
// project compiles unchanged in Embedded Swift, and evaluating it writes the SDK's view IR
// (sdk-contract §5.6.1: `{"kind":{…},"modifiers":[…]}` trees, enums as one-key objects, payload
// labels or `_N`, non-finite Doubles as "inf"/"-inf"/"nan").
//
// No existentials, key paths or Foundation (none compile here): containers are generic over their
// content, a node is written to bytes as soon as it is complete, and a modifier appends its bytes
// to the nodes its content wrote. The events of the tree (Button actions, control edits,
// gestures, presentations) are collected in tree order while a body is evaluated;
// `dispatch__<View>` evaluates the body again with the same state and runs the update of the event
// its request names with the event's value.
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

/// An event the tree sends (sdk-contract §5.6.6): its id, and the update it makes with the
/// event's IRValue (§5.6.3, e.g. `{"bool":{"_0":true}}`).
struct _PatchEvent {
    let id: [UInt8]
    let update: (_PatchJSONValue) throws(_PatchDecodeError) -> Void
}

/// The `_0` payload of an event value of IRValue case `name`; another case is a decoding error.
func _patchEventValue(_ value: _PatchJSONValue, _ name: StaticString) throws(_PatchDecodeError) -> _PatchJSONValue {
    let payload = try value.member(name)
    guard payload.isObject else { throw _PatchDecodeError("the event's value is not an IRValue of the case the control sends", key: name) }
    return try payload.member("_0")
}

/// Everything one evaluation of a body produces: the nodes written at the current level, the
/// events in tree order, and coverage counts.
struct _PatchEmission {
    var nodes: [_PatchNode] = []
    var events: [_PatchEvent] = []
    /// How many events have a position id (`action_<n>`) so far.
    var positionedEvents = 0
    /// While a Picker evaluates its content: the views `.tag(_:)` marked, as IRPickerOption JSON.
    var taggedOptions: [[UInt8]]?
    /// While an alert's or a confirmation dialog's actions are evaluated: their presented flag,
    /// which a tap on any of their buttons clears, as SwiftUI dismisses them.
    var dismissedByActions: Binding<Bool>?
    /// The `onDismiss` of each presentation shown in this evaluation, run by the dispatch when the
    /// event's update cleared its flag (by the host's dismissal event or by a button, as SwiftUI
    /// runs it for any dismissal).
    var onDismiss: [(isPresented: Binding<Bool>, action: () -> Void)] = []
    /// The `.onChange(of:)` watchers of this evaluation: each compares its value with the one it
    /// saw and runs its action when they differ; the dispatch runs them after the event's update
    /// (ViewDSL+Lifecycle.swift).
    var changeWatchers: [() -> Void] = []
    /// The source sites of the GeometryReaders written so far, one entry per reader: a repeated
    /// site (rows of a ForEach) gets its occurrence in its id (ViewDSL+Geometry.swift).
    var geometrySites: [[UInt8]] = []
    var nodeCount = 0
    /// Of `nodeCount`, the `opaque` nodes: native views the host fills from the thunk's slots.
    var opaqueNodeCount = 0
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

    /// Appends `{"opaque":{"id":…,"label":…}}`, a native view the host puts in from the slot `id`
    /// the thunk passes (sdk-contract §5.1, §5.6.4), counted as opaque in the coverage.
    mutating func appendOpaque(id: StaticString, label: StaticString) {
        var ir = _PatchIR()
        ir.raw("{\"opaque\":{\"id\":\"")
        ir.raw(id)
        ir.raw("\",\"label\":\"")
        ir.raw(label)
        ir.raw("\"}}")
        append(ir)
        opaqueNodeCount += 1
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

    /// Registers an event and returns its id: `name` when given, else `action_<n>`, its position
    /// among the events without a name (the same body with the same state numbers them alike).
    mutating func registerEvent(named name: StaticString? = nil,
                                _ update: @escaping (_PatchJSONValue) throws(_PatchDecodeError) -> Void) -> [UInt8] {
        var ir = _PatchIR()
        if let name {
            ir.raw(name)
        } else {
            ir.raw("action_")
            ir.integer(positionedEvents)
            positionedEvents += 1
        }
        events.append(_PatchEvent(id: ir.bytes, update: update))
        return ir.bytes
    }

    /// A Button's or a gesture's action, sent with `{"none":{}}`. Inside an alert's or a dialog's
    /// actions it also dismisses the presentation.
    mutating func registerAction(_ action: @escaping () -> Void) -> [UInt8] {
        if let presented = dismissedByActions {
            return registerEvent { _ throws(_PatchDecodeError) in
                presented.wrappedValue = false
                action()
            }
        }
        return registerEvent { _ throws(_PatchDecodeError) in action() }
    }

    /// A control's edit: the event writes the value `decode` reads from the event through
    /// `binding`. Its id is the name of the view's `@State`/`@Binding` field the binding comes
    /// from (§5.6.7: the engine's ids), else a position id.
    mutating func registerBinding<Value>(_ binding: Binding<Value>,
                                         _ decode: @escaping (_PatchJSONValue) throws(_PatchDecodeError) -> Value) -> [UInt8] {
        registerEvent(named: binding._name) { value throws(_PatchDecodeError) in
            binding.wrappedValue = try decode(value)
        }
    }
}

extension _PatchIR {
    /// An EventID, `{"id":"…"}` (ids are identifiers or `action_<n>`: nothing to escape).
    mutating func eventID(_ id: [UInt8]) {
        raw("{\"id\":\"")
        raw(id)
        raw("\"}")
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
///
/// A pair emits through a function made when it is built, not by calling its children's
/// `_patchEmit` from its own: the optimizer's guard against endless specialization refuses a
/// pair's specialization when two pairs above it on the call chain hold a smaller type in the
/// same place (its `Text("d").bold()` "grew" from their `Text`), and in Embedded Swift an unspecialized
/// call does not compile ("cannot specialize generic function … in this context", e.g. for
/// `VStack { HStack { Text("c"); Text("d").bold(); Text("e") }; Text("f") }`). Made in `init`,
/// which the builder calls from the (non-generic) body, the function's chain starts there, so
/// nesting depth no longer adds up. It captures nothing: no allocation per pair.
struct _PatchPair<First: View, Second: View>: _PatchPrimitiveView {
    let first: First
    let second: Second
    private let emit: (_PatchPair, inout _PatchEmission) -> Void

    init(first: First, second: Second) {
        self.first = first
        self.second = second
        emit = { pair, emission in
            pair.first._patchEmit(into: &emission)
            pair.second._patchEmit(into: &emission)
        }
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emit(self, &emission)
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
        /// The view's field this state is, when the glue named it (`init(_patchInputs:)`).
        var name: StaticString?
        init(_ value: Value) { self.value = value }
    }

    let _box: _Box

    init(wrappedValue: Value) { _box = _Box(wrappedValue) }
    init(initialValue: Value) { _box = _Box(initialValue) }

    /// Names the state after the view's field, so the controls bound to it send that id.
    func _patchNamed(_ name: StaticString) { _box.name = name }

    var wrappedValue: Value {
        get {
            _patchNoteRead(_box.name)
            return _box.value
        }
        nonmutating set { _box.value = newValue }
    }

    var projectedValue: Binding<Value> {
        let box = _box
        return Binding(get: { box.value }, set: { box.value = $0 }, name: box.name)
    }
}

@propertyWrapper
struct Binding<Value> {
    let _get: () -> Value
    let _set: (Value) -> Void
    /// The `@State`/`@Binding` field of the lowered view the value lives in, if any: the id of the
    /// events that write it and the `presentedKey` of presentations.
    let _name: StaticString?

    init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.init(get: get, set: set, name: nil)
    }

    fileprivate init(get: @escaping () -> Value, set: @escaping (Value) -> Void, name: StaticString?) {
        _get = get
        _set = set
        _name = name
    }

    /// A binding the guest owns: the parent's value arrives in the inputs as the view's field
    /// `name`, and a change goes back to the host in the dispatch state, which writes it into the
    /// native binding (§5.4).
    init(_patchValue value: Value, name: StaticString) {
        let box = State<Value>._Box(value)
        self.init(get: { box.value }, set: { box.value = $0 }, name: name)
    }

    static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    var wrappedValue: Value {
        get {
            _patchNoteRead(_name)
            return _get()
        }
        nonmutating set { _set(newValue) }
    }

    var projectedValue: Binding<Value> { self }
}

// MARK: - Tags

/// A value `.tag(_:)` gives a view for a selection: the IR's selections are Int or String
/// (§5.6.2 IRPickerOption, §5.6.3 IRSelectionKind).
protocol _PatchTag {
    /// The IRSelectionKind.
    static var _kind: StaticString { get }
    /// The IRValue, `{"int":{"_0":3}}` or `{"string":{"_0":"x"}}`.
    func _writeIRValue(into ir: inout _PatchIR)
    /// Reads the tag an event sends (the option's tag, §5.6.6).
    init(_patchEvent value: _PatchJSONValue) throws(_PatchDecodeError)
}

extension Int: _PatchTag {
    static var _kind: StaticString { "int" }
    func _writeIRValue(into ir: inout _PatchIR) {
        ir.raw("{\"int\":{\"_0\":")
        ir.integer(self)
        ir.raw("}}")
    }
    init(_patchEvent value: _PatchJSONValue) throws(_PatchDecodeError) {
        self = try Int(_patchJSON: try _patchEventValue(value, "int"))
    }
}

extension String: _PatchTag {
    static var _kind: StaticString { "string" }
    func _writeIRValue(into ir: inout _PatchIR) {
        ir.raw("{\"string\":{\"_0\":")
        ir.string(self)
        ir.raw("}}")
    }
    init(_patchEvent value: _PatchJSONValue) throws(_PatchDecodeError) {
        self = try String(_patchJSON: try _patchEventValue(value, "string"))
    }
}

/// `content.tag(tag)`: inside a Picker, each node the content writes is an option with that tag
/// (labelled by the node as written so far); elsewhere the tag changes nothing.
struct _PatchTagged<Content: View, Tag: _PatchTag>: _PatchPrimitiveView {
    let _content: Content
    let _tag: Tag

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        guard emission.taggedOptions != nil else { return }
        for node in emission.nodes[first...] {
            var ir = _PatchIR()
            ir.raw("{\"tag\":")
            _tag._writeIRValue(into: &ir)
            ir.raw(",\"label\":[")
            node.write(into: &ir)
            ir.raw("]}")
            emission.taggedOptions?.append(ir.bytes)
        }
    }
}

extension View {
    func tag<V: _PatchTag>(_ tag: V) -> _PatchTagged<Self, V> { _PatchTagged(_content: self, _tag: tag) }
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

/// Whether `tree` holds a host token (`{"hostToken":` in a ColorRef, `{"fontToken":` as a
/// modifier), which are IR v4 (§5.5). Colors and fonts are written into nodes, modifiers, shape
/// styles and gradients of every part of the DSL, so the finished tree is searched once rather than
/// each of those carrying a version. A match is always a case: a quote inside a JSON string is escaped.
private func _patchHasHostToken(_ tree: ArraySlice<UInt8>) -> Bool {
    let color: StaticString = "{\"hostToken\":"
    let font: StaticString = "{\"fontToken\":"
    func matches(_ pattern: StaticString, at start: Int) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard start + count <= tree.endIndex else { return false }
        for offset in 0..<count where tree[start + offset] != pattern.utf8Start[offset] { return false }
        return true
    }
    for start in tree.indices where tree[start] == UInt8(ascii: "{") {
        if matches(color, at: start) || matches(font, at: start) { return true }
    }
    return false
}

/// The emission's coverage and schema version, after the tree it wrote from `treeStart` on in `ir`.
private func _patchCoverage(_ emission: _PatchEmission, treeStart: Int, into ir: inout _PatchIR) {
    var emission = emission
    if _patchHasHostToken(ir.bytes[treeStart...]) { emission.requires(schema: 4) }
    ir.raw("\"coverage\":{\"totalNodes\":")
    ir.integer(emission.nodeCount)
    ir.raw(",\"opaqueNodes\":")
    ir.integer(emission.opaqueNodeCount)
    ir.raw(",\"totalModifiers\":")
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
        let treeStart = ir.bytes.count
        _patchRoot(emission.nodes, into: &ir)
        ir.raw(",")
        _patchCoverage(emission, treeStart: treeStart, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}

/// `dispatch__<View>`: `{"state":"<inputs JSON>","event":{"event":{"id":…},"value":…}}` →
/// DispatchResult. Runs the update of the event the request names with its value (none for an
/// unknown id), then writes the view's `@State` fields as the new state and the tree they give.
func _patchViewDispatch<V: View>(_ input: UnsafePointer<UInt8>?, _ length: Int32,
                                 _ make: (_PatchJSONValue) throws(_PatchDecodeError) -> V,
                                 _ writeState: (V, inout _PatchJSONWriter) -> Void) -> Int64 {
    do throws(_PatchDecodeError) {
        let request = try _PatchJSONReader.parse(input, length)
        guard let stateText = try request.member("state").string() else { throw _PatchDecodeError("expected a string", key: "state") }
        let event = try request.member("event")
        guard let eventID = try event.member("event").member("id").string() else {
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
        // Several controls bound to one field share its id and write it alike: the first runs.
        if let match = before.events.first(where: { $0.id.elementsEqual(id) }) {
            try match.update(try event.member("value"))
        }
        for dismissal in before.onDismiss where !dismissal.isPresented.wrappedValue { dismissal.action() }
        for watcher in before.changeWatchers { watcher() }
        var newState = _PatchJSONWriter()
        writeState(view, &newState)
        var after = _PatchEmission()
        view._patchEmit(into: &after)
        var ir = _PatchIR()
        ir.raw("{\"state\":")
        ir.string(String(decoding: newState.bytes.buffer, as: UTF8.self))
        ir.raw(",\"tree\":")
        let treeStart = ir.bytes.count
        _patchRoot(after.nodes, into: &ir)
        ir.raw(",")
        _patchCoverage(after, treeStart: treeStart, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}
