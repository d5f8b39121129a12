import PatchSDK

func exercise() -> String {
    writes = []
    let basket = Basket(items: [Item(name: "tea", cents: 300)], currency: "EUR")
    let counter = Counter()
    let count = basket.add(Item(name: "cake", cents: 450))
    let total = basket.total
    counter.increment(by: 2)
    return "\(count) \(total) \(basket.describe()) | \(counter.count) \(counter.title) | writes: \(writes.joined(separator: ", "))"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    // The module changed `items` only: `discount` comes back as sent and is not written.
    "_pf_Basket_add___": #"{"value":9,"self":{"items":[{"name":"jam","cents":1}],"discount":0,"currency":"USD"}}"#,
    // A getter may change the object too: `discount` changed, `items` did not.
    "_pf_Basket_total__get": #"{"value":77,"self":{"items":[{"name":"jam","cents":1}],"discount":5,"currency":"EUR"}}"#,
    "_pf_Counter_increment__by": #"{"self":{"count":40,"title":"counter"}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
