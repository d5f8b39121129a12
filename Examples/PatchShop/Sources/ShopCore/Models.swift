public struct Product: Codable, Hashable, Identifiable, Sendable {
    public var id: String
    public var name: String
    public var price: Money
    public var category: Category
    public var stock: Int

    public enum Category: String, Codable, Sendable, CaseIterable {
        case coffee, tea, equipment
    }

    public init(id: String, name: String, price: Money, category: Category, stock: Int) {
        self.id = id
        self.name = name
        self.price = price
        self.category = category
        self.stock = stock
    }
}

public struct CartLine: Codable, Hashable, Identifiable, Sendable {
    public var product: Product
    public var quantity: Int
    public var id: String { product.id }

    public init(product: Product, quantity: Int) {
        self.product = product
        self.quantity = quantity
    }
}

public enum Region: String, Codable, Sendable, CaseIterable {
    case domestic, europe, restOfWorld
}

public struct PromoCode: Codable, Hashable, Sendable {
    public var code: String
    /// Percent off the subtotal, 0...100.
    public var percentOff: Int
    public var minimumSubtotal: Money

    public init(code: String, percentOff: Int, minimumSubtotal: Money) {
        self.code = code
        self.percentOff = percentOff
        self.minimumSubtotal = minimumSubtotal
    }
}

public enum Catalog {
    public static let products: [Product] = [
        Product(id: "espresso-blend", name: "Espresso Blend 1kg", price: Money(cents: 2_450), category: .coffee, stock: 40),
        Product(id: "ethiopia-yirga", name: "Ethiopia Yirgacheffe 250g", price: Money(cents: 1_390), category: .coffee, stock: 12),
        Product(id: "sencha", name: "Sencha Green Tea", price: Money(cents: 990), category: .tea, stock: 0),
        Product(id: "hand-grinder", name: "Hand Grinder", price: Money(cents: 8_900), category: .equipment, stock: 5),
    ]
}
