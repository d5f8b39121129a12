// Guest view DSL (see ViewDSL.swift): `.task` and `.onChange(of:)` (sdk-contract §5.6.5, §5.6.6),
// and the watched values they and `.animation(_:value:)` name by the state fields they read.
//
// The guest has no async (docs/views.md, ../shared/notes/embedded-swift-wasm.md): a `.task` body
// runs synchronously when the host dispatches the task's event, and one that awaits does not
// compile in the guest. `onChange` is passive in the SDK (§5.6.6: the host never dispatches it), so
// the guest runs its action itself: every `.onChange` of an evaluation leaves a watcher, and the
// dispatch runs them after the event's update (ViewDSL.swift `_patchViewDispatch`).

// MARK: - Watched values

/// While a watched value is evaluated: the names of the view's `@State`/`@Binding` fields it reads,
/// in the order read, recorded by their getters (ViewDSL.swift). A module runs one call at a time.
nonisolated(unsafe) var _patchReadFields: [StaticString]? = nil

/// Called by the `@State` and `Binding` getters with the field their value lives in, if any.
func _patchNoteRead(_ name: StaticString?) {
    guard let name, let reads = _patchReadFields else { return }
    for read in reads where _patchSameName(read, name) { return }
    _patchReadFields = reads + [name]
}

func _patchSameName(_ first: StaticString, _ second: StaticString) -> Bool {
    let count = first.utf8CodeUnitCount
    guard count == second.utf8CodeUnitCount else { return false }
    for offset in 0..<count where first.utf8Start[offset] != second.utf8Start[offset] { return false }
    return true
}

/// The value of a watched expression and the state fields it reads: the IR's `valueKey`s
/// (§5.6.7: names of guest state fields, which the host finds in the inputs). A value read from
/// anything else (a property the parent passes, a literal) names no field.
func _patchWatched<Value>(_ value: () -> Value) -> (value: Value, fields: [StaticString]) {
    let outer = _patchReadFields
    _patchReadFields = []
    let current = value()
    let fields = _patchReadFields ?? []
    _patchReadFields = outer
    return (current, fields)
}

/// One modifier per watched field, comma-separated; `write` writes the one of a field.
func _patchWriteKeyed(_ fields: [StaticString], into ir: inout _PatchIR, _ write: (StaticString, inout _PatchIR) -> Void) {
    for (position, field) in fields.enumerated() {
        if position > 0 { ir.raw(",") }
        write(field, &ir)
    }
}

// MARK: - task

/// The priority a `.task` names; the guest runs the body synchronously in the dispatch, so it
/// changes nothing.
struct TaskPriority {
    static let high = TaskPriority()
    static let medium = TaskPriority()
    static let low = TaskPriority()
    static let userInitiated = TaskPriority()
    static let utility = TaskPriority()
    static let background = TaskPriority()
}

extension View {
    /// `{"task":{"_0":{"id":…},"id":<the id's JSON text or null>}}`: the host starts the task when
    /// the view appears (and again when `id` changes) by dispatching the event with `none`.
    func _task(id: [UInt8]?, _ action: @escaping () -> Void) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 2) { emission, ir in
            let event = emission.registerAction(action)
            ir.raw("{\"task\":{\"_0\":")
            ir.eventID(event)
            ir.raw(",\"id\":")
            if let id { ir.string(String(decoding: id, as: UTF8.self)) } else { ir.raw("null") }
            ir.raw("}}")
        }
    }

    func task(priority: TaskPriority = .userInitiated, _ action: @escaping () -> Void) -> _PatchEventModified<Self> {
        _task(id: nil, action)
    }

    /// The IR's task id is a String: the value's JSON (`3`, `"inbox"`, an object for a project
    /// type), which changes exactly when the value does.
    func task<T: Equatable & _PatchJSONCodable>(id value: T, priority: TaskPriority = .userInitiated,
                                                _ action: @escaping () -> Void) -> _PatchEventModified<Self> {
        var writer = _PatchJSONWriter()
        value._patchEncode(into: &writer)
        return _task(id: Array(writer.bytes.buffer), action)
    }

    @available(*, unavailable, message: "the guest has no async (no Swift concurrency in the device's WebAssembly build): a .task whose body awaits is native-only; a .task body without await lowers")
    func task(priority: TaskPriority = .userInitiated, _ action: @escaping () async -> Void) -> _PatchEventModified<Self> {
        fatalError("unavailable")
    }

    @available(*, unavailable, message: "the guest has no async (no Swift concurrency in the device's WebAssembly build): a .task whose body awaits is native-only; a .task body without await lowers")
    func task<T: Equatable & _PatchJSONCodable>(id value: T, priority: TaskPriority = .userInitiated,
                                                _ action: @escaping () async -> Void) -> _PatchEventModified<Self> {
        fatalError("unavailable")
    }
}

// MARK: - onChange

extension View {
    /// `{"onChange":{"valueKey":"<field>","_1":{"id":…}}}` for each state field `value` reads, and
    /// a watcher the dispatch runs after its update: when the value differs from the one this
    /// evaluation saw, the action runs with the old and the new value, as SwiftUI's does after the
    /// change. Only changes a dispatch makes are seen: the guest keeps no memory between renders,
    /// so a change the host makes (a parent's property) does not run it. The event (which the SDK
    /// does not send, §5.6.6) runs the action with the current value as both; `initial: true` sends
    /// it from an `onAppear`, as SwiftUI runs the action when the view appears.
    func _onChange<V: Equatable>(_ value: @escaping () -> V, initial: Bool,
                                 _ action: @escaping (V, V) -> Void) -> _PatchEventModified<Self> {
        // Read while the body is built, before anything of this evaluation can change the state.
        let (old, fields) = _patchWatched(value)
        return _PatchEventModified(_content: self, _schemaVersion: 2, _modifierCount: fields.count + (initial ? 1 : 0)) { emission, ir in
            emission.changeWatchers.append {
                let new = value()
                if new != old { action(old, new) }
            }
            // The event is in the tree only with a modifier that carries it.
            guard !fields.isEmpty || initial else { return }
            let event = emission.registerEvent { _ throws(_PatchDecodeError) in
                let current = value()
                action(current, current)
            }
            _patchWriteKeyed(fields, into: &ir) { field, ir in
                ir.raw("{\"onChange\":{\"valueKey\":\"")
                ir.raw(field)
                ir.raw("\",\"_1\":")
                ir.eventID(event)
                ir.raw("}}")
            }
            guard initial else { return }
            if !fields.isEmpty { ir.raw(",") }
            ir.raw("{\"onAppear\":{\"_0\":")
            ir.eventID(event)
            ir.raw("}}")
        }
    }

    /// The iOS 14 form: the action takes the new value.
    func onChange<V: Equatable>(of value: @autoclosure @escaping () -> V,
                                perform action: @escaping (V) -> Void) -> _PatchEventModified<Self> {
        _onChange(value, initial: false) { _, new in action(new) }
    }

    /// The iOS 17 forms: the action takes the old and the new value, or nothing.
    func onChange<V: Equatable>(of value: @autoclosure @escaping () -> V, initial: Bool = false,
                                _ action: @escaping (V, V) -> Void) -> _PatchEventModified<Self> {
        _onChange(value, initial: initial, action)
    }

    func onChange<V: Equatable>(of value: @autoclosure @escaping () -> V, initial: Bool = false,
                                _ action: @escaping () -> Void) -> _PatchEventModified<Self> {
        _onChange(value, initial: initial) { _, _ in action() }
    }
}
