import Foundation
import Testing
@testable import PatchManifest
import PythonPeer

/// Canonical JSON must equal securesystemslib's `encode_canonical` byte for byte: TUF signatures
/// are over these bytes, so one differing byte means no client accepts our metadata.
@Suite struct CanonicalJSONTests {
    /// Expected outputs produced by securesystemslib 1.6 `encode_canonical` on the same inputs.
    static let vectors: [(input: String, canonical: String)] = [
        (#"{"b": 1, "a": [true, false, null], "c": {"z": "", "y": -5}}"#, #"{"a":[true,false,null],"b":1,"c":{"y":-5,"z":""}}"#),
        (#"{"quote\"back\\slash": "tab\tnewline\n\u00e9\u20ac\ud83d\ude00"}"#, "{\"quote\\\"back\\\\slash\":\"tab\tnewline\n\u{e9}\u{20ac}\u{1F600}\"}"),
        // Code-point order: U+FFFF sorts before U+1F600 (UTF-16 order would invert them).
        (#"{"\u00e9": 1, "z": 2, "Z": 3, "a": 4, "\ud83d\ude00": 5, "\uffff": 6}"#, "{\"Z\":3,\"a\":4,\"z\":2,\"\u{e9}\":1,\"\u{ffff}\":6,\"\u{1F600}\":5}"),
        ("[]", "[]"),
        ("{}", "{}"),
        (#""""#, #""""#),
        ("-9223372036854775808", "-9223372036854775808"),
        (" { \"k\" : [ 1 , 2 ] } ", #"{"k":[1,2]}"#),
    ]

    @Test(arguments: 0..<vectors.count)
    func matchesSecuresystemslib(index: Int) throws {
        let vector = Self.vectors[index]
        let tree = try JSONValue.parse(Array(vector.input.utf8))
        #expect(CanonicalJSON.encode(tree) == Array(vector.canonical.utf8))
        // The file form parses back to the same tree (canonical bytes keep control characters raw,
        // which strict parsers refuse, so files are never written in canonical form).
        #expect(try JSONValue.parse(CanonicalJSON.serialize(tree)) == tree)
    }

    @Test func integersSurviveWithoutDoubleRoundTrip() throws {
        let tree = try JSONValue.parse(Array(#"{"big":9007199254740993,"min":-9223372036854775808,"max":9223372036854775807}"#.utf8))
        #expect(tree["big"] == .integer(9_007_199_254_740_993))
        #expect(tree["min"] == .integer(Int64.min))
        #expect(tree["max"] == .integer(Int64.max))
    }

    @Test(arguments: [
        ("1.5", "fraction"), ("1e3", "fraction"), ("9223372036854775808", "64 bits"), ("-9223372036854775809", "64 bits"),
        (#"{"a":1,"a":2}"#, "twice"), ("[1,2] x", "after the JSON"), (#"{"a":01}"#, "leading zero"),
        ("\"\\ud800\"", "surrogate"), ("\"\\udc00\"", "surrogate"), ("\"a\u{01}\"", "control character"),
        (#"{"a":1"#, "ends early"), ("tru", "ends early"), ("\"\\x\"", "unknown escape"),
    ])
    func rejectsWhatIsNotStrictIntegerJSON(input: String, messageFragment: String) {
        do {
            _ = try JSONValue.parse(Array(input.utf8))
            Issue.record("\(input) parsed")
        } catch {
            #expect(error.description.contains(messageFragment), "\(input): \(error)")
        }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParseError.invalidString(offset: 0, detail: "not valid UTF-8")) {
            try JSONValue.parse([0x22, 0xC3, 0x28, 0x22])
        }
        let deep = Array(repeating: UInt8(ascii: "["), count: 10_000) + Array(repeating: UInt8(ascii: "]"), count: 10_000)
        #expect(throws: JSONParseError.nestingTooDeep(offset: JSONValue.maximumDepth, limit: JSONValue.maximumDepth)) {
            try JSONValue.parse(deep)
        }
    }

    /// Cross-check with the reference implementation on a tree with every kind of value; required
    /// under CI=true.
    @Test func agreesWithPythonSecuresystemslib() throws {
        guard let python = try requirePythonModule("securesystemslib") else { return }
        let tree = JSONValue.object([
            "keys": .object(["\u{e9}t\u{e9}": .integer(-1), "Zeta": .array([.null, .bool(true), .string("a\"b\\c\n\u{7f}")]), "zeta": .integer(Int64.max)]),
            "custom": .object(["nested": .object(["": .string("\u{1F600}\u{ffff}")])]),
        ])
        let script = "import sys, json; from securesystemslib.formats import encode_canonical; sys.stdout.buffer.write(encode_canonical(json.loads(sys.stdin.buffer.read())).encode('utf-8'))"
        let result = try runPython(python, arguments: ["-c", script], stdin: CanonicalJSON.serialize(tree))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == CanonicalJSON.encode(tree))
    }

    @Test func serializedFormEscapesOnlyControlCharacters() throws {
        let tree = JSONValue.object(["notes": .string("line 1\nline 2\t\u{1}é")])
        #expect(CanonicalJSON.serialize(tree) == Array(#"{"notes":"line 1\u000aline 2\u0009\u0001é"}"#.utf8))
        #expect(CanonicalJSON.encode(tree) == Array("{\"notes\":\"line 1\nline 2\t\u{1}é\"}".utf8))
    }

    @Test func tufTimeRoundTripsAndRejectsOtherForms() throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(TUFTime.format(date) == "2026-09-21T14:13:20Z")
        #expect(TUFTime.parse("2026-09-21T14:13:20Z") == date)
        #expect(TUFTime.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        for bad in ["2026-02-30T00:00:00Z", "2026-09-21T14:13:20.5Z", "2026-09-21 14:13:20Z", "2026-09-21T24:00:00Z", "2026-09-21T14:13:20+00:00"] {
            #expect(TUFTime.parse(bad) == nil, "\(bad)")
        }
    }
}
