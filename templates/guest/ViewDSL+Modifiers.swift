// Guest view DSL (see ViewDSL.swift): modifiers (sdk-contract §5.6.5) that change no state.

// MARK: - Modifiers

/// `content` with one more modifier on each node it writes (a modifier on a group of siblings
/// applies to each, as SwiftUI's does).
struct _PatchModified<Content: View>: _PatchPrimitiveView {
    let _content: Content
    let _modifier: _PatchIR
    var _schemaVersion = 1
    /// How many modifiers `_modifier` holds (a token font with a weight is two, ViewDSL+Tokens.swift).
    var _modifierCount = 1

    func _patchEmit(into emission: inout _PatchEmission) {
        let first = emission.nodes.count
        _content._patchEmit(into: &emission)
        // An inactive modifier (`.bold(false)`) writes nothing.
        guard !_modifier.isEmpty else { return }
        emission.requires(schema: _schemaVersion)
        emission.appendModifier(_modifier, toNodesFrom: first, count: _modifierCount)
    }
}

extension View {
    func _modified(schema: Int = 1, _ write: (inout _PatchIR) -> Void) -> _PatchModified<Self> {
        var ir = _PatchIR()
        write(&ir)
        return _PatchModified(_content: self, _modifier: ir, _schemaVersion: schema)
    }

    func padding(_ edges: Edge.Set = .all, _ length: Double? = nil) -> _PatchModified<Self> {
        // SwiftUI's default padding is platform-dependent; 16 is its value on iPhone.
        let inset = length ?? 16
        return padding(EdgeInsets(top: edges.contains(.top) ? inset : 0, leading: edges.contains(.leading) ? inset : 0,
                                  bottom: edges.contains(.bottom) ? inset : 0, trailing: edges.contains(.trailing) ? inset : 0))
    }

    func padding(_ insets: EdgeInsets) -> _PatchModified<Self> {
        _modified { ir in
            ir.raw("{\"padding\":{\"_0\":")
            insets._write(into: &ir)
            ir.raw("}}")
        }
    }

    func padding(_ length: Double) -> _PatchModified<Self> { padding(.all, length) }

    func font(_ font: Font?) -> _PatchModified<Self> {
        let font = font ?? .body
        var ir = _PatchIR()
        var count = 1
        if let token = font._token {
            font._writeTokenModifiers(token, into: &ir)
            if font._weight != nil { count += 1 }
        } else {
            ir.raw("{\"font\":{\"_0\":")
            font._write(into: &ir)
            ir.raw("}}")
        }
        guard font._monospacedDigit else { return _PatchModified(_content: self, _modifier: ir, _modifierCount: count) }
        ir.raw(",{\"monospacedDigit\":{}}")
        return _PatchModified(_content: self, _modifier: ir, _schemaVersion: 2, _modifierCount: count + 1)
    }

    func bold(_ isActive: Bool = true) -> _PatchModified<Self> {
        _modified { ir in if isActive { ir.raw("{\"bold\":{}}") } }
    }

    func italic(_ isActive: Bool = true) -> _PatchModified<Self> {
        _modified { ir in if isActive { ir.raw("{\"italic\":{}}") } }
    }

    func _colorModifier(_ key: StaticString, _ color: Color, schema: Int = 1) -> _PatchModified<Self> {
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
        func length(_ value: Double?, into ir: inout _PatchIR) {
            if let value { ir.length(value) } else { ir.raw("null") }
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
            ir.raw(shape._kind)
            ir.raw("}}")
        }
    }

    func fixedSize() -> _PatchModified<Self> {
        _modified(schema: 2) { ir in ir.raw("{\"fixedSize\":{}}") }
    }

    /// The shape `ContainerRelativeShape` takes inside this view (an IR v6 modifier).
    func containerShape<S: Shape>(_ shape: S) -> _PatchModified<Self> {
        _modified(schema: 6) { ir in
            ir.raw("{\"containerShape\":{\"_0\":")
            ir.raw(shape._kind)
            ir.raw("}}")
        }
    }

    func colorMultiply(_ color: Color) -> _PatchModified<Self> { _colorModifier("colorMultiply", color, schema: 6) }
}

