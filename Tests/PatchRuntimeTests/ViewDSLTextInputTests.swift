import Foundation
@testable import PatchRuntime
import Testing

/// The text-input and control style modifiers and the DatePicker of the guest view DSL
/// (templates/guest/ViewDSL+TextInput.swift, +ControlStyles.swift, +DatePicker.swift), both style
/// forms (`.menu`, `MenuPickerStyle()`): each writes the IR of sdk-contract §5.6.4/§5.6.5 with a
/// value of the contract's string vocabulary (expected roots written from the contract's tables) at
/// the lowest schema its tree needs, a nil value writes nothing, every emission passes the schema
/// validator `run --view` uses, and a date pick dispatches.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLTextInputTests {
    @Test func everyTextInputAndControlStyleModifierWritesTheContractsIRAtTheLowestSchema() throws {
        let guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_text_input_guest.swift", exports: ["patch_view_manifest", "view_body__TextInputSample", "dispatch__TextInputSample"]))
        let field = #"{"textField":{"placeholder":"Email","value":"ada@example.com","event":{"id":"email"}}}"#
        func divider(_ modifiers: String) -> String { #"{"kind":{"divider":{}},"modifiers":[\#(modifiers)]}"# }
        let due = #"{"kind":{"text":{"_0":"Due"}},"modifiers":[]}"#
        func datePicker(_ label: String, epoch: String, _ components: String, min: String, max: String, id: String) -> String {
            #"{"kind":{"datePicker":{"label":\#(label),"epoch":\#(epoch),"components":"\#(components)","minEpoch":\#(min),"maxEpoch":\#(max),"event":{"id":"\#(id)"}}},"modifiers":[]}"#
        }
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
            // Dates as seconds since 1970; both components unless displayedComponents says one.
            (11, datePicker(#"[\#(due)]"#, epoch: "1700000000.5", "dateAndTime", min: "null", max: "null", id: "due"), 3),
            (12, datePicker(#"[\#(due)]"#, epoch: "1700000000.5", "date", min: "0", max: "null", id: "due"), 3),
            (13, #"{"kind":{"datePicker":{"label":[{"kind":{"image":{"systemName":"clock"}},"modifiers":[]}],"epoch":1700000000.5,"components":"hourAndMinute","minEpoch":-1.5,"maxEpoch":1000000000,"event":{"id":"due"}}},"modifiers":[{"datePickerStyle":{"_0":"wheel"}}]}"#, 5),
            (14, datePicker(#"[\#(due)]"#, epoch: "0", "dateAndTime", min: "null", max: "10", id: "action_0"), 3),
        ]
        for (which, root, schema) in goldens {
            let output = try #require(try guest.callPacked("view_body__TextInputSample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "sample \(which): \(text)")
            #expect(text.hasSuffix(#""schemaVersion":\#(schema)}"#), "sample \(which): \(text)")
            var validator = ViewTreeValidator(export: "view_body__TextInputSample", limits: ViewLimits())
            try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        }

        // A pick arrives as `double` epoch seconds and is written through the binding.
        let run = try guest.runView("TextInputSample", inputs: .map([("which", .int(11))]), events: [ViewEventRequest(parsing: "due=1234.5")])
        #expect(run.events.map(\.source) == ["datePicker"])
        #expect(run.events.map(\.value) == [#"{"double":{"_0":1234.5}}"#])
        #expect(run.events.map(\.state) == [#"{"due":1234.5,"email":"ada@example.com"}"#])
        #expect(ViewOutline.render(run.render.tree.root).contains("epoch: 1234.5"), "\(ViewOutline.render(run.render.tree.root))")
    }
}
