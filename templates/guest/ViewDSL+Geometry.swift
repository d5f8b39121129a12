// Guest view DSL (see ViewDSL.swift): `GeometryReader`, the IR's `geometryReader{id,children}`
// (sdk-contract §5.6.4, schema 2 with the containers).
//
// The host renders a real GeometryReader around the children and, on each layout, calls the body
// export again with the proxy's size and local origin as the reserved inputs `__geo_width`,
// `__geo_height`, `__geo_minX`, `__geo_minY` (§5.4), and takes the children of the reader whose `id`
// matches from the tree it gets (§5.6.7). The guest's proxy reads those inputs, 0 when absent (the
// first render, before any layout; a dispatch, whose state carries none).

// `proxy.size` and `proxy.frame(in:)` are the CoreGraphics stand-ins of ViewDSL+CoreGraphics.swift.

/// The coordinate space of `proxy.frame(in:)`: the host passes the reader's frame in its own
/// (local) space only.
struct CoordinateSpace {
    static let local = CoordinateSpace()

    @available(*, unavailable, message: "the host passes a GeometryReader only its local frame (sdk-contract §5.4 __geo_minX/__geo_minY): frame(in: .global) is native-only")
    static var global: CoordinateSpace { fatalError("unavailable") }

    @available(*, unavailable, message: "the host passes a GeometryReader only its local frame (sdk-contract §5.4 __geo_minX/__geo_minY): frame(in: .named(_:)) is native-only")
    static func named(_ name: String) -> CoordinateSpace { fatalError("unavailable") }
}

/// What a GeometryReader's content reads: the size and local frame the host measured.
struct GeometryProxy {
    let size: CGSize
    let _origin: CGPoint

    func frame(in coordinateSpace: CoordinateSpace) -> CGRect { CGRect(origin: _origin, size: size) }

    @available(*, unavailable, message: "the host passes a GeometryReader only its size and local frame (sdk-contract §5.4 __geo_*): safeAreaInsets is native-only")
    var safeAreaInsets: EdgeInsets { fatalError("unavailable") }

    /// The reserved input `key` (§5.4), 0 when the host has not measured the reader yet.
    static func _input(_ key: StaticString) -> Double {
        (try? _patchTokenInputs?.decode(key, as: Double.self)) ?? 0
    }
}

/// `GeometryReader { proxy in … }`. The id is content-stable: `geo_` and a hash of the reader's
/// place in the project's source (file, line and column, which the copy keeps with `#sourceLocation`),
/// so a re-evaluation with other `__geo_*` values gives the reader the same id wherever readers of
/// other places appear or not; readers from the same place (ForEach rows, a child view used twice)
/// add their occurrence in tree order, `_1`, `_2`, …
struct GeometryReader<Content: View>: _PatchPrimitiveView {
    let _content: (GeometryProxy) -> Content
    let _file: StaticString
    let _line: UInt
    let _column: UInt

    init(@ViewBuilder content: @escaping (GeometryProxy) -> Content,
         _patchFile: StaticString = #filePath, _patchLine: UInt = #line, _patchColumn: UInt = #column) {
        _content = content
        _file = _patchFile
        _line = _patchLine
        _column = _patchColumn
    }

    /// FNV-1a (32 bits) of `file:line:column`, as 8 hex digits.
    func _site() -> [UInt8] {
        var hash: UInt32 = 0x811c_9dc5
        func mix(_ byte: UInt8) {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        for offset in 0..<_file.utf8CodeUnitCount { mix(_file.utf8Start[offset]) }
        for number in [_line, _column] {
            mix(UInt8(ascii: ":"))
            var digits: [UInt8] = []
            var rest = number
            repeat {
                digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            for digit in digits.reversed() { mix(digit) }
        }
        let hex: StaticString = "0123456789abcdef"
        var site: [UInt8] = []
        for shift in stride(from: 28, through: 0, by: -4) { site.append(hex.utf8Start[Int((hash >> UInt32(shift)) & 0xf)]) }
        return site
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        emission.requires(schema: 2)
        let site = _site()
        let occurrence = emission.geometrySites.reduce(0) { $1 == site ? $0 + 1 : $0 }
        emission.geometrySites.append(site)
        let proxy = GeometryProxy(size: CGSize(width: GeometryProxy._input("__geo_width"), height: GeometryProxy._input("__geo_height")),
                                  _origin: CGPoint(x: GeometryProxy._input("__geo_minX"), y: GeometryProxy._input("__geo_minY")))
        emission.appendContainer("{\"geometryReader\":{", content: _content(proxy)) { ir in
            ir.raw("\"id\":\"geo_")
            ir.raw(site)
            if occurrence > 0 {
                ir.raw("_")
                ir.integer(occurrence)
            }
            ir.raw("\",")
        }
    }
}
