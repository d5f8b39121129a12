public enum PriceFormatter {
    /// `$24.50`, `€1,390.00`: symbol, thousands separators, two decimals.
    // @patchable
    public static func format(_ money: Money) -> String {
        let sign = money.cents < 0 ? "-" : ""
        let absolute = abs(money.cents)
        let whole = String(absolute / 100)
        var grouped = ""
        for (index, digit) in whole.reversed().enumerated() {
            if index > 0, index % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let fraction = absolute % 100
        return "\(sign)\(money.currency.symbol)\(String(grouped.reversed())).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    public static func stockLabel(_ stock: Int) -> String {
        switch stock {
        case 0: return "Out of stock"
        case 1...5: return "Only \(stock) left"
        default: return "In stock"
        }
    }
}
