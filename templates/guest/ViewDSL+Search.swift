// Guest view DSL (see ViewDSL.swift): `.searchable`, the modifier
// `searchable{searchKey,query,prompt,event}` (sdk-contract §5.6.5): the host shows a search field
// with the query and sends each edit as `string` (§5.6.6), which the guest writes into the bound
// text. Search is host state: schema 3 (§5.5).

/// Where the search field goes. The IR's searchable has no placement: only SwiftUI's default is
/// declared, so a body choosing another placement stays native.
struct SearchFieldPlacement {
    static let automatic = SearchFieldPlacement()
}

extension View {
    /// `.searchable(text: $query)`, `.searchable(text: $query, prompt: "Find")`. The bound field's
    /// name is the `searchKey` and the event id (a binding of no field sends `action_<n>`).
    func searchable(text: Binding<String>, placement: SearchFieldPlacement = .automatic,
                    prompt: String? = nil) -> _PatchEventModified<Self> {
        _PatchEventModified(_content: self, _schemaVersion: 3) { emission, ir in
            let id = emission.registerBinding(text) { value throws(_PatchDecodeError) in try String(_patchEvent: value) }
            ir.raw("{\"searchable\":{\"searchKey\":\"")
            ir.raw(id)
            ir.raw("\",\"query\":")
            ir.string(text.wrappedValue)
            ir.raw(",\"prompt\":")
            if let prompt { ir.string(prompt) } else { ir.raw("null") }
            ir.raw(",\"event\":")
            ir.eventID(id)
            ir.raw("}}")
        }
    }
}
