/// A wire type of the SwiftUI view IR (sdk-contract §5.6.1-§5.6.3), as the SDK's `Codable` decoder
/// reads it.
indirect enum IRType: Sendable {
    case string, bool, int, double
    /// A `ViewNode`: `{"kind": NodeKind, "modifiers": [Modifier]}`.
    case node
    /// May be `null` or absent.
    case optional(IRType)
    case array(IRType)
    /// A struct: an object whose non-optional keys are required; unknown keys are ignored.
    case structure(String)
    /// An enum with payloads: an object with exactly one key, the case name, whose value is an object
    /// of the payload (`_N` for unlabelled parameters).
    case choice(String)
    /// A `String` raw-value enum: a bare string out of a fixed set.
    case rawEnum(String)

    /// Whether a value of this type can hold view nodes (the outline renders those as sub-trees).
    func holdsNodes(in schema: ViewSchema) -> Bool {
        var visited: Set<String> = []
        return holdsNodes(in: schema, visited: &visited)
    }

    private func holdsNodes(in schema: ViewSchema, visited: inout Set<String>) -> Bool {
        switch self {
        case .string, .bool, .int, .double, .rawEnum: return false
        case .node: return true
        case let .optional(wrapped), let .array(wrapped): return wrapped.holdsNodes(in: schema, visited: &visited)
        case let .structure(name):
            guard visited.insert(name).inserted else { return false }
            return schema.structs[name, default: []].contains { $0.type.holdsNodes(in: schema, visited: &visited) }
        case let .choice(name):
            guard visited.insert(name).inserted else { return false }
            return schema.choices[name, default: [:]].values.joined().contains { $0.type.holdsNodes(in: schema, visited: &visited) }
        }
    }
}

/// One key of a struct or of an enum case's payload.
struct IRField: Sendable {
    let key: String
    let type: IRType
}

/// The vocabulary of IR schema 6 (`PatchViewIRSchema.version`): every node kind, modifier, struct
/// and enum the SDK's decoder knows, with the keys and types it requires.
struct ViewSchema: Sendable {
    /// The newest IR schema the SDK accepts (sdk-contract §5.5); emissions may say 1...6.
    static let newestVersion: Int64 = 6
    static let oldestVersion: Int64 = 1

    let structs: [String: [IRField]]
    /// Enum name -> case name -> payload fields. `NodeKind` and `Modifier` are two of them.
    let choices: [String: [String: [IRField]]]
    let rawEnums: [String: Set<String>]

    static let current = ViewSchema()

    private init() {
        let rawEnums = Self.rawEnumTable.mapValues { Set($0.split(separator: " ").map(String.init)) }
        let structNames = Set(Self.structTable.map(\.0))
        var choiceTables = Self.choiceTable
        choiceTables["NodeKind"] = Self.nodeKinds
        choiceTables["Modifier"] = Self.modifiers
        let choiceNames = Set(choiceTables.keys)
        func parse(_ spec: String) -> [IRField] {
            spec.split(separator: " ").map { item in
                let parts = item.split(separator: ":", maxSplits: 1)
                precondition(parts.count == 2, "ViewSchema: malformed field \(item)")
                return IRField(key: String(parts[0]), type: type(String(parts[1])))
            }
        }
        func type(_ text: String) -> IRType {
            if text.hasSuffix("?") { return .optional(type(String(text.dropLast()))) }
            if text.hasPrefix("[") { return .array(type(String(text.dropFirst().dropLast()))) }
            switch text {
            case "String": return .string
            case "Bool": return .bool
            case "Int": return .int
            case "Double": return .double
            case "ViewNode": return .node
            case _ where structNames.contains(text): return .structure(text)
            case _ where choiceNames.contains(text): return .choice(text)
            case _ where rawEnums[text] != nil: return .rawEnum(text)
            default: preconditionFailure("ViewSchema: unknown type \(text)")
            }
        }
        structs = Dictionary(uniqueKeysWithValues: Self.structTable.map { ($0.0, parse($0.1)) })
        choices = choiceTables.mapValues { cases in Dictionary(uniqueKeysWithValues: cases.map { ($0.0, parse($0.1)) }) }
        self.rawEnums = rawEnums
    }

    // MARK: Tables (sdk-contract §5.6.2, §5.6.3, plus the host-side documents of §5.3 and §5.4)

    private static let structTable: [(String, String)] = [
        ("ViewNode", "kind:NodeKind modifiers:[Modifier]"),
        ("EventID", "id:String"),
        ("IRColor", "r:Double g:Double b:Double a:Double"),
        ("IRFont", "style:IRFont.TextStyle? size:Double? weight:IRFont.Weight? design:IRFont.Design?"),
        ("IREdgeInsets", "top:Double leading:Double bottom:Double trailing:Double"),
        ("IRGradient", "stops:[IRGradientStop]"),
        ("IRGradientStop", "color:ColorRef location:Double"),
        // cap/join/curve/placement are strings in the contract, not raw-value enums: any string decodes.
        ("IRStrokeStyle", "lineWidth:Double cap:String join:String miterLimit:Double dash:[Double] dashPhase:Double"),
        ("IRShadowStyle", "color:ColorRef? radius:Double x:Double y:Double"),
        ("IRAnimation", "curve:String duration:Double? response:Double? dampingFraction:Double? delay:Double? speed:Double? repeatCount:Int? autoreverses:Bool?"),
        ("IRGaugeData", "value:Double min:Double max:Double"),
        ("IRGridItem", "size:IRGridItemSize spacing:Double? alignment:IRAlignment?"),
        ("IRTab", "tag:String tabItem:[ViewNode] content:[ViewNode]"),
        ("IRPickerOption", "tag:IRValue label:[ViewNode]"),
        ("IRNavDestination", "typeTag:String body:[ViewNode]"),
        ("IRToolbarItem", "placement:String content:[ViewNode]"),
        ("Coverage", "totalNodes:Int opaqueNodes:Int totalModifiers:Int opaqueModifiers:Int"),
        ("BodyEmission", "root:ViewNode coverage:Coverage? schemaVersion:Int?"),
        ("DispatchResult", "state:String tree:ViewNode coverage:Coverage? schemaVersion:Int?"),
        ("ViewManifest", "schemaVersion:Int views:[ViewManifestEntry]"),
        ("ViewManifestEntry", "type:String export:String dispatch:String? thunkSafe:Bool"),
    ]

    private static let choiceTable: [String: [(String, String)]] = [
        "ColorRef": [("named", "_0:String"), ("rgba", "_0:IRColor"), ("hostToken", "_0:String")],
        "IRValue": [("none", ""), ("bool", "_0:Bool"), ("double", "_0:Double"), ("int", "_0:Int"), ("string", "_0:String"),
                    ("point", "_0:Double _1:Double"), ("array", "_0:[IRValue]")],
        "IRLength": [("points", "_0:Double"), ("infinity", "")],
        "IRUnitPoint": ["center", "top", "bottom", "leading", "trailing", "topLeading", "topTrailing", "bottomLeading",
                        "bottomTrailing"].map { ($0, "") } + [("xy", "x:Double y:Double")],
        "ShapeKind": ["rectangle", "circle", "ellipse", "capsule", "containerRelative"].map { ($0, "") } + [
            ("roundedRectangle", "cornerRadius:Double"),
            ("unevenRoundedRectangle", "topLeading:Double topTrailing:Double bottomLeading:Double bottomTrailing:Double style:IRRoundedCornerStyle"),
        ],
        "IRShapeStyle": [
            ("color", "_0:ColorRef"),
            ("linearGradient", "_0:IRGradient startPoint:IRUnitPoint endPoint:IRUnitPoint"),
            ("radialGradient", "_0:IRGradient center:IRUnitPoint startRadius:Double endRadius:Double"),
            ("angularGradient", "_0:IRGradient center:IRUnitPoint startAngle:Double endAngle:Double"),
            ("material", "_0:IRMaterial"), ("hierarchical", "_0:Int"), ("semantic", "_0:String"), ("shadow", "_0:IRShadowStyle"),
        ],
        "IRTransition": ["identity", "opacity", "slide", "blurReplace"].map { ($0, "") } + [
            ("scale", "scale:Double anchor:IRUnitPoint"), ("move", "edge:String"), ("push", "edge:String"),
            ("offset", "x:Double y:Double"), ("combined", "_0:[IRTransition]"), ("asymmetric", "insertion:IRTransition removal:IRTransition"),
        ],
        "IRGridItemSize": [("fixed", "_0:Double"), ("flexible", "min:Double max:IRLength"), ("adaptive", "min:Double max:IRLength")],
        "IRPathCommand": [
            ("move", "x:Double y:Double"), ("line", "x:Double y:Double"), ("quad", "cpx:Double cpy:Double x:Double y:Double"),
            ("curve", "cp1x:Double cp1y:Double cp2x:Double cp2y:Double x:Double y:Double"), ("closeSubpath", ""),
            ("addRect", "x:Double y:Double width:Double height:Double"),
            ("addRoundedRect", "x:Double y:Double width:Double height:Double cornerRadius:Double"),
        ],
        "IRDrawOp": [
            ("fillPath", "commands:[IRPathCommand] style:IRShapeStyle"),
            ("strokePath", "commands:[IRPathCommand] style:IRShapeStyle lineWidth:Double"),
            ("drawText", "text:[ViewNode] x:Double y:Double anchor:String"),
        ],
    ]

    private static let rawEnumTable: [String: String] = [
        "IRFont.Weight": "ultraLight thin light regular medium semibold bold heavy black",
        "IRFont.Design": "default serif rounded monospaced",
        "IRFont.TextStyle": "largeTitle title title2 title3 headline subheadline body callout footnote caption caption2",
        "IRAlignment": "leading center trailing top bottom topLeading topTrailing bottomLeading bottomTrailing",
        "IRHorizontalAlignment": "leading center trailing",
        "IRVerticalAlignment": "top center bottom firstTextBaseline lastTextBaseline",
        "IRTextAlignment": "leading center trailing",
        "IRScrollAxis": "vertical horizontal",
        "IRMaterial": "ultraThin thin regular thick bar",
        "IRContentMode": "fit fill",
        "IRBlendMode": "normal multiply screen overlay darken lighten colorDodge colorBurn softLight hardLight difference exclusion hue saturation color luminosity sourceAtop destinationOver destinationOut plusDarker plusLighter",
        "IRDateTextStyle": "date time relative offset timer",
        "IRAxisSet": "horizontal vertical both",
        "IRTabViewStyle": "automatic page",
        "IRButtonRole": "destructive cancel",
        "IRSelectionKind": "int string",
        "IRButtonStyle": "automatic bordered borderedProminent borderless plain",
        "IRListStyle": "automatic plain grouped insetGrouped inset sidebar bordered",
        "IRRoundedCornerStyle": "circular continuous",
    ]
}
