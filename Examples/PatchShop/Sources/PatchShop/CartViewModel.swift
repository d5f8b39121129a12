import Observation
import ShopCore

@MainActor
@Observable
final class CartViewModel {
    private(set) var lines: [CartLine] = []
    var promo: PromoCode?
    var region: Region = .domestic

    var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
    var subtotal: Money { Pricing.subtotal(of: lines) }
    var total: Money { Pricing.total(of: lines, promo: promo, region: region) }

    func add(_ product: Product) {
        if let index = lines.firstIndex(where: { $0.product.id == product.id }) {
            lines[index].quantity += 1
        } else {
            lines.append(CartLine(product: product, quantity: 1))
        }
    }

    func remove(_ line: CartLine) {
        lines.removeAll { $0.id == line.id }
    }

    func apply(code: String) -> Bool {
        let known = [PromoCode(code: "WELCOME10", percentOff: 10, minimumSubtotal: Money(cents: 2_000))]
        promo = known.first { $0.code == code.uppercased() }
        return promo != nil
    }
}
