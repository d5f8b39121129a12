/// How the bytes of a packed result are turned into something printable.
public enum OutputDecoding: String, Sendable, CaseIterable, Codable {
    /// JSON when the bytes parse as JSON, else UTF-8 text, else hex.
    case auto
    case text
    case json
    case msgpack
    case hex
}

/// A packed result decoded for display and comparison.
public struct DecodedOutput: Sendable, Equatable {
    /// What the bytes were decoded as: "json", "text", "msgpack" or "hex".
    public var encoding: String
    /// Human-readable form: pretty JSON, the text itself or hex digits.
    public var rendered: String
    /// The structured value, for JSON and MessagePack outputs.
    public var value: MessagePackValue?

    public static func decode(_ bytes: [UInt8], as decoding: OutputDecoding, export: String) throws(RuntimeError) -> DecodedOutput {
        switch decoding {
        case .auto:
            if !bytes.isEmpty, let value = MessagePackValue.parseJSON(bytes) {
                return DecodedOutput(encoding: "json", rendered: value.renderJSON(pretty: true), value: value)
            }
            if let text = String(validating: bytes, as: UTF8.self) {
                return DecodedOutput(encoding: "text", rendered: text, value: .string(text))
            }
            return hex(bytes)
        case .text:
            // The SDK decodes strings lossily (sdk-contract §2.1); a CI check should not.
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .undecodableOutput(export: export, encoding: "UTF-8", detail: "\(bytes.count) byte(s) include invalid sequences")
            }
            return DecodedOutput(encoding: "text", rendered: text, value: .string(text))
        case .json:
            guard let value = MessagePackValue.parseJSON(bytes) else {
                throw .undecodableOutput(export: export, encoding: "JSON", detail: "\(bytes.count) byte(s) do not parse as JSON")
            }
            return DecodedOutput(encoding: "json", rendered: value.renderJSON(pretty: true), value: value)
        case .msgpack:
            let value: MessagePackValue
            do { value = try MessagePackDecoder.decode(bytes) } catch { throw .messagePack(error) }
            return DecodedOutput(encoding: "msgpack", rendered: value.renderJSON(pretty: true), value: value)
        case .hex:
            return hex(bytes)
        }
    }

    private static func hex(_ bytes: [UInt8]) -> DecodedOutput {
        let digits = Array("0123456789abcdef")
        let text = String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
        return DecodedOutput(encoding: "hex", rendered: text, value: .binary(bytes))
    }
}

/// How `--input` text becomes the bytes handed to a packed export.
public enum InputEncoding: String, Sendable, CaseIterable, Codable {
    /// The bytes as given (JSON or plain text alike).
    case raw
    /// The input is JSON, sent as the SDK's MessagePack encoding of it.
    case msgpack

    public func encode(_ bytes: [UInt8]) throws(RuntimeError) -> [UInt8] {
        switch self {
        case .raw:
            return bytes
        case .msgpack:
            do throws(JSONSyntaxError) {
                return MessagePackEncoder.encode(try MessagePackValue.readJSON(bytes))
            } catch {
                throw .invalidInput(detail: "--encode msgpack needs JSON input, and the input is not JSON at \(error)")
            }
        }
    }
}
