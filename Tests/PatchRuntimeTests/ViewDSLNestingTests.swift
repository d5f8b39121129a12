import Foundation
@testable import PatchRuntime
import Testing

/// Builder blocks Embedded Swift refused to compile before `_PatchPair` emitted through a function
/// made when it is built (see its comment): the fixture compiles, and its views write the IR of
/// sdk-contract §5.6 in source order, validated as `run --view` validates it.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLNestingTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_nesting_guest.swift", exports: ["view_body__GiftNote", "view_body__FlatBlock"]))
    }

    static func text(_ content: String) -> String { ViewDSLTests.leaf(#"{"text":{"_0":"\#(content)"}}"#) }
    static let boldD = #"{"kind":{"text":{"_0":"d"}},"modifiers":[{"bold":{}}]}"#
    static func vstack(_ children: String) -> String {
        ViewDSLTests.leaf(#"{"vstack":{"alignment":null,"spacing":null,"children":[\#(children)]}}"#)
    }

    static let goldens: [(String, String)] = [
        ("GiftNote", vstack([
            vstack([
                ViewDSLTests.leaf(#"{"hstack":{"alignment":null,"spacing":null,"children":[\#(text("c")),\#(boldD),\#(text("e"))]}}"#),
                text("f"),
            ].joined(separator: ",")),
            #"{"kind":{"button":{"actionID":"action_0","role":null,"label":[\#(text("Reset"))]}},"modifiers":[{"disabled":{"_0":true}}]}"#,
        ].joined(separator: ","))),
        ("FlatBlock", vstack([text("c"), boldD, text("e"), text("f")].joined(separator: ","))),
    ]

    @Test func nestedAndLongBlocksWithModifiedChildrenCompileAndWriteTheirChildrenInOrder() throws {
        for (view, root) in Self.goldens {
            let output = try #require(try guest.callPacked("view_body__\(view)", input: Array("{}".utf8)).output)
            #expect(String(decoding: output, as: UTF8.self).hasPrefix(#"{"root":\#(root),"coverage":"#), "\(view)")
            var validator = ViewTreeValidator(export: "view_body__\(view)", limits: ViewLimits())
            let document = try validator.parse(output)
            try validator.validateDocument(document, as: "BodyEmission")
        }
    }
}
