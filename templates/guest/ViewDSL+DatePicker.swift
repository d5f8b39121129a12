// Guest view DSL (see ViewDSL.swift): `DatePicker`, the node `datePicker{label, epoch, components,
// minEpoch, maxEpoch, event}` (sdk-contract §5.6.4): the date travels as seconds since 1970 (the
// `Date` stand-in of ViewDSL+Foundation.swift, as the inputs carry dates), and the host sends each
// pick as `double` epoch seconds (§5.6.6), which the guest writes through the binding. A selection
// is host state: schema 3, with the picker (§5.5).

/// Which parts of the date the picker shows (the IR's `components`: date, hourAndMinute or both).
struct DatePickerComponents: OptionSet {
    let rawValue: Int
    init(rawValue: Int) { self.rawValue = rawValue }
    static let hourAndMinute = DatePickerComponents(rawValue: 1)
    static let date = DatePickerComponents(rawValue: 2)

    /// The IR's name; no component is SwiftUI's default, both.
    var _name: StaticString {
        switch (contains(.date), contains(.hourAndMinute)) {
        case (true, false): return "date"
        case (false, true): return "hourAndMinute"
        default: return "dateAndTime"
        }
    }
}

struct DatePicker<Label: View>: _PatchPrimitiveView {
    let _selection: Binding<Date>
    let _minimum: Date?
    let _maximum: Date?
    let _components: DatePickerComponents
    let _label: Label

    init(selection: Binding<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date],
         @ViewBuilder label: () -> Label) {
        self.init(selection, nil, nil, displayedComponents, label())
    }

    init(selection: Binding<Date>, in range: ClosedRange<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date],
         @ViewBuilder label: () -> Label) {
        self.init(selection, range.lowerBound, range.upperBound, displayedComponents, label())
    }

    init(selection: Binding<Date>, in range: PartialRangeFrom<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date],
         @ViewBuilder label: () -> Label) {
        self.init(selection, range.lowerBound, nil, displayedComponents, label())
    }

    init(selection: Binding<Date>, in range: PartialRangeThrough<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date],
         @ViewBuilder label: () -> Label) {
        self.init(selection, nil, range.upperBound, displayedComponents, label())
    }

    private init(_ selection: Binding<Date>, _ minimum: Date?, _ maximum: Date?, _ components: DatePickerComponents, _ label: Label) {
        _selection = selection
        _minimum = minimum
        _maximum = maximum
        _components = components
        _label = label
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 3)
        let id = emission.registerBinding(_selection) { value throws(_PatchDecodeError) in
            Date(timeIntervalSince1970: try Double(_patchJSON: try _patchEventValue(value, "double")))
        }
        var ir = _PatchIR()
        ir.raw("{\"datePicker\":{\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw(",\"epoch\":")
        ir.number(_selection.wrappedValue.timeIntervalSince1970)
        ir.raw(",\"components\":\"")
        ir.raw(_components._name)
        ir.raw("\",\"minEpoch\":")
        ir.optionalNumber(_minimum?.timeIntervalSince1970)
        ir.raw(",\"maxEpoch\":")
        ir.optionalNumber(_maximum?.timeIntervalSince1970)
        ir.raw(",\"event\":")
        ir.eventID(id)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension DatePicker where Label == Text {
    init(_ title: String, selection: Binding<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date]) {
        self.init(selection: selection, displayedComponents: displayedComponents) { Text(title) }
    }

    init(_ title: String, selection: Binding<Date>, in range: ClosedRange<Date>,
         displayedComponents: DatePickerComponents = [.hourAndMinute, .date]) {
        self.init(selection: selection, in: range, displayedComponents: displayedComponents) { Text(title) }
    }

    init(_ title: String, selection: Binding<Date>, in range: PartialRangeFrom<Date>,
         displayedComponents: DatePickerComponents = [.hourAndMinute, .date]) {
        self.init(selection: selection, in: range, displayedComponents: displayedComponents) { Text(title) }
    }

    init(_ title: String, selection: Binding<Date>, in range: PartialRangeThrough<Date>,
         displayedComponents: DatePickerComponents = [.hourAndMinute, .date]) {
        self.init(selection: selection, in: range, displayedComponents: displayedComponents) { Text(title) }
    }
}

/// The iOS date picker styles the IR's `datePickerStyle` names (`.field`, `.stepperField` are
/// macOS's); control styles are schema 5 (§5.5).
protocol DatePickerStyle: _PatchNamedValue {}
struct DefaultDatePickerStyle: DatePickerStyle { init() {}; var _name: StaticString { "automatic" } }
struct CompactDatePickerStyle: DatePickerStyle { init() {}; var _name: StaticString { "compact" } }
struct GraphicalDatePickerStyle: DatePickerStyle { init() {}; var _name: StaticString { "graphical" } }
struct WheelDatePickerStyle: DatePickerStyle { init() {}; var _name: StaticString { "wheel" } }

extension DatePickerStyle where Self == DefaultDatePickerStyle { static var automatic: DefaultDatePickerStyle { DefaultDatePickerStyle() } }
extension DatePickerStyle where Self == CompactDatePickerStyle { static var compact: CompactDatePickerStyle { CompactDatePickerStyle() } }
extension DatePickerStyle where Self == GraphicalDatePickerStyle {
    static var graphical: GraphicalDatePickerStyle { GraphicalDatePickerStyle() }
}
extension DatePickerStyle where Self == WheelDatePickerStyle { static var wheel: WheelDatePickerStyle { WheelDatePickerStyle() } }

extension View {
    func datePickerStyle<S: DatePickerStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("datePickerStyle", style._name, schema: 5) }
}
