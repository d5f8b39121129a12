/// Rewrites the views `build` lowers so that their host reads come from the tokens the shipped thunk
/// passes: each token expression becomes its guest read (`ViewToken.guestRead`), each native-only
/// leaf the slot that stands for it (`_PatchOpaque`), and each host property declaration is
/// blanked. Edits keep the lines (a replacement is followed by the newlines of the text it
/// replaces, blanking keeps every newline), so `#sourceLocation` and diagnostics still point at the
/// project's file:line; the rewritten sources are indexed again, and the generator copies them.
enum ViewTokenRewrite {
    struct Outcome {
        var index: GuestSourceIndex
        /// Views whose host reads cannot lower, or need a token the shipped thunk lacks.
        var unpatchable: [GuestUnpatchable]
        /// The requests, with the types of the JSON tokens each view reads (`jsonTokenTypes`).
        var views: [GuestViewRequest]
    }

    static func apply(to index: GuestSourceIndex, views: [GuestViewRequest]) -> Outcome {
        let analysis = ViewTokenAnalysis(index: index)
        let earlierAnalysis = analysis.passingNoValues()
        var edits: [Int: [(range: Range<Int>, text: String?)]] = [:]
        var unpatchable: [GuestUnpatchable] = []
        var views = views
        for (position, request) in views.enumerated() {
            guard let type = index.lookupType(path: request.path) else { continue }
            var table: ViewTokenTable
            switch analysis.analyze(type: type) {
            case .failure(let problem):
                unpatchable.append(GuestUnpatchable(declarationID: request.declarationID, reason: .viewNotLowerable,
                                                    detail: problem.detail, location: problem.location))
                continue
            case .success(let found):
                table = found
            }
            guard !table.isEmpty else { continue }
            let shipped = Dictionary(request.shippedTokens.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first })
            // Each use reads its token, or through a JSON value the shipped thunk passes instead
            // (`model.settings.theme` from the `model.settings` it passes).
            func shippedReads(of table: ViewTokenTable) -> [(token: ViewToken, range: Range<Int>)?] {
                table.uses.map { use in
                    if shipped[use.token.id] == use.token.kind { return (use.token, use.range) }
                    return use.alternatives.first { shipped[$0.token.id] == .json }
                }
            }
            var reads = shippedReads(of: table)
            // A thunk an earlier `prepare` generated passes as slots what reads of values are now:
            // the body ships with those slots when they are all it needs.
            if reads.contains(where: { $0 == nil }), !request.shippedTokens.contains(where: { $0.kind == .json }),
               case .success(let earlier) = earlierAnalysis.analyze(type: type), !shippedReads(of: earlier).contains(where: { $0 == nil }) {
                table = earlier
                reads = shippedReads(of: earlier)
            }
            if let missing = zip(table.uses, reads).first(where: { $0.1 == nil })?.0 {
                let passed = request.shippedTokens.map { "`\($0.expression)`" }.joined(separator: ", ")
                let what = missing.token.kind == .slot
                    ? "uses the native view `\(missing.token.expression)`, a slot" : "reads `\(missing.token.expression)`, a host value"
                unpatchable.append(GuestUnpatchable(
                    declarationID: request.declarationID, reason: .viewNeedsNewHostValue,
                    detail: "\(what) the shipped thunk does not pass (it passes \(passed.isEmpty ? "none" : passed)); ship a new app build to read it",
                    location: GuestSourceLocation(file: index.files[missing.file].relativePath, line: missing.line)))
                continue
            }
            for case let (use, read?) in zip(table.uses, reads) { edits[use.file, default: []].append((read.range, read.token.guestRead)) }
            views[position].jsonTokenTypes = Array(Set(reads.compactMap { $0?.token }.filter { $0.type == .json }.map(\.jsonType))).sorted()
            for property in table.hostProperties { edits[property.file, default: []].append((property.range, nil)) }
        }
        guard !edits.isEmpty else { return Outcome(index: index, unpatchable: unpatchable, views: views) }
        let sources = index.files.enumerated().map { position, file in
            (file.relativePath, edits[position].map { rewritten(Array(file.tree.description.utf8), $0) } ?? file.tree.description)
        }
        return Outcome(index: GuestSourceIndex(sources: sources, platform: index.platform), unpatchable: unpatchable, views: views)
    }

    /// `bytes` with each range replaced by its text, or blanked (newlines kept) when the text is nil.
    private static func rewritten(_ bytes: [UInt8], _ edits: [(range: Range<Int>, text: String?)]) -> String {
        var bytes = bytes
        // Views calling one extension member (`Text.style(appStyle:)`) each ask for its reads of the
        // app's colors (`ViewDesignColors`), which are the same edits: each range is rewritten once.
        var rewrittenRanges: Set<Range<Int>> = []
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) where rewrittenRanges.insert(edit.range).inserted {
            let newlines = bytes[edit.range].filter { $0 == UInt8(ascii: "\n") }
            let replacement = edit.text.map { Array($0.utf8) + newlines }
                ?? bytes[edit.range].map { $0 == UInt8(ascii: "\n") ? $0 : UInt8(ascii: " ") }
            bytes.replaceSubrange(edit.range, with: replacement)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
