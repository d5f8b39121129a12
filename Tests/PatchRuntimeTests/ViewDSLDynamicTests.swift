import Foundation
@testable import PatchRuntime
import Testing

/// `.task`, `.onChange`, `.animation`, `.transition`, `withAnimation`, `TabView(selection:)` and
/// `GeometryReader` of the guest view DSL (templates/guest/ViewDSL+Lifecycle.swift, +Animation.swift,
/// +Tabs.swift, +Geometry.swift): each writes the IR of sdk-contract §5.6 (expected roots written from
/// the contract's tables), passes the schema validator `run --view` uses, and dispatches as the host
/// drives it.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLDynamicTests {
    static let fixture = "view_dsl_dynamic_guest.swift"
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            Self.fixture,
            exports: ["patch_view_manifest", "view_body__LifecycleSample", "view_body__Search", "dispatch__Search",
                      "view_body__AnimSample", "view_body__Tabs", "dispatch__Tabs", "view_body__Meter", "dispatch__Meter"]))
    }

    static func text(_ content: String, _ modifiers: String = "") -> String {
        #"{"kind":{"text":{"_0":"\#(content)"}},"modifiers":[\#(modifiers)]}"#
    }

    /// The validated emission of `view` for `inputs`.
    func render(_ view: String, _ inputs: String) throws -> String {
        let output = try #require(try guest.callPacked("view_body__\(view)", input: Array(inputs.utf8)).output)
        var validator = ViewTreeValidator(export: "view_body__\(view)", limits: ViewLimits())
        try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        return String(decoding: output, as: UTF8.self)
    }

    func expectGoldens(_ view: String, _ goldens: [(Int, String, Int)]) throws {
        for (which, root, schema) in goldens {
            let text = try render(view, #"{"which":\#(which)}"#)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "\(view) \(which): \(text)")
            #expect(text.hasSuffix(#""schemaVersion":\#(schema)}"#), "\(view) \(which): \(text)")
        }
    }

    // MARK: - task, onChange

    @Test func tasksAndChangeWatchersWriteTheContractsModifiers() throws {
        try expectGoldens("LifecycleSample", [
            (0, Self.text("t", #"{"task":{"_0":{"id":"action_0"},"id":null}}"#), 2),
            // The IR's task id is a String: the id value's JSON.
            (1, Self.text("t", #"{"task":{"_0":{"id":"action_0"},"id":"\"Ada\""}}"#), 2),
            // One onChange per state field the watched value reads (its valueKey, §5.6.7) ...
            (2, Self.text("c", #"{"onChange":{"valueKey":"count","_1":{"id":"action_0"}}}"#), 2),
            // ... and `initial: true` also runs the action on appear.
            (3, Self.text("c", #"{"onChange":{"valueKey":"count","_1":{"id":"action_0"}}},{"onChange":{"valueKey":"name","_1":{"id":"action_0"}}},{"onAppear":{"_0":{"id":"action_0"}}}"#), 2),
            // A value that reads no state field names nothing the host could watch.
            (4, Self.text("c"), 1),
        ])
    }

    /// The Search state after `events`, as dictionaries.
    func search(after events: [String]) throws -> [[String: Any]] {
        let run = try guest.runView("Search", inputs: .map([]), events: events.map(ViewEventRequest.init(parsing:)))
        return try run.events.map { event in
            try #require(try JSONSerialization.jsonObject(with: Data(event.state.utf8)) as? [String: Any])
        }
    }

    @Test func aDispatchThatChangesAWatchedFieldRunsItsOnChangeAction() throws {
        // action_0 = More, action_1 = onChange(query)'s event, action_2 = onChange(count, initial:)'s
        // (also its onAppear), action_3 = the task.
        let states = try search(after: ["query=a", "query=a", "action_0", "query=ab", "action_2", "action_3"])
        #expect(states.map { $0["log"] as? String } == [
            "query >a;",  // the text field's edit changed the query: old and new value
            "query >a;",  // the same value again: no change, no action
            "query >a;count;",  // the button changed count
            "query >a;count;query a>ab;",
            "query >a;count;query a>ab;count;",  // the onAppear of `initial: true`
            "query >a;count;query a>ab;count;task;",  // the host starting the task
        ])
        #expect(states.last?["count"] as? Int == 1)
    }

    // MARK: - animation, transition

    static func animation(_ curve: String, duration: String = "null", response: String = "null", damping: String = "null",
                          delay: String = "null", speed: String = "null", repeatCount: String = "null", autoreverses: String = "null") -> String {
        #"{"curve":"\#(curve)","duration":\#(duration),"response":\#(response),"dampingFraction":\#(damping),"delay":\#(delay),"speed":\#(speed),"repeatCount":\#(repeatCount),"autoreverses":\#(autoreverses)}"#
    }

    @Test func animationsAndTransitionsWriteIRAnimationAndIRTransition() throws {
        try expectGoldens("AnimSample", [
            (0, Self.text("a", #"{"animation":{"_0":\#(Self.animation("easeInOut", duration: "0.3")),"valueKey":"isOn"}}"#), 2),
            (1, Self.text("a", #"{"animation":{"_0":null,"valueKey":"count"}}"#), 2),
            (2, Self.text("a", #"{"animation":{"_0":\#(Self.animation("spring", response: "0.4", damping: "0.6", delay: "0.1", speed: "2", repeatCount: "3", autoreverses: "false")),"valueKey":"count"}}"#), 2),
            // spring(duration:bounce:) is SwiftUI's spring of that response and damping 1 - bounce.
            (3, Self.text("a", #"{"animation":{"_0":\#(Self.animation("spring", response: "0.5", damping: "0.75")),"valueKey":"count"}}"#), 2),
            // A plain property is no state field: nothing for the host to watch.
            (4, Self.text("a"), 1),
            (5, Self.text("a", #"{"transition":{"_0":{"opacity":{}}}}"#), 2),
            (6, Self.text("a", #"{"transition":{"_0":{"move":{"edge":"bottom"}}}}"#), 2),
            (7, Self.text("a", #"{"transition":{"_0":{"scale":{"scale":0,"anchor":{"center":{}}}}}}"#), 2),
            (8, Self.text("a", #"{"transition":{"_0":{"combined":{"_0":[{"scale":{"scale":0.5,"anchor":{"top":{}}}},{"opacity":{}}]}}}}"#), 2),
            (9, Self.text("a", #"{"transition":{"_0":{"asymmetric":{"insertion":{"push":{"edge":"leading"}},"removal":{"offset":{"x":10,"y":-2}}}}}}"#), 2),
            (10, Self.text("a", #"{"transition":{"_0":{"slide":{}}}},{"animation":{"_0":\#(Self.animation("bouncy")),"valueKey":"isOn"}}"#), 2),
            // withAnimation in an action: nothing in the tree.
            (11, Self.text("a", #"{"padding":{"_0":{"top":4,"leading":0,"bottom":0,"trailing":0}}},{"onTapGesture":{"_0":{"id":"action_0"}}}"#), 1),
            // With extra bounce, bouncy is the spring of bounce 0.3 + extra; interactiveSpring a spring.
            (12, Self.text("a", #"{"animation":{"_0":\#(Self.animation("spring", response: "0.25", damping: "0.6")),"valueKey":"count"}}"#), 2),
            (13, Self.text("a", #"{"animation":{"_0":\#(Self.animation("spring", response: "0.15", damping: "0.86")),"valueKey":"count"}}"#), 2),
            (14, Self.text("a", #"{"transition":{"_0":{"combined":{"_0":[{"scale":{"scale":0.5,"anchor":{"center":{}}}},{"offset":{"x":0,"y":50}}]}}}}"#), 2),
            (15, Self.text("a", #"{"transition":{"_0":{"offset":{"x":1,"y":2}}}}"#), 2),
        ])
    }

    // MARK: - TabView(selection:)

    static let homeLabel = #"{"kind":{"label":{"title":[\#(text("Home"))],"icon":[{"kind":{"image":{"systemName":"house"}},"modifiers":[]}]}},"modifiers":[]}"#

    @Test func aBoundTabViewTagsEachTabByItsTag() throws {
        let inner = #"{"kind":{"vstack":{"alignment":null,"spacing":null,"children":[\#(Self.text("Inner"))]}},"modifiers":[]}"#
        let rows = #"{"kind":{"forEach":{"children":[\#(Self.text("inbox")),\#(Self.text("sent"))]}},"modifiers":[]}"#
        let button = #"{"kind":{"button":{"actionID":"action_1","role":null,"label":[\#(Self.text("B"))]}},"modifiers":[]}"#
        try expectGoldens("Tabs", [
            // A tab's own tag, not one inside it; a tab without one is tagged by its position.
            (0, ViewDSLTests.leaf(#"{"boundTabView":{"selection":{"int":{"_0":1}},"kind":"int","tabs":[{"tag":"0","tabItem":[\#(Self.homeLabel)],"content":[\#(Self.text("Home"))]},{"tag":"1","tabItem":[\#(Self.text("Second"))],"content":[\#(inner)]},{"tag":"2","tabItem":[],"content":[\#(Self.text("Untagged"))]}],"style":"automatic","event":{"id":"tab"}}}"#), 3),
            // String tags as they are; a ForEach is one tab (the IR unrolls it into one node).
            (1, ViewDSLTests.leaf(#"{"boundTabView":{"selection":{"string":{"_0":"inbox"}},"kind":"string","tabs":[{"tag":"0","tabItem":[],"content":[\#(rows)]},{"tag":"q\"x","tabItem":[],"content":[\#(Self.text(#"Quote \"x\""#))]}],"style":"automatic","event":{"id":"section"}}}"#), 3),
            // A tag of another type than the selection's does not tag the tab (SwiftUI cannot select it).
            (2, ViewDSLTests.leaf(#"{"boundTabView":{"selection":{"int":{"_0":2}},"kind":"int","tabs":[{"tag":"0","tabItem":[],"content":[\#(Self.text("A"))]},{"tag":"2","tabItem":[],"content":[\#(button)]}],"style":"automatic","event":{"id":"action_0"}}}"#), 3),
        ])
    }

    @Test func aTabTapWritesTheSelection() throws {
        let run = try guest.runView("Tabs", inputs: .map([]), events: ["tab=0", "tab=2"].map(ViewEventRequest.init(parsing:)))
        #expect(run.events.map(\.value) == [#"{"int":{"_0":0}}"#, #"{"int":{"_0":2}}"#])
        #expect(run.events.map(\.state) == [#"{"section":"inbox","tab":0}"#, #"{"section":"inbox","tab":2}"#])
        #expect(ViewOutline.render(run.render.tree.root).contains("boundTabView(selection: int(2), kind: int"), "\(ViewOutline.render(run.render.tree.root))")
        // The tags a tab tap can send are the tabs' (the ForEach's rows are one tab, tagged "0").
        let strings = try guest.runView("Tabs", inputs: .map([("which", .int(1))]), events: [ViewEventRequest(parsing: #"section=q"x"#)])
        #expect(strings.events.map(\.state) == [#"{"section":"q\"x","tab":1}"#])
    }

    // MARK: - GeometryReader

    /// `geo_` and the FNV-1a hash of `<file>:<line>:<column>` of the `occurrence`-th
    /// `GeometryReader {` in the fixture, as ViewDSL+Geometry.swift makes it (Swift's `#column` of a
    /// default argument is the column of the call's argument, here the trailing closure's brace).
    static func geometryID(_ occurrence: Int) throws -> String {
        let path = GuestBuilder.fixtures.appendingPathComponent(fixture).path
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let sites = lines.enumerated().compactMap { number, line in
            line.range(of: "GeometryReader {").map { (number + 1, line.distance(from: line.startIndex, to: $0.upperBound)) }
        }
        let (line, column) = sites[occurrence]
        var hash: UInt32 = 0x811c_9dc5
        for byte in "\(path):\(line):\(column)".utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return "geo_" + String(format: "%08x", hash)
    }

    @Test func aGeometryReaderReadsTheReservedInputsUnderAContentStableID() throws {
        let (first, rows) = (try Self.geometryID(0), try Self.geometryID(1))
        func reader(_ id: String, _ child: String) -> String { #"{"kind":{"geometryReader":{"id":"\#(id)","children":[\#(child)]}},"modifiers":[]}"# }
        func bar(_ width: String) -> String {
            #"{"kind":{"shape":{"_0":{"rectangle":{}}}},"modifiers":[{"frame":{"width":\#(width),"height":null,"alignment":null}}]}"#
        }
        func tree(_ label: String, _ widths: (String, String)) -> String {
            let rowsNode = #"{"kind":{"forEach":{"children":[\#(reader(rows, bar(widths.0))),\#(reader(rows + "_1", bar(widths.1)))]}},"modifiers":[]}"#
            let tap = #"{"onTapGesture":{"_0":{"id":"action_0"}}}"#
            return #"{"root":{"kind":{"vstack":{"alignment":null,"spacing":null,"children":[\#(reader(first, Self.text(label, tap))),\#(rowsNode)]}},"modifiers":[]},"#
        }
        // Before the host measured (no __geo_* inputs) the proxy is zero ...
        let unmeasured = try render("Meter", "{}")
        #expect(unmeasured.hasPrefix(tree("0.0x0.0 at 0.0,0.0", ("0", "0"))), "\(unmeasured)")
        #expect(unmeasured.hasSuffix(#""schemaVersion":2}"#))
        // ... and the re-evaluation with them keeps every reader's id.
        let measured = try render("Meter", #"{"__geo_width":320,"__geo_height":44.5,"__geo_minX":2,"__geo_minY":3}"#)
        #expect(measured.hasPrefix(tree("320.0x44.5 at 2.0,3.0", ("160", "80"))), "\(measured)")
        // Buttons inside dispatch like any other; the dispatch's state carries no sizes.
        let run = try guest.runView("Meter", inputs: .map([]), events: [ViewEventRequest(parsing: "action_0")])
        #expect(run.events.map(\.state) == [#"{"taps":1}"#])
    }

    @Test func whatTheHostDoesNotMeasureDoesNotCompileAndSaysWhy() throws {
        // build quotes the guest compiler's reason as the view's `view_not_lowerable` detail.
        let failure = #expect(throws: GuestBuilder.BuildFailure.self) {
            try GuestBuilder.viewDSLGuest("view_dsl_geometry_unavailable_guest.swift", exports: [])
        }
        let message = failure?.description ?? ""
        #expect(message.contains("'safeAreaInsets' is unavailable: the host passes a GeometryReader only its size and local frame"), "\(message)")
        #expect(message.contains("'global' is unavailable: the host passes a GeometryReader only its local frame"), "\(message)")
    }
}
