import PatchManifest

/// A function's declaration id and the wasm export names derived from it, per the
/// function-patching convention (docs: conventions of prepare's thunks and build's glue):
/// `PriceCalculator.total(items:discount:)` → `_pf_PriceCalculator_total__items_discount`.
public struct GuestExportName: Sendable, Hashable, CustomStringConvertible {
    /// Enclosing type names, outermost first; empty for a top-level function.
    public var typePath: [String]
    public var baseName: String
    /// Argument labels in order, `_` for an unlabeled parameter.
    public var labels: [String]
    /// The getter of the computed property `baseName` (`PatchNames.propertyKey`), not a function.
    public var isGetter: Bool
    /// The setter of the computed property `baseName`: built beside its getter when the property
    /// has a `set` (`GuestSourceGenerator.generate`); its declaration id is the property's.
    public var isSetter = false

    public init(typePath: [String], baseName: String, labels: [String], isGetter: Bool = false) {
        self.typePath = typePath
        self.baseName = baseName
        self.labels = labels
        self.isGetter = isGetter
    }

    /// Parses `Type.Path.name(label:_:)`, or a computed property's `Type.Path.name`; nil when the
    /// text is of neither shape.
    public init?(declarationID text: String) {
        guard text.contains("(") else {
            let path = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let base = path.last, path.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else { return nil }
            self.init(typePath: Array(path.dropLast()), baseName: base, labels: [], isGetter: true)
            return
        }
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
        let path = text[..<open].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let base = path.last, !base.isEmpty, path.allSatisfy({ !$0.isEmpty }) else { return nil }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        var labels: [String] = []
        if !inner.isEmpty {
            guard inner.hasSuffix(":") else { return nil }
            labels = inner.dropLast().split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard labels.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { return nil }
        }
        self.init(typePath: Array(path.dropLast()), baseName: base, labels: labels)
    }

    public var declarationID: String {
        let prefix = typePath.isEmpty ? "" : typePath.joined(separator: ".") + "."
        return prefix + baseName + (isGetter || isSetter ? "" : "(" + labels.map { $0 + ":" }.joined() + ")")
    }

    public var description: String { declarationID }

    private var symbolSuffix: String {
        var suffix = typePath.map { $0 + "__" }.joined() + baseName
        for label in labels { suffix += label == "_" ? "_" : "_" + label }
        return isSetter ? suffix + "_set" : isGetter ? suffix + "_get" : suffix
    }

    /// The setter of the property whose getter this names.
    var setter: GuestExportName {
        var name = self
        name.isGetter = false
        name.isSetter = true
        return name
    }

    /// The packed-JSON export `(i32 ptr, i32 len) -> i64`: the name `prepare`'s thunk calls through
    /// `Patch.shared.callJSON` (`PatchNames.functionExport`).
    public var jsonSymbol: String {
        if isSetter { return PatchNames.propertySetterExport(typePath: typePath, name: baseName) }
        if isGetter { return PatchNames.propertyGetterExport(typePath: typePath, name: baseName) }
        return PatchNames.functionExport(typePath: typePath, baseName: baseName, argumentLabels: labels.map { $0 == "_" ? nil : $0 })
    }

    /// The scalar fast-path export, generated only when every parameter and the result are scalars.
    public var scalarSymbol: String { "patch_fns__" + symbolSuffix }
}
