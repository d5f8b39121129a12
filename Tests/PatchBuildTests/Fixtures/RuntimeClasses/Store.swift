// A plain final class and an ObservableObject-shaped one: each records which of its properties were
// written, as `@Published` (objectWillChange) and observers would notify observers of them.
nonisolated(unsafe) var writes: [String] = []

/// Stands in for Combine's `@Published` (not on Linux): a pure-storage wrapper whose writes are seen.
@propertyWrapper
struct Published<Value> {
    var wrappedValue: Value { willSet { writes.append("published \(newValue)") } }
    init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

protocol ObservableObject: AnyObject {}

struct Item: Codable { var name: String; var cents: Int }

final class Logger {}
struct Note { var text: String = "" }

final class Basket {
    var items: [Item] { didSet { writes.append("items") } }
    var discount = 0 { didSet { writes.append("discount") } }
    let currency: String
    // Left out of the mirror: a closure, a weak reference, another class, a struct that is not Codable.
    var onChange: (() -> Void)? = nil
    weak var owner: Basket?
    let logger: Logger = Logger()
    var note: Note = Note()

    init(items: [Item], currency: String) {
        self.items = items
        self.currency = currency
    }

    // @patchable
    func add(_ item: Item) -> Int {
        items.append(item)
        return items.count
    }

    // @patchable
    var total: Int { items.reduce(0) { $0 + $1.cents } - discount }

    func describe() -> String { "\(items.map(\.name)) -\(discount) \(currency)" }
}

final class Counter: ObservableObject {
    @Published var count = 0
    @Published var title: String = "counter"

    // @patchable
    func increment(by step: Int) {
        count += step
    }
}
