// Stand-in for SwiftUI on Linux: just enough of View and ViewBuilder for prepared sources to
// compile with the same type-checking as on Apple platforms, plus a renderer that prints the tree.

@MainActor
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor var body: Body { get }
}

/// Views that render themselves instead of through `body`.
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

public struct VStack<Content: View>: PrimitiveView {
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func render() -> String { "VStack(\(renderView(content)))" }
}

public struct TupleView<each Child: View>: PrimitiveView {
    let children: (repeat each Child)
    public func render() -> String {
        var parts: [String] = []
        for child in repeat each children { parts.append(renderView(child)) }
        return parts.joined(separator: ", ")
    }
}

public enum ConditionalContent<TrueContent: View, FalseContent: View>: PrimitiveView {
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

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock() -> TupleView< > { TupleView(children: ()) }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Child: View>(_ child: repeat each Child) -> TupleView<repeat each Child> {
        TupleView(children: (repeat each child))
    }
    public static func buildEither<T: View, F: View>(first: T) -> ConditionalContent<T, F> { .first(first) }
    public static func buildEither<T: View, F: View>(second: F) -> ConditionalContent<T, F> { .second(second) }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
}

@MainActor
public func renderView(_ view: some View) -> String {
    if let primitive = view as? any PrimitiveView { return primitive.render() }
    return renderView(view.body)
}
