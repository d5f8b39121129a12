import Foundation
import PatchBuild
@testable import PatchRuntime
import Testing

/// The guest Foundation layer's strings, URLs, UUIDs, Data and JSON against Foundation on Linux:
/// FoundationLayerProbes.swift is compiled natively here and, from its text, into a guest module by
/// `build`'s pipeline (generated glue, prelude, layer); each probe is called both ways with the
/// thunk's JSON (JSONEncoder) and the answers must be equal.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct FoundationStringLayerTests {
    static let probes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FoundationLayerProbes.swift")

    static let built: Result<(module: [UInt8], symbols: [String: String]), GuestBuilder.BuildFailure> = {
        do {
            let sources = try GuestBuilder.scratch()
            try FileManager.default.copyItem(at: probes, to: sources.appendingPathComponent("Probes.swift"))
            let output = try GuestBuilder.scratch()
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: sources.path,
                exports: ["probeStrings(_:)", "probeOrdering(_:)", "probeFormat(_:_:)", "probeURLs(_:)", "probeComponents(host:path:query:)",
                          "probeIdentifiersAndData(_:)", "probeJSON(_:)", "probeUnescapedSlashes(_:)"],
                outputDirectory: output.path, toolchain: try Toolchain.discover()))
            guard result.manifest.unpatchable.isEmpty else {
                return .failure(GuestBuilder.BuildFailure(description: "left native: " + result.manifest.unpatchable.map { "\($0.declarationID): \($0.detail)" }.joined(separator: "; ")))
            }
            let bytes = [UInt8](try Data(contentsOf: output.appendingPathComponent("module.wasm")))
            return .success((bytes, Dictionary(uniqueKeysWithValues: result.manifest.exports.map { ($0.declarationID, $0.symbol) })))
        } catch {
            return .failure(GuestBuilder.BuildFailure(description: "Foundation layer guest build failed: \(error)"))
        }
    }()

    let guest: RuntimeSession
    let symbols: [String: String]

    init() throws {
        let (module, symbols) = try Self.built.get()
        guest = try session(module, testOptions(fuel: 2_000_000_000))
        self.symbols = symbols
    }

    /// Calls `declaration` with the arguments JSONEncoder writes, as the thunk does, and decodes `{"value": …}`.
    func call<Arguments: Encodable, Result: Decodable>(_ declaration: String, _ arguments: Arguments, as: Result.Type) throws -> Result {
        let symbol = try #require(symbols.first { $0.key.hasPrefix(declaration) }?.value, "\(symbols)")
        let output = try #require(try guest.callPacked(symbol, input: [UInt8](try JSONEncoder().encode(arguments))).output)
        do {
            return try JSONDecoder().decode(ValueEnvelope<Result>.self, from: Data(output)).value
        } catch {
            Issue.record("\(declaration) answered \(String(decoding: output, as: UTF8.self))")
            throw error
        }
    }

    /// Empty, whitespace of every kind, precomposed and decomposed accents, stacked combining marks,
    /// emoji sequences, title-case digraphs, ß and ligatures (whose case mappings grow), apostrophes,
    /// Greek final sigma, a dotted capital I, percent signs and CJK with ideographic spaces.
    static let samples = [
        "", " ", "  hello  ", "\t\nline\r\n", "héllo wörld", "cafe\u{301}", "café, crème", "e\u{301}\u{301}x ", "👨‍👩‍👧 family 👍🏽 ",
        "ǆungla ÉCOLE", "o'neil mcDonald’s is.great 3d", "ß straße", "ﬁsh 123abc", "a,b,,c", "x\r\ny\nz\u{2028}w", "\u{A0}nbsp\u{200B}",
        "ΣΊΣΥΦΟΣ", "İstanbul", "a%20b&c=d 100%", "  \u{3000}全角\u{3000} ", "$5.00 + €3 = ¥?", "¡Hola! ¿Qué tal?",
    ]

    @Test func stringsAndCharacterSetsGiveFoundationsAnswers() throws {
        let guestLines = try call("probeStrings", ["samples": Self.samples], as: [String].self)
        for (sample, (native, guest)) in zip(Self.samples, zip(probeStrings(Self.samples), guestLines)) {
            #expect(guest == native, "sample \(sample.debugDescription)")
        }
        #expect(guestLines.count == Self.samples.count)
    }

    @Test func caseInsensitiveOrderingIsFoundations() throws {
        let words = ["banana", "Apple", "apple pie", "APPLE", "cherry", "Banana split", "a", "", "Zed", "zebra", "10", "9", "straße", "STRASSE"]
        #expect(try call("probeOrdering", ["words": words], as: [String].self) == probeOrdering(words))
    }

    @Test func formatSpecifiersGivePrintfsDigits() throws {
        struct Arguments: Encodable { let values: [Double], integers: [Int] }
        // Halfway cases that are exact in binary (0.125, 2.5) round to even; those that are not
        // (0.015 lies below, 1.005 below, 0.005 above) round the way their binary value lies.
        let values = [0, -0.0, 2.5, 3.5, 0.125, 0.375, 0.015, 1.005, -0.005, 3.14159, 1e20, 123456.789, -42.0001, 5e-324, 0.1, 99.995, 9.999_999_9]
        // Int is 32 bits in the wasm32 guest (the glue refuses a larger argument, so the thunk runs
        // the native function); %lx of a negative one still prints 64 bits, as on the device.
        let integers = [0, 7, -3, 255, 4096, -1, Int(Int32.max), Int(Int32.min)]
        let guest = try call("probeFormat", Arguments(values: values, integers: integers), as: [String].self)
        #expect(guest == probeFormat(values, integers))
    }

    @Test func urlsAndComponentsParseEncodeAndAppendAsFoundationDoes() throws {
        // Absolute, relative and opaque URLs; ports, IPv6, user info; characters URL(string:)
        // percent-encodes (spaces, non-ASCII, a stray %, a second #) and strings it rejects.
        let strings = [
            "https://example.com/api/", "https://example.com", "https://example.com/", "https://example.com/a%20b/c%2Fd",
            "https://EXAMPLE.com:443/x?y#z", "file:///tmp/a.txt", "https://example.com/a.b.c", "https://example.com/.hidden", "a/b/",
            "https://h.com/x?q=a b&r=é", "http://h.com/p?x=%zz", "https://user:pw@host.com:8080/p/a/t/h.json?q=1&r=%20&s&t=#frag",
            "https://h.com/x#a#b", "https://h.com/x?a?b", "https://h.com/[x]|\"y\"", "http://[::1]:80/x", "a b", "", "1abc://x",
            "ht tp://x", "https://exa mple.com", "https://h.com:abc/", "%", "mailto:a@b.c", "foodtruck://order/42",
            "https://h.com/ünïcödé/ファイル.txt?q=日本", "https://api.example.com/search?query=swift+ios&page=2",
        ]
        let guest = try call("probeURLs", ["strings": strings], as: [String].self)
        for (string, (native, guest)) in zip(strings, zip(probeURLs(strings), guest)) {
            #expect(guest == native, "URL string \(string.debugDescription)")
        }
        struct Parts: Encodable { let host: String, path: String, query: [String: String] }
        for parts in [Parts(host: "api.example.com", path: "/v1/search items", query: ["q": "swift & ios=1+2 é/?", "page": "2"]),
                      Parts(host: "h.com", path: "", query: [:])] {
            #expect(try call("probeComponents", parts, as: String.self) == probeComponents(host: parts.host, path: parts.path, query: parts.query))
        }
    }

    @Test func uuidsAndDataRoundTripAsFoundationDoes() throws {
        let strings = ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8C36C495A93FC0C247A3E6E5F",
                       "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "", "hé", "aMOp", "aMO", "aMO=", "YQ==", "YQ=",
                       "Y===", "YQ==YQ==", " aMOp", "////", "emoji 👍🏽"]
        let guest = try call("probeIdentifiersAndData", ["strings": strings], as: [String].self)
        for (string, (native, guest)) in zip(strings, zip(probeIdentifiersAndData(strings), guest)) {
            #expect(guest == native, "string \(string.debugDescription)")
        }
    }

    @Test func codableModelsDecodeAndEncodeWithTheirCodingKeys() throws {
        let inputs = [
            #"{"id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","display_name":"Ada L","homepage":"https:\/\/ada.example\/x y","avatar":"AQID","tags":["a"]}"#,
            #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","display_name":"Émile","avatar":"","tags":[],"localOnly":true}"#,
            // The property's own name is not its key, and a missing required key fails both ways.
            #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","displayName":"x","avatar":"","tags":[]}"#,
            #"{"id":"not a uuid","display_name":"x","avatar":"","tags":[]}"#,
            #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","display_name":"x","avatar":"%%%","tags":[]}"#,
            "not json",
        ]
        for input in inputs {
            let guest = try call("probeJSON", ["json": input], as: String.self), native = probeJSON(input)
            // Foundation on Linux writes an object's keys in hash order, so the objects are compared.
            if let guestObject = try? JSONSerialization.jsonObject(with: Data(guest.utf8)) as? NSDictionary,
               let nativeObject = try? JSONSerialization.jsonObject(with: Data(native.utf8)) as? NSDictionary {
                #expect(guestObject == nativeObject, "input \(input): \(guest) vs \(native)")
                // The guest writes them in declaration order, as JSONEncoder does on the device (§2.4).
                #expect(guest.hasPrefix(#"{"id":"#) && guest.contains(#""display_name":"#), "\(guest)")
            } else {
                #expect(guest == native, "input \(input)")
            }
        }
        let urls = ["https://a.example/x y", "mailto:a@b.c", "a/b"]
        #expect(try call("probeUnescapedSlashes", ["strings": urls], as: String.self) == probeUnescapedSlashes(urls))
        // JSONEncoder's default escapes '/' (and the URL was encoded and appended to).
        #expect(try call("probeJSON", ["json": inputs[0]], as: String.self).contains(#""homepage":"https:\/\/ada.example\/x%20y\/about""#))
    }

    @Test func uuidsAreRandomVersion4FromTheHostsRandomBytes() throws {
        let source = """
            func freshIdentifiers() -> [String] { [UUID().uuidString, UUID().uuidString] }
            """
        let sources = try GuestBuilder.scratch()
        try source.write(to: sources.appendingPathComponent("Identifiers.swift"), atomically: true, encoding: .utf8)
        let output = try GuestBuilder.scratch()
        let result = try GuestModuleBuilder.build(GuestBuildRequest(sourcesDirectory: sources.path, exports: ["freshIdentifiers()"],
                                                                    outputDirectory: output.path, toolchain: try Toolchain.discover()))
        let symbol = try #require(result.manifest.exports.first?.symbol, "\(result.manifest.unpatchable)")
        let running = try session([UInt8](try Data(contentsOf: output.appendingPathComponent("module.wasm"))))
        let answer = try #require(try running.callPacked(symbol, input: Array("{}".utf8)).output)
        let identifiers = try JSONDecoder().decode(ValueEnvelope<[String]>.self, from: Data(answer)).value
        #expect(identifiers.count == 2 && identifiers[0] != identifiers[1])
        for identifier in identifiers {
            // Foundation reads it back unchanged; the version digit is 4 and the variant 8, 9, A or B.
            #expect(UUID(uuidString: identifier)?.uuidString == identifier)
            let characters = Array(identifier)
            #expect(characters[14] == "4" && "89AB".contains(characters[19]), "\(identifier)")
        }
        #expect(running.bridgeState.calls.map(\.description).allSatisfy { $0.hasPrefix("patch.secure_random_bytes(") })
    }
}

/// A function export's answer, `{"value": …}`.
private struct ValueEnvelope<Value: Decodable>: Decodable {
    let value: Value
}
