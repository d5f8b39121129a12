// Compiled with templates/guest/Prelude.swift and the view DSL (GuestBuilder.viewDSLGuest): one
// sample per form of `.task`, `.onChange`, `.animation`, `.transition`, `TabView(selection:)` and
// `GeometryReader`, selected by the input `which`, and views driven through their events. The glue
// below is what `patchcli build` generates for a view (GuestViewLowering.emitGlue).

struct LifecycleSample: View {
    var which = 0
    @State var count = 2
    @State var name = "Ada"

    var body: some View {
        switch which {
        case 0: Text("t").task { count += 1 }
        case 1: Text("t").task(id: name, priority: .background) { count += 1 }
        case 2: Text("c").onChange(of: count) { newValue in name = "n" }
        case 3: Text("c").onChange(of: count + name.count, initial: true) { old, new in name = "n" }
        default: Text("c").onChange(of: which) { }
        }
    }
}

struct Search: View {
    @State var query = ""
    @State var count = 0
    @State var log = ""

    var body: some View {
        VStack {
            TextField("Search", text: $query)
            Button("More") { count += 1 }
            Text("\(count)")
                .onChange(of: query) { old, new in log += "query \(old)>\(new);" }
                .onChange(of: count, initial: true) { log += "count;" }
        }
        .task { log += "task;" }
    }
}

struct AnimSample: View {
    var which = 0
    @State var isOn = true
    @State var count = 2

    var body: some View {
        switch which {
        case 0: Text("a").animation(.easeInOut(duration: 0.3), value: isOn)
        case 1: Text("a").animation(nil, value: count)
        case 2: Text("a").animation(.spring(response: 0.4, dampingFraction: 0.6).delay(0.1).speed(2).repeatCount(3, autoreverses: false), value: count)
        case 3: Text("a").animation(.spring(duration: 0.5, bounce: 0.25), value: count)
        case 4: Text("a").animation(.default, value: which)
        case 5: Text("a").transition(.opacity)
        case 6: Text("a").transition(.move(edge: .bottom))
        case 7: Text("a").transition(.scale)
        case 8: Text("a").transition(.scale(scale: 0.5, anchor: .top).combined(with: .opacity))
        case 9: Text("a").transition(.asymmetric(insertion: .push(from: .leading), removal: .offset(x: 10, y: -2)))
        case 10: Text("a").transition(.slide).animation(.bouncy, value: isOn)
        case 11: Text("a").padding(.top, 4).onTapGesture { withAnimation(.spring()) { count += 1 } }
        case 12: Text("a").animation(.bouncy(duration: 0.25, extraBounce: 0.1), value: count)
        case 13: Text("a").animation(.interactiveSpring, value: count)
        case 14: Text("a").transition(.scale(0.5).combined(with: .offset(y: 50)))
        default: Text("a").transition(.offset(CGSize(width: 1, height: 2)))
        }
    }
}

struct Tabs: View {
    @State var tab = 1
    @State var section = "inbox"
    var which = 0

    var body: some View {
        switch which {
        case 0:
            TabView(selection: $tab) {
                Text("Home").tabItem { Label("Home", systemImage: "house") }.tag(0)
                VStack { Text("Inner").tag(7) }.tag(1).tabItem { Text("Second") }
                Text("Untagged")
            }
        case 1:
            TabView(selection: $section) {
                ForEach(["inbox", "sent"], id: { $0 }) { name in Text(name).tag(name) }
                Text("Quote \"x\"").tag("q\"x")
            }
        default:
            TabView(selection: .constant(2)) {
                Text("A").tag("wrong kind")
                Button("B") { tab = 0 }.tag(2)
            }
        }
    }
}

struct Meter: View {
    var levels = [0.5, 0.25]
    @State var taps = 0

    var body: some View {
        VStack {
            GeometryReader { proxy in
                Text("\(proxy.size.width)x\(proxy.size.height) at \(proxy.frame(in: .local).minX),\(proxy.frame(in: .local).minY)")
                    .onTapGesture { taps += 1 }
            }
            ForEach(levels, id: { $0 }) { level in
                GeometryReader { geometry in
                    Rectangle().frame(width: geometry.size.width * level)
                }
            }
        }
    }
}

extension LifecycleSample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        if inputs.hasMember("which") { self.which = try inputs.decode("which") }
        if inputs.hasMember("count") { self._count = State(wrappedValue: try inputs.decode("count")) }
        self._count._patchNamed("count")
        if inputs.hasMember("name") { self._name = State(wrappedValue: try inputs.decode("name")) }
        self._name._patchNamed("name")
    }
}

extension Search {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        if inputs.hasMember("query") { self._query = State(wrappedValue: try inputs.decode("query")) }
        self._query._patchNamed("query")
        if inputs.hasMember("count") { self._count = State(wrappedValue: try inputs.decode("count")) }
        self._count._patchNamed("count")
        if inputs.hasMember("log") { self._log = State(wrappedValue: try inputs.decode("log")) }
        self._log._patchNamed("log")
    }

    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"count\":")
        view.count._patchEncode(into: &writer)
        writer.append(",\"log\":")
        view.log._patchEncode(into: &writer)
        writer.append(",\"query\":")
        view.query._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__LifecycleSample")
func _patch_view_body__LifecycleSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try LifecycleSample(_patchInputs: inputs) }
}

@_cdecl("view_body__Search")
func _patch_view_body__Search(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Search(_patchInputs: inputs) }
}

@_cdecl("dispatch__Search")
func _patch_dispatch__Search(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Search(_patchInputs: inputs) }, Search._patchWriteState)
}

extension AnimSample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        if inputs.hasMember("which") { self.which = try inputs.decode("which") }
        if inputs.hasMember("isOn") { self._isOn = State(wrappedValue: try inputs.decode("isOn")) }
        self._isOn._patchNamed("isOn")
        if inputs.hasMember("count") { self._count = State(wrappedValue: try inputs.decode("count")) }
        self._count._patchNamed("count")
    }
}

@_cdecl("view_body__AnimSample")
func _patch_view_body__AnimSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try AnimSample(_patchInputs: inputs) }
}

extension Tabs {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        if inputs.hasMember("which") { self.which = try inputs.decode("which") }
        if inputs.hasMember("tab") { self._tab = State(wrappedValue: try inputs.decode("tab")) }
        self._tab._patchNamed("tab")
        if inputs.hasMember("section") { self._section = State(wrappedValue: try inputs.decode("section")) }
        self._section._patchNamed("section")
    }
    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"section\":")
        view.section._patchEncode(into: &writer)
        writer.append(",\"tab\":")
        view.tab._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__Tabs")
func _patch_view_body__Tabs(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Tabs(_patchInputs: inputs) }
}
@_cdecl("dispatch__Tabs")
func _patch_dispatch__Tabs(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Tabs(_patchInputs: inputs) }, Tabs._patchWriteState)
}

extension Meter {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        _patchTokenInputs = inputs
        if inputs.hasMember("levels") { self.levels = try inputs.decode("levels") }
        if inputs.hasMember("taps") { self._taps = State(wrappedValue: try inputs.decode("taps")) }
        self._taps._patchNamed("taps")
    }
    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"taps\":")
        view.taps._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__Meter")
func _patch_view_body__Meter(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Meter(_patchInputs: inputs) }
}
@_cdecl("dispatch__Meter")
func _patch_dispatch__Meter(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Meter(_patchInputs: inputs) }, Meter._patchWriteState)
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":3,\"views\":[{\"type\":\"Search\",\"export\":\"view_body__Search\",\"dispatch\":\"dispatch__Search\",\"thunkSafe\":true},{\"type\":\"Tabs\",\"export\":\"view_body__Tabs\",\"dispatch\":\"dispatch__Tabs\",\"thunkSafe\":true},{\"type\":\"Meter\",\"export\":\"view_body__Meter\",\"dispatch\":\"dispatch__Meter\",\"thunkSafe\":true}]}")
    return writer.packedResult()
}
