// Guest view DSL (see ViewDSL.swift): controls bound to a Binding (sdk-contract §5.6.4). Each
// node carries the binding's current value and an event (§5.6.6) whose value the dispatch writes
// through the binding; the event id is the bound field's name (ViewDSL.swift `registerBinding`).

// MARK: - Toggle

struct Toggle<Label: View>: _PatchPrimitiveView {
    let _isOn: Binding<Bool>
    let _label: Label

    init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
        _isOn = isOn
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        let id = emission.registerBinding(_isOn) { value throws(_PatchDecodeError) in
            try Bool(_patchJSON: try _patchEventValue(value, "bool"))
        }
        var ir = _PatchIR()
        ir.raw("{\"toggle\":{\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw(_isOn.wrappedValue ? ",\"value\":true,\"event\":" : ",\"value\":false,\"event\":")
        ir.eventID(id)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Toggle where Label == Text {
    init(_ title: String, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(title) }
    }
}

// MARK: - Stepper

/// An integer stepper (the IR's `stepper` is Int-valued). The host clamps to the bounds before it
/// sends the new value (§5.6.6).
struct Stepper<Label: View>: _PatchPrimitiveView {
    let _value: Binding<Int>
    let _bounds: ClosedRange<Int>?
    let _step: Int
    let _label: Label

    init(value: Binding<Int>, in bounds: ClosedRange<Int>, step: Int = 1, @ViewBuilder label: () -> Label) {
        _value = value
        _bounds = bounds
        _step = step
        _label = label()
    }

    init(value: Binding<Int>, step: Int = 1, @ViewBuilder label: () -> Label) {
        _value = value
        _bounds = nil
        _step = step
        _label = label()
    }

    /// The closure form has no value: it is shown as 0 without bounds, so the host sends `step` for
    /// an increment and `-step` for a decrement, and the sign picks the closure.
    init(onIncrement: (() -> Void)?, onDecrement: (() -> Void)?, @ViewBuilder label: () -> Label) {
        _value = Binding(get: { 0 }, set: { delta in
            if delta > 0 { onIncrement?() } else if delta < 0 { onDecrement?() }
        })
        _bounds = nil
        _step = 1
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        let id = emission.registerBinding(_value) { value throws(_PatchDecodeError) in
            try Int(_patchJSON: try _patchEventValue(value, "int"))
        }
        var ir = _PatchIR()
        ir.raw("{\"stepper\":{\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw(",\"value\":")
        ir.integer(_value.wrappedValue)
        ir.raw(",\"min\":")
        if let bounds = _bounds { ir.integer(bounds.lowerBound) } else { ir.raw("null") }
        ir.raw(",\"max\":")
        if let bounds = _bounds { ir.integer(bounds.upperBound) } else { ir.raw("null") }
        ir.raw(",\"step\":")
        ir.integer(_step)
        ir.raw(",\"event\":")
        ir.eventID(id)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Stepper where Label == Text {
    init(_ title: String, value: Binding<Int>, in bounds: ClosedRange<Int>, step: Int = 1) {
        self.init(value: value, in: bounds, step: step) { Text(title) }
    }

    init(_ title: String, value: Binding<Int>, step: Int = 1) {
        self.init(value: value, step: step) { Text(title) }
    }

    init(_ title: String, onIncrement: (() -> Void)?, onDecrement: (() -> Void)?) {
        self.init(onIncrement: onIncrement, onDecrement: onDecrement) { Text(title) }
    }
}

// MARK: - Slider

/// A Slider over Double (CGFloat is Double in the guest). Its label is not part of the IR's
/// `slider` (iOS does not draw it), so only the value forms lower.
struct Slider: _PatchPrimitiveView {
    let _value: Binding<Double>
    let _bounds: ClosedRange<Double>
    let _step: Double?

    init(value: Binding<Double>, in bounds: ClosedRange<Double> = 0...1) {
        _value = value
        _bounds = bounds
        _step = nil
    }

    init(value: Binding<Double>, in bounds: ClosedRange<Double>, step: Double) {
        _value = value
        _bounds = bounds
        _step = step
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        let id = emission.registerBinding(_value) { value throws(_PatchDecodeError) in
            try Double(_patchJSON: try _patchEventValue(value, "double"))
        }
        var ir = _PatchIR()
        ir.raw("{\"slider\":{\"value\":")
        ir.number(_value.wrappedValue)
        ir.raw(",\"min\":")
        ir.number(_bounds.lowerBound)
        ir.raw(",\"max\":")
        ir.number(_bounds.upperBound)
        ir.raw(",\"step\":")
        ir.optionalNumber(_step)
        ir.raw(",\"event\":")
        ir.eventID(id)
        ir.raw("}}")
        emission.append(ir)
    }
}

// MARK: - Text input

/// `textField`, `secureField` (placeholder, value, event) and `textEditor` (value, event): edits
/// send the whole new text as `string`.
func _patchTextInput(_ opening: StaticString, placeholder: String?, text: Binding<String>,
                     into emission: inout _PatchEmission) {
    let id = emission.registerBinding(text) { value throws(_PatchDecodeError) in
        try String(_patchJSON: try _patchEventValue(value, "string"))
    }
    var ir = _PatchIR()
    ir.raw(opening)
    if let placeholder {
        ir.raw("\"placeholder\":")
        ir.string(placeholder)
        ir.raw(",")
    }
    ir.raw("\"value\":")
    ir.string(text.wrappedValue)
    ir.raw(",\"event\":")
    ir.eventID(id)
    ir.raw("}}")
    emission.append(ir)
}

struct TextField: _PatchPrimitiveView {
    let _title: String
    let _text: Binding<String>

    init(_ title: String, text: Binding<String>) {
        _title = title
        _text = text
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        _patchTextInput("{\"textField\":{", placeholder: _title, text: _text, into: &emission)
    }
}

struct SecureField: _PatchPrimitiveView {
    let _title: String
    let _text: Binding<String>

    init(_ title: String, text: Binding<String>) {
        _title = title
        _text = text
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        _patchTextInput("{\"secureField\":{", placeholder: _title, text: _text, into: &emission)
    }
}

struct TextEditor: _PatchPrimitiveView {
    let _text: Binding<String>

    init(text: Binding<String>) { _text = text }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        _patchTextInput("{\"textEditor\":{", placeholder: nil, text: _text, into: &emission)
    }
}

// MARK: - Picker

/// A Picker over Int or String tags: its options are the views of its content marked with
/// `.tag(_:)` (ViewDSL.swift `_PatchTagged`); a pick sends the option's tag.
struct Picker<Label: View, SelectionValue: _PatchTag, Content: View>: _PatchPrimitiveView {
    let _selection: Binding<SelectionValue>
    let _label: Label
    let _content: Content

    init(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        _selection = selection
        _content = content()
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        // Selections came with the host-state vocabulary of schema 3 (§5.5).
        emission.requires(schema: 3)
        let id = emission.registerBinding(_selection) { value throws(_PatchDecodeError) in
            try SelectionValue(_patchEvent: value)
        }
        let label = emission.children(of: _label)
        let outer = emission.taggedOptions
        emission.taggedOptions = []
        _ = emission.children(of: _content)
        let options = emission.taggedOptions ?? []
        emission.taggedOptions = outer
        var ir = _PatchIR()
        ir.raw("{\"picker\":{\"label\":")
        ir.raw(label)
        ir.raw(",\"selection\":")
        _selection.wrappedValue._writeIRValue(into: &ir)
        ir.raw(",\"kind\":\"")
        ir.raw(SelectionValue._kind)
        ir.raw("\",\"options\":[")
        for (position, option) in options.enumerated() {
            if position > 0 { ir.raw(",") }
            ir.raw(option)
        }
        ir.raw("],\"event\":")
        ir.eventID(id)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Picker where Label == Text {
    init(_ title: String, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {
        self.init(selection: selection, content: content) { Text(title) }
    }
}
