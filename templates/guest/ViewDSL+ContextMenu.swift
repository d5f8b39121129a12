// Guest view DSL (see ViewDSL.swift): `.contextMenu { }`, which the IR writes as a node kind
// wrapping the view it is attached to, `contextMenu{content,items}` (sdk-contract §5.6.4), and
// `Link`, `link{destination,label}`. Both came with the leaves and containers of schema 2 (§5.5).

/// `content.contextMenu { items }`: each node the content wrote becomes the `content` of a
/// contextMenu node (a menu on a group of siblings is each sibling's, as SwiftUI applies it), so
/// modifiers after `.contextMenu` apply to the wrapper. The items are evaluated once, after the
/// content, in tree order; their Buttons dispatch like any other and every wrapper carries the
/// same ids.
struct _PatchContextMenu<Content: View, MenuItems: View>: _PatchPrimitiveView {
    let _content: Content
    let _menuItems: MenuItems

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        let last = emission.nodes.count
        guard first < last else { return }
        emission.requires(schema: 2)
        let items = emission.children(of: _menuItems)
        var wrappers: [_PatchIR] = []
        for position in first..<last {
            var ir = _PatchIR()
            ir.raw("{\"contextMenu\":{\"content\":[")
            emission.nodes[position].write(into: &ir)
            ir.raw("],\"items\":")
            ir.raw(items)
            ir.raw("}}")
            wrappers.append(ir)
        }
        // The wrappers take the content's places; each is one more node in the coverage.
        emission.nodes.removeLast(last - first)
        for wrapper in wrappers { emission.append(wrapper) }
    }
}

extension View {
    func contextMenu<MenuItems: View>(@ViewBuilder menuItems: () -> MenuItems) -> _PatchContextMenu<Self, MenuItems> {
        _PatchContextMenu(_content: self, _menuItems: menuItems())
    }
}

/// `Link("Title", destination: url)`, `Link(destination: url) { label }`: the host opens the URL
/// (its `absoluteString`, as the inputs carry URLs) when the label is tapped.
struct Link<Label: View>: _PatchPrimitiveView {
    let _destination: URL
    let _label: Label

    init(destination: URL, @ViewBuilder label: () -> Label) {
        _destination = destination
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        var ir = _PatchIR()
        ir.raw("{\"link\":{\"destination\":")
        ir.string(_destination.absoluteString)
        ir.raw(",\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Link where Label == Text {
    init(_ title: String, destination: URL) {
        self.init(destination: destination) { Text(title) }
    }
}
