// Guest view DSL (see ViewDSL.swift): toolbars, the modifier `toolbar{items:[IRToolbarItem]}`
// (sdk-contract §5.6.5, IRToolbarItem §5.6.2). Toolbars are navigation chrome: schema 3 (§5.5).
// Buttons in toolbar items dispatch like any other (§5.4: action ids in modifier content are wired).
//
// `.toolbar(_:for:)` (visibility), `.toolbarBackground` and `.toolbarColorScheme` have no IR case,
// so they are not declared and a body using them stays native.

/// Where a toolbar item goes: the placements IRToolbarItem names (§5.6.2). SwiftUI's `.navigation`,
/// `.secondaryAction` and the visionOS/macOS ones have no IR value and are not declared.
struct ToolbarItemPlacement: _PatchNamedValue {
    let _name: StaticString
    static let automatic = ToolbarItemPlacement(_name: "automatic")
    static let principal = ToolbarItemPlacement(_name: "principal")
    static let navigationBarLeading = ToolbarItemPlacement(_name: "navigationBarLeading")
    static let navigationBarTrailing = ToolbarItemPlacement(_name: "navigationBarTrailing")
    static let topBarLeading = ToolbarItemPlacement(_name: "topBarLeading")
    static let topBarTrailing = ToolbarItemPlacement(_name: "topBarTrailing")
    static let bottomBar = ToolbarItemPlacement(_name: "bottomBar")
    static let primaryAction = ToolbarItemPlacement(_name: "primaryAction")
    static let confirmationAction = ToolbarItemPlacement(_name: "confirmationAction")
    static let cancellationAction = ToolbarItemPlacement(_name: "cancellationAction")
    static let destructiveAction = ToolbarItemPlacement(_name: "destructiveAction")
    static let status = ToolbarItemPlacement(_name: "status")
    static let keyboard = ToolbarItemPlacement(_name: "keyboard")
}

/// What `.toolbar { }` holds when it is not views: items, item groups, their builder's
/// combinations, and a project's own `struct …: ToolbarContent` with a `body`.
protocol ToolbarContent {
    associatedtype Body: ToolbarContent
    @ToolbarContentBuilder var body: Body { get }
    /// Appends this content's IRToolbarItem objects to `items`.
    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems)
}

extension ToolbarContent {
    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems) {
        body._patchWriteItems(into: &emission, &items)
    }
}

/// Toolbar content the DSL writes itself rather than through a body.
protocol _PatchPrimitiveToolbarContent: ToolbarContent where Body == Never {}

extension _PatchPrimitiveToolbarContent {
    var body: Never { fatalError("primitive toolbar content has no body") }
}

extension Never: ToolbarContent {
    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems) {}
}

/// The IRToolbarItem objects of a toolbar, comma-separated, as they are written.
struct _PatchToolbarItems {
    var ir = _PatchIR()
    var isEmpty = true

    /// One IRToolbarItem, `{"placement":"…","content":[…]}`.
    mutating func append<Content: View>(_ placement: ToolbarItemPlacement, _ content: Content, in emission: inout _PatchEmission) {
        if !isEmpty { ir.raw(",") }
        isEmpty = false
        ir.raw("{\"placement\":\"")
        ir.raw(placement._name)
        ir.raw("\",\"content\":")
        emission.writeChildren(of: content, into: &ir)
        ir.raw("}")
    }
}

/// `ToolbarItem(placement:) { view }`. `ID` is SwiftUI's customization id, which only
/// `toolbar(id:)` uses (not in the IR): the plain form's `ID` is `()`.
struct ToolbarItem<ID, Content: View>: _PatchPrimitiveToolbarContent {
    let _placement: ToolbarItemPlacement
    let _content: Content

    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems) {
        items.append(_placement, _content, in: &emission)
    }
}

extension ToolbarItem where ID == () {
    init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        _placement = placement
        _content = content()
    }
}

/// `ToolbarItemGroup(placement:) { views }`: one item holding every view.
struct ToolbarItemGroup<Content: View>: _PatchPrimitiveToolbarContent {
    let _placement: ToolbarItemPlacement
    let _content: Content

    init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        _placement = placement
        _content = content()
    }

    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems) {
        items.append(_placement, _content, in: &emission)
    }
}

/// Two builder entries in order; longer blocks nest them (`buildPartialBlock`).
struct _PatchToolbarPair<First: ToolbarContent, Second: ToolbarContent>: _PatchPrimitiveToolbarContent {
    let _first: First
    let _second: Second

    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems) {
        _first._patchWriteItems(into: &emission, &items)
        _second._patchWriteItems(into: &emission, &items)
    }
}

/// The branch an `if`/`else` or `switch` took, or nothing for an `if` that was false.
enum _PatchToolbarConditional<TrueContent: ToolbarContent, FalseContent: ToolbarContent>: _PatchPrimitiveToolbarContent {
    case first(TrueContent)
    case second(FalseContent)
    case none

    func _patchWriteItems(into emission: inout _PatchEmission, _ items: inout _PatchToolbarItems) {
        switch self {
        case .first(let content): content._patchWriteItems(into: &emission, &items)
        case .second(let content): content._patchWriteItems(into: &emission, &items)
        case .none: break
        }
    }
}

@resultBuilder
enum ToolbarContentBuilder {
    static func buildPartialBlock<Content: ToolbarContent>(first: Content) -> Content { first }
    static func buildPartialBlock<First: ToolbarContent, Next: ToolbarContent>(accumulated: First, next: Next) -> _PatchToolbarPair<First, Next> {
        _PatchToolbarPair(_first: accumulated, _second: next)
    }
    static func buildEither<T: ToolbarContent, F: ToolbarContent>(first: T) -> _PatchToolbarConditional<T, F> { .first(first) }
    static func buildEither<T: ToolbarContent, F: ToolbarContent>(second: F) -> _PatchToolbarConditional<T, F> { .second(second) }
    static func buildOptional<Content: ToolbarContent>(_ content: Content?) -> _PatchToolbarConditional<Content, Never> {
        if let content { return .first(content) }
        return .none
    }
    static func buildLimitedAvailability<Content: ToolbarContent>(_ content: Content) -> Content { content }
}

extension View {
    /// `{"toolbar":{"items":[…]}}` with the items `write` appends.
    func _toolbar(_ write: @escaping (inout _PatchEmission, inout _PatchToolbarItems) -> Void) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 3) { emission, ir in
            var items = _PatchToolbarItems()
            write(&emission, &items)
            ir.raw("{\"toolbar\":{\"items\":[")
            ir.raw(items.ir.bytes)
            ir.raw("]}}")
        }
    }

    /// `.toolbar { ToolbarItem(placement:) { … }; ToolbarItemGroup { … } }`.
    func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> _PatchEventModified<Self> {
        let content = content()
        return _toolbar { emission, items in content._patchWriteItems(into: &emission, &items) }
    }

    /// `.toolbar { Button… }`: views without a placement are one `automatic` item, as SwiftUI
    /// places them.
    func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> _PatchEventModified<Self> {
        let content = content()
        return _toolbar { emission, items in items.append(.automatic, content, in: &emission) }
    }

    /// The deprecated bar items are the toolbar items SwiftUI's documentation replaces them with:
    /// `navigationBarLeading` and `navigationBarTrailing` placements.
    func navigationBarItems<L: View, T: View>(leading: L, trailing: T) -> _PatchEventModified<Self> {
        toolbar {
            ToolbarItem(placement: .navigationBarLeading) { leading }
            ToolbarItem(placement: .navigationBarTrailing) { trailing }
        }
    }

    func navigationBarItems<L: View>(leading: L) -> _PatchEventModified<Self> {
        toolbar { ToolbarItem(placement: .navigationBarLeading) { leading } }
    }

    func navigationBarItems<T: View>(trailing: T) -> _PatchEventModified<Self> {
        toolbar { ToolbarItem(placement: .navigationBarTrailing) { trailing } }
    }
}
