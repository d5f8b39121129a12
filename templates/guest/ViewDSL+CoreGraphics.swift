// Guest view DSL (see ViewDSL.swift): stand-ins for the CoreGraphics values views and their models
// hold, with CoreGraphics' member names and initializers (`CGFloat` is Double in the guest).
//
// A view's inputs carry them as the host encodes any struct, an object of its stored properties
// (sdk-contract §5.4): `{"x":1,"y":2}`, `{"height":2,"width":1}`, `{"origin":{…},"size":{…}}`,
// `{"dx":1,"dy":2}`. The state the guest returns is written in their Codable shapes, arrays
// (`[x,y]`, `[width,height]`, `[[x,y],[width,height]]`, `[dx,dy]`), because the host decodes a
// changed field with JSONDecoder into the native @State; that state comes back merged into the next
// inputs, so both shapes decode.

// MARK: - CGPoint

struct CGPoint: Hashable {
    var x: CGFloat
    var y: CGFloat

    init() { self.init(x: 0, y: 0) }
    init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    init(x: Int, y: Int) { self.init(x: CGFloat(x), y: CGFloat(y)) }

    static let zero = CGPoint()
}

extension CGPoint: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let (x, y): (CGFloat, CGFloat) = try _patchPair(value, "x", "y")
        self.init(x: x, y: y)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { _patchWritePair(x, y, into: &writer) }
}

// MARK: - CGSize

struct CGSize: Hashable {
    var width: CGFloat
    var height: CGFloat

    init() { self.init(width: 0, height: 0) }
    init(width: CGFloat, height: CGFloat) {
        self.width = width
        self.height = height
    }
    init(width: Int, height: Int) { self.init(width: CGFloat(width), height: CGFloat(height)) }

    static let zero = CGSize()
}

extension CGSize: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let (width, height): (CGFloat, CGFloat) = try _patchPair(value, "width", "height")
        self.init(width: width, height: height)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { _patchWritePair(width, height, into: &writer) }
}

// MARK: - CGVector

struct CGVector: Hashable {
    var dx: CGFloat
    var dy: CGFloat

    init() { self.init(dx: 0, dy: 0) }
    init(dx: CGFloat, dy: CGFloat) {
        self.dx = dx
        self.dy = dy
    }
    init(dx: Int, dy: Int) { self.init(dx: CGFloat(dx), dy: CGFloat(dy)) }

    static let zero = CGVector()
}

extension CGVector: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let (dx, dy): (CGFloat, CGFloat) = try _patchPair(value, "dx", "dy")
        self.init(dx: dx, dy: dy)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { _patchWritePair(dx, dy, into: &writer) }
}

// MARK: - CGRect

/// CoreGraphics' rectangle: `origin` and `size` are what it stores; the edges are computed from the
/// standardized rectangle (a negative size extends left or up of the origin), as CoreGraphics does.
struct CGRect: Hashable {
    var origin: CGPoint
    var size: CGSize

    init() { self.init(origin: .zero, size: .zero) }
    init(origin: CGPoint, size: CGSize) {
        self.origin = origin
        self.size = size
    }
    init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        self.init(origin: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
    }
    init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
    }

    static let zero = CGRect()

    var minX: CGFloat { min(origin.x, origin.x + size.width) }
    var maxX: CGFloat { max(origin.x, origin.x + size.width) }
    var midX: CGFloat { origin.x + size.width / 2 }
    var minY: CGFloat { min(origin.y, origin.y + size.height) }
    var maxY: CGFloat { max(origin.y, origin.y + size.height) }
    var midY: CGFloat { origin.y + size.height / 2 }
    var width: CGFloat { abs(size.width) }
    var height: CGFloat { abs(size.height) }
    var isEmpty: Bool { size.width == 0 || size.height == 0 }
    var standardized: CGRect { CGRect(x: minX, y: minY, width: width, height: height) }

    /// Whether `point` lies inside: the minimum edges are in, the maximum ones out (CoreGraphics' rule).
    func contains(_ point: CGPoint) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    func offsetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
        CGRect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// Shrinks (or, with negative insets, grows) the standardized rectangle on every side.
    func insetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
        let rect = standardized
        return CGRect(x: rect.minX + dx, y: rect.minY + dy, width: rect.width - 2 * dx, height: rect.height - 2 * dy)
    }
}

extension CGRect: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let (origin, size): (CGPoint, CGSize) = try _patchPair(value, "origin", "size")
        self.init(origin: origin, size: size)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { _patchWritePair(origin, size, into: &writer) }
}

// MARK: - Modifiers that take them

extension View {
    /// SwiftUI's `offset(_:)` takes a CGSize: the IR's `offset` (§5.6.5), as `offset(x:y:)` writes it.
    func offset(_ offset: CGSize) -> _PatchModified<Self> { self.offset(x: offset.width, y: offset.height) }

    /// `position(_:)` / `position(x:y:)`: the view's center in its parent's coordinates, the IR's
    /// `position` (§5.6.5), a layout modifier of schema 2 like `offset`.
    func position(_ position: CGPoint) -> _PatchModified<Self> { self.position(x: position.x, y: position.y) }

    func position(x: CGFloat = 0, y: CGFloat = 0) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"position\":{\"x\":")
            ir.number(x)
            ir.raw(",\"y\":")
            ir.number(y)
            ir.raw("}}")
        }
    }
}
