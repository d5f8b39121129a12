/// A `project.pbxproj` held as its bytes plus the parsed tree. Every edit is a byte splice: the bytes
/// outside it are kept exactly (so an unedited document writes back identical bytes), and inserted
/// text is laid out as Xcode lays it out, so opening the project in Xcode produces no diff.
package struct PBXProjDocument: Sendable {
    package private(set) var bytes: [UInt8]
    package private(set) var root: PlistNode
    /// Every comment, in file order (section markers, ID annotations, the `// !$*UTF8*$!` header).
    package private(set) var comments: [PlistComment]

    package init(bytes: [UInt8]) throws(PlistParseError) {
        let (root, comments) = try PlistParser.parse(bytes)
        guard root["objects"]?.entries != nil else { throw PlistParseError(.notAProject, offset: root.range.lowerBound, in: bytes) }
        self.bytes = bytes
        self.root = root
        self.comments = comments
    }

    // MARK: Reading

    /// The `objects` dictionary (checked to exist at init, and every edit keeps it).
    package var objects: PlistNode { root["objects"]! }

    package var rootObjectID: String? { root["rootObject"]?.string }

    package func object(_ id: String) -> PlistNode? { objects[id] }

    package func isa(of id: String) -> String? { objects[id]?["isa"]?.string }

    /// Objects of one `isa`, in file order.
    package func objects(isa: String) -> [(id: String, node: PlistNode)] {
        objects.entries!.compactMap { $0.value["isa"]?.string == isa ? ($0.key, $0.value) : nil }
    }

    package var objectIDs: Set<String> { Set(objects.entries!.map(\.key)) }

    /// A fresh ID derived from `seed` (see `ObjectID`).
    package func newObjectID(seed: String) -> String {
        ObjectID.derive(from: seed, avoiding: objectIDs)
    }

    // MARK: Editing objects

    /// Adds `id = { fields };` to the objects, inside its `/* Begin ISA section */` block in ID order,
    /// creating the block (in ISA order among the others) when the file has none. `fields` must
    /// start with `isa`.
    package mutating func insertObject(id: String, comment: String?, fields: [(key: String, value: PlistText)], singleLine: Bool) {
        precondition(fields.first?.key == "isa", "an object's first field is its isa")
        guard case let .string(isa, _) = fields[0].value else { preconditionFailure("isa is a string") }
        let indent = objectIndentation
        let objectText = String(repeating: "\t", count: indent) + PlistText.quoted(id) + (comment.map { " /* \($0) */" } ?? "")
            + " = " + PlistText.dictionary(fields).rendered(indent: indent, singleLine: singleLine) + ";\n"
        let sections = self.sections
        if let section = sections.first(where: { $0.isa == isa }) {
            let following = objects.entries!.first { $0.keyRange.lowerBound > section.begin.upperBound
                && $0.keyRange.lowerBound < section.end.lowerBound && $0.key > id }
            splice(at: lineStart(of: following?.keyRange.lowerBound ?? section.end.lowerBound), insert: objectText)
            return
        }
        let block = "/* Begin \(isa) section */\n" + objectText + "/* End \(isa) section */\n"
        if let next = sections.first(where: { $0.isa > isa }) {
            splice(at: lineStart(of: next.begin.lowerBound), insert: block + "\n")
        } else {
            splice(at: lineStart(of: objects.range.upperBound - 1), insert: (sections.isEmpty ? "" : "\n") + block)
        }
    }

    /// Removes the object `id` (its whole line or lines), and its section block when that leaves
    /// the block empty. References to it elsewhere are the caller's to remove.
    package mutating func removeObject(id: String) {
        guard let entry = objects.entry(id) else { return }
        let isa = entry.value["isa"]?.string
        splice(remove: removalRange(of: entry.extent))
        guard let section = sections.first(where: { $0.isa == isa }),
              !objects.entries!.contains(where: { section.begin.upperBound < $0.keyRange.lowerBound && $0.keyRange.lowerBound < section.end.lowerBound })
        else { return }
        var range = lineStart(of: section.begin.lowerBound)..<lineEnd(of: section.end.upperBound)
        // The blank line that separated the block from its neighbour goes with it.
        if range.upperBound < bytes.count, bytes[range.upperBound] == UInt8(ascii: "\n") {
            range = range.lowerBound..<(range.upperBound + 1)
        } else if range.lowerBound >= 2, bytes[range.lowerBound - 1] == UInt8(ascii: "\n"), bytes[range.lowerBound - 2] == UInt8(ascii: "\n") {
            range = (range.lowerBound - 1)..<range.upperBound
        }
        splice(remove: range)
    }

    // MARK: Editing values inside an object

    /// Inserts `element` into the array `key` of object `id` at `index` (the end when nil), creating
    /// the key (in Xcode's key order) when the object has none.
    package mutating func insert(_ element: PlistText, intoArray key: String, ofObject id: String, at index: Int? = nil) {
        guard let object = objects[id] else { preconditionFailure("object \(id) exists") }
        guard let array = object[key], let elements = array.elements else {
            set(key, to: .array([element]), inObject: id)
            return
        }
        let position = index.flatMap { $0 < elements.count ? elements[$0].range.lowerBound : nil }
        if isMultiLine(array.range) {
            let closing = array.range.upperBound - 1
            let indent = position.map { indentation(ofLineAt: $0) } ?? indentation(ofLineAt: closing) + 1
            let text = String(repeating: "\t", count: indent) + element.rendered(indent: indent, singleLine: false) + ",\n"
            splice(at: lineStart(of: position ?? closing), insert: text)
        } else {
            // Xcode ends every element with `,`; a list written without the last one gets it first.
            let separator = position == nil && elements.last.map { $0.extent == $0.range } == true ? ", " : ""
            splice(at: position ?? array.range.upperBound - 1, insert: separator + element.rendered(indent: 0, singleLine: true) + ", ")
        }
    }

    /// Removes the elements of array `key` of object `id` that `matching` selects; drops the key
    /// itself when that empties the array and `removingKeyWhenEmpty` (for keys Xcode omits when empty).
    package mutating func removeElements(ofArray key: String, ofObject id: String, removingKeyWhenEmpty: Bool = false,
                                         where matching: (PlistNode) -> Bool) {
        while let array = objects[id]?[key], let element = array.elements?.last(where: matching) {
            splice(remove: removalRange(of: element.extent))
        }
        if removingKeyWhenEmpty, let entry = objects[id]?.entry(key), entry.value.elements?.isEmpty == true {
            splice(remove: removalRange(of: entry.extent))
        }
    }

    /// Adds `key = value;` to object `id` in Xcode's key order (`isa` first, then sorted). The key
    /// must not exist yet.
    package mutating func set(_ key: String, to value: PlistText, inObject id: String) {
        guard let object = objects[id], let entries = object.entries else { preconditionFailure("object \(id) exists") }
        precondition(object.entry(key) == nil, "\(key) is not set yet")
        let following = entries.first { $0.key != "isa" && $0.key > key }
        if isMultiLine(object.range) {
            let indent = following.map { indentation(ofLineAt: $0.keyRange.lowerBound) }
                ?? indentation(ofLineAt: object.range.upperBound - 1) + 1
            let text = String(repeating: "\t", count: indent) + PlistText.entryText(key, value, indent: indent) + "\n"
            splice(at: lineStart(of: following?.keyRange.lowerBound ?? object.range.upperBound - 1), insert: text)
        } else {
            let text = PlistText.quoted(key) + " = " + value.rendered(indent: 0, singleLine: true) + "; "
            splice(at: following?.keyRange.lowerBound ?? object.range.upperBound - 1, insert: text)
        }
    }

    // MARK: Layout

    private struct Section {
        var isa: String
        var begin: Range<Int>
        var end: Range<Int>
    }

    /// The `/* Begin ISA section */ ... /* End ISA section */` blocks inside `objects`, in file order.
    private var sections: [Section] {
        var result: [Section] = []
        var open: [String: Range<Int>] = [:]
        for comment in comments where objects.range.contains(comment.range.lowerBound) && comment.text.hasSuffix(" section") {
            let words = comment.text.split(separator: " ")
            guard words.count == 3 else { continue }
            let isa = String(words[1])
            if words[0] == "Begin" {
                open[isa] = comment.range
            } else if words[0] == "End", let begin = open.removeValue(forKey: isa) {
                result.append(Section(isa: isa, begin: begin, end: comment.range))
            }
        }
        return result
    }

    /// Tabs before the first object in `objects` (Xcode: 2).
    private var objectIndentation: Int {
        objects.entries!.first.map { indentation(ofLineAt: $0.keyRange.lowerBound) } ?? 2
    }

    private func isMultiLine(_ range: Range<Int>) -> Bool {
        bytes[range].contains(UInt8(ascii: "\n"))
    }

    private func lineStart(of offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    /// The offset just past the newline ending the line of `offset` (or the end of the file).
    private func lineEnd(of offset: Int) -> Int {
        var end = offset
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return min(end + 1, bytes.count)
    }

    private func indentation(ofLineAt offset: Int) -> Int {
        var index = lineStart(of: offset), tabs = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: "\t") {
            tabs += 1
            index += 1
        }
        return tabs
    }

    /// What removing `extent` takes out: its whole line(s) when nothing else is on them, otherwise
    /// the extent and the spaces after it (`(a, b, )` loses `a, `).
    private func removalRange(of extent: Range<Int>) -> Range<Int> {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = extent.lowerBound, end = extent.upperBound
        while start > 0, isBlank(bytes[start - 1]) { start -= 1 }
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        let ownsLine = (start == 0 || bytes[start - 1] == UInt8(ascii: "\n")) && (end == bytes.count || bytes[end] == UInt8(ascii: "\n"))
        return ownsLine ? start..<min(end + 1, bytes.count) : extent.lowerBound..<end
    }

    private mutating func splice(at offset: Int, insert text: String) {
        replace(offset..<offset, with: Array(text.utf8))
    }

    private mutating func splice(remove range: Range<Int>) {
        replace(range, with: [])
    }

    /// Applies one splice and re-parses, so ranges are always those of the current bytes.
    private mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
        var edited = bytes
        edited.replaceSubrange(range, with: replacement)
        do {
            (root, comments) = try PlistParser.parse(edited)
            bytes = edited
        } catch {
            preconditionFailure("an edit produced bytes that do not parse (a bug in PBXProjDocument): \(error)")
        }
    }
}
