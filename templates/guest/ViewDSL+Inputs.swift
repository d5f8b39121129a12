// Guest view DSL (see ViewDSL.swift): what a view's stored properties and iterations need beyond
// @State and @Binding — @AppStorage, and ForEach with an identity.

// MARK: - AppStorage

/// `@AppStorage("key") var x = default`: the host reads the stored value into the view's inputs and
/// writes a changed scalar back into the store (sdk-contract §5.4), so in the guest it is state like
/// `@State`; the key and the store only name where the host keeps it.
@propertyWrapper
struct AppStorage<Value> {
    let _box: State<Value>._Box

    init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) { _box = State<Value>._Box(wrappedValue) }

    /// `@AppStorage("key") var name: String?`: nil until the store holds a value.
    init<Wrapped>(_ key: String, store: UserDefaults? = nil) where Value == Wrapped? { _box = State<Value>._Box(nil) }

    var wrappedValue: Value {
        get { _box.value }
        nonmutating set { _box.value = newValue }
    }

    var projectedValue: Binding<Value> {
        let box = _box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

// MARK: - ForEach identity

extension ForEach {
    /// `ForEach(items, id: \.id)`: build rewrites the key path into a closure (`{ $0.id }`; Embedded
    /// Swift has no key paths). The IR's forEach children are identified by position (§5.6.7), so
    /// the identity is accepted for the signature and not evaluated.
    init<ID: Hashable>(_ data: Data, id: (Data.Element) -> ID, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, content: content)
    }
}
