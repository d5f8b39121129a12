// Guest view DSL: compiled into modules that ship SwiftUI view bodies (never into function-only
// modules). It mirrors the names and shapes of SwiftUI that a body uses, so a body copied from the
// project compiles unchanged in Embedded Swift, and evaluating it writes the SDK's view IR
// (sdk-contract §5.6.1: `{"kind":{…},"modifiers":[…]}` trees, enums as one-key objects, payload
// labels or `_N`, non-finite Doubles as "inf"/"-inf"/"nan").
//
// No existentials, key paths or Foundation (none compile here): containers are generic over their
// content, a node is written to bytes as soon as it is complete, and a modifier appends its bytes
// to the nodes its content wrote. Button actions are collected in tree order while a body is
// evaluated; `dispatch__<View>` evaluates the body again with the same state and runs the action
// whose id the event names.
//
// Names starting with `_Patch`/`_patch` are the glue's; the rest are SwiftUI's.

typealias CGFloat = Double

// MARK: - IR bytes

/// Bytes of IR JSON under construction.
struct _PatchIR {
    var bytes: [UInt8] = []

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// A JSON string, escaped by the prelude's writer (one escaping rule for every guest).
    mutating func string(_ text: String) {
        var writer = _PatchJSONWriter()
        var copy = text
        copy.withUTF8 { writer.writeString($0) }
        bytes.append(contentsOf: writer.bytes.buffer)
    }

    /// A Double as the IR decoder reads it: non-finite values are the strings "inf", "-inf", "nan".
    mutating func number(_ value: Double) {
        if value.isNaN { raw("\"nan\""); return }
        if value.isInfinite { value > 0 ? raw("\"inf\"") : raw("\"-inf\""); return }
        var writer = _PatchJSONWriter()
        writer.writeDouble(value)
        bytes.append(contentsOf: writer.bytes.buffer)
    }

    mutating func optionalNumber(_ value: Double?) {
        if let value { number(value) } else { raw("null") }
    }

    mutating func integer(_ value: Int) {
        var writer = _PatchJSONWriter()
        writer.writeInteger(Int64(value))
        bytes.append(contentsOf: writer.bytes.buffer)
    }

    /// `"key":`
    mutating func key(_ name: StaticString) {
        raw("\"")
        raw(name)
        raw("\":")
    }
}

/// One node of the tree: its kind's JSON and its modifiers' JSON, comma-separated in order.
struct _PatchNode {
    var kind: [UInt8]
    var modifiers: [UInt8] = []

    func write(into ir: inout _PatchIR) {
        ir.raw("{\"kind\":")
        ir.raw(kind)
        ir.raw(",\"modifiers\":[")
        ir.raw(modifiers)
        ir.raw("]}")
    }
}

/// Everything one evaluation of a body produces: the nodes written at the current level, the
/// Button actions in tree order (their ids are `action_<position>`), and coverage counts.
struct _PatchEmission {
    var nodes: [_PatchNode] = []
    var actions: [() -> Void] = []
    var nodeCount = 0
    var modifierCount = 0
    /// The lowest IR schema with every case the tree uses (§5.5): shapes, shape styles and the
    /// modifiers past the base set are version 2.
    var schemaVersion = 1

    mutating func requires(schema version: Int) {
        if version > schemaVersion { schemaVersion = version }
    }

    mutating func append(_ kind: _PatchIR) {
        nodes.append(_PatchNode(kind: kind.bytes))
        nodeCount += 1
    }

    /// Evaluates `content` on its own level and returns its nodes as a JSON array.
    mutating func children<Content: View>(of content: Content) -> [UInt8] {
        let outer = nodes
        nodes = []
        content._patchEmit(into: &self)
        var ir = _PatchIR()
        ir.raw("[")
        for (position, node) in nodes.enumerated() {
            if position > 0 { ir.raw(",") }
            node.write(into: &ir)
        }
        ir.raw("]")
        nodes = outer
        return ir.bytes
    }

    /// Appends a container node, `{"<kind>":{<fields>"children":[…]}}`: `opening` is `{"<kind>":{`,
    /// `fields` writes the container's own fields, each followed by a comma.
    mutating func appendContainer<Content: View>(_ opening: StaticString, content: Content,
                                                 fields: (inout _PatchIR) -> Void = { _ in }) {
        let childNodes = self.children(of: content)
        var ir = _PatchIR()
        ir.raw(opening)
        fields(&ir)
        ir.raw("\"children\":")
        ir.raw(childNodes)
        ir.raw("}}")
        append(ir)
    }

    /// The next Button's action id; the same body with the same state numbers its buttons alike.
    mutating func registerAction(_ action: @escaping () -> Void) -> [UInt8] {
        var ir = _PatchIR()
        ir.raw("action_")
        ir.integer(actions.count)
        actions.append(action)
        return ir.bytes
    }
}

// MARK: - View and builder

protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
    /// Appends this view's nodes to the emission's current level.
    func _patchEmit(into emission: inout _PatchEmission)
}

extension View {
    func _patchEmit(into emission: inout _PatchEmission) {
        body._patchEmit(into: &emission)
    }
}

/// A view the DSL writes itself rather than through a body.
protocol _PatchPrimitiveView: View where Body == Never {}

extension _PatchPrimitiveView {
    var body: Never { fatalError("a primitive view has no body") }
}

extension Never: View {
    typealias Body = Never
    var body: Never { fatalError("Never has no body") }
    func _patchEmit(into emission: inout _PatchEmission) {}
}

struct EmptyView: _PatchPrimitiveView {
    init() {}
    func _patchEmit(into emission: inout _PatchEmission) {}
}

/// Two builder children side by side; longer blocks nest them (`buildPartialBlock`).
struct _PatchPair<First: View, Second: View>: _PatchPrimitiveView {
    let first: First
    let second: Second
    func _patchEmit(into emission: inout _PatchEmission) {
        first._patchEmit(into: &emission)
        second._patchEmit(into: &emission)
    }
}

enum _PatchConditional<TrueContent: View, FalseContent: View>: _PatchPrimitiveView {
    case first(TrueContent)
    case second(FalseContent)
    func _patchEmit(into emission: inout _PatchEmission) {
        switch self {
        case .first(let content): content._patchEmit(into: &emission)
        case .second(let content): content._patchEmit(into: &emission)
        }
    }
}

extension Optional: View where Wrapped: View {
    typealias Body = Never
    var body: Never { fatalError("Optional has no body") }
    func _patchEmit(into emission: inout _PatchEmission) {
        if let wrapped = self { wrapped._patchEmit(into: &emission) }
    }
}

@resultBuilder
enum ViewBuilder {
    static func buildBlock() -> EmptyView { EmptyView() }
    static func buildPartialBlock<Content: View>(first: Content) -> Content { first }
    static func buildPartialBlock<First: View, Next: View>(accumulated: First, next: Next) -> _PatchPair<First, Next> {
        _PatchPair(first: accumulated, second: next)
    }
    static func buildEither<T: View, F: View>(first: T) -> _PatchConditional<T, F> { .first(first) }
    static func buildEither<T: View, F: View>(second: F) -> _PatchConditional<T, F> { .second(second) }
    static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    static func buildLimitedAvailability<Content: View>(_ content: Content) -> Content { content }
}

// MARK: - Layout values

struct HorizontalAlignment {
    let _name: StaticString
    static let leading = HorizontalAlignment(_name: "leading")
    static let center = HorizontalAlignment(_name: "center")
    static let trailing = HorizontalAlignment(_name: "trailing")
}

struct VerticalAlignment {
    let _name: StaticString
    static let top = VerticalAlignment(_name: "top")
    static let center = VerticalAlignment(_name: "center")
    static let bottom = VerticalAlignment(_name: "bottom")
    static let firstTextBaseline = VerticalAlignment(_name: "firstTextBaseline")
    static let lastTextBaseline = VerticalAlignment(_name: "lastTextBaseline")
}

struct Alignment {
    let _name: StaticString
    static let leading = Alignment(_name: "leading")
    static let center = Alignment(_name: "center")
    static let trailing = Alignment(_name: "trailing")
    static let top = Alignment(_name: "top")
    static let bottom = Alignment(_name: "bottom")
    static let topLeading = Alignment(_name: "topLeading")
    static let topTrailing = Alignment(_name: "topTrailing")
    static let bottomLeading = Alignment(_name: "bottomLeading")
    static let bottomTrailing = Alignment(_name: "bottomTrailing")
}

enum TextAlignment {
    case leading, center, trailing
}

struct Edge {
    struct Set: OptionSet {
        let rawValue: Int
        static let top = Set(rawValue: 1)
        static let leading = Set(rawValue: 2)
        static let bottom = Set(rawValue: 4)
        static let trailing = Set(rawValue: 8)
        static let all: Set = [.top, .leading, .bottom, .trailing]
        static let horizontal: Set = [.leading, .trailing]
        static let vertical: Set = [.top, .bottom]
    }
}

/// A string-valued enum case of the IR, or null.
private func _patchName(_ name: StaticString?, into ir: inout _PatchIR) {
    guard let name else { ir.raw("null"); return }
    ir.raw("\"")
    ir.raw(name)
    ir.raw("\"")
}

// MARK: - Colors and fonts

struct Color: _PatchPrimitiveView {
    /// The ColorRef JSON.
    let _ref: [UInt8]

    private init(named name: StaticString) {
        var ir = _PatchIR()
        ir.raw("{\"named\":{\"_0\":\"")
        ir.raw(name)
        ir.raw("\"}}")
        _ref = ir.bytes
    }

    init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        var ir = _PatchIR()
        ir.raw("{\"rgba\":{\"_0\":{\"r\":")
        ir.number(red)
        ir.raw(",\"g\":")
        ir.number(green)
        ir.raw(",\"b\":")
        ir.number(blue)
        ir.raw(",\"a\":")
        ir.number(opacity)
        ir.raw("}}}")
        _ref = ir.bytes
    }

    init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }

    static let primary = Color(named: "primary")
    static let secondary = Color(named: "secondary")
    static let accentColor = Color(named: "accentColor")
    static let red = Color(named: "red")
    static let orange = Color(named: "orange")
    static let yellow = Color(named: "yellow")
    static let green = Color(named: "green")
    static let mint = Color(named: "mint")
    static let teal = Color(named: "teal")
    static let cyan = Color(named: "cyan")
    static let blue = Color(named: "blue")
    static let indigo = Color(named: "indigo")
    static let purple = Color(named: "purple")
    static let pink = Color(named: "pink")
    static let brown = Color(named: "brown")
    static let white = Color(named: "white")
    static let gray = Color(named: "gray")
    static let black = Color(named: "black")
    static let clear = Color(named: "clear")

    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw("{\"color\":{\"_0\":")
        ir.raw(_ref)
        ir.raw("}}")
        emission.append(ir)
    }
}

struct Font {
    enum Weight {
        case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
        var _name: StaticString {
            switch self {
            case .ultraLight: "ultraLight"
            case .thin: "thin"
            case .light: "light"
            case .regular: "regular"
            case .medium: "medium"
            case .semibold: "semibold"
            case .bold: "bold"
            case .heavy: "heavy"
            case .black: "black"
            }
        }
    }

    enum Design {
        case `default`, serif, rounded, monospaced
        var _name: StaticString {
            switch self {
            case .default: "default"
            case .serif: "serif"
            case .rounded: "rounded"
            case .monospaced: "monospaced"
            }
        }
    }

    let _style: StaticString?
    let _size: Double?
    let _weight: Weight?
    let _design: Design?

    private static func style(_ name: StaticString) -> Font { Font(_style: name, _size: nil, _weight: nil, _design: nil) }

    static let largeTitle = style("largeTitle")
    static let title = style("title")
    static let title2 = style("title2")
    static let title3 = style("title3")
    static let headline = style("headline")
    static let subheadline = style("subheadline")
    static let body = style("body")
    static let callout = style("callout")
    static let footnote = style("footnote")
    static let caption = style("caption")
    static let caption2 = style("caption2")

    static func system(size: Double, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(_style: nil, _size: size, _weight: weight, _design: design)
    }

    func weight(_ weight: Weight) -> Font { Font(_style: _style, _size: _size, _weight: weight, _design: _design) }
    func bold() -> Font { weight(.bold) }

    /// The IRFont JSON.
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"style\":")
        _patchName(_style, into: &ir)
        ir.raw(",\"size\":")
        ir.optionalNumber(_size)
        ir.raw(",\"weight\":")
        _patchName(_weight?._name, into: &ir)
        ir.raw(",\"design\":")
        _patchName(_design?._name, into: &ir)
        ir.raw("}")
    }
}

// MARK: - Leaves

struct Text: _PatchPrimitiveView {
    let _content: String

    init(_ content: String) { _content = content }
    init(verbatim content: String) { _content = content }

    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw("{\"text\":{\"_0\":")
        ir.string(_content)
        ir.raw("}}")
        emission.append(ir)
    }
}

struct Image: _PatchPrimitiveView {
    let _name: String
    let _system: Bool

    init(systemName: String) { _name = systemName; _system = true }
    init(_ name: String) { _name = name; _system = false }

    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw(_system ? "{\"image\":{\"systemName\":" : "{\"bundleImage\":{\"name\":")
        ir.string(_name)
        ir.raw("}}")
        emission.append(ir)
    }
}

struct Spacer: _PatchPrimitiveView {
    let _minLength: Double?
    init(minLength: Double? = nil) { _minLength = minLength }

    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw("{\"spacer\":{\"minLength\":")
        ir.optionalNumber(_minLength)
        ir.raw("}}")
        emission.append(ir)
    }
}

struct Divider: _PatchPrimitiveView {
    init() {}
    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw("{\"divider\":{}}")
        emission.append(ir)
    }
}

// MARK: - Shapes

/// A standard shape: a view of its own (`shape`), and what `.clipShape` clips to (ShapeKind).
protocol Shape: _PatchPrimitiveView {
    /// The ShapeKind JSON.
    var _kind: _PatchIR { get }
}

extension Shape {
    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        var ir = _PatchIR()
        ir.raw("{\"shape\":{\"_0\":")
        ir.raw(_kind.bytes)
        ir.raw("}}")
        emission.append(ir)
    }

    func fill(_ color: Color) -> _PatchModified<Self> {
        var ir = _PatchIR()
        ir.raw("{\"fill\":{\"_0\":{\"color\":{\"_0\":")
        ir.raw(color._ref)
        ir.raw("}},\"eoFill\":false}}")
        return _PatchModified(_content: self, _modifier: ir.bytes, _schemaVersion: 2)
    }
}

private func _patchShapeKind(_ name: StaticString) -> _PatchIR {
    var ir = _PatchIR()
    ir.raw("{\"")
    ir.raw(name)
    ir.raw("\":{}}")
    return ir
}

struct Rectangle: Shape {
    init() {}
    var _kind: _PatchIR { _patchShapeKind("rectangle") }
}

struct Circle: Shape {
    init() {}
    var _kind: _PatchIR { _patchShapeKind("circle") }
}

struct Ellipse: Shape {
    init() {}
    var _kind: _PatchIR { _patchShapeKind("ellipse") }
}

struct Capsule: Shape {
    init() {}
    var _kind: _PatchIR { _patchShapeKind("capsule") }
}

struct RoundedRectangle: Shape {
    let _cornerRadius: Double
    init(cornerRadius: Double) { _cornerRadius = cornerRadius }
    var _kind: _PatchIR {
        var ir = _PatchIR()
        ir.raw("{\"roundedRectangle\":{\"cornerRadius\":")
        ir.number(_cornerRadius)
        ir.raw("}}")
        return ir
    }
}

// MARK: - Containers

struct VStack<Content: View>: _PatchPrimitiveView {
    let _alignment: HorizontalAlignment?
    let _spacing: Double?
    let _content: Content

    init(alignment: HorizontalAlignment? = nil, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _spacing = spacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.appendContainer("{\"vstack\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",\"spacing\":")
            ir.optionalNumber(_spacing)
            ir.raw(",")
        }
    }
}

struct HStack<Content: View>: _PatchPrimitiveView {
    let _alignment: VerticalAlignment?
    let _spacing: Double?
    let _content: Content

    init(alignment: VerticalAlignment? = nil, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _spacing = spacing
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.appendContainer("{\"hstack\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",\"spacing\":")
            ir.optionalNumber(_spacing)
            ir.raw(",")
        }
    }
}

struct ZStack<Content: View>: _PatchPrimitiveView {
    let _alignment: Alignment?
    let _content: Content

    init(alignment: Alignment? = nil, @ViewBuilder content: () -> Content) {
        _alignment = alignment
        _content = content()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.appendContainer("{\"zstack\":{", content: _content) { ir in
            ir.raw("\"alignment\":")
            _patchName(_alignment?._name, into: &ir)
            ir.raw(",")
        }
    }
}

struct Group<Content: View>: _PatchPrimitiveView {
    let _content: Content
    init(@ViewBuilder content: () -> Content) { _content = content() }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.appendContainer("{\"group\":{", content: _content)
    }
}

/// The loop runs in the guest; the host sees the unrolled rows (identity = position, §5.6.7).
struct ForEach<Data: Sequence, Content: View>: _PatchPrimitiveView {
    let _data: Data
    let _content: (Data.Element) -> Content

    init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        _data = data
        _content = content
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        let outer = emission.nodes
        emission.nodes = []
        for element in _data { _content(element)._patchEmit(into: &emission) }
        var ir = _PatchIR()
        ir.raw("{\"forEach\":{\"children\":[")
        for (position, node) in emission.nodes.enumerated() {
            if position > 0 { ir.raw(",") }
            node.write(into: &ir)
        }
        ir.raw("]}}")
        emission.nodes = outer
        emission.append(ir)
    }
}

struct Button<Label: View>: _PatchPrimitiveView {
    let _action: () -> Void
    let _label: Label

    init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        _action = action
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        let id = emission.registerAction(_action)
        let label = emission.children(of: _label)
        var ir = _PatchIR()
        ir.raw("{\"button\":{\"actionID\":\"")
        ir.raw(id)
        ir.raw("\",\"role\":null,\"label\":")
        ir.raw(label)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Button where Label == Text {
    init(_ title: String, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

// MARK: - Modifiers

/// `content` with one more modifier on each node it writes (a modifier on a group of siblings
/// applies to each, as SwiftUI's does).
struct _PatchModified<Content: View>: _PatchPrimitiveView {
    let _content: Content
    let _modifier: [UInt8]
    var _schemaVersion = 1

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        // An inactive modifier (`.bold(false)`) writes nothing.
        guard !_modifier.isEmpty else { return }
        emission.requires(schema: _schemaVersion)
        for position in first..<emission.nodes.count {
            if !emission.nodes[position].modifiers.isEmpty { emission.nodes[position].modifiers.append(UInt8(ascii: ",")) }
            emission.nodes[position].modifiers.append(contentsOf: _modifier)
            emission.modifierCount += 1
        }
    }
}

extension View {
    private func _modified(schema: Int = 1, _ write: (inout _PatchIR) -> Void) -> _PatchModified<Self> {
        var ir = _PatchIR()
        write(&ir)
        return _PatchModified(_content: self, _modifier: ir.bytes, _schemaVersion: schema)
    }

    func padding(_ edges: Edge.Set = .all, _ length: Double? = nil) -> _PatchModified<Self> {
        // SwiftUI's default padding is platform-dependent; 16 is its value on iPhone.
        let inset = length ?? 16
        return _modified { ir in
            ir.raw("{\"padding\":{\"_0\":{\"top\":")
            ir.number(edges.contains(.top) ? inset : 0)
            ir.raw(",\"leading\":")
            ir.number(edges.contains(.leading) ? inset : 0)
            ir.raw(",\"bottom\":")
            ir.number(edges.contains(.bottom) ? inset : 0)
            ir.raw(",\"trailing\":")
            ir.number(edges.contains(.trailing) ? inset : 0)
            ir.raw("}}}")
        }
    }

    func padding(_ length: Double) -> _PatchModified<Self> { padding(.all, length) }

    func font(_ font: Font?) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"font\":{\"_0\":")
            (font ?? .body)._write(into: &ir)
            ir.raw("}}")
        }
    }

    func bold(_ isActive: Bool = true) -> _PatchModified<Self> {
        _modified { ir in if isActive { ir.raw("{\"bold\":{}}") } }
    }

    func italic(_ isActive: Bool = true) -> _PatchModified<Self> {
        _modified { ir in if isActive { ir.raw("{\"italic\":{}}") } }
    }

    private func _colorModifier(_ key: StaticString, _ color: Color, schema: Int = 1) -> _PatchModified<Self> {
        _modified(schema: schema) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            ir.raw(color._ref)
            ir.raw("}}")
        }
    }

    func foregroundColor(_ color: Color) -> _PatchModified<Self> { _colorModifier("foregroundColor", color) }

    /// The color form of foregroundStyle is the IR's foregroundColor (§5.6.5).
    func foregroundStyle(_ color: Color) -> _PatchModified<Self> { _colorModifier("foregroundColor", color) }

    func background(_ color: Color) -> _PatchModified<Self> { _colorModifier("background", color) }

    func tint(_ color: Color) -> _PatchModified<Self> { _colorModifier("tint", color, schema: 2) }

    func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment? = nil) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"frame\":{\"width\":")
            ir.optionalNumber(width)
            ir.raw(",\"height\":")
            ir.optionalNumber(height)
            ir.raw(",\"alignment\":")
            _patchName(alignment?._name, into: &ir)
            ir.raw("}}")
        }
    }

    func frame(minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil,
               minHeight: Double? = nil, idealHeight: Double? = nil, maxHeight: Double? = nil,
               alignment: Alignment? = nil) -> _PatchModified<Self> {
        /// IRLength: `.infinity` is its own case.
        func length(_ value: Double?, into ir: inout _PatchIR) {
            guard let value else { ir.raw("null"); return }
            if value.isInfinite && value > 0 { ir.raw("{\"infinity\":{}}"); return }
            ir.raw("{\"points\":{\"_0\":")
            ir.number(value)
            ir.raw("}}")
        }
        return _modified(schema: 2) { ir in
            ir.raw("{\"flexFrame\":{\"minWidth\":")
            length(minWidth, into: &ir)
            ir.raw(",\"idealWidth\":")
            length(idealWidth, into: &ir)
            ir.raw(",\"maxWidth\":")
            length(maxWidth, into: &ir)
            ir.raw(",\"minHeight\":")
            length(minHeight, into: &ir)
            ir.raw(",\"idealHeight\":")
            length(idealHeight, into: &ir)
            ir.raw(",\"maxHeight\":")
            length(maxHeight, into: &ir)
            ir.raw(",\"alignment\":")
            _patchName(alignment?._name, into: &ir)
            ir.raw("}}")
        }
    }

    func opacity(_ opacity: Double) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"opacity\":{\"_0\":")
            ir.number(opacity)
            ir.raw("}}")
        }
    }

    func cornerRadius(_ radius: Double) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"cornerRadius\":{\"_0\":")
            ir.number(radius)
            ir.raw("}}")
        }
    }

    func lineLimit(_ limit: Int?) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"lineLimit\":{\"_0\":")
            if let limit { ir.integer(limit) } else { ir.raw("null") }
            ir.raw("}}")
        }
    }

    func multilineTextAlignment(_ alignment: TextAlignment) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"multilineTextAlignment\":{\"_0\":")
            switch alignment {
            case .leading: ir.raw("\"leading\"")
            case .center: ir.raw("\"center\"")
            case .trailing: ir.raw("\"trailing\"")
            }
            ir.raw("}}")
        }
    }

    func navigationTitle(_ title: String) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"navigationTitle\":{\"_0\":")
            ir.string(title)
            ir.raw("}}")
        }
    }

    func disabled(_ disabled: Bool) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in ir.raw(disabled ? "{\"disabled\":{\"_0\":true}}" : "{\"disabled\":{\"_0\":false}}") }
    }

    func clipShape<S: Shape>(_ shape: S) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"clipShape\":{\"_0\":")
            ir.raw(shape._kind.bytes)
            ir.raw("}}")
        }
    }

    func fixedSize() -> _PatchModified<Self> {
        _modified(schema: 2) { ir in ir.raw("{\"fixedSize\":{}}") }
    }
}

// MARK: - State

/// Guest-owned state (sdk-contract §5.4): the value lives in a box, so an action closure that
/// captured a copy of the view writes the state the next evaluation reads.
@propertyWrapper
struct State<Value> {
    final class _Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    let _box: _Box

    init(wrappedValue: Value) { _box = _Box(wrappedValue) }
    init(initialValue: Value) { _box = _Box(initialValue) }

    var wrappedValue: Value {
        get { _box.value }
        nonmutating set { _box.value = newValue }
    }

    var projectedValue: Binding<Value> {
        let box = _box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

@propertyWrapper
struct Binding<Value> {
    let _get: () -> Value
    let _set: (Value) -> Void

    init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        _get = get
        _set = set
    }

    /// A binding the guest owns: the parent's value arrives in the inputs, and a change goes back
    /// to the host in the dispatch state, which writes it into the native binding (§5.4).
    init(_patchValue value: Value) {
        let box = State<Value>._Box(value)
        self.init(get: { box.value }, set: { box.value = $0 })
    }

    static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    var wrappedValue: Value {
        get { _get() }
        nonmutating set { _set(newValue) }
    }

    var projectedValue: Binding<Value> { self }
}

// MARK: - Export plumbing

/// The root node of `nodes`: the only one, or a group of them.
private func _patchRoot(_ nodes: [_PatchNode], into ir: inout _PatchIR) {
    if nodes.count == 1 {
        nodes[0].write(into: &ir)
        return
    }
    ir.raw("{\"kind\":{\"group\":{\"children\":[")
    for (position, node) in nodes.enumerated() {
        if position > 0 { ir.raw(",") }
        node.write(into: &ir)
    }
    ir.raw("]}},\"modifiers\":[]}")
}

private func _patchCoverage(_ emission: _PatchEmission, into ir: inout _PatchIR) {
    ir.raw("\"coverage\":{\"totalNodes\":")
    ir.integer(emission.nodeCount)
    ir.raw(",\"opaqueNodes\":0,\"totalModifiers\":")
    ir.integer(emission.modifierCount)
    ir.raw(",\"opaqueModifiers\":0},\"schemaVersion\":")
    ir.integer(emission.schemaVersion)
}

private func _patchResult(_ ir: _PatchIR) -> Int64 {
    var writer = _PatchJSONWriter()
    ir.bytes.withUnsafeBufferPointer { writer.append($0) }
    return writer.packedResult()
}

private func _patchFailure(_ error: _PatchDecodeError) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.writeError(error)
    return writer.packedResult()
}

/// `view_body__<View>`: flat inputs (§5.4) → BodyEmission JSON.
func _patchViewBody<V: View>(_ input: UnsafePointer<UInt8>?, _ length: Int32,
                             _ make: (_PatchJSONValue) throws(_PatchDecodeError) -> V) -> Int64 {
    do throws(_PatchDecodeError) {
        // The host sends `{}` for a view without inputs; an empty buffer means the same.
        let view: V
        if length == 0 {
            let empty: StaticString = "{}"
            view = try make(try _PatchJSONReader.parse(empty.utf8Start, 2))
        } else {
            let inputs = try _PatchJSONReader.parse(input, length)
            guard inputs.isObject else { throw _PatchDecodeError("expected the view's inputs as a JSON object") }
            view = try make(inputs)
        }
        var emission = _PatchEmission()
        view._patchEmit(into: &emission)
        var ir = _PatchIR()
        ir.raw("{\"root\":")
        _patchRoot(emission.nodes, into: &ir)
        ir.raw(",")
        _patchCoverage(emission, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}

/// `dispatch__<View>`: `{"state":"<inputs JSON>","event":{"event":{"id":…},"value":…}}` →
/// DispatchResult. Runs the Button action the event names (none for an unknown id), then writes
/// the view's `@State` fields as the new state and the tree they give.
func _patchViewDispatch<V: View>(_ input: UnsafePointer<UInt8>?, _ length: Int32,
                                 _ make: (_PatchJSONValue) throws(_PatchDecodeError) -> V,
                                 _ writeState: (V, inout _PatchJSONWriter) -> Void) -> Int64 {
    do throws(_PatchDecodeError) {
        let request = try _PatchJSONReader.parse(input, length)
        guard let stateText = try request.member("state").string() else { throw _PatchDecodeError("expected a string", key: "state") }
        guard let eventID = try request.member("event").member("event").member("id").string() else {
            throw _PatchDecodeError("expected a string", key: "id")
        }
        let state = stateText.buffer
        let view: V
        if state.count == 0 {
            let empty: StaticString = "{}"
            view = try make(try _PatchJSONReader.parse(empty.utf8Start, 2))
        } else {
            let inputs = try _PatchJSONReader.parse(state.baseAddress, Int32(state.count))
            guard inputs.isObject else { throw _PatchDecodeError("expected the state as a JSON object", key: "state") }
            view = try make(inputs)
        }
        var before = _PatchEmission()
        view._patchEmit(into: &before)
        let id = eventID.buffer
        let prefix: StaticString = "action_"
        var isAction = id.count > prefix.utf8CodeUnitCount
        for offset in 0..<prefix.utf8CodeUnitCount where isAction && id[offset] != prefix.utf8Start[offset] { isAction = false }
        if isAction {
            var position = 0
            var numeric = true
            for byte in id[prefix.utf8CodeUnitCount...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { numeric = false; break }
                position = position * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if numeric, position < before.actions.count { before.actions[position]() }
        }
        var newState = _PatchJSONWriter()
        writeState(view, &newState)
        var after = _PatchEmission()
        view._patchEmit(into: &after)
        var ir = _PatchIR()
        ir.raw("{\"state\":")
        ir.string(String(decoding: newState.bytes.buffer, as: UTF8.self))
        ir.raw(",\"tree\":")
        _patchRoot(after.nodes, into: &ir)
        ir.raw(",")
        _patchCoverage(after, into: &ir)
        ir.raw("}")
        return _patchResult(ir)
    } catch {
        return _patchFailure(error)
    }
}
