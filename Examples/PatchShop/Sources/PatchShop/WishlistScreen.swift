import SwiftUI

/// Products the shopper is saving for. Its properties are plain values and `@State`, so a changed
/// body ships as a patch (docs/views.md, "What lowers today") and renders from the module.
struct WishlistScreen: View {
    @State private var names = ["Travel mug", "Canvas tote", "Enamel pin"]
    @State private var quantities = [1, 1, 2]

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            // A range, not the names: String is not Identifiable.
            ForEach(names.indices) { index in
                HStack {
                    WishlistRow(name: names[index], quantity: quantities[index])
                    Button("Add one") { quantities[index] += 1 }
                }
            }
            Divider()
            Text("\(quantities.reduce(0, +)) items saved")
                .font(.footnote)
            Button("Clear") {
                names = []
                quantities = []
            }
            .disabled(names.isEmpty)
        }
        .padding()
        .navigationTitle("Wish list")
    }
}

/// One saved product: a child view the patched screen lowers into its own tree.
struct WishlistRow: View {
    let name: String
    let quantity: Int

    var body: some View {
        Text(name)
        Spacer()
        Text("× \(quantity)")
            .foregroundStyle(.secondary)
    }
}
