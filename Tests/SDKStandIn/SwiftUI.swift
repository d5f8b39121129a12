// Stand-in for SwiftUI on Linux: View, the ViewBuilder functions generated thunks and simple
// fixture bodies need, AnyView, Text, VStack, Color, Image, Font, a few modifiers, State, and App/Scene for
// launch code, with the same main-actor isolation as Apple's SDK — plus `PrimitiveView` and
// `renderView`, which are not SwiftUI: they let a runtime test print the tree a body produced.

import Foundation

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor var body: Body { get }
}

/// Not SwiftUI: views that render themselves instead of through `body`.
@MainActor
public protocol PrimitiveView: View where Body == Never {
    func render() -> String
}

extension Never: View {
    public var body: Never { fatalError("Never has no body") }
}

extension PrimitiveView {
    public var body: Never { fatalError("primitive views have no body") }
}

public struct Text: PrimitiveView {
    let content: String
    public init(_ content: String) { self.content = content }
    public func render() -> String { content }
}

public struct EmptyView {
    public init() {}
}

extension EmptyView: PrimitiveView {
    public func render() -> String { "" }
}

public struct VStack<Content: View>: PrimitiveView {
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func render() -> String { "VStack(\(renderView(content)))" }
}

public struct Button<Label: View> {
    let action: @MainActor () -> Void
    let label: @MainActor () -> Label
}

extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        self.action = action
        let title = String(title)
        label = { Text(title) }
    }
}

extension Button: PrimitiveView {
    public func render() -> String { "Button(\(renderView(label())))" }
}

/// Stands for UIKit's `UIViewRepresentable` (no UIKit here): a view the host draws natively, which
/// a thunk passes as a slot.
public protocol UIViewRepresentable: PrimitiveView {}

extension UIViewRepresentable {
    public func render() -> String { "\(Self.self)" }
}

// Conformances in extensions, so the types (and their initializers, which builders call from any
// context) are not main-actor isolated; only rendering is.
public struct AnyView {
    let rendering: @MainActor () -> String
    public init<V: View>(_ view: V) { rendering = { renderView(view) } }
    public init<V: View>(erasing view: V) { self.init(view) }
}

extension AnyView: PrimitiveView {
    public func render() -> String { rendering() }
}

public struct Color: PrimitiveView, Hashable, Sendable {
    let name: String
    public init(_ name: String) { self.name = name }
    /// A color of an asset catalog (`Bundle.module`'s, in a package of the app's design).
    public init(_ name: String, bundle: Bundle?) { self.name = name }
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) { name = "rgba(\(red),\(green),\(blue),\(opacity))" }
    public static let clear = Color("clear")
    public static let primary = Color("primary"), secondary = Color("secondary"), accentColor = Color("accent")
    public static let red = Color("red"), green = Color("green"), blue = Color("blue"), black = Color("black"), white = Color("white")
    public func render() -> String { "Color(\(name))" }
}

public struct Image: PrimitiveView {
    let name: String
    public init(_ name: String) { self.name = name }
    /// A color of an asset catalog (`Bundle.module`'s, in a package of the app's design).
    public init(_ name: String, bundle: Bundle?) { self.name = name }
    public init(systemName: String) { name = "system:" + systemName }
    public func resizable() -> Image { self }
    public func render() -> String { "Image(\(name))" }
}

public struct Font: Hashable, Sendable {
    let name: String
    public static let body = Font(name: "body"), title = Font(name: "title"), headline = Font(name: "headline"), caption = Font(name: "caption")
    public static func system(size: Double) -> Font { Font(name: "system \(size)") }
}

public struct TupleView<each Child: View> {
    let children: (repeat each Child)
}

extension TupleView: PrimitiveView {
    public func render() -> String {
        var parts: [String] = []
        for child in repeat each children { parts.append(renderView(child)) }
        return parts.joined(separator: ", ")
    }
}

public enum _ConditionalContent<TrueContent: View, FalseContent: View>: PrimitiveView {
    case first(TrueContent), second(FalseContent)
    public func render() -> String {
        switch self {
        case let .first(view): return renderView(view)
        case let .second(view): return renderView(view)
        }
    }
}

extension Optional: View where Wrapped: View {}
extension Optional: PrimitiveView where Wrapped: View {
    public func render() -> String { map(renderView) ?? "" }
}

/// A modifier applied to a view: renders the view (the stand-in does not draw attributes).
public struct ModifiedView<Content: View>: PrimitiveView {
    let content: Content
    public func render() -> String { renderView(content) }
}

extension View {
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedView<Self> { ModifiedView(content: self) }
    public func sheet<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
                                     @ViewBuilder content: @escaping () -> Content) -> ModifiedView<Self> { ModifiedView(content: self) }
    public func font(_ font: Font?) -> ModifiedView<Self> { ModifiedView(content: self) }
    public func foregroundColor(_ color: Color?) -> ModifiedView<Self> { ModifiedView(content: self) }
    public func foregroundStyle(_ color: Color) -> ModifiedView<Self> { ModifiedView(content: self) }
    public func padding(_ length: Double? = nil) -> ModifiedView<Self> { ModifiedView(content: self) }
    public func frame(width: Double? = nil, height: Double? = nil) -> ModifiedView<Self> { ModifiedView(content: self) }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Child: View>(_ child: repeat each Child) -> TupleView<repeat each Child> {
        TupleView(children: (repeat each child))
    }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { .first(first) }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { .second(second) }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

@propertyWrapper
public struct State<Value> {
    private final class Box { var value: Value; init(_ value: Value) { self.value = value } }
    private let box: Box
    public init(wrappedValue: Value) { box = Box(wrappedValue) }
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }
}

/// As SwiftUI declares it: `Content` stands for the view the modifier is applied to.
@MainActor @preconcurrency
public protocol ViewModifier {
    associatedtype Body: View
    @ViewBuilder @MainActor func body(content: Self.Content) -> Self.Body
    typealias Content = _ViewModifier_Content<Self>
}

public struct _ViewModifier_Content<Modifier: ViewModifier> {
    let rendering: @MainActor () -> String
}

extension _ViewModifier_Content: View {}
extension _ViewModifier_Content: PrimitiveView {
    public func render() -> String { rendering() }
}

public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {}
extension ModifiedContent: PrimitiveView where Content: View, Modifier: ViewModifier {
    public func render() -> String {
        let content = self.content
        return renderView(modifier.body(content: _ViewModifier_Content(rendering: { renderView(content) })))
    }
}

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent(content: self, modifier: modifier) }
}

/// Not SwiftUI: the text a view renders to.
@MainActor
public func renderView(_ view: some View) -> String {
    if let primitive = view as? any PrimitiveView { return primitive.render() }
    return renderView(view.body)
}

// App structure, for launch-code fixtures (`@main struct MyApp: App { init() { Patch.configure(...) } ... }`).

@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor var body: Body { get }
}

extension Never: Scene {}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("WindowGroup has no body") }
}

@resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor var body: Body { get }
    init()
}

extension App {
    public static func main() {}
}

// Host values views read that the inputs do not carry (tokens, docs/views.md "Tokens and slots"):
// `ObservableObject`/`Published` (Combine, which SwiftUI re-exports), `ObservedObject`, `Environment`.

public protocol ObservableObject: AnyObject {}

@propertyWrapper
public struct Published<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject> {
    public var wrappedValue: ObjectType
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }

    /// `$model.title`: a binding into the observed object.
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let object = self.object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }
}

@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    private let read: () -> Value
    private let write: (Value) -> Void
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        read = get
        write = set
    }
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let binding = self
        return Binding<Subject>(get: { binding.wrappedValue[keyPath: keyPath] }, set: { binding.wrappedValue[keyPath: keyPath] = $0 })
    }
}

/// `@Environment(\.dismiss)`: an action, which only the host can run (a slot's).
@MainActor @preconcurrency
public struct DismissAction {
    public func callAsFunction() {}
}

extension EnvironmentValues {
    public var dismiss: DismissAction { DismissAction() }
}

public enum ColorScheme: Hashable, Sendable {
    case light, dark
}

public struct EnvironmentValues {
    public var colorScheme: ColorScheme = .light
    public init() {}
}

@propertyWrapper
public struct Environment<Value> {
    let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}
