// Guest Foundation layer (see Foundation.swift): JSONEncoder and JSONDecoder for the project's
// Codable types. Embedded Swift has no Codable (and no existentials to build it on), so they are
// generic over `_PatchJSONCodable`: `patchcli build` generates that codec for every Codable project
// type the shipped code uses (GuestSourceGenerator.collectCodableTypes), in JSONEncoder's shapes and
// with the type's CodingKeys, and the prelude has it for the standard library's types and this
// layer's (URL, UUID, Data). Default strategies only: JSONEncoder writes `/` as `\/` unless
// `.withoutEscapingSlashes`, keys in declaration order; the key, date and data strategies and the
// sorted or pretty-printed output are native-only.

/// A class, as Foundation's: `let encoder = JSONEncoder()` is then configured in place.
class JSONEncoder {
    struct OutputFormatting: OptionSet {
        let rawValue: UInt
        static let withoutEscapingSlashes = OutputFormatting(rawValue: 8)
    }

    var outputFormatting: OutputFormatting = []

    init() {}

    /// Throws for a value JSON cannot represent (a non-finite Double), as JSONEncoder does.
    final func encode<Value: _PatchJSONCodable>(_ value: Value) throws(EncodingError) -> Data {
        var writer = _PatchJSONWriter()
        value._patchEncode(into: &writer)
        if writer.failure != nil { throw EncodingError() }
        let written = writer.bytes.buffer
        guard !outputFormatting.contains(.withoutEscapingSlashes) else { return Data(written) }
        // A '/' byte is only ever inside a string in JSON.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(written.count)
        for byte in written {
            if byte == UInt8(ascii: "/") { escaped.append(UInt8(ascii: "\\")) }
            escaped.append(byte)
        }
        return Data(escaped)
    }
}

class JSONDecoder {
    init() {}

    /// Throws for invalid JSON or a value that does not fit `type`; the error says which key.
    final func decode<Value: _PatchJSONCodable>(_ type: Value.Type, from data: Data) throws(DecodingError) -> Value {
        let bytes = Array(data)
        do throws(_PatchDecodeError) {
            return try bytes.withUnsafeBufferPointer { buffer throws(_PatchDecodeError) in
                try Value(_patchJSON: _PatchJSONReader.parse(buffer.baseAddress, Int32(buffer.count)))
            }
        } catch {
            throw DecodingError(error)
        }
    }
}

/// Why JSONEncoder could not encode a value (a non-finite Double).
struct EncodingError: Error {}

/// Why JSONDecoder could not decode: the reason and the key, as the glue reports them.
struct DecodingError: Error, CustomStringConvertible {
    private let underlying: _PatchDecodeError

    init(_ underlying: _PatchDecodeError) { self.underlying = underlying }

    var description: String {
        var text = String(decoding: underlying.reason, as: UTF8.self)
        if underlying.key.count > 0 { text += " (key '" + String(decoding: underlying.key, as: UTF8.self) + "')" }
        return text
    }
}
