// Guest view DSL (see ViewDSL.swift): lists, forms, scroll views, lazy stacks and grids
// (sdk-contract §5.6.4). None of these is in the initial (v1) vocabulary, so each asks for schema 2.

// MARK: - List, Section, Form

struct List<Content: View>: _PatchPrimitiveView {
    let _content: Content

    init(@ViewBuilder content: () -> Content) { _content = content() }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"list\":{", content: _content)
    }
}

extension List {
    /// `List(data) { row }`: the rows run in the guest and are the list's children (the IR's list
    /// carries already-unrolled rows, §5.6.4), exactly as `List { ForEach(data) { row } }` is.
    init<Data: Sequence, RowContent: View>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == _PatchRows<Data, RowContent> {
        _content = _PatchRows(_data: data, _row: rowContent)
    }
}

extension List {
    /// `List(data, id:) { row }` with the id as a closure, the form a key path (`id: \.id`, which
    /// Embedded Swift cannot compile) is rewritten to: row identity in the IR is the position
    /// (§5.6.7), so the id is not needed to write the rows.
    init<Data: Sequence, ID: Hashable, RowContent: View>(_ data: Data, id: @escaping (Data.Element) -> ID,
                                                         @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == _PatchRows<Data, RowContent> {
        _content = _PatchRows(_data: data, _row: rowContent)
    }
}

/// The rows of a data-driven container, written side by side on the container's level.
struct _PatchRows<Data: Sequence, Row: View>: _PatchPrimitiveView {
    let _data: Data
    let _row: (Data.Element) -> Row

    func _patchEmit(into emission: inout _PatchEmission) {
        for element in _data { _row(element)._patchEmit(into: &emission) }
    }
}

/// `Section` with a header, content and footer; an absent header or footer is an empty array.
struct Section<Parent: View, Content: View, Footer: View>: _PatchPrimitiveView {
    let _header: Parent
    let _content: Content
    let _footer: Footer

    init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer) {
        _header = header()
        _content = content()
        _footer = footer()
    }

    /// The pre-iOS 15 form, still common: header and footer as values.
    init(header: Parent, footer: Footer, @ViewBuilder content: () -> Content) {
        _header = header
        _content = content()
        _footer = footer
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        let header = emission.children(of: _header)
        let content = emission.children(of: _content)
        let footer = emission.children(of: _footer)
        var ir = _PatchIR()
        ir.raw("{\"section\":{\"header\":")
        ir.raw(header)
        ir.raw(",\"footer\":")
        ir.raw(footer)
        ir.raw(",\"content\":")
        ir.raw(content)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    init(@ViewBuilder content: () -> Content) {
        self.init(content: content, header: { EmptyView() }, footer: { EmptyView() })
    }
}

extension Section where Footer == EmptyView {
    init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        self.init(content: content, header: header, footer: { EmptyView() })
    }

    init(header: Parent, @ViewBuilder content: () -> Content) {
        self.init(header: header, footer: EmptyView(), content: content)
    }
}

extension Section where Parent == EmptyView {
    init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) {
        self.init(content: content, header: { EmptyView() }, footer: footer)
    }

    init(footer: Footer, @ViewBuilder content: () -> Content) {
        self.init(header: EmptyView(), footer: footer, content: content)
    }
}

extension Section where Parent == Text, Footer == EmptyView {
    /// `Section("Title") { … }`: the title is the header's Text.
    init(_ title: String, @ViewBuilder content: () -> Content) {
        self.init(content: content, header: { Text(title) }, footer: { EmptyView() })
    }
}

struct Form<Content: View>: _PatchPrimitiveView {
    let _content: Content

    init(@ViewBuilder content: () -> Content) { _content = content() }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"form\":{", content: _content)
    }
}

// MARK: - ScrollView

enum Axis {
    case horizontal, vertical

    /// The axes a scroll view scrolls on. The IR's scroll view has exactly one axis (IRScrollAxis),
    /// so this is not an option set: `[.horizontal, .vertical]` does not compile in the guest and
    /// the view stays native with the compiler's reason.
    struct Set {
        let _name: StaticString
        static let horizontal = Set(_name: "horizontal")
        static let vertical = Set(_name: "vertical")
    }
}

struct ScrollView<Content: View>: _PatchPrimitiveView {
    let _axis: Axis.Set
    let _showsIndicators: Bool
    let _content: Content

    init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        _axis = axes
        _showsIndicators = showsIndicators
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        let first = emission.nodes.count
        emission.appendContainer("{\"scrollView\":{", content: _content) { ir in
            ir.raw("\"axis\":")
            _patchName(_axis._name, into: &ir)
            ir.raw(",")
        }
        // `showsIndicators: false` is `.scrollIndicators(.hidden)` on the scroll view's own axis,
        // the IR's way to say it (schema 5).
        guard !_showsIndicators else { return }
        emission.requires(schema: 5)
        var modifier = _PatchIR()
        modifier.raw("{\"scrollIndicators\":{\"_0\":\"hidden\",\"axes\":")
        _patchName(_axis._name, into: &modifier)
        modifier.raw("}}")
        emission.appendModifier(modifier, toNodesFrom: first)
    }
}

// MARK: - Lazy stacks

/// LazyVStack/LazyHStack render like their eager stacks (§5.6.4). `pinnedViews:` is not taken: the
/// IR has no pinned headers, so a body that pins them stays native.
struct LazyVStack<Content: View>: _PatchPrimitiveView {
    let _alignment: HorizontalAlignment?
    let _spacing: Double?
    let _content: Content

    init(alignment: HorizontalAlignment? = nil, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _spacing = spacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"lazyVStack\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",\"spacing\":")
            ir.optionalNumber(_spacing)
            ir.raw(",")
        }
    }
}

struct LazyHStack<Content: View>: _PatchPrimitiveView {
    let _alignment: VerticalAlignment?
    let _spacing: Double?
    let _content: Content

    init(alignment: VerticalAlignment? = nil, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _spacing = spacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"lazyHStack\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",\"spacing\":")
            ir.optionalNumber(_spacing)
            ir.raw(",")
        }
    }
}

// MARK: - Grids

extension _PatchIR {
    /// An IRLength: `.infinity` is its own case, any other value is points.
    mutating func length(_ value: Double) {
        if value.isInfinite && value > 0 { raw("{\"infinity\":{}}"); return }
        raw("{\"points\":{\"_0\":")
        number(value)
        raw("}}")
    }
}

struct GridItem {
    enum Size {
        case fixed(Double)
        case flexible(minimum: Double = 10, maximum: Double = .infinity)
        case adaptive(minimum: Double, maximum: Double = .infinity)
    }

    let _size: Size
    let _spacing: Double?
    let _alignment: Alignment?

    init(_ size: Size = .flexible(), spacing: Double? = nil, alignment: Alignment? = nil) {
        _size = size
        _spacing = spacing
        _alignment = alignment
    }

    /// The IRGridItem JSON.
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"size\":")
        switch _size {
        case .fixed(let width):
            ir.raw("{\"fixed\":{\"_0\":")
            ir.number(width)
            ir.raw("}}")
        case .flexible(let minimum, let maximum):
            ir.raw("{\"flexible\":{\"min\":")
            ir.number(minimum)
            ir.raw(",\"max\":")
            ir.length(maximum)
            ir.raw("}}")
        case .adaptive(let minimum, let maximum):
            ir.raw("{\"adaptive\":{\"min\":")
            ir.number(minimum)
            ir.raw(",\"max\":")
            ir.length(maximum)
            ir.raw("}}")
        }
        ir.raw(",\"spacing\":")
        ir.optionalNumber(_spacing)
        ir.raw(",\"alignment\":")
        _patchName(_alignment?._name, into: &ir)
        ir.raw("}")
    }
}

func _patchGridItems(_ key: StaticString, _ items: [GridItem], into ir: inout _PatchIR) {
    ir.key(key)
    ir.raw("[")
    for (position, item) in items.enumerated() {
        if position > 0 { ir.raw(",") }
        item._write(into: &ir)
    }
    ir.raw("],")
}

/// LazyVGrid/LazyHGrid: cells pre-unrolled (§5.6.4). The IR has no `alignment:` or `pinnedViews:`
/// for them, so those arguments are not taken (a body using them stays native).
struct LazyVGrid<Content: View>: _PatchPrimitiveView {
    let _columns: [GridItem]
    let _spacing: Double?
    let _content: Content

    init(columns: [GridItem], spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        _columns = columns
        _spacing = spacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"lazyVGrid\":{", content: _content) { ir in
            _patchGridItems("columns", _columns, into: &ir)
            ir.raw("\"spacing\":")
            ir.optionalNumber(_spacing)
            ir.raw(",")
        }
    }
}

struct LazyHGrid<Content: View>: _PatchPrimitiveView {
    let _rows: [GridItem]
    let _spacing: Double?
    let _content: Content

    init(rows: [GridItem], spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        _rows = rows
        _spacing = spacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"lazyHGrid\":{", content: _content) { ir in
            _patchGridItems("rows", _rows, into: &ir)
            ir.raw("\"spacing\":")
            ir.optionalNumber(_spacing)
            ir.raw(",")
        }
    }
}

struct Grid<Content: View>: _PatchPrimitiveView {
    let _alignment: Alignment?
    let _horizontalSpacing: Double?
    let _verticalSpacing: Double?
    let _content: Content

    init(alignment: Alignment? = nil, horizontalSpacing: Double? = nil, verticalSpacing: Double? = nil,
         @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _horizontalSpacing = horizontalSpacing
        _verticalSpacing = verticalSpacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"grid\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",\"horizontalSpacing\":")
            ir.optionalNumber(_horizontalSpacing)
            ir.raw(",\"verticalSpacing\":")
            ir.optionalNumber(_verticalSpacing)
            ir.raw(",")
        }
    }
}

struct GridRow<Content: View>: _PatchPrimitiveView {
    let _alignment: VerticalAlignment?
    let _content: Content

    init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        emission.appendContainer("{\"gridRow\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",")
        }
    }
}
