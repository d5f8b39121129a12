@testable import PatchBuild
import Testing

/// The generated codecs read and write what the type's own Codable does on the device: the keys a
/// nested `CodingKeys` enum names, without the properties it leaves out; a type that codes itself
/// by hand is refused with where, since generated glue cannot know what its code does.
@Suite struct CodingKeysCodecTests {
    static let index = GuestSourceIndex(sources: [("Sources/App/Profile.swift", """
        import Foundation

        struct Profile: Codable {
            var id: UUID
            var displayName: String
            var avatar: URL?
            var cachedAt: Double = 0

            enum CodingKeys: String, CodingKey {
                case id
                case displayName = "display_name"
                case avatar = "avatar_url"
            }
        }

        struct Legacy: Codable {
            var name: String

            init(from decoder: Decoder) throws {
                name = try decoder.singleValueContainer().decode(String.self)
            }
        }
        """)])

    @Test func renamedKeysAreTheJSONKeysAndUnlistedPropertiesAreNotCoded() throws {
        let reader = GuestSignatureReader(index: Self.index)
        var writer = GuestSourceWriter()
        GuestCodecGenerator(index: Self.index, reader: reader).emitCodec(for: try #require(Self.index.lookupType(path: ["Profile"])), into: &writer)
        let text = writer.text
        #expect(text.contains(#"self.displayName = try value.decode("display_name", as: String.self)"#), "\(text)")
        #expect(text.contains(#"writer.writeKey("display_name"); self.displayName._patchEncode(into: &writer)"#))
        #expect(text.contains(#"self.avatar = try value.decode("avatar_url", as: Optional<URL>.self)"#))
        #expect(text.contains(#"writer.writeKey("avatar_url"); present._patchEncode(into: &writer)"#))
        #expect(text.contains(#"self.id = try value.decode("id", as: UUID.self)"#))
        #expect(!text.contains("cachedAt"), "a property CodingKeys leaves out keeps its default and is not written")
    }

    @Test func aHandWrittenInitFromDecoderIsRefusedAtItsLine() throws {
        let reader = GuestSignatureReader(index: Self.index)
        guard case .failure(let problem) = reader.codableShape(of: try #require(Self.index.lookupType(path: ["Legacy"]))) else {
            Issue.record("a hand-written init(from:) must be refused")
            return
        }
        #expect(problem.reason == .unsupportedSignature)
        #expect(problem.detail.contains("Legacy implements init(from:) or encode(to:) itself"), "\(problem.detail)")
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/Profile.swift", line: 19))
    }
}
