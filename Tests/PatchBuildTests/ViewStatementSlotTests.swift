@testable import PatchBuild
import PatchManifest
import Testing

/// Statement slots (docs/views.md "Tokens and slots"): a statement of a view builder that reads the
/// host other than through a token (an environment action, a call on a model, a model passed whole,
/// a `@Query` result, a closure property) is drawn natively by the shipped thunk; an event modifier or
/// presentation that reads the host fires from a background slot; and what a slot cannot capture or
/// must not write keeps the view native.
@Suite struct ViewStatementSlotTests {
    static let source = """
        import SwiftUI
        import SwiftData

        final class Store: ObservableObject {
            @Published var items: [Entry] = []
            @Published var title = "Inbox"
            @Published var showing = false
            func load() {}
            func select(_ entry: Entry) {}
            func pick(_ entry: Entry) {}
        }

        struct Entry: Identifiable {
            let id: Int
            var name: String
        }

        @Model final class Trip {
            var name: String = ""
        }

        struct EditSheet: View {
            @Environment(\\.dismiss) private var dismiss
            let title: String

            var body: some View {
                VStack {
                    Text(title)
                    Button("Done") { dismiss() }
                        .padding()
                }
            }
        }

        struct Inbox: View {
            @ObservedObject var store: Store
            var body: some View {
                List {
                    Text(store.title)
                    ForEach(store.items) { entry in
                        Text(entry.name)
                    }
                }
                .onAppear { store.load() }
                .sheet(isPresented: $store.showing) {
                    Text("Sheet")
                }
                .navigationTitle("Inbox")
            }
        }

        struct Row: View {
            let title: String
            let onTap: () -> Void
            // Defaults the parent can replace (the memberwise initializer takes them): the parent's too.
            var onShare: (() -> Void)? = nil
            var onDone: () -> Void = {}
            // A default no parent can replace runs in the guest.
            private let log: () -> Void = {}
            var body: some View {
                HStack {
                    Text(title)
                    Button("Open", action: onTap)
                    Button("Share") { onShare?() }
                    Button("Done", action: onDone)
                    Button("Log", action: log)
                }
            }
        }

        private struct Badge: View {
            var body: some View { Text("badge") }
        }

        struct BadgedRow: View {
            let onTap: () -> Void
            var body: some View {
                VStack {
                    Button(action: onTap) { Badge() }
                }
            }
        }

        struct Trips: View {
            @Query var trips: [Trip]
            @EnvironmentObject var store: Store
            var body: some View {
                VStack {
                    Text("\\(trips.count) trips")
                    ForEach(trips) { trip in
                        TripRow(trip: trip)
                    }
                    Text("Shared").environmentObject(store).bold()
                    TextField("Title", text: $store.title)
                }
            }
        }

        struct TripRow: View {
            let trip: Trip
            var body: some View { Text("row") }
        }

        struct Counter: View {
            @ObservedObject var store: Store
            @State private var count = 0
            var body: some View {
                VStack {
                    Text("\\(count)")
                    Button("Load") {
                        count += 1
                        store.load()
                    }
                }
            }
        }

        struct Toggler: View {
            @ObservedObject var store: Store
            @State private var isOn = false
            var body: some View {
                VStack {
                    Toggle("On", isOn: $isOn).onChange(of: store.showing) { isOn.toggle(); store.load() }
                }
            }
        }

        struct Chooser: View {
            @ObservedObject var store: Store
            let entries: [Entry]
            var body: some View {
                VStack {
                    ForEach(entries) { entry in
                        Button(entry.name) { store.select(entry) }
                    }
                }
            }
        }

        struct RootChooser: View {
            @ObservedObject var store: Store
            let entries: [Entry]
            var body: some View {
                ForEach(entries) { entry in
                    Button(entry.name) { store.pick(entry) }
                }
            }
        }

        struct RowMaker: View {
            @ObservedObject var store: Store
            let entries: [Entry]
            func row(_ entry: Entry) -> some View {
                Button(entry.name) { store.select(entry) }
            }
            var body: some View {
                VStack { Text("rows") }
            }
        }

        struct Gallery: View {
            let names: [String]
            var body: some View {
                VStack {
                    Image("hero").resizable().frame(height: 80)
                    ForEach(names, id: \\.self) { name in
                        Image(name).renderingMode(.template)
                    }
                    Text(names.first ?? "")
                }
            }
        }

        struct Whole: View {
            @ObservedObject var store: Store
            var body: some View {
                let _ = 0
                ForEach(store.items) { entry in Text(entry.name) }
            }
        }

        struct Helper: View {
            @ObservedObject var store: Store
            private func reload() { store.load() }
            var body: some View {
                VStack {
                    Text("x")
                    Button("Reload", action: reload)
                }
            }
        }

        struct Bumper: View {
            @ObservedObject var store: Store
            @State private var count = 0
            private func bump() {
                count += 1
                store.load()
            }
            var body: some View {
                VStack { Button("Bump") { bump() } }
            }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Inbox.swift", source)])

    static func table(_ name: String) -> Result<ViewTokenTable, ViewTokenProblem> {
        ViewTokenAnalysis(index: index).analyze(type: index.lookupType(path: [name])!)
    }

    static func slots(_ name: String) throws -> [ViewToken] {
        try table(name).get().tokens.filter { $0.kind == .slot }
    }

    static func line(of text: String) -> Int {
        (source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) } ?? -1) + 1
    }

    @Test func anEnvironmentActionInAButtonSlotsTheButtonAlone() throws {
        let table = try Self.table("EditSheet").get()
        let slot = try #require(table.tokens.first)
        #expect(table.tokens.count == 1 && slot.kind == .slot)
        #expect(slot.expression == "Button(\"Done\") { dismiss() }", "the modifier after the read stays in the guest")
        #expect(slot.id == "op_" + SHA256Hasher.hex(of: Array("EditSheet\nButton(\"Done\") { dismiss() }".utf8)).prefix(12))
        #expect(slot.thunkEntry == "\"\(slot.id)\": { AnyView(Button(\"Done\") { dismiss() }) }")
        #expect(slot.guestRead == "_PatchOpaque(\"\(slot.id)\", label: \"Button\")")
        #expect(table.needsViewFileScope, "`dismiss` is private: the thunk goes in the view's file")
        #expect(table.hostProperties.count == 1)
    }

    @Test func modelsPassedWholeAndEventModifiersBecomeSlotsAroundLoweredContent() throws {
        let table = try Self.table("Inbox").get()
        let slots = table.tokens.filter { $0.kind == .slot }
        #expect(table.tokens.filter { $0.kind != .slot }.map(\.expression) == ["store.title"])
        let forEach = try #require(slots.first { $0.slotLabel == "ForEach" })
        #expect(forEach.expression == "ForEach(store.items) { entry in\nText(entry.name)\n}" && !forEach.isBackground)
        let appear = try #require(slots.first { $0.slotLabel == "onAppear" })
        #expect(appear.isBackground && appear.expression == "Color.clear.onAppear { store.load() }")
        #expect(appear.thunkEntry == "\"\(appear.id)\": { AnyView(Color.clear.onAppear { store.load() }) }")
        #expect(appear.guestRead == "._patchBackgroundSlot(\"\(appear.id)\", label: \"onAppear\")")
        let sheet = try #require(slots.first { $0.slotLabel == "sheet" })
        #expect(sheet.isBackground && sheet.expression == "Color.clear.sheet(isPresented: $store.showing) {\nText(\"Sheet\")\n}")
        #expect(slots.count == 3)
    }

    @Test func closurePropertiesQueryResultsAndHostModifiersAreSlots() throws {
        let rowSlots = try Self.slots("Row").map(\.expression)
        #expect(Set(rowSlots) == ["Button(\"Open\", action: onTap)", "Button(\"Share\") { onShare?() }", "Button(\"Done\", action: onDone)"] && rowSlots.count == 3, "\(rowSlots)")
        #expect(!(try Self.table("Row").get().needsViewFileScope))
        #expect(try Self.table("BadgedRow").get().needsViewFileScope, "the slot draws a private type of the file: the thunk goes in that file")
        let table = try Self.table("Trips").get()
        #expect(table.tokens.filter { $0.kind != .slot }.map(\.expression) == ["trips.count"], "a @Query's count is a token")
        let slots = table.tokens.filter { $0.kind == .slot }.map(\.expression)
        #expect(Set(slots) == [
            "ForEach(trips) { trip in\nTripRow(trip: trip)\n}",
            // The chain up to the modifier that reads the host; `.bold()` stays on the opaque node.
            "Text(\"Shared\").environmentObject(store)",
            // A host-owned binding is the slot's.
            "TextField(\"Title\", text: $store.title)",
        ])
    }

    @Test func aSlotMustNotWriteGuestState() throws {
        let counter = try #require(Self.table("Counter").failure)
        #expect(counter.detail.hasPrefix("`Button(…)` cannot be a slot (it reads the host: calls `store.load(…)`"), "\(counter.detail)")
        #expect(counter.detail.contains("it writes the view's state with `count += 1`"), "\(counter.detail)")
        #expect(counter.location == GuestSourceLocation(file: "Sources/App/Inbox.swift", line: Self.line(of: "Button(\"Load\")")))
        let toggler = try #require(Self.table("Toggler").failure)
        #expect(toggler.detail.contains("`onChange(…)` cannot be a slot") && toggler.detail.contains("with `isOn.toggle()`"), "\(toggler.detail)")
    }

    /// A slot reading a ForEach element widens to the ForEach, which binds it; where the ForEach
    /// is the whole body, or the name is a helper's parameter, the view stays native.
    @Test func aSlotCannotCaptureALoopVariable() throws {
        #expect(try Self.slots("Chooser").map(\.expression) == ["ForEach(entries) { entry in\nButton(entry.name) { store.select(entry) }\n}"])
        let problem = try #require(Self.table("RootChooser").failure)
        #expect(problem.detail.hasPrefix("`Button(…)` cannot be a slot (it reads the host: calls `store.pick(…)`"), "\(problem.detail)")
        #expect(problem.detail.contains("it reads `entry`, which is not a member of RootChooser"), "\(problem.detail)")
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Inbox.swift", line: Self.line(of: "Button(entry.name) { store.pick(entry) }")))
        let parameter = try #require(Self.table("RowMaker").failure)
        #expect(parameter.detail.contains("it reads `entry`, which is not a member of RowMaker"), "\(parameter.detail)")
    }

    @Test func theWholeBodyCannotBeASlotNorCanCodeOutsideABuilder() throws {
        let whole = try #require(Self.table("Whole").failure)
        #expect(whole.detail.hasPrefix("`store.items` is a [Entry] of the host (@ObservedObject)"), "\(whole.detail)")
        #expect(whole.detail.contains("is the whole body, which cannot be a slot"), "\(whole.detail)")
        #expect(whole.location.line == Self.line(of: "ForEach(store.items) { entry in Text"))
        // A helper calling the host is the host's: the guest leaves it out, its callers are slots.
        let helper = try Self.table("Helper").get()
        #expect(helper.tokens.map(\.expression) == ["Button(\"Reload\", action: reload)"] && helper.needsViewFileScope)
        #expect(helper.hostProperties.count == 2, "the model and the helper are blanked in the guest")
        // One that also writes the guest's state cannot run natively.
        let bumper = try #require(Self.table("Bumper").failure)
        #expect(bumper.detail == "calls `store.load(…)` on a host value (@ObservedObject): actions on host objects run natively only")
        #expect(bumper.location.line == Self.line(of: "private func bump()") + 2)
    }

    /// Modifiers the IR has no case for: the chain up to one is a slot (widened to a ForEach that
    /// binds what it reads); none of them is a name of the guest DSL, which would lower it instead.
    @Test func modifiersWithoutAnIRCaseAreSlotsUpToTheModifier() throws {
        #expect(try Self.slots("Gallery").map(\.expression) == [
            "Image(\"hero\").resizable()",
            "ForEach(names, id: \\.self) { name in\nImage(name).renderingMode(.template)\n}",
        ])
        // prepare parses a file applying one for its slots, with nothing else to find it by.
        let project = PreparedProject("import SwiftUI\nstruct Hero: View {\n    var body: some View {\n        VStack {\n            Image(\"hero\").resizable()\n        }\n    }\n}\n")
        #expect(project.plan.baseline.declarations.first { $0.id == "App:Hero.body" }?.tokens.map(\.expression) == ["Image(\"hero\").resizable()"])
        let directory = try GuestTemplates.locate()
        let declarations = try GuestTemplates.viewDSLFiles(in: directory).map {
            try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)
        }.joined()
        for name in ViewTokenAnalysis.nativeOnlyModifiers {
            #expect(!declarations.contains("func \(name)("), "\(name)")
        }
    }

    /// The body's only statement may be a slot when drawing modifiers after it stay in the guest,
    /// where a patch can change them (sample-backyard-birds' `FloorArtwork`: `Image(…).resizable()
    /// .scaledToFill().frame(…)`); a slot that is all the body is still refused, as is one followed
    /// only by event modifiers.
    @Test func aBodysOnlyStatementIsASlotWhenModifiersAfterItLower() throws {
        let source = """
            import SwiftUI
            struct Floor: View {
                let name: String
                var body: some View {
                    Image(name)
                        .resizable()
                        .scaledToFill()
                }
            }
            struct Bare: View {
                let name: String
                var body: some View {
                    Image(name).resizable()
                }
            }
            struct Watched: View {
                let name: String
                var body: some View {
                    Image(name).resizable().onAppear { }
                }
            }

            """
        let index = GuestSourceIndex(sources: [("Sources/App/Floor.swift", source)])
        let analysis = ViewTokenAnalysis(index: index)
        let floorType = try #require(index.lookupType(path: ["Floor"]))
        let floor = try analysis.analyze(type: floorType).get()
        #expect(floor.tokens.map(\.expression) == ["Image(name)\n.resizable()"])
        let request = GuestViewRequest(declarationID: "App:Floor.body", typeName: "Floor", path: ["Floor"], shippedTokens: floor.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: index, views: [request])
        let lines = outcome.index.files[0].tree.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[4] == "        _PatchOpaque(\"\(floor.tokens[0].id)\", label: \"Image\")" && lines[6] == "            .scaledToFill()", "\(lines)")
        for name in ["Bare", "Watched"] {
            let type = try #require(index.lookupType(path: [name]))
            let problem = try #require(analysis.analyze(type: type).failure, "\(name)")
            #expect(problem.detail.hasSuffix("the statement reading it, `Image(…)`, is the whole body, which cannot be a slot (a patch could change nothing); move the host read into a smaller part of the body"), "\(problem.detail)")
        }
    }

    /// `build`'s copy: each slot is replaced on its own lines (statement slots by an opaque node,
    /// background slots by the modifier placing one), the rest of the chain stays.
    @Test func buildReplacesStatementsAndEventModifiersKeepingLines() throws {
        let inbox = try Self.table("Inbox").get()
        let trips = try Self.table("Trips").get()
        let requests = [("Inbox", inbox), ("Trips", trips)].map { name, table in
            GuestViewRequest(declarationID: "App:\(name).body", typeName: name, path: [name], shippedTokens: table.tokens.map(\.record))
        }
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: requests)
        #expect(outcome.unpatchable.isEmpty)
        let lines = outcome.index.files[0].tree.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.source.split(separator: "\n", omittingEmptySubsequences: false).count)
        func line(_ text: String) -> Substring { lines[Self.line(of: text) - 1] }
        let id = { (table: ViewTokenTable, label: String) in table.tokens.first { $0.slotLabel == label }!.id }
        #expect(line("ForEach(store.items) { entry in") == "            _PatchOpaque(\"\(id(inbox, "ForEach"))\", label: \"ForEach\")")
        #expect(line(".onAppear { store.load() }") == "        ._patchBackgroundSlot(\"\(id(inbox, "onAppear"))\", label: \"onAppear\")")
        #expect(line(".sheet(isPresented: $store.showing)") == "        ._patchBackgroundSlot(\"\(id(inbox, "sheet"))\", label: \"sheet\")")
        #expect(line(".navigationTitle(\"Inbox\")") == "        .navigationTitle(\"Inbox\")")
        #expect(line("Text(\"Shared\")") == "            _PatchOpaque(\"\(id(trips, "Text"))\", label: \"Text\").bold()")
        #expect(!line("@Query var trips").contains("Query"), "the @Query declaration is blanked")
    }

    /// A model class another target declares (the app's data package) is a host object in prepare
    /// as in build, which sees every target: both make the same slot.
    @Test func prepareSeesModelClassesOfOtherTargets() throws {
        let data = "import SwiftData\n@Model public final class Trip {\n    public var name: String = \"\"\n    public func archive() {}\n}\n"
        let app = """
            import SwiftUI
            import TripData
            struct TripCard: View {
                let trip: Trip
                var body: some View {
                    VStack {
                        Text("Trip")
                        Button("Archive") { trip.archive() }
                    }
                }
            }
            """
        let project = PreparedProject(targets: ["TripData": ["Trip.swift": data], "App": ["TripCard.swift": app]], appTarget: "App")
        let card = try #require(project.plan.baseline.declarations.first { $0.id == "App:TripCard.body" })
        #expect(card.tokens.map(\.expression) == ["Button(\"Archive\") { trip.archive() }"], "\(card.tokens)")
        let index = GuestSourceIndex(sources: [("Sources/TripData/Trip.swift", data), ("Sources/App/TripCard.swift", app)])
        let built = try ViewTokenAnalysis(index: index).analyze(type: try #require(index.lookupType(path: ["TripCard"]))).get()
        #expect(built.tokens.map(\.record) == card.tokens)
    }

    @Test func aChangedSlotNeedsANewAppBuild() throws {
        let shipped = try Self.table("EditSheet").get().tokens.map(\.record)
        let edited = Self.source.replacingOccurrences(of: "Button(\"Done\") { dismiss() }", with: "Button(\"Close\") { dismiss() }")
        let index = GuestSourceIndex(sources: [("Sources/App/Inbox.swift", edited)])
        let request = GuestViewRequest(declarationID: "App:EditSheet.body", typeName: "EditSheet", path: ["EditSheet"], shippedTokens: shipped)
        let problem = try #require(ViewTokenRewrite.apply(to: index, views: [request]).unpatchable.first)
        #expect(problem.reason == .viewNeedsNewHostValue)
        #expect(problem.detail.hasPrefix("uses the native view `Button(\"Close\") { dismiss() }`, a slot the shipped thunk does not pass"), "\(problem.detail)")
    }
}
