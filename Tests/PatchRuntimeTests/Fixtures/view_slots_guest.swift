// A view as `build` lowers it when its body has a native-only leaf (docs/views.md "Tokens and
// slots"): the leaf `PinMap(pin: name)` (a UIViewRepresentable of the app) is replaced by the slot
// the shipped thunk passes, and its modifier stays in the guest, on the opaque node.

struct Place: View {
    let title: String

    var body: some View {
        VStack {
            Text(title)
            _PatchOpaque("op_0123456789ab", label: "PinMap")
                .padding(8)
            Text("below")
        }
    }
}

extension Place {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        self.title = try inputs.decode("title")
    }
}

@_cdecl("view_body__Place")
func _patch_view_body__Place(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Place(_patchInputs: inputs) }
}
