import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import SwiftSyntax
import Testing

/// The pieces `prepare`'s scan is built from, each against what it replaced or promises.
@Suite struct ScanPrimitivesTests {
    private static let source = """
        import SwiftUI\r
        /// A view.\r
        @available(iOS 17, *) struct Card<T: Equatable>: View where T: Sendable {\r
            var body: some View { Text("a\\rb") }  // trailing comment\r
        }\r\rextension Card { func f(_ x: [String: Int]?) -> Int { /* c */ 1 } }
        let text = \"\"\"
            two
            lines
            \"\"\"
        """

    /// Every node's text and every token's line equal swift-syntax's own `trimmedDescription` and
    /// `SourceLocationConverter` (with `\n`, `\r\n` and a lone `\r` line ends).
    @Test func trimmedTextAndLinesMatchSwiftSyntax() {
        let bytes = Array(Self.source.utf8)
        let tree = Parser.parse(source: Self.source)
        let converter = SourceLocationConverter(fileName: "f.swift", tree: tree)
        let lines = LineTable(bytes)
        var nodes = 0
        for token in tree.tokens(viewMode: .sourceAccurate) {
            #expect(lines.line(at: token.positionAfterSkippingLeadingTrivia.utf8Offset) == token.startLocation(converter: converter).line,
                    "line of \(token.text)")
            var node: Syntax? = Syntax(token)
            while let current = node {
                #expect(current.trimmedText == current.trimmedDescription)
                #expect(current.textWithoutWhitespace == current.trimmedDescription.filter { !$0.isWhitespace })
                nodes += 1
                node = current.parent
            }
        }
        #expect(nodes > 100)
        #expect(lines.line(at: bytes.count) == converter.location(for: tree.endPosition).line)
    }

    /// Every declaration of the example app hashes as the token walk of earlier versions did
    /// (`tokens(viewMode: .sourceAccurate)`), so baselines recorded before stay valid.
    @Test func contentHashEqualsTheTokenWalkOnTheExampleApp() throws {
        func tokenWalk(_ node: some SyntaxProtocol) -> String {
            var bytes: [UInt8] = []
            for token in node.tokens(viewMode: .sourceAccurate) {
                if case .keyword(.dynamic) = token.tokenKind, token.parent?.is(DeclModifierSyntax.self) == true { continue }
                bytes += token.text == "__patch_native_body" ? Array("body".utf8) : Array(token.text.utf8)
                bytes.append(0)
            }
            return SHA256Hasher.hex(of: bytes)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/PatchShop/Sources").standardizedFileURL
        var compared = 0
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! where url.pathExtension == "swift" {
            let tree = Parser.parse(source: try String(contentsOf: url, encoding: .utf8))
            // Every declaration: the ancestors of every token, each once.
            var seen = Set<SyntaxIdentifier>()
            for token in tree.tokens(viewMode: .sourceAccurate) {
                var ancestor = token.parent
                while let node = ancestor, seen.insert(node.id).inserted {
                    if let declaration = node.as(DeclSyntax.self) {
                        #expect(ContentHash.of(declaration) == tokenWalk(declaration), "\(url.lastPathComponent): \(declaration.trimmedText.prefix(40))")
                        compared += 1
                    }
                    ancestor = node.parent
                }
            }
        }
        #expect(compared > 50)
    }

    /// A type's layout hash covers the hashes of its stored properties, then of its enum cases, each
    /// in source order; computed and static properties do not count.
    @Test func storedLayoutHashCoversStoredPropertiesThenCases() throws {
        let source = """
            enum E {
                case a
                var x = 1
                static var shared = 0
                var computed: Int { 2 }
                case b(Int)
                var y: String { willSet {} }
            }
            """
        let tree = Parser.parse(source: source)
        let members = try #require(tree.statements.first?.item.as(EnumDeclSyntax.self)).memberBlock.members.map(\.decl)
        let expected = [members[1], members[5], members[0], members[4]].map { ContentHash.of($0) }.joined()
        let scan = SourceScanner.scan(tree, source: Array(source.utf8))
        let layout = try #require(scan.declarations.first { $0.kind == .storedLayout })
        #expect(layout.localID == "E")
        #expect(layout.contentHash == SHA256Hasher.hex(of: Array(expected.utf8)))
    }

    /// The raw-tree walk hashes the same tokens as a walk over `tokens(viewMode:)` would: comments and
    /// layout do not count, a `dynamic` modifier and the renamed body do not either, code does.
    @Test func contentHashIgnoresLayoutAndPrepareEditsOnly() {
        func hash(_ text: String) -> String {
            let tree = Parser.parse(source: text)
            return ContentHash.of(tree.statements.first!.item)
        }
        let plain = hash("struct A { var body: some View { Text(\"x\") } }")
        #expect(hash("struct A {\n  // note\n  var body : some View {\n Text( \"x\" ) }\n}") == plain)
        #expect(hash("struct A { var __patch_native_body: some View { Text(\"x\") } }") == plain)
        #expect(hash("struct A { var body: some View { Text(\"y\") } }") != plain)
        #expect(hash("struct A { var body: some View { Text(\"x\").bold() } }") != plain)
        let function = hash("enum E { static func f() -> Int { 1 } }")
        #expect(hash("enum E { static dynamic func f() -> Int { 1 } }") == function)
        // `dynamic` elsewhere is code (an identifier here), and `a b` is not `ab`.
        #expect(hash("enum E { static func f() -> Int { dynamic } }") != hash("enum E { static func f() -> Int { } }"))
        #expect(hash("let a = b c") != hash("let a = bc"))
    }
}

@Suite struct CompactCoderTests {
    struct Sample: Codable, Equatable {
        enum Kind: String, Codable { case one, two }
        var text: String
        var negative: Int
        var large: UInt64
        var small: Int8
        var ratio: Double
        var flag: Bool
        var missing: String?
        var present: Int?
        var nested: [[String]]
        var range: Range<Int>
        var kind: Kind
        var children: [Sample]
    }

    private let sample = Sample(
        text: "héllo \u{0} \"x\"", negative: Int.min, large: UInt64.max, small: -128, ratio: -0.5, flag: true,
        missing: nil, present: 0, nested: [[], ["a", ""]], range: -3..<70_000, kind: .two,
        children: [Sample(text: "", negative: 1, large: 0, small: 127, ratio: .infinity, flag: false, missing: "m", present: nil,
                          nested: [], range: 0..<0, kind: .one, children: [])])

    @Test func valuesSurviveARoundTrip() throws {
        let bytes = try CompactCoder.encode(sample)
        #expect(try CompactCoder.decode(Sample.self, from: bytes[...]) == sample)
    }

    /// Strings, integers, flags and string arrays are written by fast paths; they must be the bytes
    /// the generic containers write (a `ContiguousArray` and a wrapped value take the generic path).
    @Test func fastPathsWriteTheGenericForm() throws {
        struct Wrapped<Value: Codable>: Codable {
            var value: Value
            func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }
        struct Fields: Codable { var text: String; var number: Int; var flag: Bool }
        struct GenericFields: Codable { var text: Wrapped<String>; var number: Wrapped<Int>; var flag: Wrapped<Bool> }
        let strings = ["", "a", "héllo"]
        #expect(try CompactCoder.encode(strings) == CompactCoder.encode(ContiguousArray(strings)))
        #expect(try CompactCoder.encode(strings) == [3, 0, 0, 0, 0, 1, 0x61, 6] + Array("héllo".utf8))
        #expect(try CompactCoder.encode(Fields(text: "t", number: -2, flag: true))
                == CompactCoder.encode(GenericFields(text: .init(value: "t"), number: .init(value: -2), flag: .init(value: true))))
        #expect(try CompactCoder.decode([String].self, from: CompactCoder.encode(ContiguousArray(strings))[...]) == strings)
    }

    /// Every truncation and every trailing byte is refused with an error, never a trap or a wrong value.
    @Test func malformedBytesAreRefused() throws {
        let bytes = try CompactCoder.encode(sample)
        for length in 0..<bytes.count {
            #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode(Sample.self, from: bytes[..<length]) }
        }
        #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode(Sample.self, from: (bytes + [0])[...]) }
        // A length larger than the bytes left, an overlong integer, a Bool that is not 0 or 1.
        #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode(String.self, from: [0xff, 0xff, 0x03, 0x61][...]) }
        #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode(Int.self, from: [UInt8](repeating: 0xff, count: 11)[...]) }
        #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode(Bool.self, from: [2][...]) }
        #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode(Int8.self, from: [0x80, 0x02][...]) }
        #expect(throws: CompactCoder.Malformed.self) { try CompactCoder.decode([Int].self, from: [0xff, 0xff, 0xff, 0x0f, 0][...]) }
    }

    @Test func whatTheFormCannotHoldIsRefused() throws {
        #expect(throws: CompactCoder.Unsupported.self) { try CompactCoder.encode([1, nil, 3] as [Int?]) }
        #expect(throws: CompactCoder.Unsupported.self) { try CompactCoder.encode(["k": 1]) }
        #expect(throws: CompactCoder.Unsupported.self) { try CompactCoder.decode([String: Int].self, from: [0, 0, 0, 0][...]) }
    }
}
