/// A parsed JSON document for the JSON bridges (`json_get_*`, `json_canonicalize`, `analytics_track`).
///
/// Parsed by `JSONReader` rather than `JSONSerialization`, which bridges numbers and booleans
/// through `NSNumber` differently on Darwin and Linux: `json_get_bool` must not read the integer 1 as
/// `true` on either.
enum BridgeJSON: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([BridgeJSON])
    case object([String: BridgeJSON])

    /// Parses any JSON text, top-level fragments included; nil when it is not valid JSON.
    static func parse(_ bytes: [UInt8]) -> BridgeJSON? {
        JSONReader<BridgeJSON>.parse(bytes)
    }

    /// The value under `key` when the document is an object.
    subscript(key: String) -> BridgeJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Compact JSON with object keys sorted by code point, `/` unescaped, integral numbers without a
    /// fraction — the stand-in for `JSONSerialization` with `.sortedKeys`.
    var canonicalText: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += BridgeJSON.numberText(value)
        case .string(let value): BridgeJSON.writeQuoted(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { output += "," }
                BridgeJSON.writeQuoted(key, to: &output)
                output += ":"
                members[key]?.write(to: &output)
            }
            output += "}"
        }
    }

    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15, let integer = Int64(exactly: value) {
            return String(integer)
        }
        return String(value)
    }

    private static func writeQuoted(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// How `analytics_track` coerces a prop to a string: strings verbatim, everything else as JSON text.
    var propertyText: String {
        if case .string(let text) = self { return text }
        return canonicalText
    }
}

extension BridgeJSON: JSONReadable {
    static var jsonNull: BridgeJSON { .null }
    static func json(_ flag: Bool) -> BridgeJSON { .bool(flag) }
    static func json(_ integer: Int64) -> BridgeJSON { .integer(integer) }
    static func json(_ number: Double) -> BridgeJSON { .number(number) }
    static func json(_ text: String) -> BridgeJSON { .string(text) }
    static func json(_ elements: [BridgeJSON]) -> BridgeJSON { .array(elements) }
    static func json(members: [(key: String, value: BridgeJSON)]) -> BridgeJSON {
        .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
    }
}
