// Guest view DSL (see ViewDSL.swift): the presentations past `sheet(isPresented:)` — a pushed
// destination on a flag (`navigationDestinationBool`), a sheet on an optional item (`sheetItem`)
// and a popover (sdk-contract §5.6.5, §5.6.6). They are written and dispatched by the presentation
// writer of ViewDSL+Events.swift: the flag's field is the key and the event id, the content is
// evaluated only while presented, the host's `bool` event writes the flag, and any dismissal runs
// `onDismiss`.

extension View {
    /// `.navigationDestination(isPresented: $flag) { Detail() }`: the host pushes the destination
    /// while the flag is set and sends `bool(false)` when the user goes back.
    func navigationDestination<Destination: View>(isPresented: Binding<Bool>,
                                                  @ViewBuilder destination: @escaping () -> Destination) -> _PatchEventModified<Self> {
        _presentation("{\"navigationDestinationBool\":{", isPresented: isPresented, onDismiss: nil,
                      _presentedContent(isPresented, key: "destination", destination))
    }

    /// `.sheet(item: $selected) { item in … }`: presented while the item is set, its content
    /// evaluated with the unwrapped item. The host's dismissal (`bool(false)`) sets the item to nil;
    /// the IR has no way to set an item, so `bool(true)` changes nothing. The item's field is the
    /// `itemKey` and the event id.
    func sheet<Item: Identifiable, Content: View>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
                                                 @ViewBuilder content: @escaping (Item) -> Content) -> _PatchEventModified<Self> {
        let isPresented = Binding<Bool>(get: { item.wrappedValue != nil },
                                        set: { presented in if !presented { item.wrappedValue = nil } },
                                        name: item._name)
        // The content closure runs only while presented, that is while the item is set.
        return _presentation("{\"sheetItem\":{", keyField: "itemKey", flagField: "itemPresent", isPresented: isPresented,
                             onDismiss: onDismiss, _presentedContent(isPresented) { content(item.wrappedValue!) })
    }

    /// `.popover(isPresented:) { }` with SwiftUI's default anchor and arrow edge (the IR's popover
    /// has neither, so the forms that set them are not declared).
    func popover<Content: View>(isPresented: Binding<Bool>, @ViewBuilder content: @escaping () -> Content) -> _PatchEventModified<Self> {
        _presentation("{\"popover\":{", isPresented: isPresented, onDismiss: nil, _presentedContent(isPresented, content))
    }
}
