import Crypto
import Foundation

/// Why metadata is not acceptable: malformed, wrongly typed, badly signed or expired. Messages name
/// the role and field; callers that know the file add its path.
public enum MetadataError: Error, Equatable, Sendable, CustomStringConvertible {
    case json(JSONParseError)
    case malformed(field: String, detail: String)
    case wrongType(expected: String, found: String)
    case unsupportedSpecVersion(String)
    case thresholdNotMet(role: TUFRole, valid: Int, threshold: Int)
    case roleMissing(TUFRole)
    case expired(role: TUFRole, expires: String)

    public var description: String {
        switch self {
        case let .json(error): return "not valid JSON: \(error)"
        case let .malformed(field, detail): return "field \(field): \(detail)"
        case let .wrongType(expected, found): return "_type is \"\(found)\", expected \"\(expected)\""
        case let .unsupportedSpecVersion(version): return "spec_version \"\(version)\" is not TUF 1.x"
        case let .thresholdNotMet(role, valid, threshold):
            return "\(valid) valid signature(s) from \(role.rawValue) keys, threshold is \(threshold)"
        case let .roleMissing(role): return "root lists no keys for the \(role.rawValue) role"
        case let .expired(role, expires): return "\(role.rawValue) metadata expired at \(expires)"
        }
    }
}

/// Why a private key cannot be used.
public enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case notBase64
    case wrongLength(found: Int)
    case unsupportedKeyType(String)

    public var description: String {
        switch self {
        case .notBase64: return "the key is not base64 text (expected the 32-byte Ed25519 seed, base64-encoded)"
        case let .wrongLength(found):
            return found == 64
                ? "the key is 64 bytes: an expanded Ed25519 key, not the 32-byte seed patchcli stores; regenerate it with `patchcli keys generate`"
                : "the key is \(found) bytes, expected a 32-byte Ed25519 seed"
        case let .unsupportedKeyType(type): return "key type \(type) cannot sign here (patchcli signs with ed25519)"
        }
    }
}

/// An Ed25519 private key as patchcli keeps it: the 32-byte seed, base64 in a 0600 file or an
/// environment variable. The seed (not the 64-byte expanded key) is the portable form.
public struct SigningKey: Sendable {
    private let privateKey: Curve25519.Signing.PrivateKey

    public static func generate() -> SigningKey { SigningKey(privateKey: Curve25519.Signing.PrivateKey()) }

    private init(privateKey: Curve25519.Signing.PrivateKey) { self.privateKey = privateKey }

    public init(seed: [UInt8]) throws(KeyError) {
        guard seed.count == 32 else { throw .wrongLength(found: seed.count) }
        do {
            privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        } catch {
            throw .wrongLength(found: seed.count)
        }
    }

    /// Parses the key file format: base64 of the seed, surrounding whitespace ignored.
    public init(keyFileText text: String) throws(KeyError) {
        guard let seed = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw .notBase64 }
        try self.init(seed: [UInt8](seed))
    }

    public var keyFileText: String { Data(privateKey.rawRepresentation).base64EncodedString() + "\n" }

    public var publicKey: TUFKey {
        TUFKey(keytype: "ed25519", scheme: "ed25519", publicValue: Hex.encode([UInt8](privateKey.publicKey.rawRepresentation)))
    }

    public var keyid: String { publicKey.keyid }

    /// Signs `message`, returning the hex signature TUF puts in `sig`. CryptoKit randomises Ed25519
    /// signatures, so callers must verify signatures, never compare their bytes.
    public func sign(_ message: [UInt8]) throws -> String {
        Hex.encode([UInt8](try privateKey.signature(for: message)))
    }
}

extension TUFKey {
    /// Checks one signature. ed25519 is what patchcli signs with; ecdsa-sha2-nistp256 (PEM public
    /// key, DER signature) is accepted so that keys from HSMs and the TUF conformance tools verify.
    public func isValidSignature(_ signatureHex: String, for message: [UInt8]) -> Bool {
        guard let signature = Hex.decode(signatureHex) else { return false }
        switch (keytype, scheme) {
        case ("ed25519", "ed25519"):
            guard let raw = Hex.decode(keyval.public), raw.count == 32,
                  let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
            return key.isValidSignature(signature, for: message)
        case ("ecdsa", "ecdsa-sha2-nistp256"), ("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256"):
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: keyval.public),
                  let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        default:
            return false
        }
    }
}

/// The largest metadata version or release counter accepted (2^53, exact in every JSON reader).
public let maximumVersion = 1 << 53

/// A TUF metadata file: `{"signed": …, "signatures": [{"keyid","sig"}]}`. `signed` is kept as the
/// tree that was received so signatures are checked over exactly what was signed.
public struct SignedEnvelope: Sendable, Hashable {
    public var signed: JSONValue
    public var signatures: [TUFSignature]

    public init(signed: JSONValue, signatures: [TUFSignature]) {
        self.signed = signed
        self.signatures = signatures
    }

    /// Builds and signs metadata; every key in `keys` adds one signature.
    public init(signing metadata: some TUFSigned, with keys: [SigningKey]) throws {
        signed = try JSONValue(encoding: metadata)
        let message = CanonicalJSON.encode(signed)
        signatures = try keys.map { TUFSignature(keyid: $0.keyid, sig: try $0.sign(message)) }
    }

    public static func parse(_ bytes: [UInt8]) throws(MetadataError) -> SignedEnvelope {
        let tree: JSONValue
        do { tree = try JSONValue.parse(bytes) } catch { throw .json(error) }
        guard let signed = tree["signed"], signed.objectValue != nil else {
            throw .malformed(field: "signed", detail: "missing or not an object")
        }
        guard let list = tree["signatures"]?.arrayValue else {
            throw .malformed(field: "signatures", detail: "missing or not an array")
        }
        var signatures: [TUFSignature] = []
        for (index, entry) in list.enumerated() {
            guard let keyid = entry["keyid"]?.stringValue, let sig = entry["sig"]?.stringValue else {
                throw .malformed(field: "signatures[\(index)]", detail: "needs string keyid and sig")
            }
            signatures.append(TUFSignature(keyid: keyid, sig: sig))
        }
        return SignedEnvelope(signed: signed, signatures: signatures)
    }

    /// The file bytes: the whole envelope as compact sorted JSON (deterministic; control characters
    /// escaped so every JSON parser reads it).
    public var bytes: [UInt8] {
        CanonicalJSON.serialize(.object([
            "signed": signed,
            "signatures": .array(signatures.map { .object(["keyid": .string($0.keyid), "sig": .string($0.sig)]) }),
        ]))
    }

    /// The typed view of `signed`, after checking `_type` and the spec's major version.
    public func decode<T: TUFSigned>(_ type: T.Type) throws(MetadataError) -> T {
        let expected = T.role.rawValue
        let found = signed["_type"]?.stringValue ?? "(missing)"
        guard found == expected else { throw .wrongType(expected: expected, found: found) }
        let specVersion = signed["spec_version"]?.stringValue ?? "(missing)"
        guard specVersion.split(separator: ".").first == "1" else { throw .unsupportedSpecVersion(specVersion) }
        do {
            let metadata = try signed.decode(T.self)
            // Bounded so that "next version" arithmetic can never overflow on a hostile file.
            guard (1...maximumVersion).contains(metadata.version) else {
                throw MetadataError.malformed(field: "version", detail: "\(metadata.version) is outside 1...\(maximumVersion)")
            }
            return metadata
        } catch let error as MetadataError {
            throw error
        } catch let error as DecodingError {
            throw .malformed(field: Self.path(of: error), detail: "missing or of the wrong type")
        } catch {
            throw .malformed(field: "signed", detail: String(describing: error))
        }
    }

    /// Counts valid signatures the way TUF requires: only keys root lists for the role, each keyid
    /// once and each distinct public key once, then compares with the role's threshold.
    public func verifySignatures(for role: TUFRole, trustedBy root: RootMetadata) throws(MetadataError) {
        guard let roleKeys = root.roles[role.rawValue], roleKeys.threshold >= 1 else { throw .roleMissing(role) }
        let message = CanonicalJSON.encode(signed)
        var countedKeyids = Set<String>()
        var countedKeys = Set<TUFKey>()
        for signature in signatures where roleKeys.keyids.contains(signature.keyid) && !countedKeyids.contains(signature.keyid) {
            guard let key = root.keys[signature.keyid], !countedKeys.contains(key),
                  key.isValidSignature(signature.sig, for: message) else { continue }
            countedKeyids.insert(signature.keyid)
            countedKeys.insert(key)
        }
        guard countedKeys.count >= roleKeys.threshold else {
            throw .thresholdNotMet(role: role, valid: countedKeys.count, threshold: roleKeys.threshold)
        }
    }

    private static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case let .keyNotFound(key, found): return (found.codingPath + [key]).map(\.stringValue).joined(separator: ".")
        case let .typeMismatch(_, found), let .valueNotFound(_, found), let .dataCorrupted(found): context = found
        @unknown default: return "signed"
        }
        return context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}

extension TUFSigned {
    /// Checks `expires` against a fixed reference time, as TUF clients do once per update.
    public func checkNotExpired(at now: Date) throws(MetadataError) {
        guard let expiry = TUFTime.parse(expires) else {
            throw .malformed(field: "expires", detail: "\"\(expires)\" is not YYYY-MM-DDTHH:MM:SSZ")
        }
        guard expiry > now else { throw .expired(role: Self.role, expires: expires) }
    }
}

/// Lowercase hex, as TUF writes key values, signatures and hashes.
public enum Hex {
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            var index = 0
            for byte in bytes {
                text[index] = digit(byte >> 4)
                text[index + 1] = digit(byte & 0xF)
                index += 2
            }
            return index
        }
    }

    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
