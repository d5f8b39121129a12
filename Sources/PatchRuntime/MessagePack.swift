import Foundation

/// A value of the SDK's MessagePack data model (sdk-contract §2.6), which is also what `run` prints
/// as JSON: maps keep their wire order, binary stays binary until rendered.
public indirect enum MessagePackValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case binary([UInt8])
    case array([MessagePackValue])
    case map([(key: String, value: MessagePackValue)])

    public static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.binary(a), .binary(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.map(a), .map(b)):
            // Key order is a property of the encoder, not of the value: compare as dictionaries.
            guard a.count == b.count else { return false }
            let right = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return a.allSatisfy { right[$0.key] == $0.value }
        default:
            // Numbers compare by value across int/uint/double, as the SDK's decoder coerces them.
            guard let left = lhs.numericValue, let right = rhs.numericValue else { return false }
            return left == right
        }
    }

    private var numericValue: Double? {
        switch self {
        case let .int(value): return Double(value)
        case let .uint(value): return Double(value)
        case let .double(value): return value
        default: return nil
        }
    }
}

/// Why MessagePack bytes could not be decoded, with the byte offset.
public enum MessagePackError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated(offset: Int, needed: Int)
    case unsupportedTag(offset: Int, tag: UInt8)
    case tooDeep(offset: Int, limit: Int)
    case countExceedsInput(offset: Int, count: Int, remaining: Int)
    case invalidUTF8(offset: Int)
    case trailingBytes(offset: Int, count: Int)

    public var description: String {
        switch self {
        case let .truncated(offset, needed): return "input ends at offset \(offset), \(needed) more byte(s) needed"
        case let .unsupportedTag(offset, tag): return "unsupported MessagePack tag 0x\(String(tag, radix: 16)) at offset \(offset) (ext types are not part of the SDK's format)"
        case let .tooDeep(offset, limit): return "nesting deeper than \(limit) levels at offset \(offset)"
        case let .countExceedsInput(offset, count, remaining): return "container at offset \(offset) claims \(count) element(s) but only \(remaining) byte(s) remain"
        case let .invalidUTF8(offset): return "string at offset \(offset) is not valid UTF-8"
        case let .trailingBytes(offset, count): return "\(count) byte(s) follow the value at offset \(offset)"
        }
    }
}

/// The SDK's MessagePack reader with its hardening (sdk-contract §2.6): nesting ≤ 1024, element
/// counts checked against the remaining bytes before anything is allocated, truncation detected.
public struct MessagePackDecoder {
    public static let maximumDepth = 1024

    private let bytes: [UInt8]
    private var offset = 0

    public static func decode(_ bytes: [UInt8]) throws(MessagePackError) -> MessagePackValue {
        var decoder = MessagePackDecoder(bytes: bytes)
        let value = try decoder.readValue(depth: 0)
        guard decoder.offset == bytes.count else {
            throw .trailingBytes(offset: decoder.offset, count: bytes.count - decoder.offset)
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int) throws(MessagePackError) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .truncated(offset: offset, needed: count - remaining) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func unsigned(_ width: Int) throws(MessagePackError) -> UInt64 {
        try take(width).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    private mutating func readValue(depth: Int) throws(MessagePackError) -> MessagePackValue {
        let start = offset
        guard depth <= Self.maximumDepth else { throw .tooDeep(offset: start, limit: Self.maximumDepth) }
        _ = try take(1)
        let tag = bytes[start]
        switch tag {
        case 0x00...0x7F: return .uint(UInt64(tag))
        case 0xE0...0xFF: return .int(Int64(Int8(bitPattern: tag)))
        case 0x80...0x8F: return try readMap(count: Int(tag & 0x0F), depth: depth, at: start)
        case 0x90...0x9F: return try readArray(count: Int(tag & 0x0F), depth: depth, at: start)
        case 0xA0...0xBF: return try readString(length: Int(tag & 0x1F), at: start)
        case 0xC0: return .null
        case 0xC2: return .bool(false)
        case 0xC3: return .bool(true)
        case 0xC4, 0xC5, 0xC6:
            let length = Int(try unsigned(1 << Int(tag - 0xC4)))
            return .binary(Array(try take(length)))
        case 0xCA: return .double(Double(Float(bitPattern: UInt32(try unsigned(4)))))
        case 0xCB: return .double(Double(bitPattern: try unsigned(8)))
        case 0xCC, 0xCD, 0xCE, 0xCF: return .uint(try unsigned(1 << Int(tag - 0xCC)))
        case 0xD0: return .int(Int64(Int8(truncatingIfNeeded: try unsigned(1))))
        case 0xD1: return .int(Int64(Int16(truncatingIfNeeded: try unsigned(2))))
        case 0xD2: return .int(Int64(Int32(truncatingIfNeeded: try unsigned(4))))
        case 0xD3: return .int(Int64(bitPattern: try unsigned(8)))
        case 0xD9, 0xDA, 0xDB: return try readString(length: Int(try unsigned(1 << Int(tag - 0xD9))), at: start)
        case 0xDC, 0xDD: return try readArray(count: Int(try unsigned(tag == 0xDC ? 2 : 4)), depth: depth, at: start)
        case 0xDE, 0xDF: return try readMap(count: Int(try unsigned(tag == 0xDE ? 2 : 4)), depth: depth, at: start)
        default: throw .unsupportedTag(offset: start, tag: tag)
        }
    }

    private mutating func readString(length: Int, at start: Int) throws(MessagePackError) -> MessagePackValue {
        guard let text = String(validating: try take(length), as: UTF8.self) else { throw .invalidUTF8(offset: start) }
        return .string(text)
    }

    private mutating func readArray(count: Int, depth: Int, at start: Int) throws(MessagePackError) -> MessagePackValue {
        // Every element takes at least one byte: a larger count is a lie, refused before allocating.
        guard count <= remaining else { throw .countExceedsInput(offset: start, count: count, remaining: remaining) }
        var elements: [MessagePackValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try readValue(depth: depth + 1)) }
        return .array(elements)
    }

    private mutating func readMap(count: Int, depth: Int, at start: Int) throws(MessagePackError) -> MessagePackValue {
        guard count <= remaining / 2 else { throw .countExceedsInput(offset: start, count: count, remaining: remaining) }
        var entries: [(key: String, value: MessagePackValue)] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let key = try readValue(depth: depth + 1)
            let value = try readValue(depth: depth + 1)
            // The SDK ignores entries whose key is not a string.
            if case let .string(name) = key { entries.append((name, value)) }
        }
        return .map(entries)
    }
}

/// Writes values the way the SDK's encoder does: integers in their smallest form (unsigned forms for
/// non-negative values), every floating-point number as float64, strings as str, maps in order.
public enum MessagePackEncoder {
    public static func encode(_ value: MessagePackValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, to: &output)
        return output
    }

    private static func write(_ value: MessagePackValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(0xC0)
        case let .bool(flag): output.append(flag ? 0xC3 : 0xC2)
        case let .int(number):
            if number >= 0 { writeUnsigned(UInt64(number), to: &output) } else { writeNegative(number, to: &output) }
        case let .uint(number): writeUnsigned(number, to: &output)
        case let .double(number): output.append(0xCB); append(number.bitPattern, width: 8, to: &output)
        case let .string(text):
            let utf8 = Array(text.utf8)
            writeHeader(count: utf8.count, fix: 0xA0, fixLimit: 32, tags: [0xD9, 0xDA, 0xDB], to: &output)
            output += utf8
        case let .binary(bytes):
            writeHeader(count: bytes.count, fix: nil, fixLimit: 0, tags: [0xC4, 0xC5, 0xC6], to: &output)
            output += bytes
        case let .array(elements):
            writeHeader(count: elements.count, fix: 0x90, fixLimit: 16, tags: [nil, 0xDC, 0xDD], to: &output)
            elements.forEach { write($0, to: &output) }
        case let .map(entries):
            writeHeader(count: entries.count, fix: 0x80, fixLimit: 16, tags: [nil, 0xDE, 0xDF], to: &output)
            for entry in entries {
                write(.string(entry.key), to: &output)
                write(entry.value, to: &output)
            }
        }
    }

    private static func writeUnsigned(_ number: UInt64, to output: inout [UInt8]) {
        switch number {
        case 0...0x7F: output.append(UInt8(number))
        case 0...0xFF: output.append(0xCC); append(number, width: 1, to: &output)
        case 0...0xFFFF: output.append(0xCD); append(number, width: 2, to: &output)
        case 0...0xFFFF_FFFF: output.append(0xCE); append(number, width: 4, to: &output)
        default: output.append(0xCF); append(number, width: 8, to: &output)
        }
    }

    private static func writeNegative(_ number: Int64, to output: inout [UInt8]) {
        let bits = UInt64(bitPattern: number)
        switch number {
        case -32 ..< 0: output.append(UInt8(truncatingIfNeeded: bits))
        case Int64(Int8.min)...: output.append(0xD0); append(bits, width: 1, to: &output)
        case Int64(Int16.min)...: output.append(0xD1); append(bits, width: 2, to: &output)
        case Int64(Int32.min)...: output.append(0xD2); append(bits, width: 4, to: &output)
        default: output.append(0xD3); append(bits, width: 8, to: &output)
        }
    }

    /// `tags` are the 8-, 16- and 32-bit length forms (nil where the format has none).
    private static func writeHeader(count: Int, fix: UInt8?, fixLimit: Int, tags: [UInt8?], to output: inout [UInt8]) {
        if let fix, count < fixLimit {
            output.append(fix | UInt8(count))
        } else if let tag = tags[0], count <= 0xFF {
            output.append(tag); append(UInt64(count), width: 1, to: &output)
        } else if let tag = tags[1], count <= 0xFFFF {
            output.append(tag); append(UInt64(count), width: 2, to: &output)
        } else if let tag = tags[2] {
            output.append(tag); append(UInt64(count), width: 4, to: &output)
        }
    }

    private static func append(_ number: UInt64, width: Int, to output: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }
}

extension MessagePackValue {
    /// Parses JSON text into the data model (integers stay integers, other numbers become doubles).
    /// Object keys come out sorted, since JSON parsing does not keep their order.
    public static func parseJSON(_ bytes: [UInt8]) -> MessagePackValue? {
        JSONReader<MessagePackValue>.parse(bytes)
    }

    /// `parseJSON`, or where and why the text is not JSON.
    public static func readJSON(_ bytes: [UInt8]) throws(JSONSyntaxError) -> MessagePackValue {
        try JSONReader<MessagePackValue>.read(bytes)
    }

    init(json: BridgeJSON) {
        switch json {
        case .null: self = .null
        case let .bool(flag): self = .bool(flag)
        case let .integer(number): self = .int(number)
        case let .number(number): self = .double(number)
        case let .string(text): self = .string(text)
        case let .array(elements): self = .array(elements.map(MessagePackValue.init(json:)))
        case let .object(members): self = .map(members.sorted { $0.key < $1.key }.map { ($0.key, MessagePackValue(json: $0.value)) })
        }
    }

    /// JSON text of the value. Binary renders as base64 text, non-finite doubles as "nan"/"inf"/"-inf"
    /// strings (the convention of the SDK's IR JSON), map keys in wire order.
    public func renderJSON(pretty: Bool) -> String {
        var output = ""
        render(into: &output, indent: pretty ? "" : nil)
        return output
    }

    private func render(into output: inout String, indent: String?) {
        let inner = indent.map { $0 + "  " }
        let newline = indent == nil ? "" : "\n"
        switch self {
        case .null: output += "null"
        case let .bool(flag): output += flag ? "true" : "false"
        case let .int(number): output += String(number)
        case let .uint(number): output += String(number)
        case let .double(number):
            if number.isNaN { output += "\"nan\"" } else if number.isInfinite { output += number > 0 ? "\"inf\"" : "\"-inf\"" } else if number == number.rounded(), abs(number) < 1e15 { output += String(Int64(number)) } else { output += "\(number)" }
        case let .string(text): output += Self.quoted(text)
        case let .binary(bytes): output += Self.quoted(Data(bytes).base64EncodedString())
        case let .array(elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "[" + newline
            for (index, element) in elements.enumerated() {
                output += inner ?? ""
                element.render(into: &output, indent: inner)
                output += (index + 1 < elements.count ? "," : "") + newline
            }
            output += (indent ?? "") + "]"
        case let .map(entries):
            guard !entries.isEmpty else { output += "{}"; return }
            output += "{" + newline
            for (index, entry) in entries.enumerated() {
                output += (inner ?? "") + Self.quoted(entry.key) + (indent == nil ? ":" : ": ")
                entry.value.render(into: &output, indent: inner)
                output += (index + 1 < entries.count ? "," : "") + newline
            }
            output += (indent ?? "") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}

extension MessagePackValue: JSONReadable {
    static var jsonNull: MessagePackValue { .null }
    static func json(_ flag: Bool) -> MessagePackValue { .bool(flag) }
    static func json(_ integer: Int64) -> MessagePackValue { .int(integer) }
    static func json(_ number: Double) -> MessagePackValue { .double(number) }
    static func json(_ text: String) -> MessagePackValue { .string(text) }
    static func json(_ elements: [MessagePackValue]) -> MessagePackValue { .array(elements) }
    static func json(members: [(key: String, value: MessagePackValue)]) -> MessagePackValue {
        // Most objects of a view tree are one-key enum wrappers: nothing to sort or drop.
        guard members.count > 1 else { return .map(members) }
        // The sort is stable, so of equal keys the first in the document comes first and is kept.
        var sorted = members.sorted { $0.key < $1.key }
        var kept = 1
        for index in 1..<sorted.count where sorted[index].key != sorted[kept - 1].key {
            sorted.swapAt(index, kept)
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return .map(sorted)
    }
}
