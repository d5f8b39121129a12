struct Item: Codable {
    var name: String
    var cents: Int
}

/// Not Codable: its thunks send a mirror of its stored properties.
struct Cart {
    var items: [Item]
    var discount = 0
    let currency: String
    private var note = ""

    init(items: [Item], currency: String) {
        self.items = items
        self.currency = currency
    }

    // @patchable
    func total() -> Int {
        items.reduce(0) { $0 + $1.cents } - discount
    }

    // @patchable
    var itemCount: Int {
        items.count
    }

    // @patchable
    mutating func add(item: Item) -> Int {
        items.append(item)
        return items.count
    }

    // @patchable
    mutating func clear() {
        items = []
        note = "cleared"
    }

    func describe() -> String {
        "\(items.map(\.name)) -\(discount) \(currency) \(note)"
    }
}

enum Size: String, Codable {
    case small, large

    // @patchable
    func label(prefix: String) -> String {
        prefix + rawValue
    }

    // @patchable
    mutating func toggle() {
        self = self == .small ? .large : .small
    }
}

struct Endpoint {
    var baseURL: String
    var retries: Int
    let name: String

    // @patchable
    init(name: String) {
        self.name = name
        baseURL = "https://example.com/" + name
        retries = 3
    }
}
