import Foundation
import PatchManifest

/// What `prepare` changed, kept under `.patch/` so `--revert` can undo it: per user file the hash
/// of the prepared bytes and the insertions made (the untouched original is saved next to it, under
/// `.patch/originals/`), and the generated files.
public struct PrepareState: Codable, Sendable, Equatable {
    public static let directory = ".patch"
    public static let path = ".patch/prepare-state.json"
    public static let baselinePath = ".patch/baseline.json"
    public static let originalsDirectory = ".patch/originals"

    public struct FileRecord: Codable, Sendable, Equatable {
        /// SHA-256 of the file as `prepare` left it: when it still matches, `--revert` restores the
        /// saved original byte for byte.
        public var preparedSHA256: String
        public var insertions: PreparedInsertions

        var jsonValue: JSONValue {
            .object([CodingKeys.preparedSHA256.stringValue: .string(preparedSHA256),
                     CodingKeys.insertions.stringValue: insertions.jsonValue])
        }
    }

    public var files: [String: FileRecord] = [:]
    public var generatedFiles: [String] = []
    /// The targets that compile each generated file (`PreparePlan.generatedFileTargets`): wiring
    /// registers a file in those targets only. A file not listed goes to every target whose source
    /// roots hold it.
    public var generatedFileTargets: [String: [String]] = [:]
    /// Folders `prepare` created for generated files (`Patch/`), removed by `--revert` when empty.
    public var createdDirectories: [String] = []

    public init() {}

    /// Absent lists read as empty, so state files written before a list existed stay readable.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decode([String: FileRecord].self, forKey: .files)
        generatedFiles = try container.decodeIfPresent([String].self, forKey: .generatedFiles) ?? []
        createdDirectories = try container.decodeIfPresent([String].self, forKey: .createdDirectories) ?? []
        generatedFileTargets = try container.decodeIfPresent([String: [String]].self, forKey: .generatedFileTargets) ?? [:]
    }

    public static func originalPath(for file: String) -> String { originalsDirectory + "/" + file }

    public static func decode(_ bytes: [UInt8], path: String) throws(ProjectError) -> PrepareState {
        do {
            return try JSONDecoder().decode(PrepareState.self, from: Data(bytes))
        } catch {
            throw .unreadable(path: path, reason: "not a prepare state file; delete it only if no file is prepared")
        }
    }

    /// Compact canonical JSON with the Codable key names (`decode` reads it with JSONDecoder). Built
    /// as a tree: JSONEncoder took longer than any other step `prepare` does in sequence.
    public func encoded() -> [UInt8] {
        let tree = JSONValue.object([
            CodingKeys.files.stringValue: .object(files.mapValues(\.jsonValue)),
            CodingKeys.generatedFiles.stringValue: .array(generatedFiles.map(JSONValue.string)),
            CodingKeys.createdDirectories.stringValue: .array(createdDirectories.map(JSONValue.string)),
            CodingKeys.generatedFileTargets.stringValue: .object(generatedFileTargets.mapValues { .array($0.map(JSONValue.string)) }),
        ])
        return CanonicalJSON.serialize(tree) + [UInt8(ascii: "\n")]
    }

    /// The state after applying `plan`, and the originals to save (path of the user file → bytes).
    /// A file the user edited since the last run gets a fresh original: its current text with
    /// prepare's edits taken out, so a later `--revert` keeps the user's edits.
    /// `createdDirectories`: folders this run creates (they join the recorded ones).
    public func advanced(by plan: PreparePlan, currentFiles: [String: [UInt8]],
                         createdDirectories: [String] = []) -> (state: PrepareState, originals: [String: [UInt8]]) {
        var next = self
        next.createdDirectories = Array(Set(self.createdDirectories + createdDirectories)).sorted()
        next.generatedFileTargets = plan.generatedFileTargets
        var originals: [String: [UInt8]] = [:]
        var updatedPaths = Set<String>()
        for update in plan.updates {
            updatedPaths.insert(update.path)
            guard let after = update.after else {
                next.generatedFiles.removeAll { $0 == update.path }
                next.files[update.path] = nil
                continue
            }
            if Preparer.isGenerated(after) {
                if !next.generatedFiles.contains(update.path) { next.generatedFiles.append(update.path) }
                continue
            }
            guard let before = update.before else { continue }
            // Hashed once, when the plan was made.
            let preparedHash = plan.preparedHashes[update.path] ?? SHA256Hasher.hex(of: after)
            let newInsertions = plan.insertions[update.path] ?? PreparedInsertions()
            if let record = files[update.path] {
                if SHA256Hasher.hex(of: before) != record.preparedSHA256 {
                    originals[update.path] = Unpreparer.unprepare(before, insertions: record.insertions)
                }
                next.files[update.path] = FileRecord(preparedSHA256: preparedHash, insertions: record.insertions.merged(with: newInsertions))
            } else {
                originals[update.path] = before
                next.files[update.path] = FileRecord(preparedSHA256: preparedHash, insertions: newInsertions)
            }
        }
        for (path, record) in files where !updatedPaths.contains(path) {
            guard let current = currentFiles[path], SHA256Hasher.hex(of: current) != record.preparedSHA256 else { continue }
            originals[path] = Unpreparer.unprepare(current, insertions: record.insertions)
            next.files[path]?.preparedSHA256 = SHA256Hasher.hex(of: current)
        }
        next.generatedFiles.sort()
        return (next, originals)
    }

    /// The updates that undo `prepare`: each recorded file back to its original (exactly, when
    /// untouched since), generated files deleted. `read` returns a file's current bytes or nil.
    public func revertUpdates(read: (String) throws(ProjectError) -> [UInt8]?) throws(ProjectError) -> [PreparePlan.FileUpdate] {
        var updates: [PreparePlan.FileUpdate] = []
        for (path, record) in files.sorted(by: { $0.key < $1.key }) {
            guard let current = try read(path) else { continue }
            let restored: [UInt8]
            if SHA256Hasher.hex(of: current) == record.preparedSHA256, let original = try read(Self.originalPath(for: path)) {
                restored = original
            } else {
                restored = Unpreparer.unprepare(current, insertions: record.insertions)
            }
            if restored != current { updates.append(.init(path: path, before: current, after: restored)) }
        }
        for path in generatedFiles {
            guard let current = try read(path), Preparer.isGenerated(current) else { continue }
            updates.append(.init(path: path, before: current, after: nil))
        }
        return updates
    }
}
