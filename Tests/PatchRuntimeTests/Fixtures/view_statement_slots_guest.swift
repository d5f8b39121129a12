// A view as `build` lowers it when its body reads the host other than through tokens (docs/views.md
// "Tokens and slots"): `Button("Done") { dismiss() }` is the statement slot the shipped thunk passes,
// and `.onAppear { store.load() }` the background slot (`Color.clear.onAppear { store.load() }`
// natively), next to the view's own background.

struct Inbox: View {
    let title: String

    var body: some View {
        VStack {
            Text(title)
            _PatchOpaque("op_aaaaaaaaaaaa", label: "Button")
                .padding(8)
        }
        .background(Color.red)
        ._patchBackgroundSlot("op_bbbbbbbbbbbb", label: "onAppear")
        .navigationTitle("Inbox")
    }
}

extension Inbox {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        self.title = try inputs.decode("title")
    }
}

@_cdecl("view_body__Inbox")
func _patch_view_body__Inbox(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Inbox(_patchInputs: inputs) }
}
