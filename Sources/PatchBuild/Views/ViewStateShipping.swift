import PatchManifest

/// A changed stored layout of a view whose routed body ships: the state that lives in the guest may
/// change with the body's patch (docs/views.md "Changing a view's state"). The SDK builds a patched
/// view's inputs as `merge(props, guestState)` and writes a dispatch's state back only into the
/// native `@State`/`@Binding`/`@AppStorage` properties it read the props from (sdk-contract §5.4), so:
///
/// - an added `@State` has no native counterpart: the guest view starts it from its default and
///   keeps it in the state its dispatch returns, which the host merges into the next inputs;
/// - a removed `@State` or `@AppStorage` is still in the props, and the guest ignores inputs it does
///   not declare;
/// - a `@State` whose default changed is re-initialised: the native one still starts from the old
///   default, so the guest view takes the new one until its own dispatch returned the field
///   (`GuestViewRequest.reinitializedState`). Only in a view without initializers of its own: one
///   may set the state from its arguments (`_text = State(initialValue: text)`), which the guest's
///   default would then wrongly replace.
///
/// Everything else is native layout: a property the parent passes in (plain `let`/`var`,
/// `@Binding`), one SwiftUI fills natively (`@Environment`, `@StateObject`, `@ObservedObject`…),
/// an `@AppStorage` added or re-initialised (the native wrapper is what reads and writes the store),
/// a retyped `@State` (the host writes it back into the native type).
enum ViewStateShipping {
    /// What the stored properties' differences between the shipped build and now amount to.
    struct Verdict {
        /// The differences, named, each with why it can or cannot ship with the body.
        var items: [String]
        /// Every difference is guest-held state.
        var isGuestState: Bool
        /// `@State` fields whose default changed: the guest starts them from the new one.
        var reinitialized: [String]
    }

    /// The wrappers whose value is guest-held state a patch may add or re-initialise.
    static let stateWrappers: Set<String> = ["State", "SwiftUI.State"]
    /// The wrappers the host passes as inputs and the guest may stop declaring.
    static let removableWrappers: Set<String> = stateWrappers.union(["AppStorage", "SwiftUI.AppStorage"])

    /// Compares a type's stored properties as the baseline recorded them with the current ones; nil
    /// when either record lacks them (a baseline written before patchcli recorded them). `isView`:
    /// the type is a view whose body the shipped binary routes, whose guest-held state may change;
    /// for any other type each difference is only named. `declaresInitializer`: the type declares an
    /// `init`, which may set a `@State` from its arguments.
    static func verdict(previous: Baseline.Behaviour?, current: Baseline.Behaviour?, isView: Bool, declaresInitializer: Bool) -> Verdict? {
        guard let before = previous?.properties, let after = current?.properties else { return nil }
        let old = Dictionary(before.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var items: [String] = []
        var isGuestState = isView
        var reinitialized: [String] = []
        func note(_ text: String, why: String, guest: Bool) {
            items.append(isView ? text + ": " + why : text)
            isGuestState = isGuestState && guest
        }
        for member in after {
            guard let shipped = old[member.name] else {
                if isState(member) && !member.hasDefault && member.type?.hasSuffix("?") != true {
                    // The guest builds the view from its inputs, never through the view's `init`.
                    note("\(described(member)) added", why: "it has no default value, so the view's `init` sets it, which the guest view does not run (native layout)", guest: false)
                } else if isState(member) {
                    note("\(described(member)) added", why: "state the guest view holds", guest: true)
                } else {
                    note("\(described(member)) added", why: nativeRole(of: member), guest: false)
                }
                continue
            }
            guard shipped != member else { continue }
            if shipped.layout == member.layout {
                if isState(member) && !declaresInitializer {
                    note("\(described(member)) re-initialised", why: "the guest view starts it from its new default", guest: true)
                    reinitialized.append(member.name)
                } else if isState(member) {
                    note("\(described(member)) re-initialised", why: "the view declares an `init`, which may set it from its arguments (native layout)", guest: false)
                } else {
                    note("\(described(member))'s default (or `let`/`var`) changed", why: initialRole(of: member), guest: false)
                }
            } else if shipped.type != member.type && isState(member) && isState(shipped) {
                note("\(described(member)) was `\(shipped.type ?? "?")`",
                     why: "the host writes the state back into the native `\(shipped.type ?? "?")` (native layout)", guest: false)
            } else if described(member) == described(shipped) {
                // The same wrappers and type: an attribute's arguments (`@Query(sort:)`) or a modifier (`lazy`).
                note("\(described(member))'s attribute arguments or modifiers changed", why: nativeRole(of: shipped), guest: false)
            } else {
                note("\(described(member)) was \(described(shipped))", why: nativeRole(of: shipped), guest: false)
            }
        }
        for member in before where new[member.name] == nil {
            if member.attributes.contains(where: removableWrappers.contains) {
                note("\(described(member)) removed", why: "the host still passes it and the guest view ignores it", guest: true)
            } else {
                note("\(described(member)) removed", why: "the shipped binary's view still has it (native layout)", guest: false)
            }
        }
        if items.isEmpty && before.map(\.name) != after.map(\.name) {
            items.append("its stored properties were reordered")
            isGuestState = false
        }
        return Verdict(items: items, isGuestState: isGuestState && !items.isEmpty, reinitialized: reinitialized.sorted())
    }

    static func isState(_ member: Baseline.StoredMember) -> Bool {
        member.attributes.contains(where: stateWrappers.contains)
    }

    /// `` `@State count: Int` ``, `` `title: String` ``.
    static func described(_ member: Baseline.StoredMember) -> String {
        let wrappers = member.attributes.map { "@" + $0 + " " }.joined()
        return "`" + wrappers + member.name + (member.type.map { ": " + $0 } ?? "") + "`"
    }

    /// Why a property that is not guest state belongs to the native view.
    private static func nativeRole(of member: Baseline.StoredMember) -> String {
        switch member.attributes.first.map({ $0.split(separator: ".").last.map(String.init) ?? $0 }) {
        case nil where member.hasDefault: return "a stored property of the native view, which its initializers set (native layout)"
        case nil: return "passed in by the parent (native layout)"
        case "Binding"?: return "a binding the parent passes in (native layout)"
        case "AppStorage"?: return "the native wrapper reads and writes its store, which a patch cannot add (native layout)"
        case let wrapper?: return "a native `@\(wrapper)` that SwiftUI fills, which the host does not pass to the guest (native layout)"
        }
    }

    /// Why a changed default of a property that is not `@State` is native.
    private static func initialRole(of member: Baseline.StoredMember) -> String {
        member.attributes.contains { $0 == "AppStorage" || $0 == "SwiftUI.AppStorage" }
            ? "the native wrapper applies it when the store has no value, and the host passes the stored value (native layout)"
            : "the native initializer sets it and the host passes the native value (native layout)"
    }

    /// The verdict on a changed stored layout, as `build` reports it: a view whose routed body
    /// carries its state change (`viewName`: the name the shipped thunk passes; nil when the type is
    /// no view whose body the shipped binary routes) is patched with that body; anything else is
    /// `stored_layout_changed`, with the properties named.
    static func change(of layout: Baseline.Declaration, previous: Baseline.Declaration?, viewName: String?, shipped: Baseline,
                       current: PreparePlan, location: GuestSourceLocation) -> DeclarationChange {
        let verdict = verdict(previous: previous?.behaviour, current: layout.behaviour, isView: viewName != nil,
                              declaresInitializer: declaresInitializer(layout.id, shipped: shipped, current: current))
        let owner = layout.id.split(separator: ":", maxSplits: 1).last.map(String.init) ?? layout.id
        if let verdict, verdict.isGuestState, let viewName {
            let detail = verdict.items.joined(separator: "; ") + shipsWithBody
                + " (`\(PatchNames.viewBodyExport(typeName: viewName))`): the module lowers `\(owner).body` again with it"
            return DeclarationChange(id: layout.id, kind: .storedLayout, change: .modified, status: .patched, reason: nil,
                                     detail: detail, location: location)
        }
        let what: String
        if let verdict {
            what = verdict.items.isEmpty ? "its enum cases changed" : verdict.items.joined(separator: "; ")
        } else {
            what = "its stored properties or enum cases changed (re-run `patchcli prepare` for the build you ship to get per-property detail)"
        }
        return DeclarationChange(id: layout.id, kind: .storedLayout, change: .modified, status: .nativeOnly,
                                 reason: DeclarationChange.NativeReason.storedLayoutChanged,
                                 detail: what + "; the native binary owns the memory layout, so this needs an app release", location: location)
    }

    /// The name the shipped thunk passes for the view whose stored layout this is, nil when the type
    /// is no view whose body the shipped binary routes.
    static func routedViewName(ofLayout layout: Baseline.Declaration, shippedViewNames: PatchNames.ViewNames) -> String? {
        guard let view = viewIdentity(ofLayout: layout.id) else { return nil }
        return shippedViewNames.typeName(of: view)
    }

    /// Where a patched state change's detail says how it ships: what `ChangeSet.applying(unpatchable:)`
    /// replaces with the body's reason when the body does not lower, keeping the named properties.
    static let shipsWithBody = "; it ships inside its view's body patch"

    /// Whether the type of the stored layout `id` declares an initializer, in its body or an
    /// extension, in the shipped build (whose `init` is what runs on devices) or now.
    static func declaresInitializer(_ id: String, shipped: Baseline, current: PreparePlan) -> Bool {
        (shipped.declarations + current.baseline.declarations).contains { $0.kind == .initializer && $0.id.hasPrefix(id + ".init(") }
    }

    /// `App:Outer.Row` (`#2`… for a type under another `#if` clause) → the view `Outer.Row` of `App`.
    static func viewIdentity(ofLayout id: String) -> PatchNames.ViewIdentity? {
        guard let colon = id.firstIndex(of: ":"), let local = id[id.index(after: colon)...].split(separator: "#", maxSplits: 1).first else { return nil }
        return PatchNames.ViewIdentity(target: String(id[..<colon]), path: local.split(separator: ".").map(String.init))
    }

    /// The body each patched state change ships with (layout id → body id, as view helpers'), and the
    /// `@State` fields each of those views re-initialises (body id → names), for the guest's glue.
    static func carriers(of changes: [DeclarationChange], baseline: Baseline, current: PreparePlan)
        -> (bodies: [String: String], reinitialized: [String: [String]]) {
        var bodies: [String: String] = [:]
        var reinitialized: [String: [String]] = [:]
        for change in changes where change.kind == .storedLayout && change.status == .patched {
            guard let view = viewIdentity(ofLayout: change.id),
                  let body = baseline.declarations.first(where: { $0.kind == .viewBody && PatchNames.ViewIdentity(baselineID: $0.id) == view })
            else { continue }
            bodies[change.id] = body.id
            let previous = baseline.declarations.first { $0.id == change.id }
            let now = current.baseline.declarations.first { $0.id == change.id }
            if let names = verdict(previous: previous?.behaviour, current: now?.behaviour, isView: true,
                                   declaresInitializer: declaresInitializer(change.id, shipped: baseline, current: current))?.reinitialized, !names.isEmpty {
                reinitialized[body.id] = names
            }
        }
        return (bodies, reinitialized)
    }
}
