import Foundation
@testable import PatchRuntime
import Testing

/// `ViewModifier` in the guest view DSL (templates/guest/ViewDSL+ViewModifier.swift): a routed
/// modifier body writes its native content as the `opaque` slot node `op_content` with the body's
/// modifiers on it, a modifier applied in a lowered body writes that body's view in place, and a
/// modifier's `@State` dispatches like a view's. Every emission passes the `run --view` validator.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewModifierDSLTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            "view_modifier_guest.swift",
            exports: ["patch_view_manifest", "view_body__CardStyle", "view_body__Highlight", "dispatch__Highlight", "view_body__Screen"]))
    }

    static let white = #"{"background":{"_0":{"named":{"_0":"white"}}}}"#
    static func padding(_ inset: Int) -> String {
        #"{"padding":{"_0":{"top":\#(inset),"leading":\#(inset),"bottom":\#(inset),"trailing":\#(inset)}}}"#
    }

    /// The body's view and its validated emission.
    private func emission(_ export: String, _ inputs: String) throws -> String {
        let output = try #require(try guest.callPacked(export, input: Array(inputs.utf8)).output)
        var validator = ViewTreeValidator(export: export, limits: ViewLimits())
        try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        return String(decoding: output, as: UTF8.self)
    }

    @Test func aRoutedModifierBodyWrapsTheNativeContentSlot() throws {
        let slot = #"{"kind":{"opaque":{"id":"op_content","label":"content"}},"modifiers":[\#(Self.padding(8)),\#(Self.white)]}"#
        // The slot is one opaque node of one: coverage says so.
        #expect(try emission("view_body__CardStyle", "{}") == #"{"root":\#(slot),"#
            + #""coverage":{"totalNodes":1,"opaqueNodes":1,"totalModifiers":2,"opaqueModifiers":0},"schemaVersion":1}"#)
        // The modifier's stored properties are its inputs, as a view's are.
        #expect(try emission("view_body__CardStyle", #"{"inset":2}"#).contains(Self.padding(2)))
    }

    @Test func aModifierAppliedInALoweredBodyWritesItsContentInPlace() throws {
        let title = #"{"kind":{"text":{"_0":"title"}},"modifiers":[\#(Self.padding(4)),\#(Self.white)]}"#
        let divider = #"{"kind":{"divider":{}},"modifiers":[]}"#
        let root = #"{"kind":{"vstack":{"alignment":null,"spacing":null,"children":[\#(title),\#(divider)]}},"modifiers":[\#(Self.padding(8)),\#(Self.white)]}"#
        let text = try emission("view_body__Screen", "{}")
        #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "\(text)")
        #expect(!text.contains("op_content"))
    }

    @Test func aModifiersStateDispatchesAndReRenders() throws {
        let run = try guest.runView("Highlight", inputs: .map([]), events: ["action_0", "action_0", "action_0"].map(ViewEventRequest.init(parsing:)))
        #expect(run.events.map(\.state) == [#"{"isOn":true}"#, #"{"isOn":false}"#, #"{"isOn":true}"#])
        #expect(ViewOutline.render(run.render.tree.root) == """
            vstack
              opaque(id: "op_content", label: "content") .bold
              button(actionID: "action_0")
                label:
                  text("Toggle")
            """)
    }
}
