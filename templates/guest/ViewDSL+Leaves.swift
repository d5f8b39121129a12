// Guest view DSL (see ViewDSL.swift): leaves and shapes.

// MARK: - Leaves

struct Text: _PatchPrimitiveView {
    /// The node kind's JSON: `text`, or `dateText` for `Text(_:style:)` (ViewDSL+Foundation.swift).
    let _kind: _PatchIR
    /// The IR schema of the kind (§5.5).
    var _schemaVersion = 1

    init(_ content: String) {
        var ir = _PatchIR()
        ir.raw("{\"text\":{\"_0\":")
        ir.string(content)
        ir.raw("}}")
        _kind = ir
    }

    init(verbatim content: String) { self.init(content) }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: _schemaVersion)
        emission.append(_kind)
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

