/// The canonical JSON form TUF signs (OLPC canonical JSON as securesystemslib's `encode_canonical`
/// writes it): object keys sorted by code point, no whitespace, integers in decimal, and strings
/// escaped only for `"` and `\` — every other character, control characters included, is its raw UTF-8.
///
/// Canonical bytes are what signatures and hashes of a tree cover, but they are not always valid
/// JSON: a string holding a control character (a newline in release notes) stays raw, which strict
/// parsers reject. Files are therefore written with `serialize`, which escapes control characters
/// and is otherwise identical.
public enum CanonicalJSON {
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output, escapingControlCharacters: false)
        return output
    }

    /// Compact JSON with sorted keys, safe for any parser: the file form of metadata and records.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output, escapingControlCharacters: true)
        return output
    }

    private static func append(_ value: JSONValue, to output: inout [UInt8], escapingControlCharacters escape: Bool) {
        switch value {
        case .null: output += Array("null".utf8)
        case let .bool(flag): output += Array((flag ? "true" : "false").utf8)
        case let .integer(number): output += Array(String(number).utf8)
        case let .string(text): appendString(text, to: &output, escapingControlCharacters: escape)
        case let .array(elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                append(element, to: &output, escapingControlCharacters: escape)
            }
            output.append(UInt8(ascii: "]"))
        case let .object(members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in sortedKeys(members).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendString(key, to: &output, escapingControlCharacters: escape)
                output.append(UInt8(ascii: ":"))
                // The key comes from `members`, so the lookup cannot miss.
                append(members[key] ?? .null, to: &output, escapingControlCharacters: escape)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// One string as `serialize` (or, without `escapingControlCharacters`, `encode`) writes it: for
    /// callers that write a fixed shape straight to bytes.
    static func appendString(_ text: String, to output: inout [UInt8], escapingControlCharacters escape: Bool = true) {
        output.append(UInt8(ascii: "\""))
        func needsEscape(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escape && byte < 0x20)
        }
        var text = text
        text.withUTF8 { bytes in
            // Most strings (ids, hashes, paths) need no escaping: checked in one pass and copied whole.
            guard bytes.contains(where: needsEscape) else { return output.append(contentsOf: bytes) }
            for byte in bytes {
                if !needsEscape(byte) {
                    output.append(byte)
                } else if byte < 0x20 {
                    output += Array("\\u00\(Hex.encode([byte]))".utf8)
                } else {
                    output += [UInt8(ascii: "\\"), byte]
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Python's `sorted()` on str compares code points; Swift's `String <` does not (it compares
    /// by canonical equivalence). UTF-8 bytes sort in code point order, and compare faster.
    static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { left, right in left.utf8.lexicographicallyPrecedes(right.utf8) }
    }
}
