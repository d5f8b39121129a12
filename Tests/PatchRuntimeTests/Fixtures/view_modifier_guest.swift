// Compiled with templates/guest/Prelude.swift and the ViewDSL files (GuestBuilder.viewDSLGuest):
// ViewModifier bodies, routed on their own (`view_body__CardStyle`: the content is the native slot
// `op_content`) and applied in a lowered view's body (`view_body__Screen`: the content is written in
// place). The glue below is what `patchcli build` generates for them.

struct CardStyle: ViewModifier {
    var inset = 8.0

    func body(content: Content) -> some View {
        content
            .padding(inset)
            .background(Color.white)
    }
}

/// A modifier with state: its Button toggles it, through `dispatch__Highlight`.
struct Highlight: ViewModifier {
    @State var isOn = false

    func body(content: Content) -> some View {
        VStack {
            content.bold(isOn)
            Button("Toggle") { isOn.toggle() }
        }
    }
}

struct Screen: View {
    var body: some View {
        VStack {
            Text("title").modifier(CardStyle(inset: 4))
            Divider()
        }
        .modifier(CardStyle())
    }
}

extension CardStyle {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("inset") { self.inset = try inputs.decode("inset") }
    }
}

extension Highlight {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("isOn") { self._isOn = State(wrappedValue: try inputs.decode("isOn")) }
    }
    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"isOn\":")
        view.isOn._patchEncode(into: &writer)
        writer.append("}")
    }
}

extension Screen {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {}
}

@_cdecl("view_body__CardStyle")
func _patch_view_body__CardStyle(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in _PatchModifierBody(_modifier: try CardStyle(_patchInputs: inputs)) }
}

@_cdecl("view_body__Highlight")
func _patch_view_body__Highlight(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in _PatchModifierBody(_modifier: try Highlight(_patchInputs: inputs)) }
}

@_cdecl("dispatch__Highlight")
func _patch_dispatch__Highlight(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in _PatchModifierBody(_modifier: try Highlight(_patchInputs: inputs)) }) { body, writer in
        Highlight._patchWriteState(body._modifier, into: &writer)
    }
}

@_cdecl("view_body__Screen")
func _patch_view_body__Screen(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Screen(_patchInputs: inputs) }
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":1,\"views\":[{\"type\":\"CardStyle\",\"export\":\"view_body__CardStyle\",\"dispatch\":null,\"thunkSafe\":true},{\"type\":\"Highlight\",\"export\":\"view_body__Highlight\",\"dispatch\":\"dispatch__Highlight\",\"thunkSafe\":true},{\"type\":\"Screen\",\"export\":\"view_body__Screen\",\"dispatch\":null,\"thunkSafe\":true}]}")
    return writer.packedResult()
}
