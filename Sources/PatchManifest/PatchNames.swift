/// The one naming rule for everything `prepare` routes and `build` exports, so the literal a thunk
/// passes to the SDK always equals the name the module's manifest declares (sdk-contract §5.1, §5.3).
///
/// A declaration is named by its path of enclosing types as written in source: `Outer.Inner` for a
/// type nested in `Outer`, generic parameters dropped (`List<T>` is `List`: one body implementation
/// serves every specialization), backticks removed. The sanitized name joins the components with
/// `_` and keeps ASCII letters, digits and `_`; any other character becomes `_uXXXX_` (its Unicode
/// scalar in hex). Plain top-level names are therefore used verbatim (`Banner`), as the SDK expects.
///
/// Views share one namespace per `appKey`: every product of a project (an iOS and a tvOS app, an app
/// and its packages) ships with the same fingerprint, so the update server offers each of them the
/// same module, and the SDK routes by name alone. Same-named views of different targets are
/// therefore told apart by their target (`viewTypeNames(_:)`); what that cannot separate
/// (`Outer.Inner` and a top-level `Outer_Inner` of one target) is a collision, which callers must
/// refuse to route rather than let one view receive another's module code.
public enum PatchNames {
    /// The `typeName` literal of a view thunk and the manifest `type` (§5.3).
    public static func viewTypeName(path: [String]) -> String {
        path.map(sanitizedComponent).joined(separator: "_")
    }

    /// A view body that `prepare` routes: the target declaring it and its path of enclosing types.
    public struct ViewIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var target: String
        public var path: [String]

        public init(target: String, path: [String]) {
            self.target = target
            self.path = path
        }

        /// The view whose body has this baseline id (`<target>:<Type.path>.body`, `#2`… for the same
        /// body under another `#if` clause), nil for an id of anything else.
        public init?(baselineID id: String) {
            guard let colon = id.firstIndex(of: ":"),
                  let localID = id[id.index(after: colon)...].split(separator: "#", maxSplits: 1).first,
                  localID.hasSuffix(".body") else { return nil }
            self.init(target: String(id[..<colon]), path: localID.dropLast(".body".count).split(separator: ".").map(String.init))
        }

        public var description: String { "\(path.joined(separator: ".")) (target \(target))" }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.target, lhs.path.joined(separator: ".")) < (rhs.target, rhs.path.joined(separator: "."))
        }
    }

    /// One declaration of a view body, with where it is (`file:line`, or the file alone) for messages.
    public struct ViewClaim: Sendable, Equatable {
        public var view: ViewIdentity
        public var location: String

        public init(view: ViewIdentity, location: String) {
            self.view = view
            self.location = location
        }
    }

    /// The patch names of all views of a project, and what could not be named apart.
    public struct ViewNames: Sendable, Equatable {
        public var names: [ViewIdentity: String]
        /// Names claimed by views that the rule cannot tell apart: none of them may be routed.
        public var collisions: [Collision]

        /// The `typeName` literal of a view, nil when it is not a claimed view or its name collides.
        public func typeName(of view: ViewIdentity) -> String? {
            guard let name = names[view], !collisions.contains(where: { $0.name == name }) else { return nil }
            return name
        }
    }

    /// Names every view of a project. A view is named by its path (`viewTypeName(path:)`) unless
    /// views of other targets have the same name; then each of them is qualified with its target's
    /// name as an outer component (`UI.Row` is `UI_Row`, `Swiftfin iOS.Row` is `Swiftfin_u20_iOS_Row`).
    /// A name the qualification does not separate (two views of one target, or a qualified name equal
    /// to another view's) is a collision. The names depend only on the set of views, never on their
    /// order, so `prepare` (from the sources) and `build` (from the baseline of the shipped binary,
    /// `viewClaims(in:)`) agree.
    public static func viewTypeNames(_ claims: [ViewClaim]) -> ViewNames {
        // A view declared more than once (a body under several `#if` clauses) is shown where it comes first.
        var locations: [ViewIdentity: String] = [:]
        for claim in claims where locations[claim.view] == nil { locations[claim.view] = claim.location }
        var viewsByName: [String: [ViewIdentity]] = [:]
        for view in locations.keys { viewsByName[viewTypeName(path: view.path), default: []].append(view) }
        var names: [ViewIdentity: String] = [:]
        for (name, views) in viewsByName {
            let isShared = Set(views.map(\.target)).count > 1
            for view in views { names[view] = isShared ? viewTypeName(path: [view.target] + view.path) : name }
        }
        let collisions = self.collisions(in: names.map { view, name in
            (name, "\(locations[view] ?? ""): \(view)")
        })
        return ViewNames(names: names, collisions: collisions)
    }

    /// The views a baseline records (its `viewBody` declarations): the names `prepare` gave the
    /// shipped binary's thunks are `viewTypeNames(viewClaims(in: baseline))`.
    public static func viewClaims(in baseline: Baseline) -> [ViewClaim] {
        baseline.declarations.compactMap { declaration in
            guard declaration.kind == .viewBody else { return nil }
            return ViewIdentity(baselineID: declaration.id).map { ViewClaim(view: $0, location: declaration.file) }
        }
    }

    /// The body export a module provides for a view (§5.3 `views[].export`).
    public static func viewBodyExport(typeName: String) -> String { "view_body__" + typeName }

    /// The interactive dispatch export of a view (§5.3 `views[].dispatch`).
    public static func viewDispatchExport(typeName: String) -> String { "dispatch__" + typeName }

    /// The Swift-style key of a function, as users list it in `patch.json` and as the baseline shows
    /// it: `PriceCalculator.total(items:discount:)`, `formatPrice(_:)`.
    public static func functionKey(typePath: [String], baseName: String, argumentLabels: [String?]) -> String {
        let labels = argumentLabels.map { ($0.map(withoutBackticks) ?? "_") + ":" }.joined()
        let qualifiedName = (typePath + [baseName]).map(withoutBackticks).joined(separator: ".")
        return "\(qualifiedName)(\(labels))"
    }

    /// The export a module provides to replace an opted-in function (called through
    /// `Patch.shared.callJSON`, §2.4): `_pf_` + sanitized path + `__` + labels joined by `_`, an
    /// unlabeled parameter counting as `_`. `PriceCalculator.total(items:discount:)` is
    /// `_pf_PriceCalculator_total__items_discount`.
    public static func functionExport(typePath: [String], baseName: String, argumentLabels: [String?]) -> String {
        let name = (typePath + [baseName]).map(sanitizedComponent).joined(separator: "_")
        let labels = argumentLabels.map { $0.map(sanitizedComponent) ?? "_" }.joined(separator: "_")
        return "_pf_\(name)__\(labels)"
    }

    /// The kickoff of an async function's export (sdk-contract §4 `patch_start_<fn>`, blob variant
    /// `(i32 ptr, i32 len) -> ()`): `patch_start_` + its `functionExport` (docs/async.md).
    public static func asyncStartExport(functionExport: String) -> String {
        "patch_start_" + functionExport
    }

    /// The export an async module's finished task is read from (`callPackedAsync`'s `resultExport`:
    /// `() -> i64` packed JSON), one for all its async functions.
    public static let asyncResultExport = "patch_result_packed"

    /// The key of a computed property, routed by its getter: `Cart.total` (no parentheses, which tell
    /// a function's key apart), as `patch.json` lists it and the baseline names it.
    public static func propertyKey(typePath: [String], name: String) -> String {
        (typePath + [name]).map(withoutBackticks).joined(separator: ".")
    }

    /// The export replacing a computed property's getter: `_pf_` + sanitized path + `__get`
    /// (`Cart.total` → `_pf_Cart_total__get`), named as a function's with `get` in place of the labels
    /// (a setter, when one is routed, is `__set`).
    public static func propertyGetterExport(typePath: [String], name: String) -> String {
        "_pf_" + (typePath + [name]).map(sanitizedComponent).joined(separator: "_") + "__get"
    }

    /// The export replacing an instance computed property's setter: the getter's with `__set`
    /// (`Cart.total` → `_pf_Cart_total__set`).
    public static func propertySetterExport(typePath: [String], name: String) -> String {
        "_pf_" + (typePath + [name]).map(sanitizedComponent).joined(separator: "_") + "__set"
    }

    /// One sanitized name claimed by more than one declaration.
    public struct Collision: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        /// Where each claimant is declared and what it is, e.g. `Sources/App/Rows.swift:3: Outer.Inner (target App)`.
        public var claimants: [String]

        public init(name: String, claimants: [String]) {
            self.name = name
            self.claimants = claimants
        }

        public var description: String {
            "\(claimants.count) declarations share the patch name \"\(name)\": \(claimants.joined(separator: "; "))"
        }
    }

    /// Every name claimed by two or more distinct claimants, sorted by name.
    public static func collisions(in claims: [(name: String, claimant: String)]) -> [Collision] {
        var claimantsByName: [String: [String]] = [:]
        for claim in claims where !(claimantsByName[claim.name]?.contains(claim.claimant) ?? false) {
            claimantsByName[claim.name, default: []].append(claim.claimant)
        }
        return claimantsByName.filter { $0.value.count > 1 }
            .map { Collision(name: $0.key, claimants: $0.value.sorted()) }
            .sorted { $0.name < $1.name }
    }

    private static func withoutBackticks(_ component: String) -> String {
        component.filter { $0 != "`" }
    }

    private static func sanitizedComponent(_ component: String) -> String {
        var result = ""
        for scalar in withoutBackticks(component).unicodeScalars {
            if scalar.isASCII, scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "_u" + String(scalar.value, radix: 16, uppercase: true) + "_"
            }
        }
        return result
    }
}
