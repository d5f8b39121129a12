// Compiled with templates/guest/Prelude.swift and ViewDSL.swift (GuestBuilder.viewDSLGuest): one
// sample per DSL node and modifier, selected by the input `which`, plus an interactive counter.
// The glue below is what `patchcli build` generates for a view.

struct Sample: View {
    var which = 0
    var name = "Ada"

    var body: some View {
        switch which {
        case 0: Text("Hello, \(name)! \"quoted\"")
        case 1: Text(verbatim: "line\nbreak")
        case 2: Image(systemName: "star.fill")
        case 3: Image("Logo")
        case 4: Spacer()
        case 5: Spacer(minLength: 12)
        case 6: Divider()
        case 7: Color.blue
        case 8: Color(red: 1, green: 0.5, blue: 0)
        case 9: VStack { Divider() }
        case 10: VStack(alignment: .leading, spacing: 8) { Divider(); Spacer() }
        case 11: HStack(alignment: .firstTextBaseline, spacing: 2.5) { Divider() }
        case 12: ZStack(alignment: .bottomTrailing) { Divider() }
        case 13: Group { Divider(); Divider() }
        case 14: ForEach([1, 2]) { number in Text("row \(number)") }
        case 15: Button("Go") {}
        case 16: Divider().padding()
        case 17: Divider().padding(.horizontal, 4)
        case 18: Divider().padding(3)
        case 19: Divider().font(.title)
        case 20: Divider().font(.system(size: 14, weight: .semibold, design: .rounded))
        case 21: Divider().bold()
        case 22: Divider().italic()
        case 23: Divider().foregroundColor(.red)
        case 24: Divider().foregroundStyle(.gray)
        case 25: Divider().background(Color(white: 0.5, opacity: 0.25))
        case 26: Divider().frame(width: 10, height: 20, alignment: .top)
        case 27: Divider().frame(maxWidth: .infinity, alignment: .leading)
        case 28: Divider().opacity(0.5)
        case 29: Divider().cornerRadius(8)
        case 30: Divider().lineLimit(2)
        case 31: Divider().lineLimit(nil)
        case 32: Divider().multilineTextAlignment(.center)
        case 33: Divider().navigationTitle("Title")
        case 34: Divider().tint(.green)
        case 35: Divider().disabled(true)
        case 36: Divider().fixedSize()
        case 37: Divider().frame(width: .infinity)
        case 39: Rectangle()
        case 40: Circle().fill(.red)
        case 41: Capsule()
        case 42: Ellipse()
        case 43: RoundedRectangle(cornerRadius: 12)
        case 44: Text("clipped").clipShape(RoundedRectangle(cornerRadius: 4.5))
        case 45: Color.red.clipShape(Circle())
        case 46: Text("Welcome *back*", comment: "The greeting.")
        case 47: Text("Hi \(name)", bundle: .main, comment: "An interpolated key.")
        case 48: Text(LocalizedStringKey(name))
        case 49: Text(greetingKey)
        case 50: Text("pill").background(.thinMaterial, in: .capsule).clipShape(.circle)
        case 51: Divider().clipShape(.rect(cornerRadius: 6)).clipShape(.rect).clipShape(.ellipse)
        case 52: ContainerRelativeShape()
        case 53: Divider().containerShape(.rect(cornerRadius: 20)).clipShape(.containerRelative)
        case 54: Divider().colorMultiply(.init(white: 0.5))
        case 55: Divider().contentMargins(20, for: .scrollContent)
        case 56: Divider().contentMargins([.top, .horizontal], 10).ignoresSafeArea(edges: [.top, .leading])
        case 57: Divider().background(.indigo, in: .capsule)
        case 58: Circle().strokeBorder(style: StrokeStyle(lineWidth: 2, lineJoin: .round, dash: [10]))
        case 59: Capsule().stroke(.indigo, style: StrokeStyle(lineWidth: 1.5, lineCap: .round, miterLimit: 4, dash: [2, 3], dashPhase: 1))
        case 60: Rectangle().stroke(lineWidth: 3)
        case 61: _PatchOpaque("op_segment", label: "Segment").fill(.tint)
        case 62: RoundedRectangle(cornerRadius: 15, style: .continuous).fill(.ultraThinMaterial)
        case 63: Capsule().stroke(.separator, lineWidth: 0.5)
        case 64: Image("Logo", bundle: .main)
        case 65: Divider().padding(EdgeInsets(top: 8, leading: 12, bottom: 8, trailing: 12))
        case 66: Divider().dynamicTypeSize(.xxxLarge)
        case 70: Text("a").rowTitle()
        case 71: Text("b").bold(false).italic().monospacedDigit().opacity(0.5)
        case 73: Text("9").font(Font.system(size: 12, weight: .semibold).monospacedDigit())
        case 74: Divider().mask(RoundedRectangle(cornerRadius: 10))
        default:
            if name.isEmpty {
                Text("empty")
            }
            Text("a").bold().opacity(0.5)
        }
    }
}

/// An app's text style, as ACHNBrowserUI's `Text.style(appStyle:)` is: Text's own modifiers return Text.
extension Text {
    func rowTitle() -> Text {
        font(.title).fontWeight(.bold).foregroundColor(.red)
    }
}

extension Sample {
    /// A key the view passes on, as real views' helpers do (`func cell(title: LocalizedStringKey)`).
    var greetingKey: LocalizedStringKey { "Greeting" }
}

struct Counter: View {
    var title = "Taps"
    @State var count = 0

    var body: some View {
        VStack(spacing: 4) {
            Text("\(title): \(count)")
            if count > 1 {
                Text("Many!").foregroundColor(.red)
            }
            Button("+1") { count += 1 }
            Button(action: { count = 0 }) { Image(systemName: "arrow.counterclockwise") }
        }
    }
}

extension Sample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("which") { which = try inputs.decode("which") }
        if inputs.hasMember("name") { name = try inputs.decode("name") }
    }
}

extension Counter {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("title") { title = try inputs.decode("title") }
        if inputs.hasMember("count") { _count = State(wrappedValue: try inputs.decode("count")) }
        _count._patchNamed("count")
    }
}

@_cdecl("view_body__Sample")
func _patch_view_body__Sample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Sample(_patchInputs: inputs) }
}

@_cdecl("view_body__Counter")
func _patch_view_body__Counter(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Counter(_patchInputs: inputs) }
}

@_cdecl("dispatch__Counter")
func _patch_dispatch__Counter(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Counter(_patchInputs: inputs) }) { view, writer in
        writer.append("{\"count\":")
        view.count._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":1,\"views\":[{\"type\":\"Sample\",\"export\":\"view_body__Sample\",\"dispatch\":null,\"thunkSafe\":true},{\"type\":\"Counter\",\"export\":\"view_body__Counter\",\"dispatch\":\"dispatch__Counter\",\"thunkSafe\":true}]}")
    return writer.packedResult()
}
