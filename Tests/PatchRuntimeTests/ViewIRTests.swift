import Foundation
@testable import PatchRuntime
import Testing

/// Validates `json` as a guest document the way `run --view` does.
private func validate(_ json: String, as structure: String = "BodyEmission",
                      limits: ViewLimits = ViewLimits()) throws(ViewError) -> ValidatedTree {
    var validator = ViewTreeValidator(export: "view_body__Test", limits: limits)
    let document = try validator.parse(Array(json.utf8))
    try validator.validateDocument(document, as: structure)
    return validator.validated(root: document.member("root") ?? .null)
}

private func body(_ root: String) -> String { #"{"root":\#(root)}"# }
private let leaf = #"{"kind":{"divider":{}},"modifiers":[]}"#

/// The JSON path and message of the error validating `json` ends with.
private func rejection(_ json: String, as structure: String = "BodyEmission",
                       limits: ViewLimits = ViewLimits()) -> (path: String, detail: String)? {
    do {
        _ = try validate(json, as: structure, limits: limits)
        return nil
    } catch {
        guard case let .invalidOutput(_, path, detail) = error else { return nil }
        return (path, detail)
    }
}

struct ViewIRValidationTests {
    /// Every "minimal valid example" of sdk-contract §5.6.4/§5.6.5 (decoded by the SDK's own decoder)
    /// must pass, and the fixture must name exactly the cases the schema knows.
    @Test func everyContractExampleValidates() throws {
        let url = GuestBuilder.fixtures.appendingPathComponent("ir-examples.json")
        let examples = try #require(MessagePackValue.parseJSON([UInt8](try Data(contentsOf: url))))
        guard case let .map(kinds)? = examples.member("nodeKinds"), case let .map(modifiers)? = examples.member("modifiers") else {
            Issue.record("fixture lacks nodeKinds/modifiers"); return
        }
        #expect(kinds.count == 61 && modifiers.count == 177)
        #expect(Set(kinds.map(\.key)) == Set(ViewSchema.current.choices["NodeKind"]?.keys ?? [:].keys))
        #expect(Set(modifiers.map(\.key)) == Set(ViewSchema.current.choices["Modifier"]?.keys ?? [:].keys))
        for (name, example) in kinds {
            let json = body(#"{"kind":\#(example.renderJSON(pretty: false)),"modifiers":[]}"#)
            #expect(rejection(json) == nil, "node kind \(name): \(rejection(json).map { "\($0.path): \($0.detail)" } ?? "")")
        }
        for (name, example) in modifiers {
            let json = body(#"{"kind":{"divider":{}},"modifiers":[\#(example.renderJSON(pretty: false))]}"#)
            #expect(rejection(json) == nil, "modifier \(name): \(rejection(json).map { "\($0.path): \($0.detail)" } ?? "")")
        }
    }

    @Test(arguments: [
        (body(#"{"kind":{"vstack":{"alignment":null,"spacing":null,"children":[{"kind":{"marquee":{}},"modifiers":[]}]}},"modifiers":[]}"#),
         "$.root.kind.vstack.children[0].kind", #"unknown node kind "marquee""#),
        (#"{"root":\#(leaf),"schemaVersion":7}"#, "$.schemaVersion", "schema version 7 is not supported"),
        (#"{"root":\#(leaf),"schemaVersion":0}"#, "$.schemaVersion", "schema version 0 is not supported"),
        (body(#"{"kind":{"stepper":{"label":[],"value":2,"min":null,"max":null,"event":{"id":"e"}}},"modifiers":[]}"#),
         "$.root.kind.stepper", #"missing required key "step" of NodeKind.stepper"#),
        (body(#"{"kind":{"text":{"_0":null}},"modifiers":[]}"#), "$.root.kind.text", #"missing required key "_0""#),
        (body(#"{"kind":{"divider":{}}}"#), "$.root", #"missing required key "modifiers""#),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"bold":{},"italic":{}}]}"#), "$.root.modifiers[0]", "exactly one key"),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"fonty":{}}]}"#), "$.root.modifiers[0]", #"unknown modifier "fonty""#),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"lineLimit":{"_0":2.5}}]}"#), "$.root.modifiers[0].lineLimit._0", "expected an integer"),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"disabled":{"_0":1}}]}"#), "$.root.modifiers[0].disabled._0", "expected true or false"),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"multilineTextAlignment":{"_0":"justified"}}]}"#),
         "$.root.modifiers[0].multilineTextAlignment._0", #""justified" is not a IRTextAlignment"#),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"foregroundColor":{"_0":{"named":{}}}}]}"#),
         "$.root.modifiers[0].foregroundColor._0.named", #"missing required key "_0" of ColorRef.named"#),
        (body(#"{"kind":{"divider":{}},"modifiers":[{"frame":{"width":"infinity","height":null,"alignment":null}}]}"#),
         "$.root.modifiers[0].frame.width", #"expected a number (or "inf", "-inf", "nan")"#),
        (body(#"{"kind":{"toggle":{"label":[],"value":true,"event":{"id":""}}},"modifiers":[]}"#), "$.root.kind.toggle.event.id", "empty event id"),
        (body(#"{"kind":{"group":{"children":[{"kind":{"geometryReader":{"id":"g","children":[]}},"modifiers":[]},{"kind":{"geometryReader":{"id":"g","children":[]}},"modifiers":[]}]}},"modifiers":[]}"#),
         "$.root.kind.group.children[1].kind.geometryReader.id", "also used at $.root.kind.group.children[0].kind.geometryReader.id"),
        (#"{"state":"{}"}"#, "$", #"missing required key "tree" of DispatchResult"#),
    ])
    func invalidDocumentsAreRejectedWithThePath(json: String, path: String, detail: String) {
        let structure = json.hasPrefix(#"{"state""#) ? "DispatchResult" : "BodyEmission"
        let found = rejection(json, as: structure)
        #expect(found?.path == path, "\(found.map { "\($0.path): \($0.detail)" } ?? "accepted")")
        #expect(found?.detail.contains(detail) == true, "\(found?.detail ?? "accepted")")
    }

    /// A chain of `group` nodes `depth` deep.
    private func chain(_ depth: Int) -> String {
        var node = leaf
        for _ in 1..<depth { node = #"{"kind":{"group":{"children":[\#(node)]}},"modifiers":[]}"# }
        return body(node)
    }

    @Test func nodeDepthIsCappedAtTheLimit() {
        let depth = ViewLimits().nodeDepth
        #expect(rejection(chain(depth)) == nil)
        let found = rejection(chain(depth + 1))
        #expect(found?.path == "$.root" + String(repeating: ".kind.group.children[0]", count: depth))
        #expect(found?.detail.contains("nested deeper than \(depth)") == true)
    }

    @Test func nodeAndModifierCountIsCapped() {
        func list(_ count: Int) -> String {
            body(#"{"kind":{"forEach":{"children":[\#(Array(repeating: leaf, count: count).joined(separator: ","))]}},"modifiers":[]}"#)
        }
        var limits = ViewLimits()
        limits.items = 100
        // The forEach itself is one item, so 99 children fill the cap and 100 exceed it.
        #expect(rejection(list(99), limits: limits) == nil)
        let found = rejection(list(100), limits: limits)
        #expect(found?.path == "$.root.kind.forEach.children[99]")
        #expect(found?.detail.contains("more than 100 nodes and modifiers") == true)
        limits.documentBytes = 1000
        #expect(rejection(list(99), limits: limits)?.detail.contains("over the 1000-byte limit") == true)
    }

    @Test func hostileNestingIsRefusedBeforeParsing() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let found = rejection(json)
        #expect(found?.path == "$")
        #expect(found?.detail.contains("nested deeper than \(ViewLimits().jsonDepth)") == true)
        // Brackets inside strings do not count.
        #expect(rejection(body(#"{"kind":{"text":{"_0":"\#(String(repeating: "[", count: 1000))"}},"modifiers":[]}"#)) == nil)
    }

    @Test func manifestNeedsItsKeysAndASupportedSchema() {
        #expect(rejection(#"{"schemaVersion":6,"views":[{"type":"A","export":"view_body__A","thunkSafe":true}]}"#, as: "ViewManifest") == nil)
        #expect(rejection(#"{"schemaVersion":7,"views":[]}"#, as: "ViewManifest")?.path == "$.schemaVersion")
        #expect(rejection(#"{"schemaVersion":1,"views":[{"type":"A","export":"e"}]}"#, as: "ViewManifest")?.path == "$.views[0]")
    }

    @Test func treeListsItsEventsSlotsAndTokens() throws {
        let tree = try validate(body(#"""
            {"kind":{"vstack":{"alignment":null,"spacing":null,"children":[
              {"kind":{"toggle":{"label":[],"value":true,"event":{"id":"flip"}}},"modifiers":[{"fontToken":{"_0":"ft_1"}}]},
              {"kind":{"forEach":{"children":[]}},"modifiers":[{"onDelete":{"_0":{"id":"remove"}}}]},
              {"kind":{"opaque":{"id":"op_map","label":"Map"}},"modifiers":[{"onDelete":{"_0":{"id":"ignored"}}}]},
              {"kind":{"color":{"_0":{"hostToken":{"_0":"ct_brand"}}}},"modifiers":[{"dragGesture":{"minDistance":1,"onChanged":null,"onEnded":{"id":"drop"}}}]}
            ]}},"modifiers":[{"sheet":{"presentedKey":"s","isPresented":true,"event":{"id":"dismiss"},
              "content":[{"kind":{"button":{"actionID":"save","role":null,"label":[]}},"modifiers":[]}]}}]}
            """#))
        // Pre-order: a node's own events (kind, then modifiers), then its children, then modifier content.
        #expect(tree.events.map(\.id) == ["dismiss", "flip", "remove", "drop", "save"])
        #expect(tree.events.map(\.source) == ["sheet", "toggle", "onDelete", "dragGesture", "button"])
        #expect(tree.slots == ["op_map"])
        #expect(Set(tree.tokens) == ["ft_1", "ct_brand"])
        #expect(tree.nodeCount == 6 && tree.modifierCount == 5)
    }

    @Test func eventValuesAreTypedByTheirSource() throws {
        let tree = try validate(body(#"""
            {"kind":{"vstack":{"alignment":null,"spacing":null,"children":[
              {"kind":{"toggle":{"label":[],"value":true,"event":{"id":"flip"}}},"modifiers":[{"onTapGesture":{"_0":{"id":"tap"}}}]},
              {"kind":{"stepper":{"label":[],"value":2,"min":0,"max":5,"step":1,"event":{"id":"step"}}},"modifiers":[]},
              {"kind":{"picker":{"label":[],"selection":{"int":{"_0":1}},"kind":"int","options":[
                {"tag":{"int":{"_0":1}},"label":[]},{"tag":{"int":{"_0":2}},"label":[]}],"event":{"id":"pick"}}},"modifiers":[]}
            ]}},"modifiers":[]}
            """#))
        func value(_ id: String, _ text: String?) throws -> String {
            try #require(tree.events.first { $0.id == id }).value(for: text).renderJSON(pretty: false)
        }
        #expect(try value("flip", nil) == #"{"bool":{"_0":false}}"#)
        #expect(try value("flip", "true") == #"{"bool":{"_0":true}}"#)
        #expect(try value("step", "9") == #"{"int":{"_0":5}}"#)
        #expect(try value("step", "-3") == #"{"int":{"_0":0}}"#)
        #expect(try value("pick", "2") == #"{"int":{"_0":2}}"#)
        #expect(try value("tap", nil) == #"{"none":{}}"#)
        #expect(throws: ViewError.self) { try value("pick", "3") }
        #expect(throws: ViewError.self) { try value("tap", "1") }
        #expect(throws: ViewError.self) { try value("step", "two") }
    }

    @Test func outlineShowsOneNodePerLineWithModifiersAndSubtrees() throws {
        let tree = try validate(body(#"""
            {"kind":{"vstack":{"alignment":"leading","spacing":8,"children":[
              {"kind":{"text":{"_0":"Hi"}},"modifiers":[{"font":{"_0":{"style":"title","size":null,"weight":null,"design":null}}},{"bold":{}}]},
              {"kind":{"button":{"actionID":"go","role":null,"label":[{"kind":{"image":{"systemName":"plus"}},"modifiers":[]}]}},"modifiers":[]}
            ]}},"modifiers":[{"padding":{"_0":{"top":1,"leading":2,"bottom":3,"trailing":4}}},
              {"overlayContent":{"alignment":null,"content":[{"kind":{"color":{"_0":{"named":{"_0":"red"}}}},"modifiers":[{"opacity":{"_0":0.5}}]}]}}]}
            """#))
        #expect(ViewOutline.render(tree.root) == """
            vstack(alignment: leading, spacing: 8) .padding({top: 1, leading: 2, bottom: 3, trailing: 4}) .overlayContent
              .overlayContent content:
                color(named("red")) .opacity(0.5)
              text("Hi") .font({style: title}) .bold
              button(actionID: "go")
                label:
                  image(systemName: "plus")
            """)
    }
}

@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's clang/wasm-ld (required under CI=true)"))
struct ViewHostTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.cGuest("view_guest.c"))
    }

    private func viewError(_ body: () throws -> Void) -> ViewError? {
        guard case let .view(error)? = runtimeError(body) else { return nil }
        return error
    }

    @Test func manifestListsTheGuestsViews() throws {
        let manifest = try ViewHost.manifest(in: guest)
        #expect(manifest.schemaVersion == 1)
        #expect(manifest.views.map(\.type) == ["Counter", "Banner", "Broken", "Hidden", "Sloppy"])
        #expect(manifest.entry(named: "Counter")?.dispatch == "dispatch__Counter")
        #expect(manifest.entry(named: "Banner")?.dispatch == nil)
    }

    @Test func rendersWithInputsAsFlatSortedJSON() throws {
        let run = try guest.runView("Counter", inputs: try #require(MessagePackValue.parseJSON(Array(#"{"title":"Taps","count":1}"#.utf8))), events: [])
        #expect(run.render.input == #"{"count":1,"title":"Taps"}"#)
        #expect(run.render.schemaVersion == 1)
        #expect(ViewOutline.render(run.render.tree.root) == """
            vstack(alignment: leading, spacing: 8) .padding({top: 16, leading: 16, bottom: 16, trailing: 16})
              text("Taps: 1") .font({style: title}) .bold
              stepper(value: 1, min: 0, max: 10, step: 1, event: #setCount)
                label:
                  text("Set")
              button(actionID: "increment")
                label:
                  text("+1")
            """)
        #expect(run.render.tree.events.map(\.id) == ["setCount", "increment"])
    }

    @Test func eventsDispatchInOrderAndTheViewReRendersAfterEach() throws {
        let events = ["increment", "increment", "setCount=99", "__noop__"].map(ViewEventRequest.init(parsing:))
        let run = try guest.runView("Counter", inputs: .map([]), events: events)
        #expect(run.events.map(\.state) == [#"{"count":1}"#, #"{"count":2}"#, #"{"count":10}"#, #"{"count":10}"#])
        #expect(run.events[2].value == #"{"int":{"_0":10}}"#, "the stepper clamps to its max before sending")
        #expect(run.render.input == #"{"count":10}"#)
        let outline = ViewOutline.render(run.render.tree.root)
        #expect(outline.contains(#"text("Count: 10")"#))
        #expect(outline.contains(#"text("Many!") .foregroundColor(named("red")) .onTapGesture(#reset)"#))
        // "reset" only exists once the tree shows "Many!": events are looked up in the current tree.
        let reset = try guest.runView("Counter", inputs: .map([]), events: ["setCount=4", "reset"].map(ViewEventRequest.init(parsing:)))
        #expect(reset.events.last?.state == #"{"count":0}"#)
        guard case let .unknownEvent("reset", available)? = viewError({ _ = try guest.runView("Counter", inputs: .map([]), events: [ViewEventRequest(id: "reset")]) }) else {
            Issue.record("expected an unknown event"); return
        }
        #expect(available == ["setCount", "increment"])
    }

    @Test func unavailableViewsAndInvalidTreesAreTheirOwnErrors() {
        guard case let .unknownView("Missing", available)? = viewError({ _ = try guest.runView("Missing", inputs: .map([]), events: []) }) else {
            Issue.record("expected an unknown view"); return
        }
        #expect(available == ["Counter", "Banner", "Broken", "Hidden", "Sloppy"])
        #expect(viewError({ _ = try guest.runView("Hidden", inputs: .map([]), events: []) }) == .viewNotRouted(name: "Hidden"))
        #expect(viewError({ _ = try guest.runView("Banner", inputs: .map([]), events: [ViewEventRequest(id: "tap")]) }) == .readOnlyView(name: "Banner"))
        #expect(viewError({ _ = try guest.runView("Banner", inputs: .array([]), events: []) })?.category == .usage)
        let broken = viewError({ _ = try guest.runView("Broken", inputs: .map([]), events: []) })
        guard case let .invalidOutput("view_body__Broken", path, detail)? = broken else {
            Issue.record("expected an invalid tree, got \(String(describing: broken))"); return
        }
        #expect(path == "$.root.kind.vstack.children[0].kind")
        #expect(detail.contains("marquee"))
        #expect(RuntimeError.view(broken!).category == .viewInvalid)
    }

    @Test func dispatchResultsAreCheckedThoughTheirTreeIsNotRendered() {
        let state = viewError({ _ = try guest.runView("Sloppy", inputs: .map([]), events: [ViewEventRequest(id: "array")]) })
        #expect(state == .invalidOutput(export: "dispatch__Sloppy", path: "$.state",
                                        detail: "the state must be a JSON object (as a string) for the host to merge into the inputs"))
        let tree = viewError({ _ = try guest.runView("Sloppy", inputs: .map([]), events: [ViewEventRequest(id: "tree")]) })
        guard case let .invalidOutput("dispatch__Sloppy", path, detail)? = tree else {
            Issue.record("expected an invalid dispatch tree, got \(String(describing: tree))"); return
        }
        #expect(path == "$.tree")
        #expect(detail.contains(#"missing required key "modifiers""#))
    }

    @Test func aModuleWithoutAViewManifestRoutesNothing() throws {
        let plain = try session(try GuestBuilder.cGuest())
        #expect(viewError({ _ = try plain.runView("Counter", inputs: .map([]), events: []) }) == .noViewManifest)
    }
}
