import SwiftUI

/// Gift wrapping and greeting cards for the order: a form-like stack of controls, each a Button
/// for now (the guest view DSL's control so far), whose handlers change `@State`.
struct GiftOptionsScreen: View {
    var note = "Happy birthday!"
    @State private var wrapped = false
    @State private var cards = 0

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            HStack {
                Text("Gift wrap")
                Spacer()
                Button(wrapped ? "Wrapped" : "Not wrapped") { wrapped.toggle() }
            }
            HStack {
                Text("Greeting cards: \(cards)")
                Spacer()
                Button("Fewer") { cards = max(cards - 1, 0) }
                Button("More") { cards += 1 }
            }
            Text(note)
                .italic()
            Button("Reset") {
                wrapped = false
                cards = 0
            }
        }
        .padding()
        .navigationTitle("Gift options")
    }
}
