// Guest view DSL (see ViewDSL.swift): the modifiers real bodies use most after the base set
// (ranked by benchmarks/lowering/modifier_census.py), each exactly as sdk-contract §5.6.5 writes it.
// Schema (§5.5): the styling, layout, effect, text and control-style cases came with 2; the list-row
// and hit-testing cases, navigation chrome and accessibility are stamped 3, the first version sure to
// have them; the scroll cases 5 and the visibility cases 6, as §5.5 dates them.

// MARK: - Values

struct UnitPoint {
    /// The IRUnitPoint JSON.
    let _ir: [UInt8]

    private init(named name: StaticString) {
        var ir = _PatchIR()
        ir.raw("{\"")
        ir.raw(name)
        ir.raw("\":{}}")
        _ir = ir.bytes
    }

    init(x: Double, y: Double) {
        var ir = _PatchIR()
        ir.raw("{\"xy\":{\"x\":")
        ir.number(x)
        ir.raw(",\"y\":")
        ir.number(y)
        ir.raw("}}")
        _ir = ir.bytes
    }

    static let zero = UnitPoint(x: 0, y: 0)
    static let center = UnitPoint(named: "center")
    static let top = UnitPoint(named: "top")
    static let bottom = UnitPoint(named: "bottom")
    static let leading = UnitPoint(named: "leading")
    static let trailing = UnitPoint(named: "trailing")
    static let topLeading = UnitPoint(named: "topLeading")
    static let topTrailing = UnitPoint(named: "topTrailing")
    static let bottomLeading = UnitPoint(named: "bottomLeading")
    static let bottomTrailing = UnitPoint(named: "bottomTrailing")
}

struct Angle {
    let degrees: Double
    var radians: Double { degrees * .pi / 180 }

    init(degrees: Double) { self.degrees = degrees }
    init(radians: Double) { degrees = radians * 180 / .pi }

    static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
}

struct EdgeInsets {
    var top: Double
    var leading: Double
    var bottom: Double
    var trailing: Double

    init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// The IREdgeInsets JSON (all four sides, which the IR requires).
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"top\":")
        ir.number(top)
        ir.raw(",\"leading\":")
        ir.number(leading)
        ir.raw(",\"bottom\":")
        ir.number(bottom)
        ir.raw(",\"trailing\":")
        ir.number(trailing)
        ir.raw("}")
    }
}

enum ContentMode {
    case fit, fill
}

extension Font {
    enum TextStyle {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
        var _name: StaticString {
            switch self {
            case .largeTitle: "largeTitle"
            case .title: "title"
            case .title2: "title2"
            case .title3: "title3"
            case .headline: "headline"
            case .subheadline: "subheadline"
            case .body: "body"
            case .callout: "callout"
            case .footnote: "footnote"
            case .caption: "caption"
            case .caption2: "caption2"
            }
        }
    }

    /// `.system(.body, design: .rounded)`: IRFont takes the style with a design and weight.
    static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        Font(_style: style._name, _size: nil, _weight: weight, _design: design)
    }
}

extension Text {
    enum Case {
        case uppercase, lowercase
    }
}

extension Image {
    enum Scale {
        case small, medium, large
    }
}

/// A SwiftUI enum the IR carries as its case name (a String payload of §5.6.5).
protocol _PatchNamedValue {
    var _name: StaticString { get }
}

struct ControlSize: _PatchNamedValue {
    let _name: StaticString
    static let mini = ControlSize(_name: "mini")
    static let small = ControlSize(_name: "small")
    static let regular = ControlSize(_name: "regular")
    static let large = ControlSize(_name: "large")
    static let extraLarge = ControlSize(_name: "extraLarge")
}

/// SwiftUI's text sizes, smallest first (ranges of them are written `...(.xLarge)`).
struct DynamicTypeSize: _PatchNamedValue, Comparable {
    let _name: StaticString
    let _rank: Int
    static let xSmall = DynamicTypeSize(_name: "xSmall", _rank: 0)
    static let small = DynamicTypeSize(_name: "small", _rank: 1)
    static let medium = DynamicTypeSize(_name: "medium", _rank: 2)
    static let large = DynamicTypeSize(_name: "large", _rank: 3)
    static let xLarge = DynamicTypeSize(_name: "xLarge", _rank: 4)
    static let xxLarge = DynamicTypeSize(_name: "xxLarge", _rank: 5)
    static let xxxLarge = DynamicTypeSize(_name: "xxxLarge", _rank: 6)
    static let accessibility1 = DynamicTypeSize(_name: "accessibility1", _rank: 7)
    static let accessibility2 = DynamicTypeSize(_name: "accessibility2", _rank: 8)
    static let accessibility3 = DynamicTypeSize(_name: "accessibility3", _rank: 9)
    static let accessibility4 = DynamicTypeSize(_name: "accessibility4", _rank: 10)
    static let accessibility5 = DynamicTypeSize(_name: "accessibility5", _rank: 11)

    static func < (lhs: DynamicTypeSize, rhs: DynamicTypeSize) -> Bool { lhs._rank < rhs._rank }
    static func == (lhs: DynamicTypeSize, rhs: DynamicTypeSize) -> Bool { lhs._rank == rhs._rank }
}

struct SymbolRenderingMode: _PatchNamedValue {
    let _name: StaticString
    static let monochrome = SymbolRenderingMode(_name: "monochrome")
    static let hierarchical = SymbolRenderingMode(_name: "hierarchical")
    static let palette = SymbolRenderingMode(_name: "palette")
    static let multicolor = SymbolRenderingMode(_name: "multicolor")
}

struct RedactionReasons: _PatchNamedValue {
    let _name: StaticString
    static let placeholder = RedactionReasons(_name: "placeholder")
    static let privacy = RedactionReasons(_name: "privacy")
    static let invalidated = RedactionReasons(_name: "invalidated")
}

/// `.navigationBarTitleDisplayMode(_:)`'s values.
struct NavigationBarItem {
    struct TitleDisplayMode: _PatchNamedValue {
        let _name: StaticString
        static let automatic = TitleDisplayMode(_name: "automatic")
        static let inline = TitleDisplayMode(_name: "inline")
        static let large = TitleDisplayMode(_name: "large")
    }
}

/// `.toolbarTitleDisplayMode(_:)` (iOS 17) is the IR's navigationBarTitleDisplayMode; its
/// `.inlineLarge` has no IR value and is not declared.
struct ToolbarTitleDisplayMode: _PatchNamedValue {
    let _name: StaticString
    static let automatic = ToolbarTitleDisplayMode(_name: "automatic")
    static let inline = ToolbarTitleDisplayMode(_name: "inline")
    static let large = ToolbarTitleDisplayMode(_name: "large")
}

struct Visibility: _PatchNamedValue {
    let _name: StaticString
    static let automatic = Visibility(_name: "automatic")
    static let visible = Visibility(_name: "visible")
    static let hidden = Visibility(_name: "hidden")
}

struct VerticalEdge {
    struct Set: _PatchNamedValue {
        let _name: StaticString
        static let all = Set(_name: "all")
        static let top = Set(_name: "top")
        static let bottom = Set(_name: "bottom")
    }
}

struct SafeAreaRegions: _PatchNamedValue {
    let _name: StaticString
    static let all = SafeAreaRegions(_name: "all")
    static let container = SafeAreaRegions(_name: "container")
    static let keyboard = SafeAreaRegions(_name: "keyboard")
}

struct ContentMarginPlacement: _PatchNamedValue {
    let _name: StaticString
    static let automatic = ContentMarginPlacement(_name: "automatic")
    static let scrollContent = ContentMarginPlacement(_name: "scrollContent")
    static let scrollIndicators = ContentMarginPlacement(_name: "scrollIndicators")
}

struct ScrollIndicatorVisibility: _PatchNamedValue {
    let _name: StaticString
    static let automatic = ScrollIndicatorVisibility(_name: "automatic")
    static let visible = ScrollIndicatorVisibility(_name: "visible")
    static let hidden = ScrollIndicatorVisibility(_name: "hidden")
    static let never = ScrollIndicatorVisibility(_name: "never")
}

struct SymbolVariants: _PatchNamedValue {
    let _name: StaticString
    static let none = SymbolVariants(_name: "none")
    static let circle = SymbolVariants(_name: "circle")
    static let square = SymbolVariants(_name: "square")
    static let rectangle = SymbolVariants(_name: "rectangle")
    static let fill = SymbolVariants(_name: "fill")
    static let slash = SymbolVariants(_name: "slash")
}

// MARK: - Built-in styles

// SwiftUI's style modifiers take a style value (`.buttonStyle(.plain)` or `PlainButtonStyle()`);
// the built-in ones are IR names. A project's own style type does not conform here (its
// `makeBody` needs the style configuration the guest does not have), so such a body stays native.

protocol PrimitiveButtonStyle: _PatchNamedValue {}
struct DefaultButtonStyle: PrimitiveButtonStyle { init() {}; var _name: StaticString { "automatic" } }
struct BorderedButtonStyle: PrimitiveButtonStyle { init() {}; var _name: StaticString { "bordered" } }
struct BorderedProminentButtonStyle: PrimitiveButtonStyle { init() {}; var _name: StaticString { "borderedProminent" } }
struct BorderlessButtonStyle: PrimitiveButtonStyle { init() {}; var _name: StaticString { "borderless" } }
struct PlainButtonStyle: PrimitiveButtonStyle { init() {}; var _name: StaticString { "plain" } }

extension PrimitiveButtonStyle where Self == DefaultButtonStyle { static var automatic: DefaultButtonStyle { DefaultButtonStyle() } }
extension PrimitiveButtonStyle where Self == BorderedButtonStyle { static var bordered: BorderedButtonStyle { BorderedButtonStyle() } }
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle { static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() } }
extension PrimitiveButtonStyle where Self == PlainButtonStyle { static var plain: PlainButtonStyle { PlainButtonStyle() } }

protocol ListStyle: _PatchNamedValue {}
struct DefaultListStyle: ListStyle { init() {}; var _name: StaticString { "automatic" } }
struct PlainListStyle: ListStyle { init() {}; var _name: StaticString { "plain" } }
struct GroupedListStyle: ListStyle { init() {}; var _name: StaticString { "grouped" } }
struct InsetGroupedListStyle: ListStyle { init() {}; var _name: StaticString { "insetGrouped" } }
struct InsetListStyle: ListStyle { init() {}; var _name: StaticString { "inset" } }
struct SidebarListStyle: ListStyle { init() {}; var _name: StaticString { "sidebar" } }

extension ListStyle where Self == DefaultListStyle { static var automatic: DefaultListStyle { DefaultListStyle() } }
extension ListStyle where Self == PlainListStyle { static var plain: PlainListStyle { PlainListStyle() } }
extension ListStyle where Self == GroupedListStyle { static var grouped: GroupedListStyle { GroupedListStyle() } }
extension ListStyle where Self == InsetGroupedListStyle { static var insetGrouped: InsetGroupedListStyle { InsetGroupedListStyle() } }
extension ListStyle where Self == InsetListStyle { static var inset: InsetListStyle { InsetListStyle() } }
extension ListStyle where Self == SidebarListStyle { static var sidebar: SidebarListStyle { SidebarListStyle() } }

protocol LabelStyle: _PatchNamedValue {}
struct DefaultLabelStyle: LabelStyle { init() {}; var _name: StaticString { "automatic" } }
struct IconOnlyLabelStyle: LabelStyle { init() {}; var _name: StaticString { "iconOnly" } }
struct TitleOnlyLabelStyle: LabelStyle { init() {}; var _name: StaticString { "titleOnly" } }
struct TitleAndIconLabelStyle: LabelStyle { init() {}; var _name: StaticString { "titleAndIcon" } }

extension LabelStyle where Self == DefaultLabelStyle { static var automatic: DefaultLabelStyle { DefaultLabelStyle() } }
extension LabelStyle where Self == IconOnlyLabelStyle { static var iconOnly: IconOnlyLabelStyle { IconOnlyLabelStyle() } }
extension LabelStyle where Self == TitleOnlyLabelStyle { static var titleOnly: TitleOnlyLabelStyle { TitleOnlyLabelStyle() } }
extension LabelStyle where Self == TitleAndIconLabelStyle { static var titleAndIcon: TitleAndIconLabelStyle { TitleAndIconLabelStyle() } }

struct ButtonBorderShape: _PatchNamedValue {
    let _name: StaticString
    static let automatic = ButtonBorderShape(_name: "automatic")
    static let capsule = ButtonBorderShape(_name: "capsule")
    static let roundedRectangle = ButtonBorderShape(_name: "roundedRectangle")
    static let circle = ButtonBorderShape(_name: "circle")
}

protocol NavigationViewStyle: _PatchNamedValue {}
struct DefaultNavigationViewStyle: NavigationViewStyle { init() {}; var _name: StaticString { "automatic" } }
struct StackNavigationViewStyle: NavigationViewStyle { init() {}; var _name: StaticString { "stack" } }
struct ColumnNavigationViewStyle: NavigationViewStyle { init() {}; var _name: StaticString { "columns" } }

extension NavigationViewStyle where Self == DefaultNavigationViewStyle {
    static var automatic: DefaultNavigationViewStyle { DefaultNavigationViewStyle() }
}
extension NavigationViewStyle where Self == StackNavigationViewStyle { static var stack: StackNavigationViewStyle { StackNavigationViewStyle() } }
extension NavigationViewStyle where Self == ColumnNavigationViewStyle { static var columns: ColumnNavigationViewStyle { ColumnNavigationViewStyle() } }

// MARK: - Modifiers with view content

/// `content` with a modifier whose payload holds views (`.overlay { }`, `.background { }`,
/// `.mask { }`, `.listRowBackground(_:)`): the payload's views are evaluated after the content, in
/// tree order, so their Buttons get ids like any other; `write` wraps them (a JSON array) in the
/// modifier's JSON.
struct _PatchContentModified<Content: View, Payload: View>: _PatchPrimitiveView {
    let _content: Content
    let _payload: Payload
    let _schemaVersion: Int
    let _write: (_PatchIR, inout _PatchIR) -> Void

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        let last = emission.nodes.count
        guard first < last else { return }
        let payload = emission.children(of: _payload)
        var ir = _PatchIR()
        _write(payload, &ir)
        emission.requires(schema: _schemaVersion)
        emission.appendModifier(ir, toNodesFrom: first)
    }
}

/// `{"<key>":{"alignment":…,"content":[…]}}`, the shape of overlayContent, backgroundContent and mask.
private func _patchAlignedContent(_ key: StaticString, _ alignment: Alignment, _ content: _PatchIR, into ir: inout _PatchIR) {
    ir.raw("{\"")
    ir.raw(key)
    ir.raw("\":{\"alignment\":")
    _patchName(alignment._name, into: &ir)
    ir.raw(",\"content\":")
    ir.raw(content)
    ir.raw("}}")
}

extension View {
    func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _PatchContentModified<Self, V> {
        _PatchContentModified(_content: self, _payload: content(), _schemaVersion: 2) { views, ir in
            _patchAlignedContent("overlayContent", alignment, views, into: &ir)
        }
    }

    func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> _PatchContentModified<Self, V> {
        self.overlay(alignment: alignment) { overlay }
    }

    func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _PatchContentModified<Self, V> {
        _PatchContentModified(_content: self, _payload: content(), _schemaVersion: 2) { views, ir in
            _patchAlignedContent("backgroundContent", alignment, views, into: &ir)
        }
    }

    func background<V: View>(_ background: V, alignment: Alignment = .center) -> _PatchContentModified<Self, V> {
        self.background(alignment: alignment) { background }
    }

    func mask<V: View>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> V) -> _PatchContentModified<Self, V> {
        _PatchContentModified(_content: self, _payload: mask(), _schemaVersion: 2) { views, ir in
            _patchAlignedContent("mask", alignment, views, into: &ir)
        }
    }

    /// The older `mask(_:)` (iOS 13–14 apps: `.mask(RoundedRectangle(cornerRadius: 10))`): the mask centered.
    func mask<V: View>(_ mask: V) -> _PatchContentModified<Self, V> { self.mask { mask } }

    /// A nil background is no row background: an empty subtree.
    func listRowBackground<V: View>(_ view: V?) -> _PatchContentModified<Self, V?> {
        _PatchContentModified(_content: self, _payload: view, _schemaVersion: 3) { views, ir in
            ir.raw("{\"listRowBackground\":{\"_0\":")
            ir.raw(views)
            ir.raw("}}")
        }
    }
}

// MARK: - Modifiers with values

extension View {
    /// `{"<key>":{"_0":"<name>"}}`: a modifier whose payload is a SwiftUI enum's case name.
    func _namedModifier(_ key: StaticString, _ name: StaticString, schema: Int) -> _PatchModified<Self> {
        _modified(schema: schema) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            _patchName(name, into: &ir)
            ir.raw("}}")
        }
    }

    /// `{"<key>":{"_0":<number>}}`.
    func _numberModifier(_ key: StaticString, _ value: Double, schema: Int = 2) -> _PatchModified<Self> {
        _modified(schema: schema) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            ir.number(value)
            ir.raw("}}")
        }
    }

    /// `{"<key>":{"_0":"<text>"}}`.
    func _stringModifier(_ key: StaticString, _ text: String, schema: Int) -> _PatchModified<Self> {
        _modified(schema: schema) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            ir.string(text)
            ir.raw("}}")
        }
    }

    /// `{"<key>":{"_0":true|false}}`.
    func _boolModifier(_ key: StaticString, _ value: Bool, schema: Int) -> _PatchModified<Self> {
        _modified(schema: schema) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw(value ? "\":{\"_0\":true}}" : "\":{\"_0\":false}}")
        }
    }

    // Styles

    func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("buttonStyle", style._name, schema: 2) }
    func listStyle<S: ListStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("listStyle", style._name, schema: 2) }
    func labelStyle<S: LabelStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("labelStyle", style._name, schema: 2) }
    func buttonBorderShape(_ shape: ButtonBorderShape) -> _PatchModified<Self> { _namedModifier("buttonBorderShape", shape._name, schema: 2) }
    func controlSize(_ size: ControlSize) -> _PatchModified<Self> { _namedModifier("controlSize", size._name, schema: 2) }
    func navigationViewStyle<S: NavigationViewStyle>(_ style: S) -> _PatchModified<Self> {
        _namedModifier("navigationViewStyle", style._name, schema: 3)
    }

    // Text and symbols

    func fontWeight(_ weight: Font.Weight?) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"fontWeight\":{\"_0\":")
            _patchName(weight?._name, into: &ir)
            ir.raw("}}")
        }
    }

    func fontDesign(_ design: Font.Design?) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"fontDesign\":{\"_0\":")
            _patchName(design?._name, into: &ir)
            ir.raw("}}")
        }
    }

    func textCase(_ textCase: Text.Case?) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"textCase\":{\"_0\":")
            switch textCase {
            case .uppercase: ir.raw("\"uppercase\"")
            case .lowercase: ir.raw("\"lowercase\"")
            case nil: ir.raw("null")
            }
            ir.raw("}}")
        }
    }

    func monospacedDigit() -> _PatchModified<Self> { _modified(schema: 2) { ir in ir.raw("{\"monospacedDigit\":{}}") } }

    func monospaced(_ isActive: Bool = true) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in if isActive { ir.raw("{\"monospaced\":{}}") } }
    }

    func minimumScaleFactor(_ factor: Double) -> _PatchModified<Self> { _numberModifier("minimumScaleFactor", factor) }
    func kerning(_ kerning: Double) -> _PatchModified<Self> { _numberModifier("kerning", kerning) }
    func tracking(_ tracking: Double) -> _PatchModified<Self> { _numberModifier("tracking", tracking) }
    func lineSpacing(_ lineSpacing: Double) -> _PatchModified<Self> { _numberModifier("lineSpacing", lineSpacing) }

    func imageScale(_ scale: Image.Scale) -> _PatchModified<Self> {
        switch scale {
        case .small: _namedModifier("imageScale", "small", schema: 2)
        case .medium: _namedModifier("imageScale", "medium", schema: 2)
        case .large: _namedModifier("imageScale", "large", schema: 2)
        }
    }

    /// One size: the IR's `dynamicTypeSize` sets it.
    func dynamicTypeSize(_ size: DynamicTypeSize) -> _PatchModified<Self> { _namedModifier("dynamicTypeSize", size._name, schema: 2) }

    @available(*, unavailable, message: "a range of text sizes clamps the user's size, and the IR's dynamicTypeSize (sdk-contract §5.6.5) sets one size: stays native")
    func dynamicTypeSize<T: RangeExpression>(_ range: T) -> _PatchModified<Self> where T.Bound == DynamicTypeSize {
        fatalError("unavailable")
    }

    func symbolRenderingMode(_ mode: SymbolRenderingMode) -> _PatchModified<Self> {
        _namedModifier("symbolRenderingMode", mode._name, schema: 2)
    }

    func redacted(reason: RedactionReasons) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"redacted\":{\"reason\":")
            _patchName(reason._name, into: &ir)
            ir.raw("}}")
        }
    }

    func unredacted() -> _PatchModified<Self> { _modified(schema: 2) { ir in ir.raw("{\"unredacted\":{}}") } }

    // Layout

    func aspectRatio(_ aspectRatio: Double? = nil, contentMode: ContentMode) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"aspectRatio\":{\"ratio\":")
            ir.optionalNumber(aspectRatio)
            ir.raw(contentMode == .fit ? ",\"_1\":\"fit\"}}" : ",\"_1\":\"fill\"}}")
        }
    }

    /// The IR has no scaledToFit/scaledToFill: they are `aspectRatio(nil, mode)` (§5.6.5).
    func scaledToFit() -> _PatchModified<Self> { aspectRatio(contentMode: .fit) }
    func scaledToFill() -> _PatchModified<Self> { aspectRatio(contentMode: .fill) }

    func offset(x: Double = 0, y: Double = 0) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"offset\":{\"x\":")
            ir.number(x)
            ir.raw(",\"y\":")
            ir.number(y)
            ir.raw("}}")
        }
    }

    func clipped(antialiased: Bool = false) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in ir.raw(antialiased ? "{\"clipped\":{\"antialiased\":true}}" : "{\"clipped\":{\"antialiased\":false}}") }
    }

    func layoutPriority(_ value: Double) -> _PatchModified<Self> { _numberModifier("layoutPriority", value) }
    func zIndex(_ value: Double) -> _PatchModified<Self> { _numberModifier("zIndex", value) }

    func listRowInsets(_ insets: EdgeInsets) -> _PatchModified<Self> {
        _modified(schema: 3) { ir in
            ir.raw("{\"listRowInsets\":{\"_0\":")
            insets._write(into: &ir)
            ir.raw("}}")
        }
    }

    // Effects

    /// The default color (SwiftUI's translucent black) is the IR's null color.
    func shadow(color: Color? = nil, radius: Double, x: Double = 0, y: Double = 0) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"shadow\":{\"color\":")
            if let color { ir.raw(color._ref) } else { ir.raw("null") }
            ir.raw(",\"radius\":")
            ir.number(radius)
            ir.raw(",\"x\":")
            ir.number(x)
            ir.raw(",\"y\":")
            ir.number(y)
            ir.raw("}}")
        }
    }

    func border(_ color: Color, width: Double = 1) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"border\":{\"_0\":{\"color\":{\"_0\":")
            ir.raw(color._ref)
            ir.raw("}},\"width\":")
            ir.number(width)
            ir.raw("}}")
        }
    }

    func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"rotationEffect\":{\"degrees\":")
            ir.number(angle.degrees)
            ir.raw(",\"anchor\":")
            ir.raw(anchor._ir)
            ir.raw("}}")
        }
    }

    func scaleEffect(x: Double = 1, y: Double = 1, anchor: UnitPoint = .center) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"scaleEffect\":{\"x\":")
            ir.number(x)
            ir.raw(",\"y\":")
            ir.number(y)
            ir.raw(",\"anchor\":")
            ir.raw(anchor._ir)
            ir.raw("}}")
        }
    }

    func scaleEffect(_ scale: Double, anchor: UnitPoint = .center) -> _PatchModified<Self> {
        scaleEffect(x: scale, y: scale, anchor: anchor)
    }

    func blur(radius: Double, opaque: Bool = false) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"blur\":{\"radius\":")
            ir.number(radius)
            ir.raw(opaque ? ",\"opaque\":true}}" : ",\"opaque\":false}}")
        }
    }

    func brightness(_ amount: Double) -> _PatchModified<Self> { _numberModifier("brightness", amount) }
    func contrast(_ amount: Double) -> _PatchModified<Self> { _numberModifier("contrast", amount) }
    func saturation(_ amount: Double) -> _PatchModified<Self> { _numberModifier("saturation", amount) }
    func grayscale(_ amount: Double) -> _PatchModified<Self> { _numberModifier("grayscale", amount) }

    // Navigation chrome

    func navigationBarTitleDisplayMode(_ displayMode: NavigationBarItem.TitleDisplayMode) -> _PatchModified<Self> {
        _namedModifier("navigationBarTitleDisplayMode", displayMode._name, schema: 3)
    }

    func toolbarTitleDisplayMode(_ mode: ToolbarTitleDisplayMode) -> _PatchModified<Self> {
        _namedModifier("navigationBarTitleDisplayMode", mode._name, schema: 3)
    }

    func navigationBarTitle(_ title: String, displayMode: NavigationBarItem.TitleDisplayMode = .automatic) -> _PatchModified<Self> {
        _modified(schema: 3) { ir in
            ir.raw("{\"navigationBarTitle\":{\"_0\":")
            ir.string(title)
            ir.raw(",\"displayMode\":")
            _patchName(displayMode._name, into: &ir)
            ir.raw("}}")
        }
    }

    func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> _PatchModified<Self> {
        _boolModifier("navigationBarBackButtonHidden", hidesBackButton, schema: 3)
    }

    // Safe area, hit testing, scrolling and list chrome

    /// One modifier per name of `edges` (`Edge.Set._patchNames`), each written by `write`.
    func _edgeModifiers(_ edges: Edge.Set, schema: Int, _ write: (inout _PatchIR, StaticString) -> Void) -> _PatchModified<Self> {
        var ir = _PatchIR()
        var count = 0
        edges._patchNames { name in
            if count > 0 { ir.raw(",") }
            write(&ir, name)
            count += 1
        }
        return _PatchModified(_content: self, _modifier: ir, _schemaVersion: schema, _modifierCount: count)
    }

    func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> _PatchModified<Self> {
        _edgeModifiers(edges, schema: 2) { ir, name in
            ir.raw("{\"ignoresSafeArea\":{\"regions\":")
            _patchName(regions._name, into: &ir)
            ir.raw(",\"edges\":")
            _patchName(name, into: &ir)
            ir.raw("}}")
        }
    }

    /// `nil` (the system's margins) has no IR value, so `length` is required.
    func contentMargins(_ edges: Edge.Set = .all, _ length: Double, for placement: ContentMarginPlacement = .automatic) -> _PatchModified<Self> {
        _edgeModifiers(edges, schema: 5) { ir, name in
            ir.raw("{\"contentMargins\":{\"edges\":")
            _patchName(name, into: &ir)
            ir.raw(",\"length\":")
            ir.number(length)
            ir.raw(",\"placement\":")
            _patchName(placement._name, into: &ir)
            ir.raw("}}")
        }
    }

    func contentMargins(_ length: Double, for placement: ContentMarginPlacement = .automatic) -> _PatchModified<Self> {
        contentMargins(.all, length, for: placement)
    }

    func allowsHitTesting(_ enabled: Bool) -> _PatchModified<Self> { _boolModifier("allowsHitTesting", enabled, schema: 3) }
    func scrollDisabled(_ disabled: Bool) -> _PatchModified<Self> { _boolModifier("scrollDisabled", disabled, schema: 5) }
    func scrollClipDisabled(_ disabled: Bool = true) -> _PatchModified<Self> { _boolModifier("scrollClipDisabled", disabled, schema: 3) }

    func scrollContentBackground(_ visibility: Visibility) -> _PatchModified<Self> {
        _namedModifier("scrollContentBackground", visibility._name, schema: 3)
    }

    /// SwiftUI's default axes are both ("all"); a single axis is `Axis.Set`'s.
    func scrollIndicators(_ visibility: ScrollIndicatorVisibility) -> _PatchModified<Self> {
        _scrollIndicators(visibility, axes: "all")
    }

    func scrollIndicators(_ visibility: ScrollIndicatorVisibility, axes: Axis.Set) -> _PatchModified<Self> {
        _scrollIndicators(visibility, axes: axes._name)
    }

    func _scrollIndicators(_ visibility: ScrollIndicatorVisibility, axes: StaticString) -> _PatchModified<Self> {
        _modified(schema: 5) { ir in
            ir.raw("{\"scrollIndicators\":{\"_0\":")
            _patchName(visibility._name, into: &ir)
            ir.raw(",\"axes\":")
            _patchName(axes, into: &ir)
            ir.raw("}}")
        }
    }

    func listRowSeparator(_ visibility: Visibility, edges: VerticalEdge.Set = .all) -> _PatchModified<Self> {
        _modified(schema: 3) { ir in
            ir.raw("{\"listRowSeparator\":{\"_0\":")
            _patchName(visibility._name, into: &ir)
            ir.raw(",\"edges\":")
            _patchName(edges._name, into: &ir)
            ir.raw("}}")
        }
    }

    func symbolVariant(_ variant: SymbolVariants) -> _PatchModified<Self> { _namedModifier("symbolVariant", variant._name, schema: 2) }

    func hidden() -> _PatchModified<Self> { _modified(schema: 6) { ir in ir.raw("{\"hidden\":{}}") } }
    func labelsHidden() -> _PatchModified<Self> { _modified(schema: 6) { ir in ir.raw("{\"labelsHidden\":{}}") } }

    // Accessibility

    func accessibilityLabel(_ label: String) -> _PatchModified<Self> { _stringModifier("accessibilityLabel", label, schema: 3) }
    func accessibilityHint(_ hint: String) -> _PatchModified<Self> { _stringModifier("accessibilityHint", hint, schema: 3) }
    func accessibilityValue(_ value: String) -> _PatchModified<Self> { _stringModifier("accessibilityValue", value, schema: 3) }
    func accessibilityHidden(_ hidden: Bool) -> _PatchModified<Self> { _boolModifier("accessibilityHidden", hidden, schema: 3) }
}
