import Foundation
@testable import PatchRuntime
import Testing

/// Toolbars, the presentations past `sheet(isPresented:)`, search, context menus, links and button
/// roles of the guest view DSL (templates/guest/ViewDSL+Toolbar.swift, +Presentations, +Search,
/// +ContextMenu, Button in +Containers):
/// each writes the IR of sdk-contract §5.6.4/§5.6.5 (expected roots written from the contract's
/// tables) at the lowest schema its tree needs, passes the schema validator `run --view` uses, and
/// each event is dispatched with the value the host sends (§5.6.6) and writes the state it should.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLToolbarTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_toolbar_guest.swift",
            exports: ["patch_view_manifest", "view_body__ChromeSample", "view_body__Inbox", "dispatch__Inbox"]))
    }

    static func text(_ content: String) -> String { ViewDSLControlsTests.text(content) }
    static func button(_ id: String, _ title: String) -> String { ViewDSLControlsTests.button(id, title) }
    static func withModifier(_ content: String, _ modifier: String) -> String { ViewDSLControlsTests.withModifier(content, modifier) }
    static func item(_ placement: String, _ content: String...) -> String {
        #"{"placement":"\#(placement)","content":[\#(content.joined(separator: ","))]}"#
    }
    static func toolbar(_ content: String, _ items: String...) -> String {
        withModifier(content, #"{"toolbar":{"items":[\#(items.joined(separator: ","))]}}"#)
    }

    /// ChromeSample `which` → (root, schemaVersion).
    static let goldens: [(Int, String, Int)] = [
        (0, toolbar("a", item("topBarTrailing", button("action_0", "Add"))), 3),
        // Items in builder order; an `if` that holds adds its item, `else` the other branch's.
        (1, toolbar("b", item("navigationBarLeading", text("L")),
                    item("bottomBar", button("action_0", "One"), ViewDSLTests.leaf(#"{"spacer":{"minLength":null}}"#)),
                    item("principal", text("P")), item("keyboard", text("K")), item("automatic", text("auto"))), 3),
        // Views without a placement are one automatic item.
        (2, toolbar("c", item("automatic", button("action_0", "Edit"), text("x"))), 3),
        (3, toolbar("d", item("navigationBarLeading", text("L")), item("navigationBarTrailing", button("action_0", "R"))), 3),
        // A project's own ToolbarContent writes its body's items.
        (4, toolbar("e", item("cancellationAction", text("Cancel")), item("confirmationAction", text("Done"))), 3),
        (5, withModifier("n", #"{"navigationDestinationBool":{"presentedKey":"flag","isPresented":true,"destination":[\#(text("Detail"))],"event":{"id":"flag"}}}"#), 3),
        // Not presented: no destination; a binding of no field sends a position id.
        (6, withModifier("n", #"{"navigationDestinationBool":{"presentedKey":"action_0","isPresented":false,"destination":[],"event":{"id":"action_0"}}}"#), 3),
        // The content is evaluated with the unwrapped item.
        (7, withModifier("s", #"{"sheetItem":{"itemKey":"selected","itemPresent":true,"content":[\#(text("Order Tacos"))],"event":{"id":"selected"}}}"#), 3),
        (8, withModifier("p", #"{"popover":{"presentedKey":"flag","isPresented":true,"content":[\#(text("Tip"))],"event":{"id":"flag"}}}"#), 3),
        (9, withModifier("q", #"{"searchable":{"searchKey":"query","query":"ta","prompt":"Find","event":{"id":"query"}}}"#), 3),
        (10, withModifier("q", #"{"searchable":{"searchKey":"query","query":"ta","prompt":null,"event":{"id":"query"}}}"#), 3),
        (11, ViewDSLTests.leaf(#"{"contextMenu":{"content":[\#(text("m"))],"items":[\#(button("action_0", "Copy"))]}}"#), 2),
        // `URL(string:)` percent-encodes the quotes, as Foundation does since iOS 17 (docs/guest-foundation.md).
        (13, ViewDSLTests.leaf(#"{"link":{"destination":"https://example.com/a?b=%22c%22","label":[\#(text("Docs"))]}}"#), 2),
        (14, ViewDSLTests.leaf(#"{"link":{"destination":"https://swift.org","label":[\#(ViewDSLTests.leaf(#"{"image":{"systemName":"link"}}"#))]}}"#), 2),
        // A role is host-state vocabulary (schema 3); `systemImage:` labels the button with a Label.
        (15, ViewDSLTests.leaf(#"{"button":{"actionID":"action_0","role":"destructive","label":[\#(text("Delete"))]}}"#), 3),
        (16, ViewDSLTests.leaf(#"{"button":{"actionID":"action_0","role":"cancel","label":[\#(text("Cancel"))]}}"#), 3),
        (17, ViewDSLTests.leaf(#"{"button":{"actionID":"action_0","role":null,"label":[\#(trashLabel)]}}"#), 2),
        (18, ViewDSLTests.leaf(#"{"button":{"actionID":"action_0","role":"destructive","label":[\#(trashLabel)]}}"#), 3),
    ]
    static let trashLabel = ViewDSLTests.leaf(#"{"label":{"title":[\#(text("Trash"))],"icon":[\#(ViewDSLTests.leaf(#"{"image":{"systemName":"trash"}}"#))]}}"#)

    @Test func everyFormWritesTheContractsIRAtTheLowestSchema() throws {
        for (which, root, schema) in Self.goldens {
            let output = try #require(try guest.callPacked("view_body__ChromeSample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "sample \(which): \(text)")
            #expect(text.hasSuffix(#""schemaVersion":\#(schema)}"#), "sample \(which): \(text)")
            var validator = ViewTreeValidator(export: "view_body__ChromeSample", limits: ViewLimits())
            try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        }
    }

    @Test func aContextMenuOnSiblingsWrapsEachAndLaterModifiersApplyToTheWrappers() throws {
        let output = try #require(try guest.callPacked("view_body__ChromeSample", input: Array(#"{"which":12}"#.utf8)).output)
        let padding = #"{"padding":{"_0":{"top":2,"leading":2,"bottom":2,"trailing":2}}}"#
        func wrapped(_ line: String) -> String {
            #"{"kind":{"contextMenu":{"content":[\#(Self.text(line))],"items":[\#(Self.text("Info"))]}},"modifiers":[\#(padding)]}"#
        }
        // Two root nodes are a group; each wrapper is a node of its own in the coverage.
        #expect(String(decoding: output, as: UTF8.self) == #"{"root":{"kind":{"group":{"children":[\#(wrapped("x")),\#(wrapped("y"))]}},"modifiers":[]},"coverage":{"totalNodes":5,"opaqueNodes":0,"totalModifiers":2,"opaqueModifiers":0},"schemaVersion":2}"#)
    }

    /// The Inbox state after `events` (sent as `run --view --event` sends them), as dictionaries.
    func inbox(after events: [String]) throws -> (states: [[String: Any]], run: ViewRun) {
        let run = try guest.runView("Inbox", inputs: .map([]), events: events.map(ViewEventRequest.init(parsing:)))
        let states = try run.events.map { event in
            try #require(try JSONSerialization.jsonObject(with: Data(event.state.utf8)) as? [String: Any])
        }
        return (states, run)
    }

    @Test func searchWritesTheQueryAndTheRowsFollowIt() throws {
        let (states, run) = try inbox(after: ["query=T", "query=Ta"])
        #expect(run.events.map(\.source) == ["searchable", "searchable"])
        #expect(run.events.map(\.value) == [#"{"string":{"_0":"T"}}"#, #"{"string":{"_0":"Ta"}}"#])
        #expect(states.map { $0["query"] as? String } == ["T", "Ta"])
        let outline = ViewOutline.render(run.render.tree.root)
        #expect(outline.contains(#".searchable(searchKey: "query", query: "Ta", prompt: "Orders", event: #query)"#), "\(outline)")
        #expect(outline.contains(#"text("Tacos")"#) && !outline.contains(#"text("Tea")"#), "\(outline)")
    }

    @Test func aContextMenuButtonSelectsAnItemAndDismissingTheItemSheetClearsIt() throws {
        // action_1 = the second row's "Open" (Tea); once presented, the sheet's "Done" is action_4
        // (after the rows' three buttons and the toolbar's).
        let (states, run) = try inbox(after: ["action_1", "selected", "action_1", "action_4"])
        #expect(run.events.map(\.source) == ["button", "sheetItem", "button", "button"])
        #expect(run.events[1].value == #"{"bool":{"_0":false}}"#, "dismissing a presented item sheet sends false")
        #expect(states.map { ($0["selected"] as? [String: Any])?["name"] as? String } == ["Tea", nil, "Tea", nil])
        #expect(states.map { $0["selected"] is NSNull } == [false, true, false, true], "nil is written back as null")
        // onDismiss runs for the host's dismissal and for the sheet's own button.
        #expect(states.map { $0["log"] as? String } == ["", "dismissed;", "dismissed;", "dismissed;dismissed;"])

        let (presented, shown) = try inbox(after: ["action_0"])
        #expect(presented.first?["selected"] as? [String: Any] != nil)
        let outline = ViewOutline.render(shown.render.tree.root)
        #expect(outline.contains(#".sheetItem(itemKey: "selected", itemPresent: true, event: #selected)"#), "\(outline)")
        // The row and the sheet's content.
        #expect(outline.components(separatedBy: #"text("Tacos")"#).count == 3, "\(outline)")
    }

    @Test func aToolbarButtonPushesTheDestinationAndGoingBackSendsFalse() throws {
        // action_3 = the toolbar's "Stats" (after the three rows' buttons).
        let (states, run) = try inbox(after: ["action_3", "showStats"])
        #expect(run.events.map(\.source) == ["button", "navigationDestinationBool"])
        #expect(run.events[1].value == #"{"bool":{"_0":false}}"#)
        #expect(states.map { $0["showStats"] as? Bool } == [true, false])
        let (_, pushed) = try inbox(after: ["action_3"])
        let outline = ViewOutline.render(pushed.render.tree.root)
        #expect(outline.contains(#".navigationDestinationBool(presentedKey: "showStats", isPresented: true, event: #showStats)"#), "\(outline)")
        #expect(outline.contains(#"text("3 orders")"#), "\(outline)")
    }
}
