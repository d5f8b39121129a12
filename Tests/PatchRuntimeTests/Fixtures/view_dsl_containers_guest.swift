// Compiled with templates/guest/Prelude.swift and the ViewDSL*.swift parts (GuestBuilder.viewDSLGuest):
// one sample per container, navigation node and modifier of ViewDSL+Lists/Navigation/Styling.swift,
// selected by the input `which`, and a settings screen written the way real apps write theirs.
// The glue below is what `patchcli build` generates for a view.

struct ContainerSample: View {
    var which = 0

    var body: some View {
        switch which {
        case 0: List { Divider() }
        case 1: List([1, 2]) { number in Text("row \(number)") }
        case 2: Section { Divider() } header: { Text("H") } footer: { Text("F") }
        case 3: Section("Title") { Divider() }
        case 4: Section { Divider() }
        case 5: Section(header: Text("Old")) { Divider() }
        case 6: Form { Divider() }
        case 7: ScrollView { Divider() }
        case 8: ScrollView(.horizontal, showsIndicators: false) { Divider() }.padding(2)
        case 9: LazyVStack(alignment: .leading, spacing: 4) { Divider() }
        case 10: LazyHStack { Divider() }
        case 11: LazyVGrid(columns: [GridItem(.flexible()), GridItem(.fixed(40), spacing: 2, alignment: .top)]) { Divider() }
        case 12: LazyHGrid(rows: [GridItem(.adaptive(minimum: 80, maximum: 120))], spacing: 6) { Divider() }
        case 13: Grid(horizontalSpacing: 3) { GridRow(alignment: .top) { Divider() } }
        case 14: NavigationStack { Divider() }
        case 15: NavigationView { Divider() }
        case 16: NavigationLink(destination: Text("Detail")) { Text("Open") }
        case 17: NavigationLink("Open") { Text("Detail") }
        case 18: Label("Inbox", systemImage: "tray")
        case 19: Label { Text("Custom") } icon: { Circle() }
        case 20: ProgressView()
        case 21: ProgressView(value: 0.25)
        case 22: ProgressView("Upload", value: 3, total: 4)
        case 23:
            TabView {
                Text("One").tabItem { Label("First", systemImage: "1.circle") }
                Text("Two")
            }
        case 24: DisclosureGroup("More") { Divider() }
        case 25: EmptyView()
        case 26: Divider().buttonStyle(.borderedProminent)
        case 27: Divider().buttonStyle(PlainButtonStyle())
        case 28: Divider().listStyle(.insetGrouped)
        case 29: Divider().labelStyle(.iconOnly)
        case 30: Divider().controlSize(.small)
        case 31: Divider().fontWeight(.semibold)
        case 32: Divider().overlay { Text("badge") }
        case 33: Divider().background(alignment: .leading) { Color.red }
        case 34: Divider().listRowBackground(Color.clear)
        case 35: Divider().aspectRatio(1.5, contentMode: .fill)
        case 36: Divider().scaledToFit()
        case 37: Divider().navigationBarTitleDisplayMode(.inline)
        case 38: Divider().toolbarTitleDisplayMode(.large)
        case 39: Divider().navigationBarTitle("Legacy")
        case 40: Divider().offset(x: 3, y: -2)
        case 41: Divider().listRowInsets(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
        case 42: Divider().shadow(radius: 4, y: 2)
        case 43: Divider().shadow(color: .black, radius: 1)
        case 44: Divider().clipped()
        case 45: Divider().rotationEffect(.degrees(45))
        case 46: Divider().scaleEffect(1.5, anchor: .topLeading)
        case 47: Divider().border(.gray, width: 2)
        case 48: Divider().textCase(.uppercase)
        case 49: Divider().imageScale(.large)
        case 50: Divider().symbolRenderingMode(.hierarchical)
        case 51: Divider().monospacedDigit()
        case 52: Divider().mask { Capsule() }
        case 53: Divider().buttonBorderShape(.capsule)
        case 54: Divider().navigationViewStyle(.stack)
        case 55: Divider().navigationBarBackButtonHidden()
        case 56: Divider().accessibilityLabel("Close")
        case 57: Divider().accessibilityHidden(true)
        case 58: Divider().redacted(reason: .placeholder)
        case 59: Divider().minimumScaleFactor(0.5)
        case 60: Divider().zIndex(1)
        case 61: Divider().layoutPriority(2)
        case 62: Divider().fontDesign(.rounded)
        case 63: Divider().blur(radius: 3)
        case 64: Divider().textCase(nil)
        case 65: Divider().scaleEffect(x: 2, y: 1, anchor: UnitPoint(x: 0.5, y: 1))
        case 67: Divider().foregroundStyle(.tertiary)
        case 68: Divider().foregroundStyle(.tint, Color.red)
        case 69: Divider().background(.ultraThinMaterial, in: RoundedRectangle(cornerRadius: 8))
        case 70: Divider().background(.quaternary)
        case 71: Circle().fill(.thinMaterial)
        case 72: Capsule().stroke(Color.blue, lineWidth: 2)
        case 73: RoundedRectangle(cornerRadius: 4).strokeBorder(.tint)
        case 74: Divider().ignoresSafeArea()
        case 75: Divider().ignoresSafeArea(.keyboard, edges: .bottom)
        case 76: Divider().ignoresSafeArea(edges: [.top, .leading])
        case 77: Divider().allowsHitTesting(false)
        case 78: Divider().scrollContentBackground(.hidden)
        case 79: Divider().scrollIndicators(.never)
        case 80: Divider().scrollIndicators(.hidden, axes: .vertical)
        case 81: Divider().listRowSeparator(.hidden, edges: .top)
        case 82: Divider().symbolVariant(.fill)
        case 83: Divider().hidden()
        case 84: Divider().labelsHidden()
        case 85: Divider().scrollDisabled(true)
        case 86: Divider().scrollClipDisabled()
        case 87: Divider().font(.system(.subheadline, design: .rounded, weight: .bold))
        case 89: List(["a", "b"], id: { $0 }) { name in Text(name) }
        case 90: LabeledContent("Version", value: "1.2")
        case 91: LabeledContent("Status") { Image(systemName: "checkmark") }
        case 92: LabeledContent { Divider() } label: { Text("Custom") }
        case 93: Menu("More") { Button("Share") {} }
        case 94: Menu("Sort", systemImage: "arrow.up.arrow.down") { Divider() }
        case 95: Menu { Divider() } label: { Image(systemName: "ellipsis") }
        case 96: Gauge(value: 3, in: 0...10) { Text("Level") }
        case 97: Divider().foregroundStyle(.linearGradient(colors: [.pink, .red, .clear], startPoint: .top, endPoint: .bottom))
        case 98: LinearGradient(stops: [.init(color: .clear, location: 0), .init(color: .black, location: 0.6)], startPoint: .top, endPoint: .bottom)
        default:
            // A ForEach of tabs is one tab whose rows' tabItems are not the TabView's.
            TabView {
                ForEach([1, 2]) { number in Text("Tab \(number)").tabItem { Text("T\(number)") } }
            }
        }
    }
}

/// In the spirit of the settings and list screens of the corpus apps (a List of Sections of
/// NavigationLinks labelled with SF Symbols, rows built from data), written for this test.
struct SettingsScreen: View {
    var userName = "Ada"
    var folders = ["Inbox", "Archive"]
    @State var refreshes = 0

    var body: some View {
        NavigationStack {
            List {
                Section {
                    NavigationLink {
                        Text("Profile of \(userName)")
                            .font(.title2)
                            .navigationBarTitleDisplayMode(.inline)
                    } label: {
                        Label(userName, systemImage: "person.crop.circle")
                    }
                } header: {
                    Text("Account")
                }
                Section("Folders") {
                    ForEach(folders) { folder in
                        NavigationLink(destination: Text(folder)) {
                            Label(folder, systemImage: "folder")
                                .labelStyle(.titleAndIcon)
                        }
                    }
                }
                Section {
                    Button("Refresh (\(refreshes))") { refreshes += 1 }
                        .buttonStyle(.borderless)
                } footer: {
                    Text("Synced")
                        .textCase(nil)
                }
            }
            .listStyle(.insetGrouped)
            .navigationTitle("Settings")
        }
    }
}

extension ContainerSample {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("which") { which = try inputs.decode("which") }
    }
}

extension SettingsScreen {
    init(_patchInputs inputs: _PatchJSONValue) throws(_PatchDecodeError) {
        if inputs.hasMember("userName") { userName = try inputs.decode("userName") }
        if inputs.hasMember("folders") { folders = try inputs.decode("folders") }
        if inputs.hasMember("refreshes") { _refreshes = State(wrappedValue: try inputs.decode("refreshes")) }
    }
}

@_cdecl("view_body__ContainerSample")
func _patch_view_body__ContainerSample(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try ContainerSample(_patchInputs: inputs) }
}

@_cdecl("view_body__SettingsScreen")
func _patch_view_body__SettingsScreen(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewBody(input, length) { inputs throws(_PatchDecodeError) in try SettingsScreen(_patchInputs: inputs) }
}

@_cdecl("dispatch__SettingsScreen")
func _patch_dispatch__SettingsScreen(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    _patchViewDispatch(input, length, { inputs throws(_PatchDecodeError) in try SettingsScreen(_patchInputs: inputs) }) { view, writer in
        writer.append("{\"refreshes\":")
        view.refreshes._patchEncode(into: &writer)
        writer.append("}")
    }
}

@_cdecl("patch_view_manifest")
func _patch_view_manifest(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    var writer = _PatchJSONWriter()
    writer.append("{\"schemaVersion\":6,\"views\":[{\"type\":\"ContainerSample\",\"export\":\"view_body__ContainerSample\",\"dispatch\":null,\"thunkSafe\":true},{\"type\":\"SettingsScreen\",\"export\":\"view_body__SettingsScreen\",\"dispatch\":\"dispatch__SettingsScreen\",\"thunkSafe\":true}]}")
    return writer.packedResult()
}
