import Foundation

/// A JSON value that keeps what JSONSerialization blurs on Linux: booleans apart from numbers, and
/// each number's text (so "at most 3 decimals" is checked on the digits printed, not on a Double).
public indirect enum SchemaJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([SchemaJSON])
    case object([String: SchemaJSON])

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses one JSON document (RFC 8259), with nothing but white space around it.
    public static func parse(_ text: String) throws -> SchemaJSON {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.failure("trailing characters") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func failure(_ what: String) -> ParseError { ParseError(description: "\(what) at byte \(index)") }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String, _ value: SchemaJSON) throws -> SchemaJSON {
            let expected = Array(word.utf8)
            guard bytes[index...].starts(with: expected) else { throw failure("expected \(word)") }
            index += expected.count
            return value
        }

        mutating func value() throws -> SchemaJSON {
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var items: [SchemaJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard index < bytes.count else { throw failure("unterminated array") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "]") { return .array(items) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw failure("expected , or ]") }
                }
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: SchemaJSON] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected :") }
                    index += 1
                    guard members.updateValue(try value(), forKey: key) == nil else { throw failure("duplicate key \(key)") }
                    skipSpace()
                    guard index < bytes.count else { throw failure("unterminated object") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw failure("expected , or }") }
                }
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                guard text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil else { throw failure("bad number \(text)") }
                return .number(text)
            }
        }

        /// A string token; escapes are decoded by JSONSerialization on the token alone.
        mutating func string() throws -> String {
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { throw failure("unterminated string") }
            index += 1
            let token = Data(bytes[start..<index])
            guard let decoded = try? JSONSerialization.jsonObject(with: token, options: .fragmentsAllowed) as? String else {
                throw failure("bad string")
            }
            return decoded
        }
    }
}

/// Validates JSON against a subset of JSON Schema (2020-12): the one docs/cli-envelope.schema.json uses,
/// which is also what `assets.configFiles[].schema` may use (docs/assets.md).
/// A keyword outside the subset is reported as an error rather than ignored, so the schema cannot
/// come to say more than the tests check.
public struct JSONSchemaSubset: Sendable {
    public let root: SchemaJSON

    public init(root: SchemaJSON) {
        self.root = root
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
    private static let keywords: Set<String> = [
        "$ref", "oneOf", "anyOf", "type", "const", "properties", "required", "additionalProperties", "items",
        "pattern", "minLength", "minimum", "maximum",
    ]

    /// Every violation of `schema` (the root when nil) by `value`, each with its JSON path.
    public func errors(_ value: SchemaJSON, _ schema: SchemaJSON? = nil, at path: String = "$") -> [String] {
        guard case let .object(keywords) = schema ?? root else { return ["\(path): schema is not an object"] }
        var errors: [String] = []
        for (keyword, argument) in keywords.sorted(by: { $0.key < $1.key }) where !Self.annotations.contains(keyword) {
            guard Self.keywords.contains(keyword) else { errors.append("\(path): unsupported schema keyword \(keyword)"); continue }
            errors += check(keyword, argument, value, path, siblings: keywords)
        }
        return errors
    }

    private func check(_ keyword: String, _ argument: SchemaJSON, _ value: SchemaJSON, _ path: String, siblings: [String: SchemaJSON]) -> [String] {
        switch (keyword, argument) {
        case let ("$ref", .string(reference)):
            guard reference.hasPrefix("#/$defs/"), case let .object(top) = root, case let .object(definitions)? = top["$defs"],
                  let target = definitions[String(reference.dropFirst(8))] else { return ["\(path): unresolvable $ref \(reference)"] }
            return errors(value, target, at: path)
        case let ("oneOf", .array(options)):
            let passing = options.filter { errors(value, $0, at: path).isEmpty }.count
            if passing == 1 { return [] }
            if passing > 1 { return ["\(path): matches \(passing) oneOf branches"] }
            // Explain with the branch whose `const`s match (the envelope's ok: true/false), else all.
            let explained = options.map { errors(value, $0, at: path) }.min { $0.count < $1.count } ?? []
            return ["\(path): matches no oneOf branch"] + explained
        case let ("anyOf", .array(options)):
            return options.contains { errors(value, $0, at: path).isEmpty } ? [] : ["\(path): matches no anyOf branch (\(Self.render(value).prefix(80)))"]
        case let ("type", .string(name)):
            return Self.has(type: name, value) ? [] : ["\(path): expected \(name), got \(Self.render(value).prefix(80))"]
        case let ("type", .array(names)):
            return names.contains { if case let .string(name) = $0 { Self.has(type: name, value) } else { false } }
                ? [] : ["\(path): expected one of \(Self.render(argument)), got \(Self.render(value).prefix(80))"]
        case ("const", _):
            return value == argument ? [] : ["\(path): expected \(Self.render(argument))"]
        case let ("properties", .object(properties)):
            guard case let .object(members) = value else { return [] }
            return properties.sorted { $0.key < $1.key }.flatMap { name, schema in
                members[name].map { errors($0, schema, at: "\(path).\(name)") } ?? []
            }
        case let ("required", .array(names)):
            guard case let .object(members) = value else { return [] }
            return names.compactMap { if case let .string(name) = $0, members[name] == nil { "\(path): missing \(name)" } else { nil } }
        case ("additionalProperties", _):
            guard case let .object(members) = value else { return [] }
            var declared: Set<String> = []
            if case let .object(properties)? = siblings["properties"] { declared = Set(properties.keys) }
            return members.sorted { $0.key < $1.key }.filter { !declared.contains($0.key) }.flatMap { name, member -> [String] in
                if case .bool(false) = argument { return ["\(path): unexpected key \(name)"] }
                if case .bool(true) = argument { return [] }
                return errors(member, argument, at: "\(path).\(name)")
            }
        case ("items", _):
            guard case let .array(items) = value else { return [] }
            return items.enumerated().flatMap { errors($0.element, argument, at: "\(path)[\($0.offset)]") }
        case let ("pattern", .string(pattern)):
            guard case let .string(text) = value else { return [] }
            guard let expression = try? NSRegularExpression(pattern: pattern) else { return ["\(path): bad pattern \(pattern)"] }
            let found = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            return found ? [] : ["\(path): \(Self.render(value).prefix(120)) does not match \(pattern)"]
        case let ("minLength", .number(bound)):
            guard case let .string(text) = value else { return [] }
            return text.count >= Int(bound) ?? 0 ? [] : ["\(path): shorter than \(bound)"]
        case let ("minimum", .number(bound)), let ("maximum", .number(bound)):
            guard case let .number(text) = value, let number = Decimal(string: text), let limit = Decimal(string: bound) else { return [] }
            let within = keyword == "minimum" ? number >= limit : number <= limit
            return within ? [] : ["\(path): \(text) is out of \(keyword) \(bound)"]
        default:
            return ["\(path): malformed schema keyword \(keyword)"]
        }
    }

    private static func has(type name: String, _ value: SchemaJSON) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): return true
        case let ("integer", .number(text)): return text.allSatisfy { $0 == "-" || $0.isNumber }
        default: return false
        }
    }

    public static func render(_ value: SchemaJSON) -> String {
        switch value {
        case .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .number(text): return text
        case let .string(text): return "\"\(text)\""
        case let .array(items): return "[" + items.map(render).joined(separator: ",") + "]"
        case let .object(members): return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(render($0.value))" }.joined(separator: ",") + "}"
        }
    }
}
