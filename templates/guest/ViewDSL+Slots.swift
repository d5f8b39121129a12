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

extension View {
    /// A background slot: `build` replaces an event modifier or presentation that reads the host
    /// (`.onAppear { model.load() }`, `.sheet(isPresented: $model.showing) { … }`) with this, and the
    /// shipped thunk passes `Color.clear` with that modifier under the id. The host draws it behind
    /// the modified view (`{"backgroundContent":{"alignment":null,"content":[opaque]}}`, §5.6.5), so it
    /// appears and disappears with the view, and presents from it, as the modifier did on the view.
    func _patchBackgroundSlot(_ id: String, label: String) -> _PatchContentModified<Self, _PatchOpaque> {
        _PatchContentModified(_content: self, _payload: _PatchOpaque(id, label: label), _schemaVersion: 2) { views, ir in
            ir.raw("{\"backgroundContent\":{\"alignment\":null,\"content\":")
            ir.raw(views)
            ir.raw("}}")
        }
    }
}

extension _PatchOpaque {
    /// `.fill(style)` on a slot: native code fills only a Shape, so the slot is a shape of the
    /// project (a custom `path(in:)`) that the shipped thunk passes as a view, and a shape as a view
    /// is filled with the foreground style. `.foregroundStyle(style)` on it draws the same fill,
    /// and unlike `fill` it is a modifier the host applies to any node.
    func fill<S: ShapeStyle>(_ style: S) -> _PatchModified<Self> { _foregroundStyles([style._style]) }
}
