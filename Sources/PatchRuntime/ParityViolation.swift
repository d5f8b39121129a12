/// One reason the device runtime would refuse a module, naming the offending item.
public struct ParityViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Rule: String, Sendable, Codable {
        case malformedModule = "malformed_module"
        case multipleMemories = "multiple_memories"
        case missingMemoryExport = "missing_memory_export"
        case unsupportedFeature = "unsupported_feature"
        case unservedImport = "unserved_import"
        case importSignatureMismatch = "import_signature_mismatch"
        case unsupportedImportKind = "unsupported_import_kind"
        case invalidFunction = "invalid_function"
    }

    public var rule: Rule
    /// The offending item: an import `module.name`, a feature name, a function name, `memory`…
    public var item: String
    public var detail: String

    public init(rule: Rule, item: String, detail: String) {
        self.rule = rule
        self.item = item
        self.detail = detail
    }

    /// Import problems get their own exit code: the fix is on the host/bridge side or in the import list.
    public var isImportProblem: Bool {
        [.unservedImport, .importSignatureMismatch, .unsupportedImportKind].contains(rule)
    }

    public var description: String { "\(rule.rawValue): \(item): \(detail)" }
}
