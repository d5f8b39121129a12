// Guest view DSL (see ViewDSL.swift): labelled content, menus and gauges (sdk-contract §5.6.4),
// all of schema 2. A Button in a menu dispatches like any other.

struct LabeledContent<Label: View, Content: View>: _PatchPrimitiveView {
    let _label: Label
    let _content: Content

    init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        _label = label()
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendTwoLists("{\"labeledContent\":{\"label\":", _label, ",\"content\":", _content)
    }
}

extension LabeledContent where Label == Text {
    init(_ title: String, @ViewBuilder content: () -> Content) {
        self.init(content: content) { Text(title) }
    }
}

extension LabeledContent where Label == Text, Content == Text {
    /// `LabeledContent("Version", value: "1.2")`: the value is the content's Text.
    init(_ title: String, value: String) {
        self.init(content: { Text(value) }, label: { Text(title) })
    }
}

struct Menu<Label: View, Content: View>: _PatchPrimitiveView {
    let _label: Label
    let _content: Content

    init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        _label = label()
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendTwoLists("{\"menu\":{\"label\":", _label, ",\"items\":", _content)
    }
}

extension Menu where Label == Text {
    init(_ title: String, @ViewBuilder content: () -> Content) {
        self.init(content: content) { Text(title) }
    }
}

/// The title-and-symbol Label a `Menu(_:systemImage:)` shows: inside Menu `Label` is Menu's own
/// generic parameter, so the Label view is named through this alias there.
typealias _PatchTitleAndIconLabel = Label<Text, Image>

extension Menu where Label == _PatchTitleAndIconLabel {
    init(_ title: String, systemImage name: String, @ViewBuilder content: () -> Content) {
        self.init(content: content) { _PatchTitleAndIconLabel(title, systemImage: name) }
    }
}

/// `Gauge(value:in:) { label }`: value and bounds with a label (the current/minimum/maximum value
/// labels have no IR field and are not taken).
struct Gauge<Label: View>: _PatchPrimitiveView {
    let _value: Double
    let _bounds: ClosedRange<Double>
    let _label: Label

    init(value: Double, in bounds: ClosedRange<Double> = 0...1, @ViewBuilder label: () -> Label) {
        _value = value
        _bounds = bounds
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        var ir = _PatchIR()
        ir.raw("{\"gauge\":{\"data\":{\"value\":")
        ir.number(_value)
        ir.raw(",\"min\":")
        ir.number(_bounds.lowerBound)
        ir.raw(",\"max\":")
        ir.number(_bounds.upperBound)
        ir.raw("},\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension _PatchEmission {
    /// `{"<kind>":{"<first>":[…],"<second>":[…]}}` (the opening names the kind and first key, the
    /// middle the second key): a node of two child lists, evaluated and written in that order.
    mutating func appendTwoLists<First: View, Second: View>(_ opening: StaticString, _ first: First,
                                                            _ middle: StaticString, _ second: Second) {
        var ir = _PatchIR()
        ir.raw(opening)
        writeChildren(of: first, into: &ir)
        ir.raw(middle)
        writeChildren(of: second, into: &ir)
        ir.raw("}}")
        append(ir)
    }
}
