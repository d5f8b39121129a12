// Guest view DSL (see ViewDSL.swift): slots, the leaves of a body the DSL cannot lower.
//
// `build` replaces a native-only leaf of a view's body (`Map(…)`, `Canvas { … }`, a
// `UIViewRepresentable` of the project) with `_PatchOpaque("op_…", label: "Map")`
// (docs/views.md "Tokens and slots"). It writes `{"opaque":{"id":"op_…","label":"Map"}}`, which the
// host fills with the native view the shipped thunk passes under that id in `slots:` (sdk-contract
// §5.1, §5.6.4); the modifiers the body applies to the leaf stay in the guest, on that node.

struct _PatchOpaque: _PatchPrimitiveView {
    let _id: String
    let _label: String

    init(_ id: String, label: String) {
        _id = id
        _label = label
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw("{\"opaque\":{\"id\":")
        ir.string(_id)
        ir.raw(",\"label\":")
        ir.string(_label)
        ir.raw("}}")
        emission.append(ir)
        emission.opaqueNodeCount += 1
    }
}
