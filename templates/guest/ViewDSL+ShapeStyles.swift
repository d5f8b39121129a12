// Guest view DSL (see ViewDSL.swift): shape styles (sdk-contract §5.6.3 IRShapeStyle) and the
// modifiers that take one: `.foregroundStyle(.tertiary)`, `.background(.ultraThinMaterial, in:)`,
// `.fill(.quaternary)`, `.stroke(_:style:)` with a StrokeStyle. All came with schema 2. A plain
// Color keeps its own overloads (`foregroundColor`, `background`, `fill(Color)`), which Swift
// prefers for a Color. Styles IRShapeStyle has no case for (`Color.gradient`, `.background`,
// `.fill`) are unavailable with that reason, so `build` says why the body stays native.

protocol ShapeStyle {
    /// The IRShapeStyle JSON.
    var _style: [UInt8] { get }
}

extension Color: ShapeStyle {
    var _style: [UInt8] {
        var ir = _PatchIR()
        ir.raw("{\"color\":{\"_0\":")
        ir.raw(_ref)
        ir.raw("}}")
        return ir.bytes
    }
}

// SwiftUI's colors where a shape style is expected (`.background(.indigo, in: .capsule)`,
// `Rectangle().fill(.indigo)` on a slot): the same named ColorRefs as `Color.indigo`.
extension ShapeStyle where Self == Color {
    static var red: Color { Color.red }
    static var orange: Color { Color.orange }
    static var yellow: Color { Color.yellow }
    static var green: Color { Color.green }
    static var mint: Color { Color.mint }
    static var teal: Color { Color.teal }
    static var cyan: Color { Color.cyan }
    static var blue: Color { Color.blue }
    static var indigo: Color { Color.indigo }
    static var purple: Color { Color.purple }
    static var pink: Color { Color.pink }
    static var brown: Color { Color.brown }
    static var white: Color { Color.white }
    static var gray: Color { Color.gray }
    static var black: Color { Color.black }
    static var clear: Color { Color.clear }
}

extension Color {
    @available(*, unavailable, message: "Color.gradient is a gradient SwiftUI derives from the color, with stops it does not publish: IRShapeStyle (sdk-contract §5.6.3) carries only gradients of explicit stops, so it stays native; LinearGradient(colors:startPoint:endPoint:) lowers")
    var gradient: AnyGradient { fatalError("unavailable") }
}

/// A SwiftUI shape style IRShapeStyle cannot express: an uninhabited type (the member that makes
/// one is unavailable with the reason), declared with the levels real code asks of it
/// (`.background.secondary`) so the compiler type-checks the expression and reaches that reason.
protocol _PatchNativeOnlyShapeStyle: ShapeStyle {}

extension _PatchNativeOnlyShapeStyle {
    var _style: [UInt8] { [] }
    var secondary: Self { self }
    var tertiary: Self { self }
    var quaternary: Self { self }
    var quinary: Self { self }
}

/// What `Color.gradient` returns.
enum AnyGradient: _PatchNativeOnlyShapeStyle {}

/// The style of the window or container behind the view (`.background(.background.secondary)`).
enum BackgroundStyle: _PatchNativeOnlyShapeStyle {}

extension ShapeStyle where Self == BackgroundStyle {
    @available(*, unavailable, message: "the background shape style (and its .secondary, .tertiary …) is none of IRShapeStyle's cases (sdk-contract §5.6.3: color, gradients, material, hierarchical, semantic tint/foreground/separator/placeholder/link): stays native")
    static var background: BackgroundStyle { fatalError("unavailable") }
}

/// The system's fill colors (`.fill`, `.fill.tertiary`).
enum FillShapeStyle: _PatchNativeOnlyShapeStyle {}

extension ShapeStyle where Self == FillShapeStyle {
    @available(*, unavailable, message: "the fill shape style (and its .secondary, .tertiary …) is none of IRShapeStyle's cases (sdk-contract §5.6.3: color, gradients, material, hierarchical, semantic tint/foreground/separator/placeholder/link): stays native")
    static var fill: FillShapeStyle { fatalError("unavailable") }
}

/// `.primary` … `.quinary` as a style (not a Color): the IR's hierarchical level 0…4.
struct HierarchicalShapeStyle: ShapeStyle {
    let _level: Int
    var _style: [UInt8] {
        var ir = _PatchIR()
        ir.raw("{\"hierarchical\":{\"_0\":")
        ir.integer(_level)
        ir.raw("}}")
        return ir.bytes
    }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    static var tertiary: HierarchicalShapeStyle { HierarchicalShapeStyle(_level: 2) }
    static var quaternary: HierarchicalShapeStyle { HierarchicalShapeStyle(_level: 3) }
    static var quinary: HierarchicalShapeStyle { HierarchicalShapeStyle(_level: 4) }
}

struct Material: ShapeStyle {
    let _name: StaticString
    var _style: [UInt8] {
        var ir = _PatchIR()
        ir.raw("{\"material\":{\"_0\":")
        _patchName(_name, into: &ir)
        ir.raw("}}")
        return ir.bytes
    }

    // IRMaterial has no ultraThick: it is not declared.
    static let ultraThin = Material(_name: "ultraThin")
    static let thin = Material(_name: "thin")
    static let regular = Material(_name: "regular")
    static let thick = Material(_name: "thick")
}

extension ShapeStyle where Self == Material {
    static var ultraThinMaterial: Material { .ultraThin }
    static var thinMaterial: Material { .thin }
    static var regularMaterial: Material { .regular }
    static var thickMaterial: Material { .thick }
    static var bar: Material { Material(_name: "bar") }
}

/// A style the IR names by its role (IRShapeStyle `semantic`): `.tint`; `.foreground`, the style
/// foreground content is drawn with (`.foregroundStyle`, else the primary color), which a shape
/// stroked without a style uses; `.separator`, the system's separator color.
struct _PatchSemanticShapeStyle: ShapeStyle {
    let _name: StaticString
    var _style: [UInt8] {
        var ir = _PatchIR()
        ir.raw("{\"semantic\":{\"_0\":\"")
        ir.raw(_name)
        ir.raw("\"}}")
        return ir.bytes
    }
}

extension ShapeStyle where Self == _PatchSemanticShapeStyle {
    static var tint: _PatchSemanticShapeStyle { _PatchSemanticShapeStyle(_name: "tint") }
    static var foreground: _PatchSemanticShapeStyle { _PatchSemanticShapeStyle(_name: "foreground") }
    static var separator: _PatchSemanticShapeStyle { _PatchSemanticShapeStyle(_name: "separator") }
}

extension View {
    /// `{"foregroundStyle":{"_0":[<style>…]}}`: 1–3 layers (primary, secondary, tertiary content).
    func _foregroundStyles(_ styles: [[UInt8]]) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"foregroundStyle\":{\"_0\":[")
            for (position, style) in styles.enumerated() {
                if position > 0 { ir.raw(",") }
                ir.raw(style)
            }
            ir.raw("]}}")
        }
    }

    func foregroundStyle<S: ShapeStyle>(_ style: S) -> _PatchModified<Self> { _foregroundStyles([style._style]) }

    func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> _PatchModified<Self> {
        _foregroundStyles([primary._style, secondary._style])
    }

    func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle, S3: ShapeStyle>(_ primary: S1, _ secondary: S2, _ tertiary: S3) -> _PatchModified<Self> {
        _foregroundStyles([primary._style, secondary._style, tertiary._style])
    }

    /// `.background(style)` fills the view's own rectangle: `in` is null.
    func background<S: ShapeStyle>(_ style: S) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"backgroundStyle\":{\"_0\":")
            ir.raw(style._style)
            ir.raw(",\"in\":null}}")
        }
    }

    func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"backgroundStyle\":{\"_0\":")
            ir.raw(style._style)
            ir.raw(",\"in\":")
            ir.raw(shape._kind)
            ir.raw("}}")
        }
    }
}

extension Shape {
    func fill<S: ShapeStyle>(_ style: S) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"fill\":{\"_0\":")
            ir.raw(style._style)
            ir.raw(",\"eoFill\":false}}")
        }
    }

    /// `key` with `style` as the IRStrokeStyle (every field of which the IR requires).
    func _stroke<S: ShapeStyle>(_ key: StaticString, _ content: S, _ style: StrokeStyle) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            ir.raw(content._style)
            ir.raw(",\"_1\":")
            style._write(into: &ir)
            ir.raw("}}")
        }
    }

    func stroke<S: ShapeStyle>(_ content: S, lineWidth: Double = 1) -> _PatchModified<Self> {
        _stroke("stroke", content, StrokeStyle(lineWidth: lineWidth))
    }

    func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _PatchModified<Self> { _stroke("stroke", content, style) }

    /// Without a style SwiftUI strokes with the foreground style, as these do.
    func stroke(lineWidth: Double = 1) -> _PatchModified<Self> { _stroke("stroke", .foreground, StrokeStyle(lineWidth: lineWidth)) }

    func stroke(style: StrokeStyle) -> _PatchModified<Self> { _stroke("stroke", .foreground, style) }

    func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: Double = 1) -> _PatchModified<Self> {
        _stroke("strokeBorder", content, StrokeStyle(lineWidth: lineWidth))
    }

    func strokeBorder<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _PatchModified<Self> { _stroke("strokeBorder", content, style) }

    func strokeBorder(lineWidth: Double = 1) -> _PatchModified<Self> {
        _stroke("strokeBorder", .foreground, StrokeStyle(lineWidth: lineWidth))
    }

    func strokeBorder(style: StrokeStyle) -> _PatchModified<Self> { _stroke("strokeBorder", .foreground, style) }
}

enum CGLineCap {
    case butt, round, square
}

enum CGLineJoin {
    case miter, round, bevel
}

/// SwiftUI's StrokeStyle with its defaults (butt caps, miter joins, miter limit 10, no dash): the
/// IRStrokeStyle of a stroke, field for field.
struct StrokeStyle {
    var lineWidth: Double
    var lineCap: CGLineCap
    var lineJoin: CGLineJoin
    var miterLimit: Double
    var dash: [Double]
    var dashPhase: Double

    init(lineWidth: Double = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: Double = 10,
         dash: [Double] = [], dashPhase: Double = 0) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }

    /// The IRStrokeStyle JSON.
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"lineWidth\":")
        ir.number(lineWidth)
        switch lineCap {
        case .butt: ir.raw(",\"cap\":\"butt\"")
        case .round: ir.raw(",\"cap\":\"round\"")
        case .square: ir.raw(",\"cap\":\"square\"")
        }
        switch lineJoin {
        case .miter: ir.raw(",\"join\":\"miter\"")
        case .round: ir.raw(",\"join\":\"round\"")
        case .bevel: ir.raw(",\"join\":\"bevel\"")
        }
        ir.raw(",\"miterLimit\":")
        ir.number(miterLimit)
        ir.raw(",\"dash\":[")
        for (position, length) in dash.enumerated() {
            if position > 0 { ir.raw(",") }
            ir.number(length)
        }
        ir.raw("],\"dashPhase\":")
        ir.number(dashPhase)
        ir.raw("}")
    }
}

// MARK: - Gradients

struct Gradient {
    struct Stop {
        var color: Color
        var location: Double

        init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }

    var stops: [Stop]

    init(stops: [Stop]) { self.stops = stops }

    /// Evenly spaced colors, as SwiftUI places them: the i-th of n at i / (n - 1).
    init(colors: [Color]) {
        let last = Double(max(colors.count - 1, 1))
        stops = colors.enumerated().map { Stop(color: $0.element, location: Double($0.offset) / last) }
    }

    /// The IRGradient JSON.
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"stops\":[")
        for (position, stop) in stops.enumerated() {
            if position > 0 { ir.raw(",") }
            ir.raw("{\"color\":")
            ir.raw(stop.color._ref)
            ir.raw(",\"location\":")
            ir.number(stop.location)
            ir.raw("}")
        }
        ir.raw("]}")
    }
}

/// A linear gradient: a shape style, and a view that fills its frame with it, which the IR says
/// as a rectangle filled with the gradient (it has no gradient node).
struct LinearGradient: ShapeStyle, _PatchPrimitiveView {
    let _gradient: Gradient
    let _startPoint: UnitPoint
    let _endPoint: UnitPoint

    init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        _gradient = gradient
        _startPoint = startPoint
        _endPoint = endPoint
    }

    init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }

    init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    var _style: [UInt8] {
        var ir = _PatchIR()
        ir.raw("{\"linearGradient\":{\"_0\":")
        _gradient._write(into: &ir)
        ir.raw(",\"startPoint\":")
        ir.raw(_startPoint._ir)
        ir.raw(",\"endPoint\":")
        ir.raw(_endPoint._ir)
        ir.raw("}}")
        return ir.bytes
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        Rectangle().fill(self)._patchEmit(into: &emission)
    }
}

extension ShapeStyle where Self == LinearGradient {
    static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }

    static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }

    static func linearGradient(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(stops: stops, startPoint: startPoint, endPoint: endPoint)
    }
}
