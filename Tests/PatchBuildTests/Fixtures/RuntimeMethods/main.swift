import PatchSDK

func exercise() -> String {
    var cart = Cart(items: [Item(name: "tea", cents: 300)], currency: "EUR")
    var size = Size.small
    let total = cart.total()
    let itemCount = cart.itemCount
    let count = cart.add(item: Item(name: "cake", cents: 450))
    let added = cart.describe()
    cart.clear()
    size.toggle()
    let label = size.label(prefix: "size:")
    let endpoint = Endpoint(name: "cart")
    return "\(total) \(itemCount) \(count) \(added) | \(cart.describe()) | \(label) \(size) | \(endpoint.baseURL) \(endpoint.retries) \(endpoint.name)"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    "_pf_Cart_total__": #"{"value":999}"#,
    "_pf_Cart_itemCount__get": #"{"value":42}"#,
    "_pf_Cart_add__item": #"{"value":7,"self":{"items":[{"name":"jam","cents":1}],"discount":5,"currency":"USD","note":"added"}}"#,
    "_pf_Cart_clear__": #"{"self":{"items":[{"name":"kept","cents":2}],"discount":0,"currency":"USD","note":"module"}}"#,
    "_pf_Size_label__prefix": #"{"value":"module label"}"#,
    "_pf_Size_toggle__": #"{"self":"small"}"#,
    "_pf_Endpoint_init__name": #"{"value":{"baseURL":"https://patched.example/cart","retries":5,"name":"ignored"}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
