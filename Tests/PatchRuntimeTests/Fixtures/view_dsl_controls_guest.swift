// Compiled with templates/guest/Prelude.swift and the view DSL (GuestBuilder.viewDSLGuest): one
// sample per control and event modifier, selected by the input `which`, a settings screen driven
// through its events, a view whose toggle writes a @Binding, and a list of rows edited by events. The glue below is what
// `patchcli build` generates for a view (GuestViewLowering.emitGlue).

struct ControlSample: View {
    var which = 0
    @State var isOn = true
    @State var count = 2
    @State var level = 0.5
    @State var name = "Ada"
    @State var flavor = "mint"
    @State var size = 2
    @State var showSheet = false
    @State var showAlert = true

    var body: some View {
        switch which {
        case 0: Toggle("Wi-Fi", isOn: $isOn)
        case 1: Toggle(isOn: .constant(false)) { Image(systemName: "wifi") }
        case 2: Stepper("Count", value: $count, in: 0...5)
        case 3: Stepper("Count", value: $count, step: 2)
        case 4: Stepper("Pages", onIncrement: { count += 1 }, onDecrement: { count -= 1 })
        case 5: Slider(value: $level)
        case 6: Slider(value: $level, in: 0...10, step: 0.5)
        case 7: TextField("Name", text: $name)
        case 8: SecureField("Password", text: $name)
        case 9: TextEditor(text: $name)
        case 10:
            Picker("Flavor", selection: $flavor) {
                Text("Vanilla").tag("vanilla")
                Text("Mint").tag("mint")
            }
        case 11:
            Picker("Size", selection: $size) {
                ForEach(1...3) { size in Text("Size \(size)").tag(size) }
            }
        case 12: Text("tap").onTapGesture { count += 1 }
        case 13: Text("hold").onLongPressGesture(minimumDuration: 1) { count = 0 }
        case 14: Text("life").onAppear { count = 1 }.onDisappear { count = 0 }
        case 15: TextField("Search", text: $name).onSubmit { count += 1 }
        case 16: Text("s").sheet(isPresented: $showSheet) { Text("Sheet") }
        case 17: Text("s").sheet(isPresented: .constant(true)) { Button("Done") { count = 0 } }
        case 18: Text("f").fullScreenCover(isPresented: $showSheet) { Text("Cover") }
        case 19:
            Text("a").alert("Delete?", isPresented: $showAlert) {
                Button("Delete") { count = 0 }
            } message: {
                Text("Gone for good")
            }
        case 20:
            Text("d").confirmationDialog("Share", isPresented: $showAlert, titleVisibility: .visible) {
                Button("Copy") { count += 1 }
            }
        default: Text("quiet").onAppear()
        }
    }
}

struct Settings: View {
    @State var notificationsOn = false
    @State var badge = 0
    @State var volume = 0.5
    @State var name = ""
    @State var theme = "light"
    @State var showAbout = false
    @State var confirmReset = false
    @State var taps = 0
    @State var log = ""

    var body: some View {
        VStack {
            Toggle("Notifications", isOn: $notificationsOn)
            Stepper("Badge: \(badge)", value: $badge, in: 0...9)
            Slider(value: $volume, in: 0...1)
            TextField("Name", text: $name).onSubmit { log += "submit;" }
            Picker("Theme", selection: $theme) {
                Text("Light").tag("light")
                Text("Dark").tag("dark")
            }
            Text("Taps: \(taps)").onTapGesture { taps += 1 }.onAppear { log += "appear;" }
            Button("About") { showAbout = true }
            Button("Reset") { confirmReset = true }
        }
        .sheet(isPresented: $showAbout, onDismiss: { log += "dismissed;" }) {
            Button("Close") { showAbout = false }
        }
        .alert("Reset?", isPresented: $confirmReset) {
            Button("Reset") { badge = 0 }
        }
    }
}

struct Agreement: View {
    @Binding var agreed: Bool

    var body: some View {
        Toggle("I agree", isOn: $agreed)
    }
}

struct Chores: View {
    @State var chores = ["dishes", "laundry", "trash", "plants"]

    var body: some View {
        VStack {
            ForEach(chores) { chore in Text(chore) }
                .onDelete { offsets in chores.remove(atOffsets: offsets) }
                .onMove { source, destination in chores.move(fromOffsets: source, toOffset: destination) }
        }
    }
}

extension Chores {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("chores") { self._chores = State(wrappedValue: try inputs.decode("chores")) }
        self._chores._patchNamed("chores")
    }

    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"chores\":")
        view.chores._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__Chores")
func _patch_view_body__Chores(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Chores(_patchInputs: inputs) }
}

@_cdecl("dispatch__Chores")
func _patch_dispatch__Chores(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Chores(_patchInputs: inputs) }, Chores._patchWriteState)
}

extension ControlSample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("which") { self.which = try inputs.decode("which") }
        if inputs.hasMember("isOn") { self._isOn = State(wrappedValue: try inputs.decode("isOn")) }
        self._isOn._patchNamed("isOn")
        if inputs.hasMember("count") { self._count = State(wrappedValue: try inputs.decode("count")) }
        self._count._patchNamed("count")
        if inputs.hasMember("level") { self._level = State(wrappedValue: try inputs.decode("level")) }
        self._level._patchNamed("level")
        if inputs.hasMember("name") { self._name = State(wrappedValue: try inputs.decode("name")) }
        self._name._patchNamed("name")
        if inputs.hasMember("flavor") { self._flavor = State(wrappedValue: try inputs.decode("flavor")) }
        self._flavor._patchNamed("flavor")
        if inputs.hasMember("size") { self._size = State(wrappedValue: try inputs.decode("size")) }
        self._size._patchNamed("size")
        if inputs.hasMember("showSheet") { self._showSheet = State(wrappedValue: try inputs.decode("showSheet")) }
        self._showSheet._patchNamed("showSheet")
        if inputs.hasMember("showAlert") { self._showAlert = State(wrappedValue: try inputs.decode("showAlert")) }
        self._showAlert._patchNamed("showAlert")
    }
}

extension Settings {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("notificationsOn") { self._notificationsOn = State(wrappedValue: try inputs.decode("notificationsOn")) }
        self._notificationsOn._patchNamed("notificationsOn")
        if inputs.hasMember("badge") { self._badge = State(wrappedValue: try inputs.decode("badge")) }
        self._badge._patchNamed("badge")
        if inputs.hasMember("volume") { self._volume = State(wrappedValue: try inputs.decode("volume")) }
        self._volume._patchNamed("volume")
        if inputs.hasMember("name") { self._name = State(wrappedValue: try inputs.decode("name")) }
        self._name._patchNamed("name")
        if inputs.hasMember("theme") { self._theme = State(wrappedValue: try inputs.decode("theme")) }
        self._theme._patchNamed("theme")
        if inputs.hasMember("showAbout") { self._showAbout = State(wrappedValue: try inputs.decode("showAbout")) }
        self._showAbout._patchNamed("showAbout")
        if inputs.hasMember("confirmReset") { self._confirmReset = State(wrappedValue: try inputs.decode("confirmReset")) }
        self._confirmReset._patchNamed("confirmReset")
        if inputs.hasMember("taps") { self._taps = State(wrappedValue: try inputs.decode("taps")) }
        self._taps._patchNamed("taps")
        if inputs.hasMember("log") { self._log = State(wrappedValue: try inputs.decode("log")) }
        self._log._patchNamed("log")
    }

    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"badge\":")
        view.badge._patchEncode(into: &writer)
        writer.append(",\"confirmReset\":")
        view.confirmReset._patchEncode(into: &writer)
        writer.append(",\"log\":")
        view.log._patchEncode(into: &writer)
        writer.append(",\"name\":")
        view.name._patchEncode(into: &writer)
        writer.append(",\"notificationsOn\":")
        view.notificationsOn._patchEncode(into: &writer)
        writer.append(",\"showAbout\":")
        view.showAbout._patchEncode(into: &writer)
        writer.append(",\"taps\":")
        view.taps._patchEncode(into: &writer)
        writer.append(",\"theme\":")
        view.theme._patchEncode(into: &writer)
        writer.append(",\"volume\":")
        view.volume._patchEncode(into: &writer)
        writer.append("}")
    }
}

extension Agreement {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        self._agreed = Binding(_patchValue: try inputs.decode("agreed"), name: "agreed")
    }

    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"agreed\":")
        view.agreed._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__ControlSample")
func _patch_view_body__ControlSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try ControlSample(_patchInputs: inputs) }
}

@_cdecl("view_body__Settings")
func _patch_view_body__Settings(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Settings(_patchInputs: inputs) }
}

@_cdecl("dispatch__Settings")
func _patch_dispatch__Settings(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Settings(_patchInputs: inputs) }, Settings._patchWriteState)
}

@_cdecl("view_body__Agreement")
func _patch_view_body__Agreement(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Agreement(_patchInputs: inputs) }
}

@_cdecl("dispatch__Agreement")
func _patch_dispatch__Agreement(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Agreement(_patchInputs: inputs) }, Agreement._patchWriteState)
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":3,\"views\":[{\"type\":\"ControlSample\",\"export\":\"view_body__ControlSample\",\"dispatch\":null,\"thunkSafe\":true},{\"type\":\"Settings\",\"export\":\"view_body__Settings\",\"dispatch\":\"dispatch__Settings\",\"thunkSafe\":true},{\"type\":\"Chores\",\"export\":\"view_body__Chores\",\"dispatch\":\"dispatch__Chores\",\"thunkSafe\":true},{\"type\":\"Agreement\",\"export\":\"view_body__Agreement\",\"dispatch\":\"dispatch__Agreement\",\"thunkSafe\":true}]}")
    return writer.packedResult()
}
