// Guest view DSL (see ViewDSL.swift): the modifiers SwiftUI declares on `Text` itself, which return `Text`.

/// SwiftUI's `Text.font(_:)`, `.fontWeight(_:)`, `.foregroundColor(_:)`, `.bold()`… return a `Text`,
/// so an app's `extension Text { func style(appStyle:) -> Text { font(.title).foregroundColor(.acText) } }`
/// (ACHNBrowserUI's) compiles only with them. Each writes the modifier the `View` method of that name
/// writes (sdk-contract §5.6.5), which the Text holds and writes after its node: the tree is the
/// one `Text(…)` followed by the `View` modifiers would give. Where both apply (`Text("a").bold()`
/// in a body), Swift picks the Text's, as it does with SwiftUI's.
extension Text {
    func font(_ font: Font?) -> Text { _appending(_patchAsView(self).font(font)) }
    func fontWeight(_ weight: Font.Weight?) -> Text { _appending(_patchAsView(self).fontWeight(weight)) }
    func fontDesign(_ design: Font.Design?) -> Text { _appending(_patchAsView(self).fontDesign(design)) }
    /// `nil` keeps the environment's color: no modifier.
    func foregroundColor(_ color: Color?) -> Text {
        guard let color else { return self }
        return _appending(_patchAsView(self).foregroundColor(color))
    }
    func bold() -> Text { _appending(_patchAsView(self).bold()) }
    func bold(_ isActive: Bool) -> Text { _appending(_patchAsView(self).bold(isActive)) }
    func italic() -> Text { _appending(_patchAsView(self).italic()) }
    func italic(_ isActive: Bool) -> Text { _appending(_patchAsView(self).italic(isActive)) }
    func monospacedDigit() -> Text { _appending(_patchAsView(self).monospacedDigit()) }
    func monospaced(_ isActive: Bool = true) -> Text { _appending(_patchAsView(self).monospaced(isActive)) }
    func kerning(_ kerning: Double) -> Text { _appending(_patchAsView(self).kerning(kerning)) }
    func tracking(_ tracking: Double) -> Text { _appending(_patchAsView(self).tracking(tracking)) }

    /// This Text with the modifier `modified` holds after its own (none for an inactive `.bold(false)`).
    private func _appending<Content: View>(_ modified: _PatchModified<Content>) -> Text {
        guard !modified._modifier.isEmpty else { return self }
        var text = self
        if text._modifiers.isEmpty {
            text._modifiers = modified._modifier
        } else {
            text._modifiers.raw(",")
            text._modifiers.raw(modified._modifier)
        }
        text._modifierCount += modified._modifierCount
        text._schemaVersion = max(text._schemaVersion, modified._schemaVersion)
        return text
    }
}

/// `view` as an opaque `View`, whose members are `View`'s only: the Text methods above call the
/// `View` method of their name through it (on the Text itself they would call themselves).
private func _patchAsView(_ view: some View) -> some View { view }
