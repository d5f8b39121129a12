// Guest view DSL (see ViewDSL.swift): containers, ForEach and Button.

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
        let first = emission.nodes.count
        for element in _data { _content(element)._patchEmit(into: &emission) }
        var ir = _PatchIR(capacity: 32 &+ emission.writtenCount(from: first))
        ir.raw("{\"forEach\":{\"children\":")
        emission.writeLevel(from: first, into: &ir)
        ir.raw("}}")
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
        var ir = _PatchIR()
        ir.raw("{\"button\":{\"actionID\":\"")
        ir.raw(id)
        ir.raw("\",\"role\":null,\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Button where Label == Text {
    init(_ title: String, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

