import PatchManifest
import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// What `prepare --check` (the CI gate) finds in a project, worst first: each finding is a distinct
/// error kind with its own exit code (docs/cli.md), because each asks for a different fix — and on a
/// patch branch, running `prepare` would be the wrong one (it re-baselines and loses the patch).
public enum PrepareCheckFinding: Sendable, Equatable {
    /// A generated file, or a file's generated section, does not parse: the app would not compile.
    case generatedUnparsable(path: String, line: Int, message: String)
    /// No `.patch/baseline.json`: `prepare` never ran here (or its baseline was not committed).
    case notPrepared
    /// The baseline cannot be read, or records the sources' declarations exactly but differs in
    /// another respect (their files, its format): prepare would rewrite it, losing nothing.
    case baselineStale(reason: String)
    /// Declarations differ from the baseline: this branch is a patch of the shipped build.
    case sourcesChanged(changedDeclarations: [String])
    /// The baseline matches, but sources or generated files are not as `prepare` would leave them.
    case prepareNeeded(paths: [String])
    /// Everything is prepared, but the Xcode project does not compile some generated file in exactly
    /// the targets that need it.
    case generatedFilesUnregistered([GeneratedFileRegistration])
}

extension PrepareSession {
    /// The `--check` verdict, nil when the project is prepared exactly as `prepare` would leave it.
    public func checkFinding() throws(ProjectError) -> PrepareCheckFinding? {
        for (path, bytes) in generatedFiles.sorted(by: { $0.key < $1.key }) {
            if let problem = Self.firstParseError(bytes) {
                return .generatedUnparsable(path: path, line: problem.line, message: problem.message)
            }
        }
        guard let committed = currentBaseline else { return .notPrepared }
        let recorded: Baseline
        do {
            recorded = try Baseline(json: try JSONValue.parse(committed))
        } catch {
            return .baselineStale(reason: "\(PrepareState.baselinePath) cannot be read: \(error)")
        }
        let changed = Self.changedDeclarations(recorded: recorded, current: plan.baseline)
        if !changed.isEmpty { return .sourcesChanged(changedDeclarations: changed) }
        if committed != plan.baselineBytes {
            return .baselineStale(reason: "\(PrepareState.baselinePath) records the same declarations but not as this patchcli writes them (a declaration moved to another file, or an older format)")
        }
        if !updates.isEmpty { return .prepareNeeded(paths: updates.map(\.path)) }
        // Last: `prepare` would also register what it creates, so a missing file is `prepareNeeded`.
        let mismatches = try registrationMismatches()
        return mismatches.isEmpty ? nil : .generatedFilesUnregistered(mismatches)
    }

    /// Ids of declarations, and of assets (docs/assets.md), added, removed or changed (by content
    /// hash) since the baseline. Assets only when the baseline records some: one written before
    /// patchcli recorded them is an older format (`baselineStale`), not a patch.
    static func changedDeclarations(recorded: Baseline, current: Baseline) -> [String] {
        var before = Dictionary(recorded.declarations.map { ($0.id, $0.contentHash) }, uniquingKeysWith: { first, _ in first })
        var after = Dictionary(current.declarations.map { ($0.id, $0.contentHash) }, uniquingKeysWith: { first, _ in first })
        if !recorded.assets.isEmpty {
            before.merge(recorded.assets.map { ($0.id, $0.contentHash) }) { first, _ in first }
            after.merge(current.assets.map { ($0.id, $0.contentHash) }) { first, _ in first }
        }
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// The parser's first diagnostic in a file and its 1-based line, nil when it parses.
    static func firstParseError(_ bytes: [UInt8]) -> (line: Int, message: String)? {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        guard tree.hasError else { return nil }
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        guard let diagnostic = ParseDiagnosticsGenerator.diagnostics(for: tree).first(where: { $0.diagMessage.severity == .error }) else {
            return (1, "does not parse as Swift")
        }
        return (diagnostic.location(converter: converter).line, diagnostic.message)
    }
}
