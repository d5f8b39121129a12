/// The one naming rule for everything `prepare` routes and `build` exports, so the literal a thunk
/// passes to the SDK always equals the name the module's manifest declares (sdk-contract §5.1, §5.3).
///
/// A declaration is named by its path of enclosing types as written in source: `Outer.Inner` for a
/// type nested in `Outer`, generic parameters dropped (`List<T>` is `List`: one body implementation
/// serves every specialization), backticks removed. The sanitized name joins the components with
/// `_` and keeps ASCII letters, digits and `_`; any other character becomes `_uXXXX_` (its Unicode
/// scalar in hex). Plain top-level names are therefore used verbatim (`Banner`), as the SDK expects.
/// The rule is not injective (`Outer.Inner` and a top-level `Outer_Inner` both give `Outer_Inner`;
/// views of two targets share one namespace), so callers must check `collisions(in:)` and refuse
/// to route colliding names rather than let one view receive another's module code.
public enum PatchNames {
    /// The `typeName` literal of a view thunk and the manifest `type` (§5.3).
    public static func viewTypeName(path: [String]) -> String {
        path.map(sanitizedComponent).joined(separator: "_")
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

    /// One sanitized name claimed by more than one declaration.
    public struct Collision: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        /// Where each claimant is declared, e.g. `App/Sources/App/Rows.swift: Outer.Inner`.
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
