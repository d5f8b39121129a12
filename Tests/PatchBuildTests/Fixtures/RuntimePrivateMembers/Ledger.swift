struct Entry: Codable {
    var title: String
    var cents: Int
}

struct Ledger {
    var entries: [Entry]
    var fee: Int

    func summary() -> String {
        "\(balance) after \(label(prefix: "fees"))"
    }

    // The members below are `private`: prepare routes them by widening them to `fileprivate`.
    private var balance: Int {
        entries.reduce(0) { $0 + $1.cents } - fee
    }

    private func label(prefix: String) -> String {
        "\(prefix) \(fee)"
    }

    mutating func charge(_ cents: Int) {
        apply(fee: cents)
    }

    private mutating func apply(fee cents: Int) {
        fee += cents
    }

    // `private(set)`: only the setter is private, which Swift replaces as it is.
    private(set) var total: Int {
        get { entries.count }
        set { fee = newValue }
    }

    mutating func reset() { total = 0 }
}
