// Guest view DSL (see ViewDSL.swift): the text-input modifiers of sdk-contract §5.6.5 (keyboard,
// content type, autocorrection, capitalization, submit label, text field style). Each value is
// one the contract's string vocabulary names (§5.6.5 "String vocabularies"); values the host would
// not recognize (it falls back to the default) are not declared, so a body using one stays native.
// They sit with the control styles of the v2 modifier surface; `textFieldStyle` is one of the
// control styles §5.5 places at v5.

/// UIKit's keyboard types the IR's `keyboardType` names (not `.asciiCapableNumberPad`).
struct UIKeyboardType: _PatchNamedValue {
    let _name: StaticString
    static let `default` = UIKeyboardType(_name: "default")
    static let asciiCapable = UIKeyboardType(_name: "asciiCapable")
    static let numbersAndPunctuation = UIKeyboardType(_name: "numbersAndPunctuation")
    static let URL = UIKeyboardType(_name: "URL")
    static let numberPad = UIKeyboardType(_name: "numberPad")
    static let phonePad = UIKeyboardType(_name: "phonePad")
    static let namePhonePad = UIKeyboardType(_name: "namePhonePad")
    static let emailAddress = UIKeyboardType(_name: "emailAddress")
    static let decimalPad = UIKeyboardType(_name: "decimalPad")
    static let twitter = UIKeyboardType(_name: "twitter")
    static let webSearch = UIKeyboardType(_name: "webSearch")
}

/// UIKit's text content types the IR's `textContentType` names.
struct UITextContentType: _PatchNamedValue {
    let _name: StaticString
    static let emailAddress = UITextContentType(_name: "emailAddress")
    static let password = UITextContentType(_name: "password")
    static let newPassword = UITextContentType(_name: "newPassword")
    static let username = UITextContentType(_name: "username")
    static let name = UITextContentType(_name: "name")
    static let givenName = UITextContentType(_name: "givenName")
    static let familyName = UITextContentType(_name: "familyName")
    static let telephoneNumber = UITextContentType(_name: "telephoneNumber")
    static let URL = UITextContentType(_name: "URL")
    static let oneTimeCode = UITextContentType(_name: "oneTimeCode")
    static let fullStreetAddress = UITextContentType(_name: "fullStreetAddress")
    static let postalCode = UITextContentType(_name: "postalCode")
}

struct TextInputAutocapitalization: _PatchNamedValue {
    let _name: StaticString
    static let never = TextInputAutocapitalization(_name: "never")
    static let words = TextInputAutocapitalization(_name: "words")
    static let sentences = TextInputAutocapitalization(_name: "sentences")
    static let characters = TextInputAutocapitalization(_name: "characters")
}

struct SubmitLabel: _PatchNamedValue {
    let _name: StaticString
    static let done = SubmitLabel(_name: "done")
    static let go = SubmitLabel(_name: "go")
    static let send = SubmitLabel(_name: "send")
    static let join = SubmitLabel(_name: "join")
    static let route = SubmitLabel(_name: "route")
    static let search = SubmitLabel(_name: "search")
    static let `return` = SubmitLabel(_name: "return")
    static let next = SubmitLabel(_name: "next")
    static let `continue` = SubmitLabel(_name: "continue")
}

protocol TextFieldStyle: _PatchNamedValue {}
struct DefaultTextFieldStyle: TextFieldStyle { init() {}; var _name: StaticString { "automatic" } }
struct PlainTextFieldStyle: TextFieldStyle { init() {}; var _name: StaticString { "plain" } }
struct RoundedBorderTextFieldStyle: TextFieldStyle { init() {}; var _name: StaticString { "roundedBorder" } }

extension TextFieldStyle where Self == DefaultTextFieldStyle { static var automatic: DefaultTextFieldStyle { DefaultTextFieldStyle() } }
extension TextFieldStyle where Self == PlainTextFieldStyle { static var plain: PlainTextFieldStyle { PlainTextFieldStyle() } }
extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
    static var roundedBorder: RoundedBorderTextFieldStyle { RoundedBorderTextFieldStyle() }
}

extension View {
    func keyboardType(_ type: UIKeyboardType) -> _PatchModified<Self> { _namedModifier("keyboardType", type._name, schema: 2) }

    /// nil is the field's default: no modifier.
    func textContentType(_ textContentType: UITextContentType?) -> _PatchModified<Self> {
        guard let textContentType else { return _modified { _ in } }
        return _namedModifier("textContentType", textContentType._name, schema: 2)
    }

    func autocorrectionDisabled(_ disable: Bool = true) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw(disable ? "{\"autocorrectionDisabled\":{\"_0\":true}}" : "{\"autocorrectionDisabled\":{\"_0\":false}}")
        }
    }

    /// nil is the field's default: no modifier.
    func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> _PatchModified<Self> {
        guard let autocapitalization else { return _modified { _ in } }
        return _namedModifier("textInputAutocapitalization", autocapitalization._name, schema: 2)
    }

    func submitLabel(_ submitLabel: SubmitLabel) -> _PatchModified<Self> { _namedModifier("submitLabel", submitLabel._name, schema: 2) }

    func textFieldStyle<S: TextFieldStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("textFieldStyle", style._name, schema: 5) }
}
