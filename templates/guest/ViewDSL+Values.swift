// Guest view DSL (see ViewDSL.swift): layout values, colors and fonts.

// MARK: - Layout values

struct HorizontalAlignment {
    let _name: StaticString
    static let leading = HorizontalAlignment(_name: "leading")
    static let center = HorizontalAlignment(_name: "center")
    static let trailing = HorizontalAlignment(_name: "trailing")
}

struct VerticalAlignment {
    let _name: StaticString
    static let top = VerticalAlignment(_name: "top")
    static let center = VerticalAlignment(_name: "center")
    static let bottom = VerticalAlignment(_name: "bottom")
    static let firstTextBaseline = VerticalAlignment(_name: "firstTextBaseline")
    static let lastTextBaseline = VerticalAlignment(_name: "lastTextBaseline")
}

struct Alignment {
    let _name: StaticString
    static let leading = Alignment(_name: "leading")
    static let center = Alignment(_name: "center")
    static let trailing = Alignment(_name: "trailing")
    static let top = Alignment(_name: "top")
    static let bottom = Alignment(_name: "bottom")
    static let topLeading = Alignment(_name: "topLeading")
    static let topTrailing = Alignment(_name: "topTrailing")
    static let bottomLeading = Alignment(_name: "bottomLeading")
    static let bottomTrailing = Alignment(_name: "bottomTrailing")
}

enum TextAlignment {
    case leading, center, trailing
}

/// An edge (`.move(edge:)`, ViewDSL+Animation.swift) and, as `Edge.Set`, edges.
enum Edge {
    case top, leading, bottom, trailing

    var _name: StaticString {
        switch self {
        case .top: "top"
        case .leading: "leading"
        case .bottom: "bottom"
        case .trailing: "trailing"
        }
    }

    struct Set: OptionSet {
        let rawValue: Int
        static let top = Set(rawValue: 1)
        static let leading = Set(rawValue: 2)
        static let bottom = Set(rawValue: 4)
        static let trailing = Set(rawValue: 8)
        static let all: Set = [.top, .leading, .bottom, .trailing]
        static let horizontal: Set = [.leading, .trailing]
        static let vertical: Set = [.top, .bottom]

        /// The IR's names for the set, each to write as a modifier of its own: a modifier names one
        /// edge or one of `all`/`horizontal`/`vertical`, so another set (`[.top, .leading]`) is
        /// written edge by edge, which comes to the same.
        func _patchNames(_ each: (StaticString) -> Void) {
            switch self {
            case .all: each("all")
            case .horizontal: each("horizontal")
            case .vertical: each("vertical")
            default:
                if contains(.top) { each("top") }
                if contains(.leading) { each("leading") }
                if contains(.bottom) { each("bottom") }
                if contains(.trailing) { each("trailing") }
            }
        }
    }
}

/// A string-valued enum case of the IR, or null.
func _patchName(_ name: StaticString?, into ir: inout _PatchIR) {
    guard let name else { ir.raw("null"); return }
    ir.raw("\"")
    ir.raw(name)
    ir.raw("\"")
}

// MARK: - Colors and fonts

struct Color: _PatchPrimitiveView {
    /// The ColorRef JSON.
    let _ref: [UInt8]

    private init(named name: StaticString) {
        var ir = _PatchIR()
        ir.raw("{\"named\":{\"_0\":\"")
        ir.raw(name)
        ir.raw("\"}}")
        _ref = ir.bytes
    }

    init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        var ir = _PatchIR()
        ir.raw("{\"rgba\":{\"_0\":{\"r\":")
        ir.number(red)
        ir.raw(",\"g\":")
        ir.number(green)
        ir.raw(",\"b\":")
        ir.number(blue)
        ir.raw(",\"a\":")
        ir.number(opacity)
        ir.raw("}}}")
        _ref = ir.bytes
    }

    init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }

    static let primary = Color(named: "primary")
    static let secondary = Color(named: "secondary")
    static let accentColor = Color(named: "accentColor")
    static let red = Color(named: "red")
    static let orange = Color(named: "orange")
    static let yellow = Color(named: "yellow")
    static let green = Color(named: "green")
    static let mint = Color(named: "mint")
    static let teal = Color(named: "teal")
    static let cyan = Color(named: "cyan")
    static let blue = Color(named: "blue")
    static let indigo = Color(named: "indigo")
    static let purple = Color(named: "purple")
    static let pink = Color(named: "pink")
    static let brown = Color(named: "brown")
    static let white = Color(named: "white")
    static let gray = Color(named: "gray")
    static let black = Color(named: "black")
    static let clear = Color(named: "clear")

    func _patchEmit(into emission: inout _PatchEmission) {
        var ir = _PatchIR()
        ir.raw("{\"color\":{\"_0\":")
        ir.raw(_ref)
        ir.raw("}}")
        emission.append(ir)
    }
}

struct Font {
    enum Weight {
        case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
        var _name: StaticString {
            switch self {
            case .ultraLight: "ultraLight"
            case .thin: "thin"
            case .light: "light"
            case .regular: "regular"
            case .medium: "medium"
            case .semibold: "semibold"
            case .bold: "bold"
            case .heavy: "heavy"
            case .black: "black"
            }
        }
    }

    enum Design {
        case `default`, serif, rounded, monospaced
        var _name: StaticString {
            switch self {
            case .default: "default"
            case .serif: "serif"
            case .rounded: "rounded"
            case .monospaced: "monospaced"
            }
        }
    }

    let _style: StaticString?
    let _size: Double?
    let _weight: Weight?
    let _design: Design?
    /// The id of a font the thunk's token table supplies (ViewDSL+Tokens.swift): the `.font`
    /// modifier then writes `fontToken` instead of an IRFont.
    var _token: StaticString? = nil
    /// `Font.monospacedDigit()`: the IRFont has no field for it, so `.font(_:)` follows the font with
    /// the `monospacedDigit` modifier, which SwiftUI applies to the text the same way.
    var _monospacedDigit = false

    private static func style(_ name: StaticString) -> Font { Font(_style: name, _size: nil, _weight: nil, _design: nil) }

    static let largeTitle = style("largeTitle")
    static let title = style("title")
    static let title2 = style("title2")
    static let title3 = style("title3")
    static let headline = style("headline")
    static let subheadline = style("subheadline")
    static let body = style("body")
    static let callout = style("callout")
    static let footnote = style("footnote")
    static let caption = style("caption")
    static let caption2 = style("caption2")

    static func system(size: Double, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(_style: nil, _size: size, _weight: weight, _design: design)
    }

    func weight(_ weight: Weight) -> Font {
        Font(_style: _style, _size: _size, _weight: weight, _design: _design, _token: _token, _monospacedDigit: _monospacedDigit)
    }
    func bold() -> Font { weight(.bold) }
    func monospacedDigit() -> Font {
        var font = self
        font._monospacedDigit = true
        return font
    }

    /// The IRFont JSON.
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"style\":")
        _patchName(_style, into: &ir)
        ir.raw(",\"size\":")
        ir.optionalNumber(_size)
        ir.raw(",\"weight\":")
        _patchName(_weight?._name, into: &ir)
        ir.raw(",\"design\":")
        _patchName(_design?._name, into: &ir)
        ir.raw("}")
    }
}

