import ProjectWiring
import SwiftParser
import SwiftSyntax

/// Takes `prepare`'s edits back out of a file the user changed after it was prepared (when it was not
/// changed, `--revert` restores the saved original bytes instead): renames `__patch_native_body`
/// back to `body`, removes the `@ViewBuilder`, `@MainActor` and `dynamic` that `prepare` inserted and
/// the `file` of a `private` member it widened (recorded in `PreparedInsertions`), and the generated section. Everything else stays as the user left it.
public enum Unpreparer {
    public static func unprepare(_ bytes: [UInt8], insertions: PreparedInsertions) -> [UInt8] {
        let (userBytes, _) = GeneratedSection.split(bytes)
        let tree = userBytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        let scan = SourceScanner.scan(tree, source: userBytes)
        var edits: [SourceEdit] = []
        for body in scan.bodies where body.isPrepared {
            edits.append(SourceEdit(range: body.nameRange, replacement: "body"))
            let owner = body.ownerPath.joined(separator: ".")
            if insertions.viewBuilderOwners.contains(owner), let range = body.viewBuilderRange {
                edits.append(SourceEdit(range: range, replacement: ""))
            }
            if insertions.mainActorOwners.contains(owner), let range = body.mainActorRange {
                edits.append(SourceEdit(range: range, replacement: ""))
            }
        }
        for function in scan.functions { edits += insertions.removalEdits(for: function) }
        return SourceEdit.apply(edits, to: userBytes)
    }
}
