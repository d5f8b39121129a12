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

/// The bytes of one `_PatchIR`: a header and the bytes in one allocation.
struct _PatchIRHeader {
    var count: Int
    var capacity: Int
}

/// Bytes of IR JSON under construction.
///
/// Its own buffer rather than `[UInt8]`: in Embedded Swift for wasm, Array's appends and growth
/// copy byte by byte (about 370 interpreted operators per byte of a ~200-node tree, most of a
/// render), while a run appended here is one `memory.copy`. Copies share the bytes until one of
/// them appends (copy on write), so a kind built once (`Text`) is stored in its node uncopied.
struct _PatchIR {
    private var storage: ManagedBuffer<_PatchIRHeader, UInt8>?

    init() {}

    /// An IR with room for `capacity` bytes: one allocation for output whose size is known.
    init(capacity: Int) {
        storage = _PatchIR.allocate(capacity)
    }

    private static func allocate(_ capacity: Int) -> ManagedBuffer<_PatchIRHeader, UInt8> {
        ManagedBuffer<_PatchIRHeader, UInt8>.create(minimumCapacity: capacity) { _ in
            _PatchIRHeader(count: 0, capacity: capacity)
        }
    }

    var count: Int { storage?.header.count ?? 0 }

    var isEmpty: Bool { count == 0 }

    /// Calls `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let storage else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return storage.withUnsafeMutablePointers { header, bytes in
            body(UnsafeBufferPointer(start: bytes, count: header.pointee.count))
        }
    }

    /// The bytes as an Array (one copy), for the values that keep IR as `[UInt8]`.
    var bytes: [UInt8] {
        withBytes { run in
            [UInt8](unsafeUninitializedCapacity: run.count) { buffer, initialized in
                initialized = _patchCopy(run, to: buffer.baseAddress.unsafelyUnwrapped)
            }
        }
    }

    /// Lets `write` put up to `maximum` bytes after the ones written so far and returns how many
    /// it wrote: one capacity check for a run built in place.
    mutating func append(upTo maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        let target = tail(reserving: maximum)
        storage.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.count &+= write(target) }
    }

    /// Where `extra` more bytes go, in a buffer with room for them that this IR alone holds. The
    /// common case (a buffer of its own with room) is a few loads: every `raw` goes through here.
    private mutating func tail(reserving extra: Int) -> UnsafeMutablePointer<UInt8> {
        if isKnownUniquelyReferenced(&storage) {
            let buffer = storage.unsafelyUnwrapped
            let count = buffer.header.count
            if count &+ extra <= buffer.header.capacity {
                return buffer.withUnsafeMutablePointerToElements { $0 + count }
            }
        }
        return grow(reserving: extra)
    }

    /// Moves the bytes to a new buffer with room for `extra` more and returns where they go. It
    /// doubles (appending stays linear) from 128 bytes, which hold a Button or a padding without
    /// growing: an allocation costs the same whatever its size. A buffer another IR shares is
    /// copied the same way.
    @inline(never)
    private mutating func grow(reserving extra: Int) -> UnsafeMutablePointer<UInt8> {
        let count = self.count
        var grownCapacity = Swift.max(storage?.header.capacity ?? 0, 128)
        while grownCapacity < count &+ extra { grownCapacity &*= 2 }
        let grown = _PatchIR.allocate(grownCapacity)
        grown.withUnsafeMutablePointerToElements { target in
            _ = withBytes { _patchCopy($0, to: target) }
        }
        grown.header.count = count
        storage = grown
        return grown.withUnsafeMutablePointerToElements { $0 + count }
    }

    /// Makes room for `extra` more bytes: one allocation for output whose size is known.
    mutating func reserve(_ extra: Int) {
        append(upTo: extra) { _ in 0 }
    }

    /// Appends a run of bytes with one copy.
    mutating func raw(_ run: UnsafeBufferPointer<UInt8>) {
        guard run.count > 0 else { return }
        let target = tail(reserving: run.count)
        storage.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.count &+= _patchCopy(run, to: target) }
    }

    mutating func raw(_ text: StaticString) {
        raw(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ other: [UInt8]) {
        other.withUnsafeBufferPointer { raw($0) }
    }

    mutating func raw(_ other: _PatchIR) {
        other.withBytes { raw($0) }
    }

    /// A JSON string of UTF-8 bytes, escaped by the prelude's rule (one escaping rule for every guest).
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(upTo: _patchEscapedCapacity(utf8.count)) { target in _patchWriteJSONString(utf8, to: target) }
    }

    /// The bytes of `text`, for a kind or modifier that never changes: kept in a `static let`, its
    /// nodes share one buffer (copy on write) instead of allocating and freeing one each.
    init(constant text: StaticString) {
        self.init(capacity: text.utf8CodeUnitCount)
        raw(text)
    }

    /// `opening`, `text` as a JSON string, `closing`: a kind of one string (`Text`) in one
    /// allocation of the size it needs and one write.
    init(_ opening: StaticString, string text: String, _ closing: StaticString) {
        var copy = text
        self = copy.withUTF8 { utf8 in
            let count = opening.utf8CodeUnitCount &+ _patchEscapedCapacity(utf8.count) &+ closing.utf8CodeUnitCount
            var ir = _PatchIR(capacity: count)
            ir.append(upTo: count) { target in
                var written = _patchCopy(opening, to: target)
                written &+= _patchWriteJSONString(utf8, to: target + written)
                return written &+ _patchCopy(closing, to: target + written)
            }
            return ir
        }
    }

    mutating func string(_ text: String) {
        // withUTF8 is mutating (it makes a non-contiguous String contiguous first), hence the copy.
        var copy = text
        copy.withUTF8 { string($0) }
    }

    /// A Double as the IR decoder reads it: non-finite values are the strings "inf", "-inf", "nan".
    mutating func number(_ value: Double) {
        if value.isNaN { raw("\"nan\""); return }
        if value.isInfinite { value > 0 ? raw("\"inf\"") : raw("\"-inf\""); return }
        // Whole numbers (spacings, paddings, sizes) are written as integers, as the prelude's
        // writer writes them (`12.0` → `12`), without formatting the Double. Below 1e15 the
        // description has no exponent; -0 keeps its sign through the writer.
        if value == value.rounded(.towardZero), value.magnitude < 1e15, value != 0 || value.sign == .plus {
            integer(Int64(value))
            return
        }
        var writer = _PatchJSONWriter()
        writer.writeDouble(value)
        raw(writer.bytes.buffer)
    }

    mutating func optionalNumber(_ value: Double?) {
        if let value { number(value) } else { raw("null") }
    }

    mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// Most significant digit first, in place.
    mutating func integer(_ value: Int64) {
        append(upTo: 20) { target in
            var written = 0
            if value < 0 {
                target[0] = UInt8(ascii: "-")
                written = 1
            }
            let magnitude = value.magnitude
            var divisor: UInt64 = 1
            while magnitude / divisor >= 10 { divisor &*= 10 }
            repeat {
                target[written] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / divisor % 10)
                written &+= 1
                divisor /= 10
            } while divisor != 0
            return written
        }
    }

    /// `"key":`
    mutating func key(_ name: StaticString) {
        raw("\"")
        raw(name)
        raw("\":")
    }
}

/// Copies `run` to `target` (one `memory.copy`) and returns its length.
@inline(__always)
func _patchCopy(_ run: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> Int {
    if let source = run.baseAddress { UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: run.count) }
    return run.count
}

@inline(__always)
func _patchCopy(_ text: StaticString, to target: UnsafeMutablePointer<UInt8>) -> Int {
    _patchCopy(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), to: target)
}

extension _PatchIR: Equatable {
    static func == (left: _PatchIR, right: _PatchIR) -> Bool {
        left.withBytes { left in right.withBytes { right in left.elementsEqual(right) } }
    }
}

/// One node of the tree: its kind's JSON and its modifiers' JSON, comma-separated in order.
struct _PatchNode {
    var kind: _PatchIR
    var modifiers = _PatchIR()

    /// How many bytes `write` writes at most: the runs around the kind and the modifiers, and
    /// the comma before a sibling.
    var writtenCount: Int { kind.count &+ modifiers.count &+ 25 }

    /// `{"kind":…,"modifiers":[…]}`, after a comma when it follows a sibling: the runs copied
    /// after one capacity check. Mutating though it changes nothing, so that a node in an array
    /// is written in place: a non-mutating call on an element copies it, a retain and a release
    /// of each of its buffers (7 % of a 200-node render).
    mutating func write(into ir: inout _PatchIR, afterSibling: Bool = false) {
        ir.append(upTo: writtenCount) { target in
            var written = afterSibling ? _patchCopy(",", to: target) : 0
            written &+= _patchCopy("{\"kind\":", to: target + written)
            written &+= kind.withBytes { _patchCopy($0, to: target + written) }
            written &+= _patchCopy(",\"modifiers\":[", to: target + written)
            written &+= modifiers.withBytes { _patchCopy($0, to: target + written) }
            return written &+ _patchCopy("]}", to: target + written)
        }
    }
}

/// An event the tree sends (sdk-contract §5.6.6): its id, and the update it makes with the
/// event's IRValue (§5.6.3, e.g. `{"bool":{"_0":true}}`), or the action it runs, which takes none
/// (kept as it is: wrapping it in an update allocated a closure context per Button).
struct _PatchEvent {
    let id: _PatchEventID
    let update: ((_PatchJSONValue) throws(_PatchDecodeError) -> Void)?
    var action: (() -> Void)? = nil

    func run(with value: _PatchJSONValue) throws(_PatchDecodeError) {
        if let update { try update(value) } else { action?() }
    }
}

/// An event's id (§5.6.7): the name of the `@State`/`@Binding` field a control writes, or
/// `action_<n>`, the event's position among those without a name. Kept as those two values
/// rather than as bytes, which cost an allocation per event: the tree copies the id's text, a
/// dispatch compares it.
struct _PatchEventID {
    let name: StaticString?
    let position: Int

    /// Whether `bytes`, the id a dispatch names, is this id's text.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let name { return bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) }
        let prefix: StaticString = "action_"
        let digitsStart = prefix.utf8CodeUnitCount
        guard bytes.count > digitsStart,
              UnsafeBufferPointer(rebasing: bytes[..<digitsStart]).elementsEqual(UnsafeBufferPointer(start: prefix.utf8Start, count: digitsStart))
        else { return false }
        // The position's decimal digits from the last, then nothing before them: no leading zero.
        var remaining = position
        var index = bytes.count
        repeat {
            index &-= 1
            guard index >= digitsStart, bytes[index] == UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10) else { return false }
            remaining /= 10
        } while remaining > 0
        return index == digitsStart
    }
}

/// The `_0` payload of an event value of IRValue case `name`; another case is a decoding error.
func _patchEventValue(_ value: _PatchJSONValue, _ name: StaticString) throws(_PatchDecodeError) -> _PatchJSONValue {
    let payload = try value.member(name)
    guard payload.isObject else { throw _PatchDecodeError("the event's value is not an IRValue of the case the control sends", key: name) }
    return try payload.member("_0")
}

/// Everything one evaluation of a body produces: the nodes written so far and not yet put in
/// their parent, the events in tree order, and coverage counts.
struct _PatchEmission {
    /// A stack of levels: a container's children are the nodes from where `nodes.count` was when
    /// its content started (so a modifier applies to `first..<nodes.count` at any depth). One
    /// array for every level keeps its capacity, instead of an array grown anew per container.
    var nodes: [_PatchNode] = []
    /// False for the evaluation a dispatch runs to find its event, whose tree nobody reads:
    /// containers then drop their children instead of writing them, and modifiers are not added.
    var writesTree = true
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

    /// Room for a screenful of pending nodes and events, so neither array grows (each growth an
    /// allocation and a copy) while a typical body is evaluated.
    init() {
        nodes.reserveCapacity(64)
        events.reserveCapacity(32)
    }

    mutating func requires(schema version: Int) {
        if version > schemaVersion { schemaVersion = version }
    }

    mutating func append(_ kind: _PatchIR) {
        nodes.append(_PatchNode(kind: kind))
        nodeCount += 1
    }

    /// Appends `modifier` (one modifier's JSON, or several comma-separated, `count` in all) to
    /// each node from `first` on: a modifier on a group of siblings applies to each. A node's
    /// first modifier shares the modifier's bytes; a second one copies them.
    mutating func appendModifier(_ modifier: _PatchIR, toNodesFrom first: Int, count: Int = 1) {
        guard writesTree else { return }
        for position in first..<nodes.count {
            if nodes[position].modifiers.isEmpty {
                nodes[position].modifiers = modifier
            } else {
                nodes[position].modifiers.raw(",")
                nodes[position].modifiers.raw(modifier)
            }
            modifierCount += count
        }
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
    mutating func children<Content: View>(of content: Content) -> _PatchIR {
        var ir = _PatchIR()
        writeChildren(of: content, into: &ir)
        return ir
    }

    /// Evaluates `content` on its own level and writes its nodes into `ir` as a JSON array: for
    /// a node whose children come last in its JSON, without a buffer of their own.
    mutating func writeChildren<Content: View>(of content: Content, into ir: inout _PatchIR) {
        let first = nodes.count
        content._patchEmit(into: &self)
        if writesTree { ir.reserve(writtenCount(from: first)) }
        writeLevel(from: first, into: &ir)
    }

    /// The bytes `writeLevel(from: first, …)` writes.
    func writtenCount(from first: Int) -> Int {
        var count = 2
        for position in first..<nodes.count { count &+= nodes[position].writtenCount }
        return count
    }

    /// Writes the nodes from `first` on as a JSON array and takes them off the stack.
    mutating func writeLevel(from first: Int, into ir: inout _PatchIR) {
        guard writesTree else {
            dropLevel(from: first)
            return
        }
        ir.raw("[")
        for position in first..<nodes.count {
            nodes[position].write(into: &ir, afterSibling: position > first)
        }
        ir.raw("]")
        dropLevel(from: first)
    }

    /// Takes the nodes from `first` on off the stack (one at a time: `removeLast(_:)` goes
    /// through the generic `replaceSubrange`).
    private mutating func dropLevel(from first: Int) {
        while nodes.count > first { nodes.removeLast() }
    }

    /// Appends a container node, `{"<kind>":{<fields>"children":[…]}}`: `opening` is `{"<kind>":{`,
    /// `fields` writes the container's own fields, each followed by a comma. The children are
    /// evaluated first, as their events come first in tree order, and written straight into the
    /// container's bytes.
    mutating func appendContainer<Content: View>(_ opening: StaticString, content: Content,
                                                 fields: (inout _PatchIR) -> Void = { _ in }) {
        let first = nodes.count
        content._patchEmit(into: &self)
        guard writesTree else {
            dropLevel(from: first)
            append(_PatchIR())
            return
        }
        // The fields are short: room for them and the children in one allocation.
        var ir = _PatchIR(capacity: opening.utf8CodeUnitCount &+ 128 &+ writtenCount(from: first))
        ir.raw(opening)
        fields(&ir)
        ir.raw("\"children\":")
        writeLevel(from: first, into: &ir)
        ir.raw("}}")
        append(ir)
    }

    /// Registers an event and returns its id: `name` when given, else `action_<n>`, its position
    /// among the events without a name (the same body with the same state numbers them alike).
    mutating func registerEvent(named name: StaticString? = nil,
                                _ update: @escaping (_PatchJSONValue) throws(_PatchDecodeError) -> Void) -> _PatchEventID {
        register(_PatchEvent(id: nextID(named: name), update: update))
    }

    /// `name`, else the next position id.
    private mutating func nextID(named name: StaticString?) -> _PatchEventID {
        guard name == nil else { return _PatchEventID(name: name, position: 0) }
        defer { positionedEvents += 1 }
        return _PatchEventID(name: nil, position: positionedEvents)
    }

    private mutating func register(_ event: _PatchEvent) -> _PatchEventID {
        events.append(event)
        return event.id
    }

    /// A Button's or a gesture's action, sent with `{"none":{}}`. Inside an alert's or a dialog's
    /// actions it also dismisses the presentation.
    mutating func registerAction(_ action: @escaping () -> Void) -> _PatchEventID {
        if let presented = dismissedByActions {
            return registerEvent { _ throws(_PatchDecodeError) in
                presented.wrappedValue = false
                action()
            }
        }
        return register(_PatchEvent(id: nextID(named: nil), update: nil, action: action))
    }

    /// A control's edit: the event writes the value `decode` reads from the event through
    /// `binding`. Its id is the name of the view's `@State`/`@Binding` field the binding comes
    /// from (§5.6.7: the engine's ids), else a position id.
    mutating func registerBinding<Value>(_ binding: Binding<Value>,
                                         _ decode: @escaping (_PatchJSONValue) throws(_PatchDecodeError) -> Value) -> _PatchEventID {
        registerEvent(named: binding._name) { value throws(_PatchDecodeError) in
            binding.wrappedValue = try decode(value)
        }
    }
}

extension _PatchIR {
    /// An event id's text (ids are identifiers or `action_<n>`: nothing to escape).
    mutating func raw(_ id: _PatchEventID) {
        if let name = id.name {
            raw(name)
        } else {
            raw("action_")
            integer(id.position)
        }
    }

    /// An EventID, `{"id":"…"}`.
    mutating func eventID(_ id: _PatchEventID) {
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
    /// `@State var picked: String?` with no default starts as nil, as SwiftUI's does.
    init() where Value: ExpressibleByNilLiteral { _box = _Box(nil) }

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

    init(get: @escaping () -> Value, set: @escaping (Value) -> Void, name: StaticString?) {
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
        for position in first..<emission.nodes.count {
            var ir = _PatchIR()
            ir.raw("{\"tag\":")
            _tag._writeIRValue(into: &ir)
            ir.raw(",\"label\":[")
            emission.nodes[position].write(into: &ir)
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
private func _patchRoot(_ nodes: inout [_PatchNode], into ir: inout _PatchIR) {
    if nodes.count == 1 {
        nodes[0].write(into: &ir)
        return
    }
    ir.raw("{\"kind\":{\"group\":{\"children\":[")
    for position in nodes.indices {
        nodes[position].write(into: &ir, afterSibling: position > 0)
    }
    ir.raw("]}},\"modifiers\":[]}")
}

/// Set once a host color or font token is written anywhere (ViewDSL+Tokens.swift), and never
/// cleared: a token written in an earlier call may be kept (a `static let` color) and emitted in
/// a later one. Until then no tree can hold one, and `_patchHasHostToken` need not search it.
nonisolated(unsafe) var _patchHostTokenWritten = false

/// Whether `tree` holds a host token (`{"hostToken":` in a ColorRef, `{"fontToken":` as a
/// modifier), which are IR v4 (§5.5). Colors and fonts are written into nodes, modifiers, shape
/// styles and gradients of every part of the DSL, so the finished tree is searched once rather than
/// each of those carrying a version. A match is always a case: a quote inside a JSON string is escaped.
private func _patchHasHostToken(_ tree: UnsafeBufferPointer<UInt8>) -> Bool {
    guard _patchHostTokenWritten else { return false }
    let color: StaticString = "{\"hostToken\":"
    let font: StaticString = "{\"fontToken\":"
    func matches(_ pattern: StaticString, at start: Int) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard start + count <= tree.count else { return false }
        for offset in 0..<count where tree[start + offset] != pattern.utf8Start[offset] { return false }
        return true
    }
    for start in tree.indices where tree[start] == UInt8(ascii: "{") {
        if matches(color, at: start) || matches(font, at: start) { return true }
    }
    return false
}

/// Writes the tree `emission` wrote, `,"coverage":{…},"schemaVersion":<n>` after it.
private func _patchTree(_ emission: inout _PatchEmission, into ir: inout _PatchIR) {
    let treeStart = ir.count
    _patchRoot(&emission.nodes, into: &ir)
    var schemaVersion = emission.schemaVersion
    if ir.withBytes({ _patchHasHostToken(UnsafeBufferPointer(rebasing: $0[treeStart...])) }) { schemaVersion = max(schemaVersion, 4) }
    ir.raw(",\"coverage\":{\"totalNodes\":")
    ir.integer(emission.nodeCount)
    ir.raw(",\"opaqueNodes\":")
    ir.integer(emission.opaqueNodeCount)
    ir.raw(",\"totalModifiers\":")
    ir.integer(emission.modifierCount)
    ir.raw(",\"opaqueModifiers\":0},\"schemaVersion\":")
    ir.integer(schemaVersion)
}

/// Room for the tree `emission` wrote and the fields around it, so the result is written into
/// one allocation.
private func _patchResultCapacity(_ emission: _PatchEmission, extra: Int) -> Int {
    emission.writtenCount(from: 0) &+ 160 &+ extra
}

private func _patchResult(_ ir: _PatchIR) -> Int64 {
    var writer = _PatchJSONWriter()
    ir.withBytes { writer.append($0) }
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
    _patchDatesSince1970 = true
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
        var ir = _PatchIR(capacity: _patchResultCapacity(emission, extra: 0))
        ir.raw("{\"root\":")
        _patchTree(&emission, into: &ir)
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
    _patchDatesSince1970 = true
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
        before.writesTree = false
        view._patchEmit(into: &before)
        let id = eventID.buffer
        // Several controls bound to one field share its id and write it alike: the first runs.
        if let match = before.events.first(where: { $0.id.matches(id) }) {
            try match.run(with: try event.member("value"))
        }
        for dismissal in before.onDismiss where !dismissal.isPresented.wrappedValue { dismissal.action() }
        for watcher in before.changeWatchers { watcher() }
        var newState = _PatchJSONWriter()
        writeState(view, &newState)
        var after = _PatchEmission()
        view._patchEmit(into: &after)
        let stateJSON = newState.bytes.buffer
        var ir = _PatchIR(capacity: _patchResultCapacity(after, extra: _patchEscapedCapacity(stateJSON.count)))
        ir.raw("{\"state\":")
        ir.string(stateJSON)
        ir.raw(",\"tree\":")
        _patchTree(&after, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}
