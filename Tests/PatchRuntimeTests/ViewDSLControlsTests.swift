import Foundation
@testable import PatchRuntime
import Testing

/// The controls and event modifiers of the guest view DSL (templates/guest/ViewDSL+Controls.swift,
/// ViewDSL+Events.swift, the event registry of ViewDSL.swift): each writes the IR of sdk-contract
/// §5.6.4/§5.6.5 (expected roots written from the contract's tables), passes the schema validator
/// `run --view` uses, and each event kind of §5.6.6 dispatched with the value the host sends
/// writes the state it should.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLControlsTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_controls_guest.swift",
            exports: ["patch_view_manifest", "view_body__ControlSample", "view_body__Settings", "dispatch__Settings",
                      "view_body__Agreement", "dispatch__Agreement", "view_body__Chores", "dispatch__Chores"]))
    }

    static func text(_ content: String) -> String { ViewDSLTests.leaf(#"{"text":{"_0":"\#(content)"}}"#) }
    static func button(_ id: String, _ title: String) -> String {
        ViewDSLTests.leaf(#"{"button":{"actionID":"\#(id)","role":null,"label":[\#(text(title))]}}"#)
    }
    static func withModifier(_ content: String, _ modifier: String) -> String {
        #"{"kind":{"text":{"_0":"\#(content)"}},"modifiers":[\#(modifier)]}"#
    }

    /// ControlSample `which` → (root, schemaVersion). Controls bound to the view's `@State` send
    /// the field's name; other bindings and closures send position ids `action_<n>`.
    static let goldens: [(Int, String, Int)] = [
        (0, ViewDSLTests.leaf(#"{"toggle":{"label":[\#(text("Wi-Fi"))],"value":true,"event":{"id":"isOn"}}}"#), 1),
        (1, ViewDSLTests.leaf(#"{"toggle":{"label":[{"kind":{"image":{"systemName":"wifi"}},"modifiers":[]}],"value":false,"event":{"id":"action_0"}}}"#), 1),
        (2, ViewDSLTests.leaf(#"{"stepper":{"label":[\#(text("Count"))],"value":2,"min":0,"max":5,"step":1,"event":{"id":"count"}}}"#), 1),
        (3, ViewDSLTests.leaf(#"{"stepper":{"label":[\#(text("Count"))],"value":2,"min":null,"max":null,"step":2,"event":{"id":"count"}}}"#), 1),
        (4, ViewDSLTests.leaf(#"{"stepper":{"label":[\#(text("Pages"))],"value":0,"min":null,"max":null,"step":1,"event":{"id":"action_0"}}}"#), 1),
        (5, ViewDSLTests.leaf(#"{"slider":{"value":0.5,"min":0,"max":1,"step":null,"event":{"id":"level"}}}"#), 1),
        (6, ViewDSLTests.leaf(#"{"slider":{"value":0.5,"min":0,"max":10,"step":0.5,"event":{"id":"level"}}}"#), 1),
        (7, ViewDSLTests.leaf(#"{"textField":{"placeholder":"Name","value":"Ada","event":{"id":"name"}}}"#), 1),
        (8, ViewDSLTests.leaf(#"{"secureField":{"placeholder":"Password","value":"Ada","event":{"id":"name"}}}"#), 2),
        (9, ViewDSLTests.leaf(#"{"textEditor":{"value":"Ada","event":{"id":"name"}}}"#), 2),
        (10, ViewDSLTests.leaf(#"{"picker":{"label":[\#(text("Flavor"))],"selection":{"string":{"_0":"mint"}},"kind":"string","options":[{"tag":{"string":{"_0":"vanilla"}},"label":[\#(text("Vanilla"))]},{"tag":{"string":{"_0":"mint"}},"label":[\#(text("Mint"))]}],"event":{"id":"flavor"}}}"#), 3),
        (11, ViewDSLTests.leaf(#"{"picker":{"label":[\#(text("Size"))],"selection":{"int":{"_0":2}},"kind":"int","options":[{"tag":{"int":{"_0":1}},"label":[\#(text("Size 1"))]},{"tag":{"int":{"_0":2}},"label":[\#(text("Size 2"))]},{"tag":{"int":{"_0":3}},"label":[\#(text("Size 3"))]}],"event":{"id":"size"}}}"#), 3),
        (12, withModifier("tap", #"{"onTapGesture":{"_0":{"id":"action_0"}}}"#), 1),
        (13, withModifier("hold", #"{"onLongPressGesture":{"minimumDuration":1,"_1":{"id":"action_0"}}}"#), 2),
        (14, withModifier("life", #"{"onAppear":{"_0":{"id":"action_0"}}},{"onDisappear":{"_0":{"id":"action_1"}}}"#), 2),
        (15, #"{"kind":{"textField":{"placeholder":"Search","value":"Ada","event":{"id":"name"}}},"modifiers":[{"onSubmit":{"_0":{"id":"action_0"}}}]}"#, 2),
        // Not presented: no content (SwiftUI evaluates it only when presented).
        (16, withModifier("s", #"{"sheet":{"presentedKey":"showSheet","isPresented":false,"content":[],"event":{"id":"showSheet"}}}"#), 3),
        // Buttons in a presentation dispatch like any other (§5.4).
        (17, withModifier("s", #"{"sheet":{"presentedKey":"action_0","isPresented":true,"content":[\#(button("action_1", "Done"))],"event":{"id":"action_0"}}}"#), 3),
        (18, withModifier("f", #"{"fullScreenCover":{"presentedKey":"showSheet","isPresented":false,"content":[],"event":{"id":"showSheet"}}}"#), 3),
        (19, withModifier("a", #"{"alert":{"title":"Delete?","presentedKey":"showAlert","isPresented":true,"actions":[\#(button("action_0", "Delete"))],"message":[\#(text("Gone for good"))],"event":{"id":"showAlert"}}}"#), 3),
        (20, withModifier("d", #"{"confirmationDialog":{"title":"Share","titleVisibility":"visible","presentedKey":"showAlert","isPresented":true,"actions":[\#(button("action_0", "Copy"))],"message":[],"event":{"id":"showAlert"}}}"#), 3),
        // `.onAppear()` without an action sends nothing.
        (21, text("quiet"), 1),
    ]

    @Test func everyControlAndEventModifierWritesTheContractsIRAtTheLowestSchema() throws {
        for (which, root, schema) in Self.goldens {
            let output = try #require(try guest.callPacked("view_body__ControlSample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "sample \(which): \(text)")
            #expect(text.hasSuffix(#""schemaVersion":\#(schema)}"#), "sample \(which): \(text)")
            var validator = ViewTreeValidator(export: "view_body__ControlSample", limits: ViewLimits())
            try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        }
    }

    static let initialSettings = #"{"badge":0,"confirmReset":false,"log":"","name":"","notificationsOn":false,"showAbout":false,"taps":0,"theme":"light","volume":0.5}"#

    /// The Settings state after `events` (sent as `run --view --event` sends them), as a dictionary.
    func settings(after events: [String]) throws -> (states: [[String: Any]], run: ViewRun) {
        let run = try guest.runView("Settings", inputs: .map([]), events: events.map(ViewEventRequest.init(parsing:)))
        let states = try run.events.map { event in
            try #require(try JSONSerialization.jsonObject(with: Data(event.state.utf8)) as? [String: Any])
        }
        return (states, run)
    }

    @Test func eachControlsEventWritesItsValueThroughTheBinding() throws {
        let noop = try guest.runView("Settings", inputs: .map([]), events: [ViewEventRequest(id: "__noop__")])
        #expect(noop.events.map(\.state) == [Self.initialSettings])
        let (states, run) = try settings(after: ["notificationsOn", "badge=12", "volume=0.25", "name=Grace", "theme=dark", "notificationsOn=false"])
        #expect(run.events.map(\.value) == [#"{"bool":{"_0":true}}"#, #"{"int":{"_0":9}}"#, #"{"double":{"_0":0.25}}"#,
                                            #"{"string":{"_0":"Grace"}}"#, #"{"string":{"_0":"dark"}}"#, #"{"bool":{"_0":false}}"#])
        #expect(states[0]["notificationsOn"] as? Bool == true)
        #expect(states[1]["badge"] as? Int == 9, "the host clamps to the stepper's bounds")
        #expect(states[2]["volume"] as? Double == 0.25)
        #expect(states[3]["name"] as? String == "Grace")
        #expect(states[4]["theme"] as? String == "dark")
        #expect(states[5]["notificationsOn"] as? Bool == false)
        // The body re-rendered with the new state agrees with it.
        let outline = ViewOutline.render(run.render.tree.root)
        #expect(outline.contains(#"stepper(value: 9, min: 0, max: 9, step: 1, event: #badge)"#), "\(outline)")
        #expect(outline.contains(#"textField(placeholder: "Name", value: "Grace", event: #name)"#), "\(outline)")
        #expect(outline.contains(#"picker(selection: string("dark"), kind: string, event: #theme)"#), "\(outline)")
    }

    @Test func gesturesAndLifecycleEventsRunTheirActions() throws {
        // action_0 = onSubmit, action_1 = onTapGesture, action_2 = onAppear (tree order).
        let (states, _) = try settings(after: ["action_1", "action_1", "action_0", "action_2"])
        #expect(states.map { $0["taps"] as? Int } == [1, 2, 2, 2])
        #expect(states.last?["log"] as? String == "submit;appear;")
    }

    @Test func presentationsWriteTheirFlagAndTheirButtonsDispatch() throws {
        // action_3 = About (presents the sheet), then the sheet's Close button is action_5.
        let (states, run) = try settings(after: ["action_3", "action_5", "action_3", "showAbout=false", "action_3", "showAbout=true"])
        #expect(states.map { $0["showAbout"] as? Bool } == [true, false, true, false, true, true])
        // onDismiss runs for a dismissal by a button and by the host's `bool(false)`, not otherwise.
        #expect(states.map { $0["log"] as? String } == ["", "dismissed;", "dismissed;", "dismissed;dismissed;", "dismissed;dismissed;", "dismissed;dismissed;"])
        #expect(run.events.map(\.source) == ["button", "button", "button", "sheet", "button", "sheet"])
        #expect(ViewOutline.render(run.render.tree.root).contains(#".sheet(presentedKey: "showAbout", isPresented: true, event: #showAbout)"#))

        // action_4 = Reset (presents the alert); its Reset button (action_5 once presented) runs
        // and dismisses the alert, as SwiftUI does.
        let (alert, _) = try settings(after: ["badge=3", "action_4", "action_5"])
        #expect(alert.map { $0["confirmReset"] as? Bool } == [false, true, false])
        #expect(alert.map { $0["badge"] as? Int } == [3, 3, 0])
        // The host dismissing the alert leaves the badge alone.
        let (dismissed, _) = try settings(after: ["badge=3", "action_4", "confirmReset"])
        #expect(dismissed.last?["confirmReset"] as? Bool == false)
        #expect(dismissed.last?["badge"] as? Int == 3)
    }

    @Test func aControlBoundToABindingWritesTheBindingsField() throws {
        let run = try guest.runView("Agreement", inputs: .map([("agreed", .bool(false))]), events: ["agreed", "agreed"].map(ViewEventRequest.init(parsing:)))
        #expect(run.events.map(\.state) == [#"{"agreed":true}"#, #"{"agreed":false}"#])
    }

    @Test func rowsAreDeletedAndMovedByTheOffsetsTheHostSends() throws {
        let rendered = try #require(try guest.callPacked("view_body__Chores", input: Array("{}".utf8)).output)
        let text = String(decoding: rendered, as: UTF8.self)
        #expect(text.contains(#"{"onDelete":{"_0":{"id":"action_0"}}},{"onMove":{"_0":{"id":"action_1"}}}"#), "\(text)")
        #expect(text.hasSuffix(#""schemaVersion":3}"#), "list editing is host state (§5.5)")
        // onDelete sends the deleted offsets; onMove the source offsets, then the destination.
        let run = try guest.runView("Chores", inputs: .map([]), events: ["action_0=1", "action_1=0,2", "action_1=2,0"].map(ViewEventRequest.init(parsing:)))
        #expect(run.events.map(\.value).first == #"{"array":{"_0":[{"int":{"_0":1}}]}}"#)
        #expect(run.events.map(\.state) == [#"{"chores":["dishes","trash","plants"]}"#, #"{"chores":["trash","dishes","plants"]}"#,
                                            #"{"chores":["plants","trash","dishes"]}"#])
    }

    @Test func anEventValueOfAnotherKindIsADecodingError() throws {
        let request = #"{"state":"","event":{"event":{"id":"badge"},"value":{"string":{"_0":"x"}}}}"#
        let result = try guest.callPacked("dispatch__Settings", input: Array(request.utf8))
        let text = String(decoding: result.output ?? [], as: UTF8.self)
        #expect(text.contains("not an IRValue of the case the control sends (key 'int')"), "\(text)")
    }
}
