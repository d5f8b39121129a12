import SwiftSyntax

/// `private` members of types are routed by widening them to `fileprivate` (docs/prepare.md "Private
/// members"). Swift finds no `private` member for `@_dynamicReplacement(for:)`, not even from an
/// extension in the same file ("replaced function could not be found"), but finds `fileprivate` ones;
/// and within its file `fileprivate` differs from `private` only in which code may name the member.
/// `prepare` inserts the 4 bytes `file` before `private` (recorded in `PreparedInsertions.widenedMembers`,
/// so `--revert` takes exactly them out); the content hash reads `fileprivate` as `private`
/// (`ContentHash`), so a prepared file's baseline is the original's.
///
/// Where naming the member from more of the file could change or break the program, it is refused:
/// - a subclass in the same file declares a member of the same name: it would now override it
///   (and need `override`) instead of declaring its own (`overrideConflicts`);
/// - the type has another member of the same name and argument labels (in another file, or another
///   `#if` clause): code of this file outside the type's scope that resolved the call to that one
///   by scope would now also see this one (`Planner.wideningReason`);
/// - a protocol the type conforms to (in the target) has a member of the same name and labels in an
///   extension of the target: code of this file outside the type calling it on the type would now
///   call this one (a protocol of another module is not seen).
/// A `private` member that matches a protocol requirement is already an error ("must be declared
/// fileprivate because it matches a requirement"), so widening never makes a new witness. Two
/// `private` members of one type with the same signature are already a redeclaration error.
enum PrivateMemberWidening {
    /// What `prepare` inserts before `private`.
    static let insertion = "file"

    /// The offset of the declaration's own `private` keyword (not `private(set)`, which limits only
    /// the setter: Swift replaces such a setter as it is).
    static func privateKeyword(_ modifiers: DeclModifierListSyntax) -> Int? {
        keyword(.private, in: modifiers)
    }

    /// The offset of the declaration's own `fileprivate` keyword (not `fileprivate(set)`).
    static func fileprivateKeyword(_ modifiers: DeclModifierListSyntax) -> Int? {
        keyword(.fileprivate, in: modifiers)
    }

    private static func keyword(_ keyword: Keyword, in modifiers: DeclModifierListSyntax) -> Int? {
        modifiers.first { $0.name.tokenKind == .keyword(keyword) && $0.detail == nil }?.name.positionAfterSkippingLeadingTrivia.utf8Offset
    }

    /// The range of the `file` that `prepare` inserted before `private`, given the `fileprivate` keyword.
    static func insertedRange(fileprivateKeyword: Int) -> Range<Int> {
        fileprivateKeyword..<(fileprivateKeyword + insertion.utf8.count)
    }

    /// Sets `wideningReason` of the file's `private` and `fileprivate` class members that a subclass
    /// declared in the same file (directly or through other classes of the file) declares a member of
    /// the same name of: widening the superclass's would make the subclass's an override.
    static func overrideConflicts(in scan: inout FileScan) {
        let classes = scan.types.filter { $0.kind == .classType }
        guard classes.count > 1 else { return }
        for index in scan.functions.indices where !scan.functions[index].ownerPath.isEmpty
            && (scan.functions[index].privateKeyword != nil || scan.functions[index].fileprivateKeyword != nil) {
            let function = scan.functions[index]
            var subclasses: [DeclaredType] = []
            var frontier = [function.ownerPath]
            while let superclass = frontier.popLast() {
                for type in classes where !subclasses.contains(where: { $0.path == type.path }) && Self.inherits(type, from: superclass) {
                    subclasses.append(type)
                    frontier.append(type.path)
                }
            }
            for subclass in subclasses {
                let declares = scan.functions.contains { $0.ownerPath == subclass.path && $0.baseName == function.baseName }
                    || subclass.storedProperties.properties.contains { $0.name == function.baseName }
                if declares {
                    scan.functions[index].wideningReason = "its subclass `\(subclass.path.joined(separator: "."))` (line \(subclass.line)) declares a member named `\(function.baseName)`: widening this `private` member to `fileprivate` (how prepare routes it) would make that one an override; rename one of them or make this one `fileprivate` with an `override` there"
                    break
                }
            }
        }
    }

    /// A class's superclass is the first type of its inheritance clause, written as its full path or
    /// its last name (a nested class named from inside its enclosing type).
    private static func inherits(_ type: DeclaredType, from superclass: [String]) -> Bool {
        guard let written = type.inheritedTypes.first else { return false }
        return written == superclass.joined(separator: ".") || written == superclass.last
    }
}
