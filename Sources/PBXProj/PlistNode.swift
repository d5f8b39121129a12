/// One value of an OpenStep property list (the format of `project.pbxproj`), with the byte range it
/// occupies in the file it was parsed from, so edits can splice bytes instead of re-serialising.
package struct PlistNode: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A quoted or bare string, unescaped.
        case string(String)
        case array([PlistNode])
        case dictionary([PlistEntry])
    }

    /// Bytes of the value itself: a string's quotes included, a container from its opening to its
    /// closing bracket. Comments after the value are not part of it.
    package var range: Range<Int>
    package var kind: Kind
    /// For array elements: the range from the element through the `,` that ends it (comments between
    /// the two included), which is what removing the element takes out. Equal to `range` otherwise.
    package var extent: Range<Int>

    package var string: String? { if case let .string(value) = kind { value } else { nil } }
    package var elements: [PlistNode]? { if case let .array(value) = kind { value } else { nil } }
    package var entries: [PlistEntry]? { if case let .dictionary(value) = kind { value } else { nil } }

    /// The value of `key` in a dictionary (the first one, should a file repeat a key).
    package subscript(key: String) -> PlistNode? {
        entries?.first { $0.key == key }?.value
    }

    /// The entry for `key` in a dictionary, with its byte ranges.
    package func entry(_ key: String) -> PlistEntry? {
        entries?.first { $0.key == key }
    }

    /// A string array's strings (elements that are not strings are skipped).
    package var strings: [String] { elements?.compactMap(\.string) ?? [] }
}

/// `key = value;` inside a dictionary.
package struct PlistEntry: Sendable, Equatable {
    package var key: String
    package var keyRange: Range<Int>
    package var value: PlistNode
    /// From the first byte of the key through the `;`.
    package var extent: Range<Int>
}

/// A `/* ... */` or `// ...` comment, kept because `/* Begin ISA section */` markers are comments.
package struct PlistComment: Sendable, Equatable {
    /// The text between the delimiters, trimmed of surrounding spaces.
    package var text: String
    package var range: Range<Int>
}
