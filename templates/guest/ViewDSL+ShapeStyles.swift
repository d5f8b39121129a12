// Guest view DSL (see ViewDSL.swift): shape styles (sdk-contract §5.6.3 IRShapeStyle) and the
// modifiers that take one: `.foregroundStyle(.tertiary)`, `.background(.ultraThinMaterial, in:)`,
// `.fill(.quaternary)`, `.stroke(_:lineWidth:)`. All came with schema 2. A plain Color keeps its
// own overloads (`foregroundColor`, `background`, `fill(Color)`), which Swift prefers for a Color.

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

/// `.tint` as a style: the IR's semantic "tint".
struct TintShapeStyle: ShapeStyle {
    init() {}
    var _style: [UInt8] {
        var ir = _PatchIR()
        ir.raw("{\"semantic\":{\"_0\":\"tint\"}}")
        return ir.bytes
    }
}

extension ShapeStyle where Self == TintShapeStyle {
    static var tint: TintShapeStyle { TintShapeStyle() }
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

    /// `key` with an IRStrokeStyle of `lineWidth` and SwiftUI's StrokeStyle defaults for the rest
    /// (butt caps, miter joins, miter limit 10, no dash), all of which the IR requires.
    func _stroke<S: ShapeStyle>(_ key: StaticString, _ style: S, lineWidth: Double) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"")
            ir.raw(key)
            ir.raw("\":{\"_0\":")
            ir.raw(style._style)
            ir.raw(",\"_1\":{\"lineWidth\":")
            ir.number(lineWidth)
            ir.raw(",\"cap\":\"butt\",\"join\":\"miter\",\"miterLimit\":10,\"dash\":[],\"dashPhase\":0}}}")
        }
    }

    func stroke<S: ShapeStyle>(_ content: S, lineWidth: Double = 1) -> _PatchModified<Self> { _stroke("stroke", content, lineWidth: lineWidth) }

    func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: Double = 1) -> _PatchModified<Self> {
        _stroke("strokeBorder", content, lineWidth: lineWidth)
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
