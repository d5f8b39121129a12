import ShopCore
import SwiftUI

struct CatalogScreen: View {
    @Environment(CartViewModel.self) private var cart
    @State private var category: Product.Category?

    private var visibleProducts: [Product] {
        Catalog.products.filter { category == nil || $0.category == category }
    }

    var body: some View {
        List {
            Section {
                CategoryPicker(selection: $category)
            }
            ForEach(visibleProducts) { product in
                ProductRow(product: product) { cart.add(product) }
            }
        }
        .navigationTitle("PatchShop")
    }
}

extension CatalogScreen {
    /// A segmented filter; nested because only the catalog uses it.
    struct CategoryPicker: View {
        @Binding var selection: Product.Category?

        var body: some View {
            Picker("Category", selection: $selection) {
                Text("All").tag(Product.Category?.none)
                ForEach(Product.Category.allCases, id: \.self) { category in
                    Text(category.rawValue.capitalized).tag(Product.Category?.some(category))
                }
            }
            .pickerStyle(.segmented)
        }
    }
}
