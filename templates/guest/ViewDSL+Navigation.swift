// Guest view DSL (see ViewDSL.swift): navigation, labels, progress, tabs and disclosure groups
// (sdk-contract §5.6.4). The schema each asks for is the first that has it (§5.5).

// MARK: - Navigation

/// `NavigationStack { }` without a path (the bound `NavigationStack(path:)` is another IR node).
struct NavigationStack<Root: View>: _PatchPrimitiveView {
    let _root: Root

    init(@ViewBuilder root: () -> Root) { _root = root() }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"navigationStack\":{", content: _root)
    }
}

/// The IR's navigationStack is also NavigationView's node (§5.6.4).
struct NavigationView<Content: View>: _PatchPrimitiveView {
    let _content: Content

    init(@ViewBuilder content: () -> Content) { _content = content() }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"navigationStack\":{", content: _content)
    }
}

/// The eager `NavigationLink(destination:)` forms: the destination is evaluated with the link and
/// travels in the tree (schema 3). The value-based `NavigationLink(value:)` needs the bound
/// navigation path and is not taken.
struct NavigationLink<Label: View, Destination: View>: _PatchPrimitiveView {
    let _label: Label
    let _destination: Destination

    init(destination: Destination, @ViewBuilder label: () -> Label) {
        _label = label()
        _destination = destination
    }

    init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {
        _label = label()
        _destination = destination()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 3)
        let label = emission.children(of: _label)
        let destination = emission.children(of: _destination)
        var ir = _PatchIR()
        ir.raw("{\"navigationLink\":{\"destination\":")
        ir.raw(destination)
        ir.raw(",\"label\":")
        ir.raw(label)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension NavigationLink where Label == Text {
    init(_ title: String, destination: Destination) {
        self.init(destination: destination) { Text(title) }
    }

    /// `NavigationLink("Title") { destination }`: the trailing closure is the destination.
    init(_ title: String, @ViewBuilder destination: () -> Destination) {
        self.init(destination: destination()) { Text(title) }
    }
}

// MARK: - Label

struct Label<Title: View, Icon: View>: _PatchPrimitiveView {
    let _title: Title
    let _icon: Icon

    init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        _title = title()
        _icon = icon()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendTwoLists("{\"label\":{\"title\":", _title, ",\"icon\":", _icon)
    }
}

extension Label where Title == Text, Icon == Image {
    init(_ title: String, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }

    init(_ title: String, image name: String) {
        self.init(title: { Text(title) }, icon: { Image(name) })
    }
}

// MARK: - Progress

/// `ProgressView()` is the spinner (`progressView`); a value makes it determinate
/// (`determinateProgress`), and a nil value is the spinner again, as in SwiftUI.
struct ProgressView<Label: View>: _PatchPrimitiveView {
    let _value: Double?
    let _total: Double
    let _label: Label

    init(value: Double?, total: Double = 1, @ViewBuilder label: () -> Label) {
        _value = value
        _total = total
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        guard let value = _value else {
            var ir = _PatchIR()
            ir.raw("{\"progressView\":{}}")
            emission.append(ir)
            return
        }
        var ir = _PatchIR()
        ir.raw("{\"determinateProgress\":{\"value\":")
        ir.number(value)
        ir.raw(",\"total\":")
        ir.number(_total)
        ir.raw(",\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension ProgressView where Label == EmptyView {
    init() { self.init(value: nil) { EmptyView() } }

    init(value: Double?, total: Double = 1) { self.init(value: value, total: total) { EmptyView() } }
}

extension ProgressView where Label == Text {
    /// A title labels only the determinate form in the IR: `ProgressView("Loading…")` (a titled
    /// spinner) has no IR node, so it does not compile in the guest.
    init(_ title: String, value: Double?, total: Double = 1) {
        self.init(value: value, total: total) { Text(title) }
    }
}

// MARK: - TabView

/// The `.tabItem` labels recorded while a TabView evaluates its content: the position and kind of
/// each node a `.tabItem` was applied to, with its label and the number of nodes in it. A `.tabItem`
/// outside a TabView is ignored, as in SwiftUI.
var _patchTabItems: [(position: Int, kind: _PatchIR, label: _PatchIR, nodeCount: Int)] = []

struct _PatchTabItem<Content: View, Item: View>: _PatchPrimitiveView {
    let _content: Content
    let _item: Item

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        let last = emission.nodes.count
        let before = emission.nodeCount
        let label = emission.children(of: _item)
        for position in first..<last {
            _patchTabItems.append((position, emission.nodes[position].kind, label, emission.nodeCount - before))
        }
    }
}

extension View {
    func tabItem<Item: View>(@ViewBuilder _ label: () -> Item) -> _PatchTabItem<Self, Item> {
        _PatchTabItem(_content: self, _item: label())
    }
}

/// `TabView { }`: one IRTab per child, tagged by its position, SwiftUI owning the selection
/// (`tabView`); `TabView(selection:)` (ViewDSL+Tabs.swift): the same tabs tagged by their
/// `.tag(_:)`, the guest owning the selection (`boundTabView`).
struct TabView<Content: View>: _PatchPrimitiveView {
    let _content: Content
    /// The bound form's selection; nil for the unbound form.
    var _selection: _PatchTabSelection? = nil

    init(@ViewBuilder content: () -> Content) { _content = content() }

    func _patchEmit(into emission: inout _PatchEmission) {
        // The unbound TabView came with the containers of schema 2, a bound selection with the
        // host-state vocabulary of 3 (§5.5).
        emission.requires(schema: _selection == nil ? 2 : 3)
        var event = _PatchIR()
        _selection?.registerEvent(&emission, &event)
        let outerItems = _patchTabItems
        let outerNodes = emission.nodes
        let outerOptions = emission.taggedOptions
        _patchTabItems = []
        emission.nodes = []
        // The bound form reads each tab's tag from the options `.tag(_:)` records.
        if _selection != nil { emission.taggedOptions = [] }
        _content._patchEmit(into: &emission)
        var tabs = emission.nodes
        let tagged = emission.taggedOptions ?? []
        emission.taggedOptions = outerOptions
        // A label is this TabView's when the node it was recorded on is one of its children: same
        // position and same kind. One recorded deeper (inside a ForEach row or a container) was on
        // another level, whose node a child of this level's never equals (a container's kind holds
        // its children's), so a ForEach of tabs is one unlabelled tab, as the IR unrolls it.
        var labels = [_PatchIR?](repeating: nil, count: tabs.count)
        for item in _patchTabItems {
            if item.position < tabs.count && tabs[item.position].kind == item.kind {
                labels[item.position] = item.label
            } else {
                emission.nodeCount -= item.nodeCount  // not in the tree: coverage counts what is
            }
        }
        _patchTabItems = outerItems
        emission.nodes = outerNodes
        var ir = _PatchIR()
        if let _selection {
            ir.raw("{\"boundTabView\":{\"selection\":")
            _selection.writeValue(&ir)
            ir.raw(",\"kind\":\"")
            ir.raw(_selection.kind)
            ir.raw("\",\"tabs\":[")
        } else {
            ir.raw("{\"tabView\":{\"tabs\":[")
        }
        var nextOption = 0
        for position in tabs.indices {
            if position > 0 { ir.raw(",") }
            ir.raw("{\"tag\":")
            let isTagged = _selection.map { _patchWriteTabTag(of: tabs[position], kind: $0.kind, options: tagged, from: &nextOption, into: &ir) } ?? false
            if !isTagged {
                ir.raw("\"")
                ir.integer(position)
                ir.raw("\"")
            }
            ir.raw(",\"tabItem\":")
            if let label = labels[position] { ir.raw(label) } else { ir.raw("[]") }
            ir.raw(",\"content\":[")
            tabs[position].write(into: &ir)
            ir.raw("]}")
        }
        ir.raw("],\"style\":\"automatic\"")
        if _selection != nil {
            ir.raw(",\"event\":")
            ir.raw(event.bytes)
        }
        ir.raw("}}")
        emission.append(ir)
    }
}

// MARK: - DisclosureGroup

/// The unbound `DisclosureGroup` (SwiftUI owns the expansion); `isExpanded:` is another IR node.
struct DisclosureGroup<Label: View, Content: View>: _PatchPrimitiveView {
    let _label: Label
    let _content: Content

    init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        _label = label()
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        let label = emission.children(of: _label)
        emission.appendContainer("{\"disclosureGroup\":{", content: _content) { ir in
            ir.raw("\"label\":")
            ir.raw(label)
            ir.raw(",")
        }
    }
}

extension DisclosureGroup where Label == Text {
    init(_ title: String, @ViewBuilder content: () -> Content) {
        self.init(content: content) { Text(title) }
    }
}
