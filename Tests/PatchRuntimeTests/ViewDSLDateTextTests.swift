import Foundation
@testable import PatchRuntime
import Testing

/// `Text(date, style:)` in the guest view DSL: the IR's `dateText` (sdk-contract §5.6.4), the date
/// as seconds since 1970 from the inputs, the style as its IRDateTextStyle name, schema 2.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLDateTextTests {
    @Test func datesWithAStyleAreDateTextNodes() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest("view_date_text_guest.swift", exports: ["view_body__Countdown"]))
        let output = try #require(try guest.callPacked("view_body__Countdown", input: Array(#"{"due":1764180000.5}"#.utf8)).output)
        #expect(String(decoding: output, as: UTF8.self) == #"{"root":{"kind":{"vstack":{"alignment":null,"spacing":null,"children":["#
            + #"{"kind":{"dateText":{"epoch":1764180000.5,"style":"relative"}},"modifiers":[]},"#
            + #"{"kind":{"dateText":{"epoch":1764180090.5,"style":"timer"}},"modifiers":[]},"#
            + #"{"kind":{"text":{"_0":"due"}},"modifiers":[]}]}},"modifiers":[]},"#
            + #""coverage":{"totalNodes":4,"opaqueNodes":0,"totalModifiers":0,"opaqueModifiers":0},"schemaVersion":2}"#)
        var validator = ViewTreeValidator(export: "view_body__Countdown", limits: ViewLimits())
        try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
    }
}
