// A view as `build` lowers it when its body reads host values (docs/views.md "Tokens and slots"):
// the reads of
//     @ObservedObject var model: Model            (title: String, count: Int, tint: Color, font: Font)
//     @Environment(\.colorScheme) var colorScheme
// are replaced by the token reads of templates/guest/ViewDSL+Tokens.swift, the host properties are
// gone, and the glue hands the inputs to those reads before the body runs.

struct Badge: View {
    let caption: String

    var body: some View {
        VStack {
            Text(_patchStringToken("__strtok_st_0123456789ab"))
            Text("\(Int(_patchNumberToken("__numtok_nt_0123456789ab"))) \(caption)")
            if (_patchNumberToken("__numtok_nt_ba9876543210") != 0) { Text("dark") }
        }
        .foregroundColor(Color(_patchHostToken: "ct_0123456789ab"))
    }
}

extension Badge {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        self.caption = try inputs.decode("caption")
    }
}

@_cdecl("view_body__Badge")
func _patch_view_body__Badge(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Badge(_patchInputs: inputs) }
}

/// `Text(title).font(model.font)` and `.font(model.font.bold())`: font tokens.
struct Caption: View {
    let title: String

    var body: some View {
        HStack {
            Text(title).font(Font(_patchHostToken: "ft_0123456789ab"))
            Text(title).font(Font(_patchHostToken: "ft_0123456789ab").bold())
        }
    }
}

extension Caption {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        self.title = try inputs.decode("title")
    }
}

@_cdecl("view_body__Caption")
func _patch_view_body__Caption(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Caption(_patchInputs: inputs) }
}
