/// An amount of money in minor units (cents), so sums never pick up floating-point error.
public struct Money: Codable, Hashable, Comparable, Sendable {
    public var cents: Int
    public var currency: Currency

    public init(cents: Int, currency: Currency = .usd) {
        self.cents = cents
        self.currency = currency
    }

    public static let zero = Money(cents: 0)

    public static func + (lhs: Money, rhs: Money) -> Money {
        Money(cents: lhs.cents + rhs.cents, currency: lhs.currency)
    }

    public static func * (lhs: Money, quantity: Int) -> Money {
        Money(cents: lhs.cents * quantity, currency: lhs.currency)
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }
}

public enum Currency: String, Codable, Sendable, CaseIterable {
    case usd = "USD"
    case eur = "EUR"
    case gbp = "GBP"

    public var symbol: String {
        switch self {
        case .usd: return "$"
        case .eur: return "€"
        case .gbp: return "£"
        }
    }
}
