// Compiled with templates/guest/Prelude.swift and the view DSL (GuestBuilder.viewDSLGuest): one
// sample per text-input and control style modifier and DatePicker form (templates/guest/
// ViewDSL+TextInput.swift, +ControlStyles.swift, +DatePicker.swift), selected by the input `which`. The glue below is what `patchcli build` generates for a view (GuestViewLowering.emitGlue).

struct TextInputSample: View {
    var which = 0
    @State var email = "ada@example.com"
    @State var due = Date(timeIntervalSince1970: 1_700_000_000.5)

    var body: some View {
        switch which {
        case 0:
            TextField("Email", text: $email)
                .keyboardType(.emailAddress)
                .textContentType(.emailAddress)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
                .submitLabel(.next)
        case 1: Divider().keyboardType(.default)
        case 2: Divider().textContentType(nil).textInputAutocapitalization(nil)
        case 3: Divider().autocorrectionDisabled(false)
        case 4: Divider().submitLabel(.return)
        case 5: Divider().textFieldStyle(.roundedBorder)
        case 6: Divider().textFieldStyle(PlainTextFieldStyle())
        case 7: Divider().pickerStyle(.segmented).pickerStyle(MenuPickerStyle())
        case 8: Divider().menuStyle(.borderlessButton)
        case 9: Divider().toggleStyle(.switch).toggleStyle(ButtonToggleStyle())
        case 10: Divider().progressViewStyle(.circular)
        case 11: DatePicker("Due", selection: $due)
        case 12: DatePicker("Due", selection: $due, in: Date(timeIntervalSince1970: 0)..., displayedComponents: .date)
        case 13:
            DatePicker(selection: $due, in: Date(timeIntervalSince1970: -1.5)...Date(timeIntervalSince1970: 1e9),
                       displayedComponents: [.hourAndMinute]) {
                Image(systemName: "clock")
            }
            .datePickerStyle(.wheel)
        default: DatePicker("Due", selection: .constant(Date(timeIntervalSince1970: 0)), in: ...Date(timeIntervalSince1970: 10))
        }
    }
}

extension TextInputSample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("which") { self.which = try inputs.decode("which") }
        if inputs.hasMember("email") { self._email = State(wrappedValue: try inputs.decode("email")) }
        self._email._patchNamed("email")
        if inputs.hasMember("due") { self._due = State(wrappedValue: try inputs.decode("due")) }
        self._due._patchNamed("due")
    }

    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"due\":")
        view.due._patchEncode(into: &writer)
        writer.append(",\"email\":")
        view.email._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__TextInputSample")
func _patch_view_body__TextInputSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try TextInputSample(_patchInputs: inputs) }
}

@_cdecl("dispatch__TextInputSample")
func _patch_dispatch__TextInputSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try TextInputSample(_patchInputs: inputs) }, TextInputSample._patchWriteState)
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":5,\"views\":[{\"type\":\"TextInputSample\",\"export\":\"view_body__TextInputSample\",\"dispatch\":\"dispatch__TextInputSample\",\"thunkSafe\":true}]}")
    return writer.packedResult()
}
