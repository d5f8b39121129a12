import ShopCore
import SwiftUI

struct ProductRow: View {
    let product: Product
    let onAdd: () -> Void

    var body: some View {
        HStack(alignment: .firstTextBaseline) {
            VStack(alignment: .leading, spacing: 4) {
                Text(product.name).font(.headline)
                StockBadge(stock: product.stock)
            }
            Spacer()
            Text(PriceFormatter.format(product.price))
                .monospacedDigit()
            Button("Add", action: onAdd)
                .buttonStyle(.borderedProminent)
                .disabled(product.stock == 0)
        }
        .padding(.vertical, 4)
    }
}

/// Only rows show stock, so the badge stays private to this file.
private struct StockBadge: View {
    let stock: Int

    var body: some View {
        Text(PriceFormatter.stockLabel(stock))
            .font(.caption)
            .foregroundStyle(stock == 0 ? .red : .secondary)
    }
}
