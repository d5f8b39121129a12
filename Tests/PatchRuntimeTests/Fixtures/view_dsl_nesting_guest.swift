// Compiled with templates/guest/Prelude.swift and ViewDSL*.swift (GuestBuilder.viewDSLGuest): builder
// blocks whose pair types Embedded Swift once refused to specialize ("cannot specialize generic
// function or default protocol method in this context" in `_PatchPair._patchEmit`). Compiling
// this file is the regression test; the glue below is what `patchcli build` generates.

/// GiftOptionsScreen's stack with the `.disabled` it had to drop: a nested block whose middle
/// child carries a modifier, inside a block that repeats the outer `Text`.
struct GiftNote: View {
    @State var wrapped = false

    var body: some View {
        VStack {
            VStack { HStack { Text("c"); Text("d").bold(); Text("e") }; Text("f") }
            Button("Reset") { wrapped = false }
                .disabled(!wrapped)
        }
    }
}

/// One flat block of four: the same refusal without any nesting.
struct FlatBlock: View {
    var body: some View {
        VStack { Text("c"); Text("d").bold(); Text("e"); Text("f") }
    }
}

extension GiftNote {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("wrapped") { _wrapped = State(wrappedValue: try inputs.decode("wrapped")) }
        _wrapped._patchNamed("wrapped")
    }
}

extension FlatBlock {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {}
}

@_cdecl("view_body__GiftNote")
func _patch_view_body__GiftNote(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try GiftNote(_patchInputs: inputs) }
}

@_cdecl("view_body__FlatBlock")
func _patch_view_body__FlatBlock(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try FlatBlock(_patchInputs: inputs) }
}
