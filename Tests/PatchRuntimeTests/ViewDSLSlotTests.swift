import Foundation
@testable import PatchRuntime
import Testing

/// Slots in the guest view DSL (templates/guest/ViewDSL+Slots.swift): a native-only leaf is an
/// `opaque` node (sdk-contract §5.6.4) carrying the leaf's modifiers, which the validator reports
/// as a slot the thunk must supply.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLSlotTests {
    @Test func aNativeLeafIsAnOpaqueNodeWithItsModifiers() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest("view_slots_guest.swift", exports: ["view_body__Place"]))
        let output = try #require(try guest.callPacked("view_body__Place", input: Array(#"{"title":"Park"}"#.utf8)).output)
        let text = #"{"kind":{"text":{"_0":"#
        #expect(String(decoding: output, as: UTF8.self).hasPrefix(
            #"{"root":{"kind":{"vstack":{"alignment":null,"spacing":null,"children":["# + text + #""Park"}},"modifiers":[]},"#
            + #"{"kind":{"opaque":{"id":"op_0123456789ab","label":"PinMap"}},"modifiers":[{"padding":{"_0":{"top":8,"leading":8,"bottom":8,"trailing":8}}}]},"#
            + text + #""below"}},"modifiers":[]}]}},"#), "\(String(decoding: output, as: UTF8.self))")
        #expect(String(decoding: output, as: UTF8.self).contains(#""coverage":{"totalNodes":4,"opaqueNodes":1,"#))
        var validator = ViewTreeValidator(export: "view_body__Place", limits: ViewLimits())
        let document = try validator.parse(output)
        try validator.validateDocument(document, as: "BodyEmission")
        #expect(validator.validated(root: try #require(document.member("root"))).slots == ["op_0123456789ab"])
    }

    /// A statement slot in place of a Button, and a background slot for an event modifier next to
    /// the view's own background: both are slots the thunk must supply; the background slot is an
    /// invisible opaque node in `backgroundContent`, applied in source order with the others.
    @Test func statementAndBackgroundSlotsAreOpaqueNodes() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest("view_statement_slots_guest.swift", exports: ["view_body__Inbox"]))
        let output = String(decoding: try #require(try guest.callPacked("view_body__Inbox", input: Array(#"{"title":"Mail"}"#.utf8)).output), as: UTF8.self)
        #expect(output.contains(#"{"kind":{"opaque":{"id":"op_aaaaaaaaaaaa","label":"Button"}},"modifiers":[{"padding":{"_0":{"top":8,"leading":8,"bottom":8,"trailing":8}}}]}"#), "\(output)")
        let background = #"{"backgroundContent":{"alignment":null,"content":[{"kind":{"opaque":{"id":"op_bbbbbbbbbbbb","label":"onAppear"}},"modifiers":[]}]}}"#
        #expect(output.contains(#"]}},"modifiers":[{"background":{"_0":{"named":{"_0":"red"}}}},"# + background + #",{"navigationTitle":{"_0":"Inbox"}}]}"#), "\(output)")
        var validator = ViewTreeValidator(export: "view_body__Inbox", limits: ViewLimits())
        let document = try validator.parse(Array(output.utf8))
        try validator.validateDocument(document, as: "BodyEmission")
        #expect(validator.validated(root: try #require(document.member("root"))).slots == ["op_aaaaaaaaaaaa", "op_bbbbbbbbbbbb"])
    }
}
