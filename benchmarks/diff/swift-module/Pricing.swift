// Benchmark corpus: a small Embedded Swift guest module (order pricing and invoice formatting).
//
// It is compiled twice by benchmarks/diff/corpus.py: once as-is ("v1") and once with
// `-D PRICING_V2` ("v2"). The `#if PRICING_V2` blocks are the "small edit" an app team would ship
// as an over-the-air patch: a changed loyalty tier, a rounding fix and one new currency. Building
// both from one file keeps the edit exact and reviewable, and produces the same machine code as
// editing the file in place would. `-D PRICING_INSERT` ("insert") is the other common edit: a new
// function in the middle of the module and one call to it.
//
// Exports (C ABI, all integers; strings are written as UTF-8 into caller-provided buffers):
//   calculate_order_total(quantity, unitPriceCents, region, loyaltyYears) -> total cents (Int64)
//   format_invoice(buffer, capacity, quantity, unitPriceCents, region, loyaltyYears) -> bytes written
//   format_money(buffer, capacity, cents, currency) -> bytes written

// MARK: - Money

enum Currency: Int32 {
    case usd = 0
    case eur = 1
    case gbp = 2
    case jpy = 3
    case chf = 4
    #if PRICING_V2
    case sek = 5
    #endif

    var code: StaticString {
        switch self {
        case .usd: return "USD"
        case .eur: return "EUR"
        case .gbp: return "GBP"
        case .jpy: return "JPY"
        case .chf: return "CHF"
        #if PRICING_V2
        case .sek: return "SEK"
        #endif
        }
    }

    var symbol: String {
        switch self {
        case .usd: return "$"
        case .eur: return "€"
        case .gbp: return "£"
        case .jpy: return "¥"
        case .chf: return "CHF "
        #if PRICING_V2
        case .sek: return "kr "
        #endif
        }
    }

    /// Yen has no minor unit; every other supported currency has two decimals.
    var minorDigits: Int {
        self == .jpy ? 0 : 2
    }

    /// Euro-zone and Swiss formatting group thousands with "." / "'" and use "," for decimals.
    var groupingSeparator: Character {
        switch self {
        case .eur: return "."
        case .chf: return "'"
        #if PRICING_V2
        case .sek: return " "
        #endif
        default: return ","
        }
    }

    var decimalSeparator: Character {
        switch self {
        case .eur: return ","
        #if PRICING_V2
        case .sek: return ","
        #endif
        default: return "."
        }
    }
}

/// An amount in the currency's minor unit (cents), so arithmetic stays exact.
struct Money {
    var minorUnits: Int64
    var currency: Currency

    static func + (lhs: Money, rhs: Money) -> Money {
        Money(minorUnits: lhs.minorUnits &+ rhs.minorUnits, currency: lhs.currency)
    }

    static func - (lhs: Money, rhs: Money) -> Money {
        Money(minorUnits: lhs.minorUnits &- rhs.minorUnits, currency: lhs.currency)
    }

    /// Multiplies by a rate given in basis points (1/100 of a percent), rounding half away from zero.
    func applying(basisPoints: Int64) -> Money {
        let scaled = minorUnits.multipliedReportingOverflow(by: basisPoints)
        if scaled.overflow {
            return Money(minorUnits: minorUnits / 10_000 * basisPoints, currency: currency)
        }
        #if PRICING_V2
        // v2 fix: v1 truncated toward zero, under-charging tax by up to one cent per line.
        let half: Int64 = scaled.partialValue >= 0 ? 5_000 : -5_000
        return Money(minorUnits: (scaled.partialValue + half) / 10_000, currency: currency)
        #else
        return Money(minorUnits: scaled.partialValue / 10_000, currency: currency)
        #endif
    }

    func formatted() -> String {
        var text = ""
        if minorUnits < 0 { text.append("-") }
        text.append(currency.symbol)
        let magnitude = minorUnits.magnitude
        let divisor: UInt64 = currency.minorDigits == 0 ? 1 : 100
        text.append(Money.grouped(magnitude / divisor, separator: currency.groupingSeparator))
        if currency.minorDigits > 0 {
            text.append(currency.decimalSeparator)
            let fraction = magnitude % divisor
            if fraction < 10 { text.append("0") }
            text.append(Money.digits(fraction))
        }
        return text
    }

    static func digits(_ value: UInt64) -> String {
        if value == 0 { return "0" }
        var reversed: [UInt8] = []
        var remaining = value
        while remaining > 0 {
            reversed.append(UInt8(truncatingIfNeeded: remaining % 10) + 48)
            remaining /= 10
        }
        var text = ""
        for byte in reversed.reversed() { text.append(Character(Unicode.Scalar(byte))) }
        return text
    }

    static func grouped(_ value: UInt64, separator: Character) -> String {
        let plain = digits(value)
        var text = ""
        var index = 0
        let count = plain.count
        for character in plain {
            if index > 0 && (count - index) % 3 == 0 { text.append(separator) }
            text.append(character)
            index += 1
        }
        return text
    }
}

// MARK: - Regions and tax

enum Region: Int32 {
    case unitedStates = 0
    case germany = 1
    case unitedKingdom = 2
    case japan = 3
    case switzerland = 4
    case france = 5
    #if PRICING_V2
    case sweden = 6
    #endif

    var currency: Currency {
        switch self {
        case .unitedStates: return .usd
        case .germany, .france: return .eur
        case .unitedKingdom: return .gbp
        case .japan: return .jpy
        case .switzerland: return .chf
        #if PRICING_V2
        case .sweden: return .sek
        #endif
        }
    }

    /// Sales tax / VAT in basis points.
    var taxBasisPoints: Int64 {
        switch self {
        case .unitedStates: return 725
        case .germany: return 1_900
        case .unitedKingdom: return 2_000
        case .japan: return 1_000
        case .switzerland: return 810
        case .france: return 2_000
        #if PRICING_V2
        case .sweden: return 2_500
        #endif
        }
    }

    var taxLabel: StaticString {
        switch self {
        case .unitedStates: return "Sales tax"
        case .japan: return "Consumption tax"
        case .switzerland: return "MWST"
        case .germany: return "MwSt."
        case .france: return "TVA"
        case .unitedKingdom: return "VAT"
        #if PRICING_V2
        case .sweden: return "Moms"
        #endif
        }
    }

    /// Orders at or above this amount ship free; below it a flat fee applies.
    var freeShippingThreshold: Int64 {
        switch self {
        case .japan: return 5_000
        default: return 5_000 * 10
        }
    }

    var shippingFee: Int64 {
        switch self {
        case .japan: return 600
        case .unitedStates: return 799
        case .switzerland: return 900
        default: return 695
        }
    }
}

// MARK: - Discounts

struct DiscountRule {
    var minimumQuantity: Int64
    var basisPoints: Int64
}

/// Volume discounts, best match wins (the table is sorted by descending quantity).
let volumeDiscounts: [DiscountRule] = [
    DiscountRule(minimumQuantity: 500, basisPoints: 1_500),
    DiscountRule(minimumQuantity: 100, basisPoints: 1_000),
    DiscountRule(minimumQuantity: 25, basisPoints: 500),
    DiscountRule(minimumQuantity: 10, basisPoints: 200),
]

func volumeDiscountBasisPoints(quantity: Int64) -> Int64 {
    for rule in volumeDiscounts where quantity >= rule.minimumQuantity {
        return rule.basisPoints
    }
    return 0
}

#if PRICING_INSERT
/// A bundle discount for orders of several items, more for expensive ones.
func bundleDiscountBasisPoints(quantity: Int64, unitPriceCents: Int64) -> Int64 {
    guard quantity >= 3 else { return 0 }
    var points: Int64 = unitPriceCents >= 5_000 ? 150 : 75
    if quantity >= 12 { points += 50 }
    return min(points, 300)
}
#endif

func loyaltyDiscountBasisPoints(years: Int64) -> Int64 {
    #if PRICING_V2
    // v2: the gold tier starts after 4 years instead of 5, and platinum is new.
    if years >= 8 { return 700 }
    if years >= 4 { return 500 }
    #else
    if years >= 5 { return 500 }
    #endif
    if years >= 2 { return 250 }
    return 0
}

// MARK: - Order

struct OrderQuote {
    var subtotal: Money
    var volumeDiscount: Money
    var loyaltyDiscount: Money
    var shipping: Money
    var tax: Money
    var region: Region

    var total: Money {
        subtotal - volumeDiscount - loyaltyDiscount + shipping + tax
    }
}

func quote(quantity: Int64, unitPriceCents: Int64, region: Region, loyaltyYears: Int64) -> OrderQuote {
    let currency = region.currency
    let boundedQuantity = max(0, min(quantity, 1_000_000))
    let boundedPrice = max(0, min(unitPriceCents, 100_000_000))
    let subtotal = Money(minorUnits: boundedQuantity * boundedPrice, currency: currency)
    #if PRICING_INSERT
    let bundle = subtotal.applying(basisPoints: bundleDiscountBasisPoints(quantity: boundedQuantity, unitPriceCents: boundedPrice))
    let volume = subtotal.applying(basisPoints: volumeDiscountBasisPoints(quantity: boundedQuantity)) + bundle
    #else
    let volume = subtotal.applying(basisPoints: volumeDiscountBasisPoints(quantity: boundedQuantity))
    #endif
    let afterVolume = subtotal - volume
    let loyalty = afterVolume.applying(basisPoints: loyaltyDiscountBasisPoints(years: loyaltyYears))
    let discounted = afterVolume - loyalty
    let shippingCents = discounted.minorUnits >= region.freeShippingThreshold ? 0 : region.shippingFee
    let shipping = Money(minorUnits: boundedQuantity == 0 ? 0 : shippingCents, currency: currency)
    let tax = (discounted + shipping).applying(basisPoints: region.taxBasisPoints)
    return OrderQuote(
        subtotal: subtotal, volumeDiscount: volume, loyaltyDiscount: loyalty,
        shipping: shipping, tax: tax, region: region)
}

// MARK: - Invoice text

struct InvoiceWriter {
    var lines: [String] = []
    let labelWidth = 18

    mutating func add(_ label: String, _ amount: Money) {
        var line = label
        while line.count < labelWidth { line.append(" ") }
        line.append(amount.formatted())
        lines.append(line)
    }

    mutating func rule() {
        var line = ""
        for _ in 0..<(labelWidth + 14) { line.append("-") }
        lines.append(line)
    }

    func text() -> String {
        var result = ""
        for line in lines {
            result.append(line)
            result.append("\n")
        }
        return result
    }
}

func invoiceText(for order: OrderQuote, quantity: Int64) -> String {
    var writer = InvoiceWriter()
    writer.lines.append("Invoice (" + String(order.region.currency.code.description) + ")")
    writer.lines.append("Quantity: " + Money.digits(UInt64(max(0, quantity))))
    writer.rule()
    writer.add("Subtotal", order.subtotal)
    if order.volumeDiscount.minorUnits > 0 {
        writer.add("Volume discount", Money(minorUnits: -order.volumeDiscount.minorUnits, currency: order.subtotal.currency))
    }
    if order.loyaltyDiscount.minorUnits > 0 {
        writer.add("Loyalty discount", Money(minorUnits: -order.loyaltyDiscount.minorUnits, currency: order.subtotal.currency))
    }
    writer.add(order.shipping.minorUnits == 0 ? "Shipping (free)" : "Shipping", order.shipping)
    writer.add(String(order.region.taxLabel.description), order.tax)
    writer.rule()
    writer.add("Total", order.total)
    return writer.text()
}

/// Copies UTF-8 into the caller's buffer; returns the full length so callers can detect truncation.
func write(_ text: String, to buffer: UnsafeMutablePointer<UInt8>?, capacity: Int32) -> Int32 {
    var utf8 = text
    var written = 0
    utf8.withUTF8 { bytes in
        if let buffer {
            let count = min(bytes.count, Int(max(0, capacity)))
            for index in 0..<count { buffer[index] = bytes[index] }
        }
        written = bytes.count
    }
    return Int32(truncatingIfNeeded: written)
}

// MARK: - Exports

@_cdecl("calculate_order_total")
public func calculateOrderTotal(quantity: Int32, unitPriceCents: Int64, region: Int32, loyaltyYears: Int32) -> Int64 {
    guard let region = Region(rawValue: region) else { return -1 }
    return quote(
        quantity: Int64(quantity), unitPriceCents: unitPriceCents, region: region,
        loyaltyYears: Int64(loyaltyYears)
    ).total.minorUnits
}

@_cdecl("format_invoice")
public func formatInvoice(
    buffer: UnsafeMutablePointer<UInt8>?, capacity: Int32, quantity: Int32, unitPriceCents: Int64,
    region: Int32, loyaltyYears: Int32
) -> Int32 {
    guard let region = Region(rawValue: region) else { return -1 }
    let order = quote(
        quantity: Int64(quantity), unitPriceCents: unitPriceCents, region: region,
        loyaltyYears: Int64(loyaltyYears))
    return write(invoiceText(for: order, quantity: Int64(quantity)), to: buffer, capacity: capacity)
}

@_cdecl("format_money")
public func formatMoney(buffer: UnsafeMutablePointer<UInt8>?, capacity: Int32, cents: Int64, currency: Int32) -> Int32 {
    guard let currency = Currency(rawValue: currency) else { return -1 }
    return write(Money(minorUnits: cents, currency: currency).formatted(), to: buffer, capacity: capacity)
}
