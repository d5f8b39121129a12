/// Cart arithmetic. The functions marked `// @patchable` can be replaced over the air.
public enum Pricing {
    // @patchable
    public static func subtotal(of lines: [CartLine]) -> Money {
        lines.reduce(Money.zero) { $0 + $1.product.price * $1.quantity }
    }

    // @patchable
    public static func discount(for subtotal: Money, promo: PromoCode?) -> Money {
        guard let promo, subtotal >= promo.minimumSubtotal else { return .zero }
        let percent = min(max(promo.percentOff, 0), 100)
        return Money(cents: subtotal.cents * percent / 100, currency: subtotal.currency)
    }

    /// Shipping is free above 50.00 at home and 120.00 abroad.
    // @patchable
    public static func shippingFee(subtotal: Money, region: Region) -> Money {
        switch region {
        case .domestic: return subtotal.cents >= 5_000 ? .zero : Money(cents: 490)
        case .europe: return subtotal.cents >= 12_000 ? .zero : Money(cents: 1_290)
        case .restOfWorld: return Money(cents: 2_490)
        }
    }

    public static func total(of lines: [CartLine], promo: PromoCode?, region: Region) -> Money {
        let subtotal = subtotal(of: lines)
        let discounted = Money(cents: subtotal.cents - discount(for: subtotal, promo: promo).cents, currency: subtotal.currency)
        return discounted + shippingFee(subtotal: discounted, region: region)
    }
}
