// Guest view DSL (see ViewDSL.swift): modifiers that send events (sdk-contract §5.6.5, §5.6.6):
// gestures and lifecycle actions (`{"none":{}}`), and presentations whose `bool` event writes the
// presented flag. Buttons in a presentation's content dispatch like any other (§5.4).

/// `content` with an event modifier on each node it writes. `write` registers the modifier's
/// events and writes its JSON once, after the content's (writing nothing leaves the nodes as
/// they are: `.onAppear(perform: nil)`).
struct _PatchEventModified<Content: View>: _PatchPrimitiveView {
    let _content: Content
    let _schemaVersion: Int
    /// How many modifiers `_write` writes (an `.onChange` writes one per field it watches,
    /// ViewDSL+Lifecycle.swift).
    var _modifierCount = 1
    let _write: (inout _PatchEmission, inout _PatchIR) -> Void

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        guard first < emission.nodes.count else { return }
        var ir = _PatchIR()
        _write(&emission, &ir)
        guard !ir.isEmpty else { return }
        emission.requires(schema: _schemaVersion)
        emission.appendModifier(ir, toNodesFrom: first, count: _modifierCount)
    }
}

extension View {
    /// `{"<key>":{"_0":{"id":…}}}` for an action sent with `{"none":{}}`; nothing without one.
    func _actionModifier(_ key: StaticString, schema: Int, _ action: (() -> Void)?) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: schema) { emission, ir in
            guard let action else { return }
            let id = emission.registerAction(action)
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            ir.eventID(id)
            ir.raw("}}")
        }
    }

    // Gestures and lifecycle: the base set has the tap; the rest came with schema 2 (§5.5).

    /// Single taps only: the IR's `onTapGesture` has no count, so `count:` does not lower.
    func onTapGesture(perform action: @escaping () -> Void) -> _PatchEventModified<Self> {
        _actionModifier("onTapGesture", schema: 1, action)
    }

    func onLongPressGesture(minimumDuration: Double = 0.5, perform action: @escaping () -> Void) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 2) { emission, ir in
            let id = emission.registerAction(action)
            ir.raw("{\"onLongPressGesture\":{\"minimumDuration\":")
            ir.number(minimumDuration)
            ir.raw(",\"_1\":")
            ir.eventID(id)
            ir.raw("}}")
        }
    }

    func onAppear(perform action: (() -> Void)? = nil) -> _PatchEventModified<Self> {
        _actionModifier("onAppear", schema: 2, action)
    }

    func onDisappear(perform action: (() -> Void)? = nil) -> _PatchEventModified<Self> {
        _actionModifier("onDisappear", schema: 2, action)
    }

    func onSubmit(_ action: @escaping () -> Void) -> _PatchEventModified<Self> {
        _actionModifier("onSubmit", schema: 2, action)
    }

    // Presentations (schema 3, host state): the node carries the flag and the content when
    // presented (SwiftUI evaluates it only then); the `bool` event writes the flag, and any
    // dismissal runs `onDismiss` (ViewDSL.swift `_patchViewDispatch`).

    /// `opening`, the dialog's `title` fields, the flag's `presentedKey` (its event's id: the
    /// field's name) and `isPresented`, then `content`'s fields and the event. `sheetItem` names
    /// the key and the flag `itemKey` and `itemPresent` (`keyField`, `flagField`).
    func _presentation(_ opening: StaticString, title: String? = nil, titleVisibility: Visibility? = nil,
                       keyField: StaticString = "presentedKey", flagField: StaticString = "isPresented",
                       isPresented: Binding<Bool>, onDismiss: (() -> Void)?,
                       _ content: @escaping (inout _PatchEmission, inout _PatchIR) -> Void) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 3) { emission, ir in
            let id = emission.registerEvent(named: isPresented._name) { value throws(_PatchDecodeError) in
                isPresented.wrappedValue = try Bool(_patchJSON: try _patchEventValue(value, "bool"))
            }
            if let onDismiss, isPresented.wrappedValue { emission.onDismiss.append((isPresented, onDismiss)) }
            ir.raw(opening)
            if let title {
                ir.raw("\"title\":")
                ir.string(title)
                ir.raw(",")
            }
            if let titleVisibility {
                ir.raw("\"titleVisibility\":\"")
                ir.raw(titleVisibility._name)
                ir.raw("\",")
            }
            ir.raw("\"")
            ir.raw(keyField)
            ir.raw("\":\"")
            ir.raw(id)
            ir.raw("\",\"")
            ir.raw(flagField)
            ir.raw(isPresented.wrappedValue ? "\":true," : "\":false,")
            content(&emission, &ir)
            ir.raw("\"event\":")
            ir.eventID(id)
            ir.raw("}}")
        }
    }

    /// `"content":[…],` when presented, `"content":[],` otherwise (`"destination"` for
    /// navigationDestinationBool: `key`).
    func _presentedContent<Content: View>(_ isPresented: Binding<Bool>, key: StaticString = "content",
                                          _ content: @escaping () -> Content)
        -> (inout _PatchEmission, inout _PatchIR) -> Void {
        { emission, ir in
            ir.raw("\"")
            ir.raw(key)
            ir.raw("\":")
            if isPresented.wrappedValue { emission.writeChildren(of: content(), into: &ir) } else { ir.raw("[]") }
            ir.raw(",")
        }
    }

    func sheet<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
                              @ViewBuilder content: @escaping () -> Content) -> _PatchEventModified<Self> {
        _presentation("{\"sheet\":{", isPresented: isPresented, onDismiss: onDismiss, _presentedContent(isPresented, content))
    }

    func fullScreenCover<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
                                        @ViewBuilder content: @escaping () -> Content) -> _PatchEventModified<Self> {
        _presentation("{\"fullScreenCover\":{", isPresented: isPresented, onDismiss: onDismiss, _presentedContent(isPresented, content))
    }

    /// `"actions":[…],"message":[…],` of an alert or a dialog: a tap on any of its buttons also
    /// clears the flag, as SwiftUI dismisses them.
    func _dialogContent<Actions: View, Message: View>(_ isPresented: Binding<Bool>, _ actions: Actions, _ message: Message)
        -> (inout _PatchEmission, inout _PatchIR) -> Void {
        { emission, ir in
            ir.raw("\"actions\":")
            if isPresented.wrappedValue {
                let outer = emission.dismissedByActions
                emission.dismissedByActions = isPresented
                emission.writeChildren(of: actions, into: &ir)
                emission.dismissedByActions = outer
                ir.raw(",\"message\":")
                emission.writeChildren(of: message, into: &ir)
            } else {
                ir.raw("[],\"message\":[]")
            }
            ir.raw(",")
        }
    }

    func alert<Actions: View>(_ title: String, isPresented: Binding<Bool>,
                              @ViewBuilder actions: () -> Actions) -> _PatchEventModified<Self> {
        alert(title, isPresented: isPresented, actions: actions) { EmptyView() }
    }

    func alert<Actions: View, Message: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> Actions,
                                             @ViewBuilder message: () -> Message) -> _PatchEventModified<Self> {
        _presentation("{\"alert\":{", title: title, isPresented: isPresented, onDismiss: nil,
                      _dialogContent(isPresented, actions(), message()))
    }

    func confirmationDialog<Actions: View>(_ title: String, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
                                           @ViewBuilder actions: () -> Actions) -> _PatchEventModified<Self> {
        confirmationDialog(title, isPresented: isPresented, titleVisibility: titleVisibility, actions: actions) { EmptyView() }
    }

    func confirmationDialog<Actions: View, Message: View>(_ title: String, isPresented: Binding<Bool>,
                                                          titleVisibility: Visibility = .automatic,
                                                          @ViewBuilder actions: () -> Actions,
                                                          @ViewBuilder message: () -> Message) -> _PatchEventModified<Self> {
        _presentation("{\"confirmationDialog\":{", title: title, titleVisibility: titleVisibility, isPresented: isPresented,
                      onDismiss: nil, _dialogContent(isPresented, actions(), message()))
    }
}

// MARK: - List editing

/// The offsets `onDelete`/`onMove` hand their action (Foundation's IndexSet, which the guest
/// has not): ascending, without duplicates.
struct IndexSet: Sequence {
    var _offsets: [Int] = []

    init() {}

    init(integer: Int) { _offsets = [integer] }

    init<S: Sequence>(_ offsets: S) where S.Element == Int {
        for offset in offsets { insert(offset) }
    }

    var count: Int { _offsets.count }
    var isEmpty: Bool { _offsets.isEmpty }
    var first: Int? { _offsets.first }
    var last: Int? { _offsets.last }

    func contains(_ offset: Int) -> Bool { _offsets.contains(offset) }

    mutating func insert(_ offset: Int) {
        guard !contains(offset) else { return }
        var position = 0
        while position < _offsets.count && _offsets[position] < offset { position += 1 }
        _offsets.insert(offset, at: position)
    }

    func makeIterator() -> IndexingIterator<[Int]> { _offsets.makeIterator() }
}

extension Array {
    /// SwiftUI's helper for `onDelete`.
    mutating func remove(atOffsets offsets: IndexSet) {
        for offset in offsets._offsets.reversed() { remove(at: offset) }
    }

    /// SwiftUI's helper for `onMove`: the elements at `source` go before the element that was at
    /// `destination` (`count` = to the end), keeping their order.
    mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        var before: [Element] = [], moved: [Element] = [], after: [Element] = []
        for (offset, element) in enumerated() {
            if source.contains(offset) {
                moved.append(element)
            } else if offset < destination {
                before.append(element)
            } else {
                after.append(element)
            }
        }
        self = before + moved + after
    }
}

/// The `array[int]` offsets an `onDelete`/`onMove` event sends (§5.6.6).
func _patchEventOffsets(_ value: _PatchJSONValue) throws(_PatchDecodeError) -> [Int] {
    let elements = try _patchEventValue(value, "array")
    guard elements.isArray else { throw _PatchDecodeError("expected the offsets as an array", key: "array") }
    var offsets: [Int] = []
    try elements.forEachEntry { _, element throws(_PatchDecodeError) in
        offsets.append(try Int(_patchEvent: element))
        return true
    }
    return offsets
}

/// Views whose rows the host can delete and move: a ForEach, also with `onDelete`/`onMove` on it.
protocol DynamicViewContent: View {}

extension ForEach: DynamicViewContent {}

extension _PatchEventModified: DynamicViewContent where Content: DynamicViewContent {}

extension DynamicViewContent {
    /// Swipe to delete (in a List): the host sends the deleted offsets (schema 3, list edit).
    func onDelete(perform action: ((IndexSet) -> Void)?) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 3) { emission, ir in
            guard let action else { return }
            let id = emission.registerEvent { value throws(_PatchDecodeError) in
                action(IndexSet(try _patchEventOffsets(value)))
            }
            ir.raw("{\"onDelete\":{\"_0\":")
            ir.eventID(id)
            ir.raw("}}")
        }
    }

    /// Drag to reorder (in a List): the host sends the source offsets followed by the destination.
    func onMove(perform action: ((IndexSet, Int) -> Void)?) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 3) { emission, ir in
            guard let action else { return }
            let id = emission.registerEvent { value throws(_PatchDecodeError) in
                var offsets = try _patchEventOffsets(value)
                guard let destination = offsets.popLast() else { throw _PatchDecodeError("expected the destination after the source offsets", key: "array") }
                action(IndexSet(offsets), destination)
            }
            ir.raw("{\"onMove\":{\"_0\":")
            ir.eventID(id)
            ir.raw("}}")
        }
    }
}
