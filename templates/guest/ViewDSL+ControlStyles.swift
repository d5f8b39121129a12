// Guest view DSL (see ViewDSL.swift): the style modifiers of pickers, menus, toggles and progress
// views (sdk-contract §5.6.5), in the two forms SwiftUI takes (`.pickerStyle(.menu)` and
// `MenuPickerStyle()`, as ViewDSL+Styling.swift does for buttons and lists). Only the styles the
// contract's string vocabulary names are declared (a project's own style stays native); they are
// part of the v2 modifier surface, like `buttonStyle`.

protocol PickerStyle: _PatchNamedValue {}
struct DefaultPickerStyle: PickerStyle { init() {}; var _name: StaticString { "automatic" } }
struct InlinePickerStyle: PickerStyle { init() {}; var _name: StaticString { "inline" } }
struct MenuPickerStyle: PickerStyle { init() {}; var _name: StaticString { "menu" } }
struct SegmentedPickerStyle: PickerStyle { init() {}; var _name: StaticString { "segmented" } }
struct WheelPickerStyle: PickerStyle { init() {}; var _name: StaticString { "wheel" } }
struct PalettePickerStyle: PickerStyle { init() {}; var _name: StaticString { "palette" } }
struct NavigationLinkPickerStyle: PickerStyle { init() {}; var _name: StaticString { "navigationLink" } }

extension PickerStyle where Self == DefaultPickerStyle { static var automatic: DefaultPickerStyle { DefaultPickerStyle() } }
extension PickerStyle where Self == InlinePickerStyle { static var inline: InlinePickerStyle { InlinePickerStyle() } }
extension PickerStyle where Self == MenuPickerStyle { static var menu: MenuPickerStyle { MenuPickerStyle() } }
extension PickerStyle where Self == SegmentedPickerStyle { static var segmented: SegmentedPickerStyle { SegmentedPickerStyle() } }
extension PickerStyle where Self == WheelPickerStyle { static var wheel: WheelPickerStyle { WheelPickerStyle() } }
extension PickerStyle where Self == PalettePickerStyle { static var palette: PalettePickerStyle { PalettePickerStyle() } }
extension PickerStyle where Self == NavigationLinkPickerStyle {
    static var navigationLink: NavigationLinkPickerStyle { NavigationLinkPickerStyle() }
}

protocol MenuStyle: _PatchNamedValue {}
struct DefaultMenuStyle: MenuStyle { init() {}; var _name: StaticString { "automatic" } }
struct ButtonMenuStyle: MenuStyle { init() {}; var _name: StaticString { "button" } }
struct BorderlessButtonMenuStyle: MenuStyle { init() {}; var _name: StaticString { "borderlessButton" } }

extension MenuStyle where Self == DefaultMenuStyle { static var automatic: DefaultMenuStyle { DefaultMenuStyle() } }
extension MenuStyle where Self == ButtonMenuStyle { static var button: ButtonMenuStyle { ButtonMenuStyle() } }
extension MenuStyle where Self == BorderlessButtonMenuStyle {
    static var borderlessButton: BorderlessButtonMenuStyle { BorderlessButtonMenuStyle() }
}

/// `.checkbox` is macOS's: not declared.
protocol ToggleStyle: _PatchNamedValue {}
struct DefaultToggleStyle: ToggleStyle { init() {}; var _name: StaticString { "automatic" } }
struct SwitchToggleStyle: ToggleStyle { init() {}; var _name: StaticString { "switch" } }
struct ButtonToggleStyle: ToggleStyle { init() {}; var _name: StaticString { "button" } }

extension ToggleStyle where Self == DefaultToggleStyle { static var automatic: DefaultToggleStyle { DefaultToggleStyle() } }
extension ToggleStyle where Self == SwitchToggleStyle { static var `switch`: SwitchToggleStyle { SwitchToggleStyle() } }
extension ToggleStyle where Self == ButtonToggleStyle { static var button: ButtonToggleStyle { ButtonToggleStyle() } }

protocol ProgressViewStyle: _PatchNamedValue {}
struct DefaultProgressViewStyle: ProgressViewStyle { init() {}; var _name: StaticString { "automatic" } }
struct LinearProgressViewStyle: ProgressViewStyle { init() {}; var _name: StaticString { "linear" } }
struct CircularProgressViewStyle: ProgressViewStyle { init() {}; var _name: StaticString { "circular" } }

extension ProgressViewStyle where Self == DefaultProgressViewStyle {
    static var automatic: DefaultProgressViewStyle { DefaultProgressViewStyle() }
}
extension ProgressViewStyle where Self == LinearProgressViewStyle { static var linear: LinearProgressViewStyle { LinearProgressViewStyle() } }
extension ProgressViewStyle where Self == CircularProgressViewStyle {
    static var circular: CircularProgressViewStyle { CircularProgressViewStyle() }
}

extension View {
    func pickerStyle<S: PickerStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("pickerStyle", style._name, schema: 2) }
    func menuStyle<S: MenuStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("menuStyle", style._name, schema: 2) }
    func toggleStyle<S: ToggleStyle>(_ style: S) -> _PatchModified<Self> { _namedModifier("toggleStyle", style._name, schema: 2) }
    func progressViewStyle<S: ProgressViewStyle>(_ style: S) -> _PatchModified<Self> {
        _namedModifier("progressViewStyle", style._name, schema: 2)
    }
}
