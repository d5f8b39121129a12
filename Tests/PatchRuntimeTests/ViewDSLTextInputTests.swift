import Foundation
@testable import PatchRuntime
import Testing

/// The text-input and control style modifiers of the guest view DSL (templates/guest/
/// ViewDSL+TextInput.swift, +ControlStyles.swift), both style forms (`.menu`, `MenuPickerStyle()`): each
/// writes the IR of sdk-contract §5.6.5 with a value of the contract's string vocabulary (expected
/// roots written from the contract's tables) at the lowest schema its tree needs, a nil value writes
/// nothing, and every emission passes the schema validator `run --view` uses.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLTextInputTests {
    @Test func everyTextInputAndControlStyleModifierWritesTheContractsIRAtTheLowestSchema() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_text_input_guest.swift", exports: ["patch_view_manifest", "view_body__TextInputSample"]))
        let field = #"{"textField":{"placeholder":"Email","value":"ada@example.com","event":{"id":"email"}}}"#
        func divider(_ modifiers: String) -> String { #"{"kind":{"divider":{}},"modifiers":[\#(modifiers)]}"# }
        let goldens: [(Int, String, Int)] = [
            (0, #"{"kind":\#(field),"modifiers":[{"keyboardType":{"_0":"emailAddress"}},{"textContentType":{"_0":"emailAddress"}},{"textInputAutocapitalization":{"_0":"never"}},{"autocorrectionDisabled":{"_0":true}},{"submitLabel":{"_0":"next"}}]}"#, 2),
            (1, divider(#"{"keyboardType":{"_0":"default"}}"#), 2),
            // nil content type and capitalization are the field's defaults: no modifier.
            (2, divider(""), 1),
            (3, divider(#"{"autocorrectionDisabled":{"_0":false}}"#), 2),
            (4, divider(#"{"submitLabel":{"_0":"return"}}"#), 2),
            // Control styles are v5 (§5.5).
            (5, divider(#"{"textFieldStyle":{"_0":"roundedBorder"}}"#), 5),
            (6, divider(#"{"textFieldStyle":{"_0":"plain"}}"#), 5),
            (7, divider(#"{"pickerStyle":{"_0":"segmented"}},{"pickerStyle":{"_0":"menu"}}"#), 2),
            (8, divider(#"{"menuStyle":{"_0":"borderlessButton"}}"#), 2),
            (9, divider(#"{"toggleStyle":{"_0":"switch"}},{"toggleStyle":{"_0":"button"}}"#), 2),
            (10, divider(#"{"progressViewStyle":{"_0":"circular"}}"#), 2),
        ]
        for (which, root, schema) in goldens {
            let output = try #require(try guest.callPacked("view_body__TextInputSample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "sample \(which): \(text)")
            #expect(text.hasSuffix(#""schemaVersion":\#(schema)}"#), "sample \(which): \(text)")
            var validator = ViewTreeValidator(export: "view_body__TextInputSample", limits: ViewLimits())
            try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        }
    }
}
