import ShopCore
import SwiftUI

struct CartScreen: View {
    @Environment(CartViewModel.self) private var cart
    @State private var promoText = ""
    @State private var promoRejected = false

    var body: some View {
        List {
            ForEach(cart.lines) { line in
                LabeledRow(title: "\(line.quantity) × \(line.product.name)") {
                    Text(PriceFormatter.format(line.product.price * line.quantity))
                }
                .swipeActions { Button("Remove", role: .destructive) { cart.remove(line) } }
            }
            Section("Promo code") {
                TextField("Code", text: $promoText)
                    .onSubmit { promoRejected = !cart.apply(code: promoText) }
                if promoRejected { Text("Unknown code").foregroundStyle(.red) }
            }
            Section {
                TotalsView(subtotal: cart.subtotal, total: cart.total)
                NavigationLink("Checkout") { CheckoutScreen() }
                    .disabled(cart.lines.isEmpty)
            }
        }
        .navigationTitle("Cart (\(cart.itemCount))")
    }
}

struct TotalsView: View {
    let subtotal: Money
    let total: Money

    var body: some View {
        LabeledRow(title: "Subtotal") { Text(PriceFormatter.format(subtotal)) }
        LabeledRow(title: "Total") { Text(PriceFormatter.format(total)).bold() }
    }
}
