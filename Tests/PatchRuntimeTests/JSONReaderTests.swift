import Foundation
@testable import PatchRuntime
import Testing

/// `JSONReader` against Foundation's `JSONDecoder` as the oracle: the reader replaced a `Decodable`
/// `BridgeJSON` that let the decoder guess each value's type, and the JSON bridges (`BridgeJSON`),
/// `run`'s inputs and the view validator (`MessagePackValue`) must accept and read exactly what they
/// did before.
@Suite struct JSONReaderTests {
    /// The decoding `BridgeJSON` used before the reader, kept here as the oracle.
    private enum Oracle: Decodable {
        case null, bool(Bool), integer(Int64), number(Double), string(String), array([Oracle]), object([String: Oracle])

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode([String: Oracle].self) {
                self = .object(value)
            } else if let value = try? container.decode([Oracle].self) {
                self = .array(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else {
                self = .number(try container.decode(Double.self))
            }
        }

        var json: BridgeJSON {
            switch self {
            case .null: .null
            case .bool(let value): .bool(value)
            case .integer(let value): .integer(value)
            case .number(let value): .number(value)
            case .string(let value): .string(value)
            case .array(let elements): .array(elements.map(\.json))
            case .object(let members): .object(members.mapValues(\.json))
            }
        }

        static func parse(_ bytes: [UInt8]) -> BridgeJSON? {
            (try? JSONDecoder().decode(Oracle.self, from: Data(bytes)))?.json
        }
    }

    /// Whether both readings of `bytes` are the oracle's.
    private static func agreesWithOracle(_ bytes: [UInt8]) -> (accepted: Bool, agrees: Bool) {
        let expected = Oracle.parse(bytes)
        let agrees = JSONReader<BridgeJSON>.parse(bytes) == expected
            && MessagePackValue.parseJSON(bytes) == expected.map(MessagePackValue.init(json:))
        return (expected != nil, agrees)
    }

    private static func expectSameAsOracle(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(agreesWithOracle(bytes).agrees, "\(String(decoding: bytes, as: UTF8.self).debugDescription)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        // Fragments, literals, whitespace
        "null", "true", "false", " \t\r\n1 \n", "nul", "truee", "True", "", " ", "\u{0B}1", "\u{C}1", "1 2", "[] x",
        // Numbers
        "0", "-0", "-0.0", "1.0", "1e2", "1E2", "1e+2", "100e-2", "1.5", "-1.5", "2.5e-3", "1e-400", "1E400", "-1E400",
        "01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "1.e2", "0x10", "1_000", "Infinity", "NaN", "-Infinity",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "12345678901234567890", "9223372036854775807.0", "123456789012345678.0", "1.0000000000000000001",
        "1e18", "1e19", "-1e19", "4.9e-324", "1.7976931348623157e308", "1.7976931348623159e308",
        "0.1", "3.141592653589793", "9007199254740992", "9007199254740993.0", "9007199254740993.5", "-9007199254740993.0",
        "9223372036854775295.0", "9223372036854775296.0", "-9223372036854775807.0", "-9223372036854775808.0", "1.5e18",
        "12345678901234567.89e1", "1234567890123456789e-1", "9.007199254740993e15", "1e22", "0e5", "-0e-5", "100000000000000000000000000000000000000000",
        // Strings and escapes
        #""""#, #""abc""#, #""\"\\\/\b\f\n\r\t""#, #""\u0041\u00e9\u20AC""#, #""\ud83d\ude00""#, #""\uD83D\uDE00""#,
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\u00""#, #""\u00g0""#, #""\x41""#, #""\'""#,
        #""\u0000""#, "\"a\u{01}b\"", "\"tab\there\"", "\"line\nbreak\"", #""unterminated"#, #""\"#, "\"é😀\"",
        "\"\u{7F}\"",
        // Arrays
        "[]", "[1]", "[1,]", "[1,,2]", "[,]", "[,1]", "[ 1 , 2 ]", "[1 2]", "[[[]]]", "[", "]", "[1", "[1,",
        "[null,true,\"x\",-2.5,{}]",
        // Objects
        "{}", #"{"a":1}"#, #"{"a":1,}"#, #"{,}"#, #"{"a":1,,"b":2}"#, #"{"a":1,"a":2}"#, #"{"a" : [1, {"b": null}] }"#,
        #"{a:1}"#, #"{"a"}"#, #"{"a":}"#, #"{"a" 1}"#, #"{1:2}"#, #"{"a":1"b":2}"#, #"{"#, #"{"a":1"#,
        #"{"\u0061":1,"a":2}"#, #"{"":0}"#, #"{"b":1,"a":2,"b":3,"a":4,"c":5,"a":6}"#, #"{"é":1,"e":2,"z":3}"#,
        // A byte-order mark
        "\u{FEFF}[1]", "\u{FEFF}", "[\u{FEFF}1]",
    ])
    func readsWhatTheDecoderReads(text: String) {
        Self.expectSameAsOracle(Array(text.utf8))
    }

    @Test func refusesWhatTheDecoderRefusesInBytes() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D], [0x22, 0x5C, 0x6E, 0xFF, 0x22], [0xEF, 0xBB], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31],
        ] {
            Self.expectSameAsOracle(bytes)
        }
    }

    @Test func nestsAsDeepAsTheDecoder() {
        for depth in [511, 512, 513] {
            Self.expectSameAsOracle(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
            Self.expectSameAsOracle(Array((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8))
        }
    }

    /// Every document of up to four pieces from JSON's tokens and near-misses: most are malformed, and
    /// each must be refused or read exactly as the decoder does.
    @Test func agreesWithTheDecoderOnEveryShortSplice() {
        let pieces = ["[", "]", "{", "}", ",", ":", " ", "\"a\"", "\"\\ud800\"", "\"", "1", "-", ".", "e", "0", "null"]
        var documents = [""]
        var disagreements: [String] = []
        var accepted = 0
        for _ in 1...4 {
            documents = documents.flatMap { prefix in pieces.map { prefix + $0 } }
            for text in documents {
                let (isJSON, agrees) = Self.agreesWithOracle(Array(text.utf8))
                if isJSON { accepted += 1 }
                if !agrees { disagreements.append(text) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        // Agreeing must not only mean refusing alike: 419 of the 69,904 documents are JSON.
        #expect(accepted == 419)
    }

    /// A text that is not JSON is refused with where (line and column from 1, byte offset) and why.
    @Test(arguments: [
        ("", "line 1, column 1 (byte 0): the text ends where a value should be"),
        ("[1 2]", "line 1, column 4 (byte 3): '2' where ',' or ']' should be"),
        ("{\"a\":1,\n \"b\" 2}", "line 2, column 6 (byte 13): '2' where ':' should follow the key"),
        ("{\"a\":1,\n x}", "line 2, column 2 (byte 9): 'x' where a key in double quotes or '}' should be"),
        ("[1,\n  2,\n  tru]", "line 3, column 3 (byte 11): expected `true`"),
        ("{\"a\": [1, {\"b\": 2}", "line 1, column 19 (byte 18): the text ends inside an array"),
        ("[\"abc", "line 1, column 2 (byte 1): the string starting at byte 1 is not closed"),
        ("\"tab\there\"", "line 1, column 5 (byte 4): a raw control character (U+0009) in a string: JSON needs it escaped (\\n, \\t, \\u0009)"),
        ("\"\\q\"", "line 1, column 2 (byte 1): unknown escape \\q (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
        ("\"\\ud800x\"", "line 1, column 2 (byte 1): a lone UTF-16 surrogate (\\uD800): a high surrogate must be followed by an escaped low one"),
        ("\"\\u12g4\"", "line 1, column 6 (byte 5): expected four hex digits after \\u, found 'g'"),
        ("01", "line 1, column 1 (byte 0): a number cannot start with 0 followed by more digits"),
        ("-", "line 1, column 2 (byte 1): expected a digit"),
        ("1.e5", "line 1, column 3 (byte 2): expected a digit"),
        ("1E400", "line 1, column 1 (byte 0): 1E400 is beyond the range of a Double"),
        ("{} {}", "line 1, column 4 (byte 3): more text after the JSON value: '{'"),
        ("\u{1}", "line 1, column 1 (byte 0): byte 0x01 where a value should be (an object, array, string, number, true, false or null)"),
        (String(repeating: "[", count: 513), "line 1, column 513 (byte 512): arrays and objects nested deeper than 512 levels"),
    ])
    func saysWhereAndWhyATextIsNotJSON(text: String, message: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try MessagePackValue.readJSON(Array(text.utf8)) }
        #expect(error?.description == message)
    }

    @Test func saysWhereAStringIsNotUTF8() {
        let error = #expect(throws: JSONSyntaxError.self) { try MessagePackValue.readJSON([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]) }
        #expect(error?.description == "line 1, column 2 (byte 1): the string starting at byte 1 is not valid UTF-8")
    }

    @Test func readsAViewDocumentAsTheDecoderDoes() throws {
        let url = GuestBuilder.fixtures.appendingPathComponent("ir-examples.json")
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(JSONReader<BridgeJSON>.parse(bytes) != nil)
        Self.expectSameAsOracle(bytes)
    }
}
