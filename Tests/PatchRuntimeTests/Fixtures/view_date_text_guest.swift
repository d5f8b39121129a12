// A view showing dates the host keeps up to date: `Text(_:style:)` (templates/guest/ViewDSL+Foundation.swift).

struct Countdown: View {
    let due: Date

    var body: some View {
        VStack {
            Text(due, style: .relative)
            Text(due.addingTimeInterval(90), style: .timer)
            Text("due")
        }
    }
}

extension Countdown {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        self.due = try inputs.decode("due")
    }
}

@_cdecl("view_body__Countdown")
func _patch_view_body__Countdown(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Countdown(_patchInputs: inputs) }
}
