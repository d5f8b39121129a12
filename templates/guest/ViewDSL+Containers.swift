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

/// A button's role (IRButtonRole, §5.6.1): SwiftUI's `.confirm` and `.close` have no IR value and
/// are not declared.
struct ButtonRole: _PatchNamedValue {
    let _name: StaticString
    static let destructive = ButtonRole(_name: "destructive")
    static let cancel = ButtonRole(_name: "cancel")
}

struct Button<Label: View>: _PatchPrimitiveView {
    let _role: ButtonRole?
    let _action: () -> Void
    let _label: Label

    init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.init(role: nil, action: action, label: label)
    }

    init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        _role = role
        _action = action
        _label = label()
    }

    func _patchEmit(into emission: inout _PatchEmission) {
        // Button(role:) came with the host-state vocabulary (§5.5).
        if _role != nil { emission.requires(schema: 3) }
        let id = emission.registerAction(_action)
        guard emission.writesTree else {
            // Only the label's events count in an evaluation that writes no tree.
            emission.append(emission.children(of: _label))
            return
        }
        var ir = _PatchIR()
        ir.raw("{\"button\":{\"actionID\":\"")
        ir.raw(id)
        ir.raw("\",\"role\":")
        _patchName(_role?._name, into: &ir)
        ir.raw(",\"label\":")
        emission.writeChildren(of: _label, into: &ir)
        ir.raw("}}")
        emission.append(ir)
    }
}

extension Button where Label == Text {
    init(_ title: String, role: ButtonRole? = nil, action: @escaping () -> Void) {
        self.init(role: role, action: action) { Text(title) }
    }
}

extension Button where Label == _PatchTitleAndIconLabel {
    /// `Button("Delete", systemImage: "trash") { }` (iOS 17): the label is the title-and-symbol Label.
    init(_ title: String, systemImage name: String, role: ButtonRole? = nil, action: @escaping () -> Void) {
        self.init(role: role, action: action) { _PatchTitleAndIconLabel(title, systemImage: name) }
    }
}

