import Foundation
import Testing

/// The example app's screens (Examples/PatchShop: `WishlistScreen` with its `WishlistRow`s, and
/// `GiftOptionsScreen`) edited the ways a developer edits a screen: a label, a layout, a row and a
/// handler. Each edit is built, rendered with `run --view` and driven with `--event` as the SDK
/// drives a patched body, and the state the dispatch returns and the tree after it are checked.
/// One `init`, two builds: the second build ships the first one's edits again, with the new ones.
@Suite(.serialized) struct ViewInteractionCLITests {
    static let wishlistFile = "Sources/PatchShop/WishlistScreen.swift"
    static let giftsFile = "Sources/PatchShop/GiftOptionsScreen.swift"

    /// `run --view` in `--json`: the events applied and the last render's outline.
    private struct ViewRun {
        var states: [String]
        var outline: String
    }

    private static func render(_ project: URL, _ view: String, inputs: String = "{}", events: [String] = []) throws -> ViewRun {
        let module = project.appendingPathComponent(".patch/build/module.wasm").path
        let result = try CLI.run(["run", module, "--view", view, "--inputs", inputs, "--json"] + events.flatMap { ["--event", $0] })
        guard result.status == 0, let report = result.result, let outline = report["outline"] as? String,
              let applied = report["events"] as? [[String: Any]] else {
            throw BuildTestFailure(description: "run --view \(view) failed: \(result.stdout)\(result.stderr)")
        }
        return ViewRun(states: applied.compactMap { $0["state"] as? String }, outline: outline)
    }

    /// Builds the project's changes; returns the view types the module renders.
    private static func build(_ project: URL) throws -> [String] {
        let result = try CLI.run(["build", "--project", project.path, "--json"])
        guard result.status == 0, let views = result.result?["views"] as? [[String: Any]] else {
            throw BuildTestFailure(description: "build failed: \(result.stdout)\(result.stderr)")
        }
        return views.compactMap { $0["type"] as? String }
    }

    @Test func labelLayoutRowAndHandlerEditsShipAndInteract() throws {
        try withScratchDirectory { directory in
            let project = try BuildCLITests.initializedExample(in: directory)

            // A label and a layout: the wish list's summary line, the gift wrap row stacked vertically.
            try BuildCLITests.edit(project, Self.wishlistFile, replacing: #"items saved")"#, with: #"saved for later")"#)
            try BuildCLITests.edit(project, Self.giftsFile, replacing: "HStack {\n                Text(\"Gift wrap\")",
                                   with: "VStack(alignment: .leading) {\n                Text(\"Gift wrap\")")
            #expect(try Self.build(project) == ["GiftOptionsScreen", "WishlistScreen"])

            // The third row's button: its quantity goes up in the state, the row and the summary show it.
            let wishlist = try Self.render(project, "WishlistScreen", events: ["action_2"])
            #expect(wishlist.states == [#"{"names":["Travel mug","Canvas tote","Enamel pin"],"quantities":[1,1,3]}"#])
            #expect(wishlist.outline.contains("""
                    hstack
                      text("Enamel pin")
                      spacer
                      text("× 3") .foregroundColor(named("secondary"))
                      button(actionID: "action_2")
                """), "\(wishlist.outline)")
            #expect(wishlist.outline.contains(#"text("5 saved for later") .font({style: footnote})"#), "\(wishlist.outline)")

            let gifts = try Self.render(project, "GiftOptionsScreen", events: ["action_0", "action_2", "action_2"])
            #expect(gifts.states == [#"{"cards":0,"wrapped":true}"#, #"{"cards":1,"wrapped":true}"#, #"{"cards":2,"wrapped":true}"#])
            #expect(gifts.outline.contains("""
                  vstack(alignment: leading)
                    text("Gift wrap")
                    spacer
                    button(actionID: "action_0")
                      label:
                        text("Wrapped")
                  hstack
                    text("Greeting cards: 2")
                """), "\(gifts.outline)")

            // A row and a handler: the row's quantity label, and "Add one" adding ten. The changed
            // row ships as a view of its own too, and the screen's tree uses it.
            try BuildCLITests.edit(project, Self.wishlistFile, replacing: #"Text("× \(quantity)")"#, with: #"Text("\(quantity) wanted")"#)
            try BuildCLITests.edit(project, Self.wishlistFile, replacing: "quantities[index] += 1", with: "quantities[index] += 10")
            #expect(try Self.build(project) == ["GiftOptionsScreen", "WishlistRow", "WishlistScreen"])

            let inputs = #"{"names":["Mug","Tote"],"quantities":[1,2]}"#
            let added = try Self.render(project, "WishlistScreen", inputs: inputs, events: ["action_0"])
            #expect(added.states == [#"{"names":["Mug","Tote"],"quantities":[11,2]}"#])
            #expect(added.outline.contains(#"text("11 wanted") .foregroundColor(named("secondary"))"#), "\(added.outline)")
            #expect(added.outline.contains(#"text("13 saved for later")"#), "\(added.outline)")
            // "Clear" (after the two rows' buttons) empties both lists: no rows, and the button disables itself.
            let cleared = try Self.render(project, "WishlistScreen", inputs: inputs, events: ["action_2"])
            #expect(cleared.states == [#"{"names":[],"quantities":[]}"#])
            #expect(cleared.outline.contains("""
                  forEach
                  divider
                  text("0 saved for later") .font({style: footnote})
                  button(actionID: "action_0") .disabled(true)
                """), "\(cleared.outline)")
            // The gift screen's first edit still ships.
            #expect(try Self.render(project, "GiftOptionsScreen").outline.contains("  vstack(alignment: leading)\n    text(\"Gift wrap\")"))

            // `--repeat` times renders and the first event's dispatches (benchmarks/lowering).
            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let timed = try CLI.run(["run", module, "--view", "WishlistScreen", "--inputs", inputs, "--event", "action_0", "--repeat", "3", "--json"])
            let timing = try #require(timed.result?["timing"] as? [String: Any], "\(timed.stdout)\(timed.stderr)")
            #expect(timing["calls"] as? Int == 3)
            #expect((timing["render_mean_us"] as? Double ?? 0) > 0 && (timing["dispatch_mean_us"] as? Double ?? 0) > 0, "\(timing)")

            // The guest's cost of a 32-row render and of a row's dispatch, in wasm operators (fuel):
            // deterministic for a toolchain and a WasmKit, unlike time. A budget a few percent over
            // what the emitter costs today (docs/benchmarks.md "Render cost"), so that a change
            // that makes every render dearer fails here rather than in the benchmark.
            let rows = (1...32).map { #""Saved product \#($0)""# }.joined(separator: ",")
            let screen = #"{"names":[\#(rows)],"quantities":[\#((1...32).map(String.init).joined(separator: ","))]}"#
            let render = try CLI.run(["run", module, "view_body__WishlistScreen", "--input", screen, "--json"])
            let renderFuel = try #require(render.result?["fuel_used"] as? Int, "\(render.stdout)\(render.stderr)")
            #expect(renderFuel <= Self.renderFuelBudget, "render: \(renderFuel) operators")
            let request = #"{"state":\#(try jsonString(screen)),"event":{"event":{"id":"action_0"},"value":{"none":{}}}}"#
            let dispatch = try CLI.run(["run", module, "dispatch__WishlistScreen", "--input", request, "--json"])
            let dispatchFuel = try #require(dispatch.result?["fuel_used"] as? Int, "\(dispatch.stdout)\(dispatch.stderr)")
            #expect(dispatchFuel <= Self.dispatchFuelBudget, "dispatch: \(dispatchFuel) operators")
        }
    }

    static let renderFuelBudget = 650_000
    static let dispatchFuelBudget = 1_150_000

    /// `text` as a JSON string literal.
    private func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }
}
