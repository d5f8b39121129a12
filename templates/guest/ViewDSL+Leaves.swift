// Guest view DSL (see ViewDSL.swift): leaves and shapes.

// MARK: - Leaves

struct Text: _PatchPrimitiveView {
    /// The node kind's JSON: `text`, or `dateText` for `Text(_:style:)` (ViewDSL+Foundation.swift).
    let _kind: _PatchIR
    /// The IR schema of the kind (§5.5), and of the modifiers it holds.
    var _schemaVersion = 1
    /// The modifiers of `Text`'s own methods (ViewDSL+TextModifiers.swift), written after its node.
    var _modifiers = _PatchIR()
    var _modifierCount = 0

    init(_ content: String) {
        _kind = _PatchIR("{\"text\":{\"_0\":", string: content, "}}")
    }

    init(verbatim content: String) { self.init(content) }

    /// `Text(_ key: LocalizedStringKey)` (also `Text("…", comment: "…")`, `Text(LocalizedStringKey(name))`,
    /// a `LocalizedStringKey` the view passes on): SwiftUI looks the key up in the app's strings
    /// tables and renders its Markdown, which the IR's `styledText` asks of the host. A String
    /// literal still picks `init(_: String)` (the default literal type), as before. `bundle:` is the
    /// app's (`.main`, or nil): `styledText` names no bundle, so the guest's `Bundle.module` is
    /// unavailable with that reason and a package's table stays native; `tableName:` is not
    /// declared for the same reason. The comment is for translators only.
    init(_ key: LocalizedStringKey, bundle: Bundle? = nil, comment: StaticString? = nil) {
        var ir = _PatchIR()
        ir.raw("{\"styledText\":{\"_0\":")
        ir.string(key._key)
        // An interpolated key is looked up natively by its format (`"Hello %@"`), which the IR cannot
        // carry: the guest writes the formatted text and the host does not look it up.
        if key._isInterpolated {
            ir.raw(",\"verbatim\":false,\"markdown\":true,\"localized\":false}}")
        } else {
            ir.raw(",\"verbatim\":false,\"markdown\":true,\"localized\":true}}")
        }
        _kind = ir
        _schemaVersion = 2
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: _schemaVersion)
        let node = emission.nodes.count
        emission.append(_kind)
        if !_modifiers.isEmpty { emission.appendModifier(_modifiers, toNodesFrom: node, count: _modifierCount) }
    }
}

/// SwiftUI's key into the app's strings tables: a literal or `LocalizedStringKey(string)` is the key
/// as written; an interpolated one (`"\(count) birds"`) holds its formatted text, as the guest's
/// String interpolation writes it (with its formatters).
struct LocalizedStringKey: ExpressibleByStringInterpolation, Equatable {
    let _key: String
    let _isInterpolated: Bool

    init(_ value: String) { _key = value; _isInterpolated = false }
    init(stringLiteral value: String) { self.init(value) }
    init(stringInterpolation: DefaultStringInterpolation) {
        _key = String(stringInterpolation: stringInterpolation)
        _isInterpolated = true
    }
}

struct Image: _PatchPrimitiveView {
    let _name: String
    let _system: Bool

    init(systemName: String) { _name = systemName; _system = true }
    /// An asset of the app's catalog: `bundleImage` names no bundle, so `bundle:` is the app's
    /// (`.main` or nil; `Bundle.module` is unavailable with that reason).
    init(_ name: String, bundle: Bundle? = nil) { _name = name; _system = false }

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

    /// `Spacer()`'s kind, built once: its nodes share it, no allocation each.
    private static let _flexible = _PatchIR(constant: "{\"spacer\":{\"minLength\":null}}")

    func _patchEmit(into emission: inout _PatchEmission) {
        guard let _minLength else {
            emission.append(Spacer._flexible)
            return
        }
        var ir = _PatchIR()
        ir.raw("{\"spacer\":{\"minLength\":")
        ir.number(_minLength)
        ir.raw("}}")
        emission.append(ir)
    }
}

struct Divider: _PatchPrimitiveView {
    private static let _kind = _PatchIR(constant: "{\"divider\":{}}")

    init() {}
    func _patchEmit(into emission: inout _PatchEmission) {
        emission.append(Divider._kind)
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
        ir.raw(_kind)
        ir.raw("}}")
        emission.append(ir)
    }

    func fill(_ color: Color) -> _PatchModified<Self> {
        var ir = _PatchIR()
        ir.raw("{\"fill\":{\"_0\":{\"color\":{\"_0\":")
        ir.raw(color._ref)
        ir.raw("}},\"eoFill\":false}}")
        return _PatchModified(_content: self, _modifier: ir, _schemaVersion: 2)
    }
}

func _patchShapeKind(_ name: StaticString) -> _PatchIR {
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

/// The shape of the container the view is in (a widget's, a `.containerShape(_:)`'s).
struct ContainerRelativeShape: Shape {
    init() {}
    var _kind: _PatchIR { _patchShapeKind("containerRelative") }
}

// SwiftUI's static shape members, where a shape is expected (`.clipShape(.circle)`,
// `.background(.thinMaterial, in: .capsule)`, `.rect(cornerRadius: 8)`).
extension Shape where Self == Rectangle { static var rect: Rectangle { Rectangle() } }
extension Shape where Self == Circle { static var circle: Circle { Circle() } }
extension Shape where Self == Ellipse { static var ellipse: Ellipse { Ellipse() } }
extension Shape where Self == Capsule { static var capsule: Capsule { Capsule() } }
extension Shape where Self == ContainerRelativeShape { static var containerRelative: ContainerRelativeShape { ContainerRelativeShape() } }
extension Shape where Self == RoundedRectangle {
    static func rect(cornerRadius: Double) -> RoundedRectangle { RoundedRectangle(cornerRadius: cornerRadius) }
    static func rect(cornerRadius: Double, style: RoundedCornerStyle) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
}

enum RoundedCornerStyle {
    case circular, continuous
}

struct RoundedRectangle: Shape {
    let _cornerRadius: Double
    /// nil: SwiftUI's default style, which `roundedRectangle` leaves to the host's RoundedRectangle.
    let _style: RoundedCornerStyle?

    init(cornerRadius: Double) {
        _cornerRadius = cornerRadius
        _style = nil
    }

    init(cornerRadius: Double, style: RoundedCornerStyle) {
        _cornerRadius = cornerRadius
        _style = style
    }

    /// A style written out is the IR's `unevenRoundedRectangle` with four equal corners, the only
    /// ShapeKind that carries an IRRoundedCornerStyle (`roundedRectangle` has the radius alone).
    var _kind: _PatchIR {
        var ir = _PatchIR()
        guard let _style else {
            ir.raw("{\"roundedRectangle\":{\"cornerRadius\":")
            ir.number(_cornerRadius)
            ir.raw("}}")
            return ir
        }
        ir.raw("{\"unevenRoundedRectangle\":{\"topLeading\":")
        ir.number(_cornerRadius)
        ir.raw(",\"topTrailing\":")
        ir.number(_cornerRadius)
        ir.raw(",\"bottomLeading\":")
        ir.number(_cornerRadius)
        ir.raw(",\"bottomTrailing\":")
        ir.number(_cornerRadius)
        ir.raw(_style == .continuous ? ",\"style\":\"continuous\"}}" : ",\"style\":\"circular\"}}")
        return ir
    }
}

