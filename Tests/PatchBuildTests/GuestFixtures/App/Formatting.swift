let currencySymbols: [String: String] = ["EUR": "€", "USD": "$", "JPY": "¥"]

/// Formats integer cents as "€12.50"; unknown currencies print their code.
func formatPrice(_ cents: Int, currency: String) -> String {
    let symbol = currencySymbols[currency] ?? currency + " "
    let sign = cents < 0 ? "-" : ""
    let magnitude = cents < 0 ? -cents : cents
    let fraction = magnitude % 100
    return sign + symbol + String(magnitude / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
}

func initials(of name: String) -> String {
    name.split(separator: " ").compactMap { $0.first }.map { String($0).uppercased() }.joined()
}

func add(_ a: Int64, _ b: Int64) -> Int64 {
    a &+ b
}

func clamp(_ value: Double, lower: Double, upper: Double) -> Double {
    min(max(value, lower), upper)
}

func isEven(_ value: Int) -> Bool {
    value % 2 == 0
}

/// String building without lookups: the "string-handling patch" of the size benchmark.
func formatCents(_ cents: Int, symbol: String) -> String {
    let sign = cents < 0 ? "-" : ""
    let magnitude = cents < 0 ? -cents : cents
    let fraction = magnitude % 100
    return sign + symbol + String(magnitude / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
}
