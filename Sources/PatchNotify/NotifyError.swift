/// Why a notification could not be prepared or sent. The CLI maps each case to its documented exit
/// code (docs/cli.md): credentials → 70, device tokens → 4, failed deliveries → 71.
public enum NotifyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A credential is not configured anywhere patchcli looks (`field` names it as the file does).
    case credentialMissing(field: String, searched: String)
    /// A credential is there but unusable: a .p8 that is not a PKCS#8 P-256 key, a key id that is
    /// not 10 characters, an unknown environment…
    case credentialInvalid(source: String, reason: String)
    /// APNs refused the credentials (403, or a topic it does not accept) after the JWT was refreshed.
    case credentialsRejected(status: Int, reason: String)
    /// A line of the device-token file is not a token.
    case deviceTokenInvalid(source: String, line: Int, reason: String)
    case payloadTooLarge(bytes: Int)
    case payloadUnencodable(String)
    /// The endpoint or CA file given for APNs cannot be used.
    case endpointInvalid(String)

    public var description: String {
        switch self {
        case let .credentialMissing(field, searched):
            "no APNs \(field) (looked in \(searched))"
        case let .credentialInvalid(source, reason):
            "\(source): \(reason)"
        case let .credentialsRejected(status, reason):
            "APNs refused the credentials: \(status) \(reason)"
        case let .deviceTokenInvalid(source, line, reason):
            "\(source):\(line): \(reason)"
        case let .payloadTooLarge(bytes):
            "the push payload is \(bytes) bytes; APNs accepts at most \(SilentPush.maximumPayloadBytes)"
        case let .payloadUnencodable(reason):
            "the push payload could not be encoded: \(reason)"
        case let .endpointInvalid(reason):
            reason
        }
    }
}
