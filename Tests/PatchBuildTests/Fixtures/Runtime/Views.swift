import SwiftUI

struct Greeting: View {
    let name: String

    var body: some View {
        Text("Hello, \(name)")
    }
}

struct Outer {
    struct Inner: View {
        var body: some View {
            VStack {
                Text("inner")
                Text("second line")
            }
        }
    }
}

struct Box<Value> {
    let value: Value
}

extension Box: View {
    var body: some View {
        Text("box of \(value)")
    }
}

private struct Secret: View {
    let shown: Bool

    var body: some View {
        get {
            if shown {
                Text("secret")
            }
        }
    }
}

/// Private views can only be reached from their own file.
@MainActor func renderSecret() -> String { renderView(Secret(shown: true)) }

/// A modifier: its `body(content:)` routes with `content` as the module's `op_content` slot.
struct Bordered: ViewModifier {
    let width: Int

    func body(content: Content) -> some View {
        VStack {
            content
            Text("border \(width)")
        }
    }
}
