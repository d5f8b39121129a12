/// A replacement of a byte range of a file. Prepare and init's wiring change user files only through these, so every
/// byte outside the edited ranges (formatting, comments, trivia) stays exactly as the user wrote it.
package struct SourceEdit: Sendable, Equatable {
    package var range: Range<Int>
    package var replacement: String

    package init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    package static func insert(_ text: String, at offset: Int) -> SourceEdit {
        SourceEdit(range: offset..<offset, replacement: text)
    }

    /// Applies non-overlapping edits to `bytes` (in any order).
    package static func apply(_ edits: [SourceEdit], to bytes: [UInt8]) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.utf8.count })
        var cursor = 0
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            result.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
            result.append(contentsOf: edit.replacement.utf8)
            cursor = edit.range.upperBound
        }
        result.append(contentsOf: bytes[cursor...])
        return result
    }
}
