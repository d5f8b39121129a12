import Foundation
@testable import PatchRuntime
import Testing

/// Host tokens in the guest view DSL (templates/guest/ViewDSL+Tokens.swift): string and number
/// tokens are read from the `__strtok_`/`__numtok_` inputs the host merges in (sdk-contract §5.4),
/// a color token is a `hostToken` reference and a font token the modifier `fontToken` (§5.6.5, v4),
/// which the validator reports for the thunk to supply; an emission with either states schema 4.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLTokenTests {
    @Test func tokenReadsComeFromTheReservedInputsAndColorsAreHostReferences() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest("view_tokens_guest.swift", exports: ["view_body__Badge", "view_body__Caption"]))
        let inputs = #"{"__numtok_nt_0123456789ab":3,"__numtok_nt_ba9876543210":1,"__strtok_st_0123456789ab":"Ada \"A\"","caption":"new"}"#
        let output = try #require(try guest.callPacked("view_body__Badge", input: Array(inputs.utf8)).output)
        let text = #"{"kind":{"text":{"_0":"#
        #expect(String(decoding: output, as: UTF8.self).hasPrefix(
            #"{"root":{"kind":{"vstack":{"alignment":null,"spacing":null,"children":["#
            + text + #""Ada \"A\""}},"modifiers":[]},"# + text + #""3 new"}},"modifiers":[]},"# + text + #""dark"}},"modifiers":[]}]}},"#
            + #""modifiers":[{"foregroundColor":{"_0":{"hostToken":{"_0":"ct_0123456789ab"}}}}]},"#))
        #expect(String(decoding: output, as: UTF8.self).hasSuffix(
            #""coverage":{"totalNodes":4,"opaqueNodes":0,"totalModifiers":1,"opaqueModifiers":0},"schemaVersion":4}"#),
            "the named colors alone are schema 1; the token makes it 4")
        var validator = ViewTreeValidator(export: "view_body__Badge", limits: ViewLimits())
        let document = try validator.parse(output)
        try validator.validateDocument(document, as: "BodyEmission")
        #expect(validator.validated(root: try #require(document.member("root"))).tokens == ["ct_0123456789ab"])

        // The Bool token 0 drops the branch; the body reads the tokens of each call, not of an earlier one.
        let off = try #require(try guest.callPacked("view_body__Badge", input: Array(#"{"__numtok_nt_0123456789ab":0,"__numtok_nt_ba9876543210":0,"__strtok_st_0123456789ab":"Bo","caption":"x"}"#.utf8)).output)
        let offText = String(decoding: off, as: UTF8.self)
        #expect(offText.contains(#""Bo""#) && offText.contains(#""0 x""#) && !offText.contains("dark"))
    }

    @Test func fontTokensAreFontTokenModifiersOfSchema4() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest("view_tokens_guest.swift", exports: ["view_body__Caption"]))
        let output = try #require(try guest.callPacked("view_body__Caption", input: Array(#"{"title":"Hi"}"#.utf8)).output)
        let token = #"{"fontToken":{"_0":"ft_0123456789ab"}}"#
        let text = #"{"kind":{"text":{"_0":"Hi"}},"modifiers":"#
        // `.bold()` of the host's font cannot change the token: it is the fontWeight SwiftUI applies over it.
        #expect(String(decoding: output, as: UTF8.self) == #"{"root":{"kind":{"hstack":{"alignment":null,"spacing":null,"children":["#
            + text + "[" + token + "]}," + text + "[" + token + #",{"fontWeight":{"_0":"bold"}}]}]}},"modifiers":[]},"#
            + #""coverage":{"totalNodes":3,"opaqueNodes":0,"totalModifiers":3,"opaqueModifiers":0},"schemaVersion":4}"#)
        var validator = ViewTreeValidator(export: "view_body__Caption", limits: ViewLimits())
        let document = try validator.parse(output)
        try validator.validateDocument(document, as: "BodyEmission")
        #expect(validator.validated(root: try #require(document.member("root"))).tokens == ["ft_0123456789ab", "ft_0123456789ab"],
                "one per use, each for the thunk to supply")
    }
}
