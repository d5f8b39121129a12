// Guest view DSL (see ViewDSL.swift): `ViewModifier`, its `Content` and `.modifier(_:)`.
//
// A modifier's `body(content:)` is evaluated two ways:
// - applied in a lowered body (`Text("a").modifier(CardStyle())`): `content` is that body's view,
//   written in place, so the tree has no trace of the modifier;
// - as the routed body itself (`view_body__CardStyle`, docs/prepare.md "ViewModifier bodies"): the
//   view it modifies is native, so `content` writes the node `{"opaque":{"id":"op_content",…}}`,
//   which the host fills with the slot of that id the thunk passes (sdk-contract §5.1, §5.6.4).

protocol ViewModifier {
    associatedtype Body: View
    @ViewBuilder func body(content: Content) -> Body
    typealias Content = _ViewModifier_Content<Self>
}

struct _ViewModifier_Content<Modifier: ViewModifier>: _PatchPrimitiveView {
    /// Writes the modified view when it is a guest view; nil when it is the native content.
    let _patchContent: ((inout _PatchEmission) -> Void)?

    func _patchEmit(into emission: inout _PatchEmission) {
        if let _patchContent {
            _patchContent(&emission)
            return
        }
        emission.appendOpaque(id: "op_content", label: "content")
    }
}

struct ModifiedContent<Content, Modifier> {
    var content: Content
    var modifier: Modifier

    init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    typealias Body = Never
    var body: Never { fatalError("ModifiedContent is written by its modifier's body") }

    func _patchEmit(into emission: inout _PatchEmission) {
        let content = self.content
        let placeholder = _ViewModifier_Content<Modifier>(_patchContent: { (emission: inout _PatchEmission) in
            content._patchEmit(into: &emission)
        })
        modifier.body(content: placeholder)._patchEmit(into: &emission)
    }
}

extension View {
    func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// What `view_body__<Modifier>` evaluates: the modifier's body around its native content.
struct _PatchModifierBody<Modifier: ViewModifier>: _PatchPrimitiveView {
    let _modifier: Modifier

    func _patchEmit(into emission: inout _PatchEmission) {
        _modifier.body(content: _ViewModifier_Content(_patchContent: nil))._patchEmit(into: &emission)
    }
}
