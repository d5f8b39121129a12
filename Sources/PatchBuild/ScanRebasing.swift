import ProjectWiring

/// The byte edit prepare makes (ProjectWiring's; SwiftSyntax declares another `SourceEdit`).
typealias SourceEdit = ProjectWiring.SourceEdit

/// The scan of a file after `prepare`'s edits, derived from the scan before them, so the scan cache
/// holds the prepared file too and a re-run parses nothing (a prepared file is what the next run
/// reads). `prepare`'s edits never add lines and never touch declarations' hashed tokens, so only
/// byte offsets and the "already prepared" facts change. Tests check the result equals a fresh scan.
extension FileScan {
    func applying(_ edits: [SourceEdit]) -> FileScan {
        var scan = self
        scan.bodies = bodies.map { body in
            var body = body
            if let rename = edits.first(where: { $0.range == body.nameRange }) {
                let start = Self.mapStart(body.nameRange.lowerBound, through: edits)
                body.nameRange = start..<(start + rename.replacement.utf8.count)
                body.isPrepared = rename.replacement == PreparedNames.nativeBody
            } else {
                body.nameRange = Self.mapStart(body.nameRange.lowerBound, through: edits)..<Self.mapEnd(body.nameRange.upperBound, through: edits)
            }
            body.viewBuilderRange = body.viewBuilderRange.map { Self.mapStart($0.lowerBound, through: edits)..<Self.mapEnd($0.upperBound, through: edits) }
            body.mainActorRange = body.mainActorRange.map { Self.mapStart($0.lowerBound, through: edits)..<Self.mapEnd($0.upperBound, through: edits) }
            let insertionPoint = Self.mapStart(body.attributeInsertion, through: edits)
            if let insertion = edits.first(where: { $0.range == body.attributeInsertion..<body.attributeInsertion }) {
                let textStart = insertionPoint - insertion.replacement.utf8.count
                body.viewBuilderRange = Self.range(of: "@ViewBuilder ", in: insertion.replacement, at: textStart) ?? body.viewBuilderRange
                body.mainActorRange = Self.range(of: "@MainActor ", in: insertion.replacement, at: textStart) ?? body.mainActorRange
            }
            body.attributeInsertion = insertionPoint
            return body
        }
        scan.functions = functions.map { function in
            var function = function
            let insertionPoint = Self.mapStart(function.dynamicInsertion, through: edits)
            if let range = function.dynamicRange, edits.contains(where: { $0.range == range && $0.replacement.isEmpty }) {
                // `dynamic` taken back out of a function no longer routed.
                function.isDynamic = false
                function.dynamicRange = nil
            }
            function.dynamicRange = function.dynamicRange.map { Self.mapStart($0.lowerBound, through: edits)..<Self.mapEnd($0.upperBound, through: edits) }
            if let insertion = edits.first(where: { $0.range == function.dynamicInsertion..<function.dynamicInsertion }) {
                function.dynamicRange = (insertionPoint - insertion.replacement.utf8.count)..<insertionPoint
                function.isDynamic = true
            }
            function.dynamicInsertion = insertionPoint
            Self.rebaseAccessKeywords(of: &function, through: edits)
            Self.rebasePrologue(of: &function, through: edits)
            return function
        }
        return scan
    }

    /// A `private` widened to `fileprivate` (`file` inserted before it), or a `fileprivate` that prepare
    /// had widened narrowed back (its `file` removed), moves the keyword to the other field.
    private static func rebaseAccessKeywords(of function: inout FunctionCandidate, through edits: [SourceEdit]) {
        let privateKeyword = function.privateKeyword
        let fileprivateKeyword = function.fileprivateKeyword
        function.privateKeyword = privateKeyword.map { mapStart($0, through: edits) }
        function.fileprivateKeyword = fileprivateKeyword.map { mapStart($0, through: edits) }
        if let keyword = privateKeyword, edits.contains(where: { $0.range == keyword..<keyword && $0.replacement == PrivateMemberWidening.insertion }) {
            function.fileprivateKeyword = mapStart(keyword, through: edits) - PrivateMemberWidening.insertion.utf8.count
            function.privateKeyword = nil
        }
        if let keyword = fileprivateKeyword,
           edits.contains(where: { $0.range == PrivateMemberWidening.insertedRange(fileprivateKeyword: keyword) && $0.replacement.isEmpty }) {
            function.privateKeyword = mapStart(keyword, through: edits)
            function.fileprivateKeyword = nil
        }
    }

    /// An async function's `AsyncPrologue` inserted after its `{` (`" "` and the statement, and
    /// `return ` before a single expression), rewritten in place, or taken out.
    private static func rebasePrologue(of function: inout FunctionCandidate, through edits: [SourceEdit]) {
        guard let insertion = function.prologueInsertion else { return }
        let mapped = mapStart(insertion, through: edits)
        function.prologueInsertion = mapped
        let returnInsertion = function.prologueReturnInsertion
        function.prologueReturnInsertion = returnInsertion.map { mapStart($0, through: edits) }
        if let inserted = edits.first(where: { $0.range == insertion..<insertion && $0.replacement.hasPrefix(" " + AsyncPrologue.opening) }) {
            // The insertion went in front of the token after `{`: the insertion point stays before it.
            let start = mapped - inserted.replacement.utf8.count
            function.prologueInsertion = start
            function.prologue = AsyncPrologue.Found(range: (start + 1)..<mapped, text: String(inserted.replacement.dropFirst()), removalRange: start..<mapped)
            if let returnInsertion, let returnStart = function.prologueReturnInsertion,
               edits.contains(where: { $0.range == returnInsertion..<returnInsertion && $0.replacement == AsyncPrologue.insertedReturn }) {
                function.prologue?.insertedReturn = (returnStart - AsyncPrologue.insertedReturn.utf8.count)..<returnStart
                function.prologueReturnInsertion = nil
            }
            return
        }
        guard let prologue = function.prologue else { return }
        if edits.contains(where: { $0.range == prologue.removalRange && $0.replacement.isEmpty }) {
            function.prologue = nil
            // The body is a single expression again, where its `return` was.
            function.prologueReturnInsertion = prologue.insertedReturn.map { mapStart($0.lowerBound, through: edits) }
            return
        }
        // Moved, or rewritten in place (an edit of exactly its range: `mapEnd` counts it).
        let start = mapStart(prologue.removalRange.lowerBound, through: edits)
        let end = mapEnd(prologue.range.upperBound, through: edits)
        function.prologue = AsyncPrologue.Found(range: (start + prologue.range.lowerBound - prologue.removalRange.lowerBound)..<end,
                                                text: edits.first { $0.range == prologue.range }?.replacement ?? prologue.text,
                                                removalRange: start..<end,
                                                insertedReturn: prologue.insertedReturn.map { mapStart($0.lowerBound, through: edits)..<mapStart($0.upperBound, through: edits) })
    }

    /// Where the token starting at `offset` lands: after every edit that ends at or before it
    /// (an insertion at `offset` goes in front of the token).
    private static func mapStart(_ offset: Int, through edits: [SourceEdit]) -> Int {
        offset + edits.filter { $0.range.upperBound <= offset }.reduce(0) { $0 + $1.replacement.utf8.count - $1.range.count }
    }

    /// Where a range ending at `offset` ends: an insertion exactly at `offset` comes after it.
    private static func mapEnd(_ offset: Int, through edits: [SourceEdit]) -> Int {
        offset + edits.filter { $0.range.upperBound < offset || ($0.range.upperBound == offset && !$0.range.isEmpty) }
            .reduce(0) { $0 + $1.replacement.utf8.count - $1.range.count }
    }

    private static func range(of attribute: String, in inserted: String, at textStart: Int) -> Range<Int>? {
        GeneratedSection.firstRange(of: Array(attribute.utf8), in: Array(inserted.utf8))
            .map { (textStart + $0.lowerBound)..<(textStart + $0.upperBound) }
    }
}
