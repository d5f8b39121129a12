// Guest view DSL (see ViewDSL.swift): `TabView(selection:)`, the IR's `boundTabView` (sdk-contract
// §5.6.4): the tabs the unbound TabView writes (ViewDSL+Navigation.swift), each tagged by its
// `.tag(_:)`, the selection the guest's, and a tab tap dispatching the tag (§5.6.6), which the event
// writes through the binding.

/// The selection of a bound TabView, without its type: the TabView stays generic over its content
/// alone, as the unbound form.
struct _PatchTabSelection {
    /// The IRSelectionKind, `int` or `string`.
    let kind: StaticString
    /// Writes the selected tag as an IRValue.
    let writeValue: (inout _PatchIR) -> Void
    /// Registers the event that writes the tag a tab tap sends and writes its EventID: before the
    /// content is evaluated, so a position id comes before the content's, as a Picker's does.
    let registerEvent: (inout _PatchEmission, inout _PatchIR) -> Void
}

extension TabView {
    /// Tabs are tagged with Int or String values (the IR's selections, §5.6.3 IRSelectionKind).
    init<SelectionValue: _PatchTag>(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {
        self.init(content: content)
        _selection = _PatchTabSelection(
            kind: SelectionValue._kind,
            writeValue: { ir in selection.wrappedValue._writeIRValue(into: &ir) },
            registerEvent: { emission, ir in
                let id = emission.registerBinding(selection) { value throws(_PatchDecodeError) in try SelectionValue(_patchEvent: value) }
                ir.eventID(id)
            })
    }
}

/// Writes the IRTab `tag` of `tab`, a child of a bound TabView, and returns true, when one of
/// `options` from `next` on is its `.tag(_:)`; false for a tab without a tag of the selection's
/// `kind` (SwiftUI cannot select it; the caller tags it by its position, as the unbound form).
///
/// `options` are the IRPickerOptions `.tag(_:)` recorded while the content was evaluated
/// (ViewDSL.swift `_PatchTagged`), in tree order: `{"tag":<IRValue>,"label":[<node>]}`. A tab's own
/// tag was applied after anything tagged inside it and before the next tab's, so scanning forward
/// for an option whose node has the tab's kind finds it (a node inside a tab never has the kind of
/// the tab itself, which holds it, just as for the tab labels). IRTab tags are strings: an Int tag
/// is written as its digits, a String tag as it is.
func _patchWriteTabTag(of tab: _PatchNode, kind: StaticString, options: [[UInt8]], from next: inout Int,
                       into ir: inout _PatchIR) -> Bool {
    var valueStart = _PatchIR()
    valueStart.raw("{\"tag\":{\"")
    valueStart.raw(kind)
    valueStart.raw("\":{\"_0\":")
    var nodeStart = _PatchIR()
    nodeStart.raw("}},\"label\":[{\"kind\":")
    nodeStart.raw(tab.kind)
    nodeStart.raw(",\"modifiers\":[")
    var labelKey = _PatchIR()
    labelKey.raw("}},\"label\":[")
    for index in next..<options.count {
        let option = options[index]
        guard option.starts(with: valueStart.bytes),
              let valueEnd = _patchFirstIndex(of: labelKey.bytes, in: option, from: valueStart.bytes.count),
              option[valueEnd...].starts(with: nodeStart.bytes) else { continue }
        let value = option[valueStart.bytes.count..<valueEnd]
        if value.first == UInt8(ascii: "\"") {
            ir.raw(Array(value))
        } else {
            ir.raw("\"")
            ir.raw(Array(value))
            ir.raw("\"")
        }
        next = index + 1
        return true
    }
    return false
}

/// The first position of `pattern` in `bytes` from `start` on.
func _patchFirstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    var position = start
    while position + pattern.count <= bytes.count {
        if bytes[position..<(position + pattern.count)].elementsEqual(pattern) { return position }
        position += 1
    }
    return nil
}
