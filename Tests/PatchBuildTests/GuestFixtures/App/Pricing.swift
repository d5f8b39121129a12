import Foundation

enum Category: String {
    case food
    case drink
    case merchandise
}

struct LineItem: Equatable {
    var name: String
    var cents: Int
    var quantity: Int = 1
    var category: Category?

    /// Only the native app shows this; the guest never needs it.
    var formatted: String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        return formatter.string(from: NSNumber(value: Double(cents) / 100)) ?? ""
    }
}

enum Discount {
    case none
    case percent(Int)
    case fixed(cents: Int, reason: String?)
}

struct PriceCalculator {
    static let taxBasisPoints = 800

    // @patchable
    // @probe {"items":[{"name":"Tea","cents":250,"quantity":2}],"discount":{"none":{}}} -> {"value":540}
    static func total(items: [LineItem], discount: Discount) -> Int {
        let subtotal = items.reduce(0) { $0 + lineTotal($1) }
        let discounted = max(0, subtotal - discountAmount(discount, on: subtotal))
        return discounted + discounted * taxBasisPoints / 10_000
    }

    static func lineTotal(_ item: LineItem) -> Int {
        let multiplier = item.category == .merchandise ? 2 : 1
        return item.cents * item.quantity * multiplier
    }

    static func discountAmount(_ discount: Discount, on subtotal: Int) -> Int {
        switch discount {
        case .none: return 0
        case .percent(let percent): return subtotal * percent / 100
        case .fixed(let cents, _): return cents
        }
    }

    /// Uses Foundation the guest Foundation layer does not have: must be reported, not compiled.
    static func receiptDate(for items: [LineItem]) -> String {
        let formatter = ByteCountFormatter()
        formatter.countStyle = .file
        return formatter.string(fromByteCount: Int64(items.count))
    }
}
