@testable import PatchRuntime
import Testing

@Suite struct MessagePackTests {
    @Test func encoderUsesTheSDKsSmallestForms() {
        #expect(MessagePackEncoder.encode(.int(5)) == [0x05])
        #expect(MessagePackEncoder.encode(.int(200)) == [0xCC, 200])
        #expect(MessagePackEncoder.encode(.int(-1)) == [0xFF])
        #expect(MessagePackEncoder.encode(.int(-33)) == [0xD0, 0xDF])
        #expect(MessagePackEncoder.encode(.int(70000)) == [0xCE, 0x00, 0x01, 0x11, 0x70])
        #expect(MessagePackEncoder.encode(.double(1.5)) == [0xCB, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0])
        #expect(MessagePackEncoder.encode(.string("hi")) == [0xA2, 0x68, 0x69])
        #expect(MessagePackEncoder.encode(.map([("a", .bool(true))])) == [0x81, 0xA1, 0x61, 0xC3])
    }

    @Test func decoderReadsEveryTypeOfTheFormat() throws {
        let value = MessagePackValue.map([
            ("s", .string(String(repeating: "x", count: 40))), ("u", .uint(UInt64.max)), ("i", .int(Int64.min)),
            ("d", .double(-0.25)), ("b", .binary([1, 2, 3])), ("n", .null),
            ("a", .array((0..<20).map { .int(Int64($0)) })),
        ])
        #expect(try MessagePackDecoder.decode(MessagePackEncoder.encode(value)) == value)
        #expect(try MessagePackDecoder.decode([0xCA, 0x3F, 0xC0, 0, 0]) == .double(1.5))
    }

    @Test func hardeningLimitsHold() {
        let deep = [UInt8](repeating: 0x91, count: 1100) + [0xC0]
        #expect(throws: MessagePackError.self) { try MessagePackDecoder.decode(deep) }
        let fine = [UInt8](repeating: 0x91, count: 1000) + [0xC0]
        #expect((try? MessagePackDecoder.decode(fine)) != nil)
        #expect(throws: MessagePackError.countExceedsInput(offset: 0, count: 0xFFFF_FFFF, remaining: 0)) {
            try MessagePackDecoder.decode([0xDD, 0xFF, 0xFF, 0xFF, 0xFF])
        }
        #expect(throws: MessagePackError.truncated(offset: 1, needed: 3)) { try MessagePackDecoder.decode([0xA5, 0x61, 0x62]) }
        #expect(throws: MessagePackError.unsupportedTag(offset: 0, tag: 0xD4)) { try MessagePackDecoder.decode([0xD4, 0, 0]) }
        #expect(throws: MessagePackError.trailingBytes(offset: 1, count: 1)) { try MessagePackDecoder.decode([0xC0, 0xC0]) }
        #expect(throws: MessagePackError.truncated(offset: 0, needed: 1)) { try MessagePackDecoder.decode([]) }
    }

    @Test func nonStringKeysAreIgnoredAsTheSDKDoes() throws {
        #expect(try MessagePackDecoder.decode([0x82, 0x01, 0x02, 0xA1, 0x6B, 0x03]) == .map([("k", .uint(3))]))
    }

    @Test func renderingKeepsWireOrderAndSpellsNonFiniteNumbers() {
        let value = MessagePackValue.map([("z", .double(.infinity)), ("a", .array([.int(1), .double(2.5)]))])
        #expect(value.renderJSON(pretty: false) == #"{"z":"inf","a":[1,2.5]}"#)
    }
}
