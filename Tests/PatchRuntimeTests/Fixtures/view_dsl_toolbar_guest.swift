// Compiled with templates/guest/Prelude.swift and the view DSL (GuestBuilder.viewDSLGuest): one
// sample per toolbar form, presentation (navigation destination, item sheet, popover), search
// field, context menu, link and button role, selected by the input `which`, and an inbox screen
// driven through their events. The glue below is what `patchcli build` generates for a view (GuestViewLowering.emitGlue,
// GuestCodecGenerator for `Order`).

struct Order: Identifiable {
    let id: Int
    var name: String
}

struct ChromeSample: View {
    var which = 0
    @State var count = 0
    @State var flag = true
    @State var query = "ta"
    @State var selected: Order? = Order(id: 7, name: "Tacos")

    var body: some View {
        switch which {
        case 0:
            Text("a").toolbar {
                ToolbarItem(placement: .topBarTrailing) { Button("Add") { count += 1 } }
            }
        case 1:
            Text("b").toolbar {
                ToolbarItem(placement: .navigationBarLeading) { Text("L") }
                ToolbarItemGroup(placement: .bottomBar) {
                    Button("One") { count = 1 }
                    Spacer()
                }
                if flag {
                    ToolbarItem(placement: .principal) { Text("P") }
                }
                if count > 3 {
                    ToolbarItem(placement: .status) { Text("S") }
                } else {
                    ToolbarItem(placement: .keyboard) { Text("K") }
                }
                ToolbarItem { Text("auto") }
            }
        case 2:
            Text("c").toolbar { Button("Edit") { count = 0 }; Text("x") }
        case 3:
            Text("d").navigationBarItems(leading: Text("L"), trailing: Button("R") { count = 9 })
        case 4:
            Text("e").toolbar { EditorToolbar() }
        case 5:
            Text("n").navigationDestination(isPresented: $flag) { Text("Detail") }
        case 6:
            Text("n").navigationDestination(isPresented: .constant(false)) { Text("Detail") }
        case 7:
            Text("s").sheet(item: $selected) { order in Text("Order \(order.name)") }
        case 8:
            Text("p").popover(isPresented: $flag) { Text("Tip") }
        case 9:
            Text("q").searchable(text: $query, prompt: "Find")
        case 10:
            Text("q").searchable(text: $query)
        case 11:
            Text("m").contextMenu {
                Button("Copy") { count += 1 }
            }
        case 12:
            // A menu on siblings is each sibling's; modifiers after it apply to the wrapper.
            TwoLines()
                .contextMenu { Text("Info") }
            .padding(2)
        case 13:
            Link("Docs", destination: URL(string: "https://example.com/a?b=\"c\"")!)
        case 15:
            Button("Delete", role: .destructive) { count = 0 }
        case 16:
            Button(role: .cancel) { count = 0 } label: { Text("Cancel") }
        case 17:
            Button("Trash", systemImage: "trash") { count = 0 }
        case 18:
            Button("Trash", systemImage: "trash", role: .destructive) { count = 0 }
        default:
            Link(destination: URL(string: "https://swift.org")!) {
                Image(systemName: "link")
            }
        }
    }
}

/// A body of two sibling nodes.
struct TwoLines: View {
    var body: some View {
        Text("x")
        Text("y")
    }
}

struct EditorToolbar: ToolbarContent {
    var body: some ToolbarContent {
        ToolbarItem(placement: .cancellationAction) { Text("Cancel") }
        ToolbarItem(placement: .confirmationAction) { Text("Done") }
    }
}

/// A screen using every interactive form: rows with context menus that select an order, an item
/// sheet for the selection, a search field, a toolbar button pushing a destination.
struct Inbox: View {
    var orders = [Order(id: 1, name: "Tacos"), Order(id: 2, name: "Tea"), Order(id: 3, name: "Soup")]
    @State var query = ""
    @State var selected: Order? = nil
    @State var showStats = false
    @State var log = ""

    var body: some View {
        NavigationStack {
            List {
                ForEach(orders.filter { query.isEmpty || $0.name.hasPrefix(query) }) { order in
                    Text(order.name).contextMenu {
                        Button("Open") { selected = order }
                    }
                }
            }
            .searchable(text: $query, prompt: "Orders")
            .toolbar {
                ToolbarItem(placement: .topBarTrailing) {
                    Button("Stats") { showStats = true }
                }
            }
            .navigationDestination(isPresented: $showStats) {
                Text("\(orders.count) orders")
            }
            .sheet(item: $selected, onDismiss: { log += "dismissed;" }) { order in
                Text(order.name)
                Button("Done") { selected = nil }
            }
        }
    }
}

extension Order: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard value.isObject else { throw _PatchDecodeError("expected a JSON object for Order") }
        self.id = try value.decode("id", as: Int.self)
        self.name = try value.decode("name", as: String.self)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        writer.append(UInt8(ascii: "{"))
        var first = true
        _ = first
        if !first { writer.append(UInt8(ascii: ",")) }; first = false
        writer.writeKey("id"); self.id._patchEncode(into: &writer)
        if !first { writer.append(UInt8(ascii: ",")) }; first = false
        writer.writeKey("name"); self.name._patchEncode(into: &writer)
        writer.append(UInt8(ascii: "}"))
    }
}

extension ChromeSample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("which") { self.which = try inputs.decode("which") }
        if inputs.hasMember("count") { self._count = State(wrappedValue: try inputs.decode("count")) }
        self._count._patchNamed("count")
        if inputs.hasMember("flag") { self._flag = State(wrappedValue: try inputs.decode("flag")) }
        self._flag._patchNamed("flag")
        if inputs.hasMember("query") { self._query = State(wrappedValue: try inputs.decode("query")) }
        self._query._patchNamed("query")
        if inputs.hasMember("selected") { self._selected = State(wrappedValue: try inputs.decode("selected")) }
        self._selected._patchNamed("selected")
    }
}

extension Inbox {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("orders") { self.orders = try inputs.decode("orders") }
        if inputs.hasMember("query") { self._query = State(wrappedValue: try inputs.decode("query")) }
        self._query._patchNamed("query")
        if inputs.hasMember("selected") { self._selected = State(wrappedValue: try inputs.decode("selected")) }
        self._selected._patchNamed("selected")
        if inputs.hasMember("showStats") { self._showStats = State(wrappedValue: try inputs.decode("showStats")) }
        self._showStats._patchNamed("showStats")
        if inputs.hasMember("log") { self._log = State(wrappedValue: try inputs.decode("log")) }
        self._log._patchNamed("log")
    }

    static func _patchWriteState(_ view: Self, into writer: inout _PatchJSONWriter) {
        writer.append("{\"log\":")
        view.log._patchEncode(into: &writer)
        writer.append(",\"query\":")
        view.query._patchEncode(into: &writer)
        writer.append(",\"selected\":")
        view.selected._patchEncode(into: &writer)
        writer.append(",\"showStats\":")
        view.showStats._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("view_body__ChromeSample")
func _patch_view_body__ChromeSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try ChromeSample(_patchInputs: inputs) }
}

@_cdecl("view_body__Inbox")
func _patch_view_body__Inbox(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try Inbox(_patchInputs: inputs) }
}

@_cdecl("dispatch__Inbox")
func _patch_dispatch__Inbox(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try Inbox(_patchInputs: inputs) }, Inbox._patchWriteState)
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":3,\"views\":[{\"type\":\"ChromeSample\",\"export\":\"view_body__ChromeSample\",\"dispatch\":null,\"thunkSafe\":true},{\"type\":\"Inbox\",\"export\":\"view_body__Inbox\",\"dispatch\":\"dispatch__Inbox\",\"thunkSafe\":true}]}")
    return writer.packedResult()
}
