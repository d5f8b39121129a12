import Crypto
import Foundation
import Synchronization

/// The provider authentication token APNs expects in `authorization: bearer …`: a JWT signed with
/// ES256 by the team's .p8 key, header `{"alg":"ES256","kid":<key id>}`, claims
/// `{"iss":<team id>,"iat":<seconds>}`.
///
/// APNs rejects a token older than an hour (ExpiredProviderToken) and one replaced more often than
/// every 20 minutes (TooManyProviderTokenUpdates), so one token is signed and reused by every
/// request for `lifetime` (50 minutes), and a rejected one is replaced once for all the requests
/// that saw it rather than once per request.
public final class ProviderToken: Sendable {
    public static let lifetime: TimeInterval = 50 * 60

    private let credentials: APNsCredentials
    private let now: @Sendable () -> Date
    private let state = Mutex<(token: String, issued: Date)?>(nil)

    public init(credentials: APNsCredentials, now: @escaping @Sendable () -> Date = { Date() }) {
        self.credentials = credentials
        self.now = now
    }

    /// The token to send now: the one in use, or a new one when it is `lifetime` old.
    public func current() throws(NotifyError) -> String {
        let time = now()
        return try state.withLock { (held: inout (token: String, issued: Date)?) throws(NotifyError) -> String in
            if let held, time.timeIntervalSince(held.issued) < Self.lifetime { return held.token }
            let token = try Self.sign(credentials, issuedAt: time)
            held = (token, time)
            return token
        }
    }

    /// APNs refused `rejected` as expired or invalid: the token to retry with. Requests that saw
    /// the same rejected token all get the one replacement.
    public func replacing(_ rejected: String) throws(NotifyError) -> String {
        let time = now()
        return try state.withLock { (held: inout (token: String, issued: Date)?) throws(NotifyError) -> String in
            if let held, held.token != rejected { return held.token }
            let token = try Self.sign(credentials, issuedAt: time)
            held = (token, time)
            return token
        }
    }

    /// header.claims.signature, each base64url without padding; the signature is ES256's raw
    /// 64-byte r‖s (RFC 7518 §3.4), not DER.
    static func sign(_ credentials: APNsCredentials, issuedAt: Date) throws(NotifyError) -> String {
        let header = #"{"alg":"ES256","kid":"\#(credentials.keyID)"}"#
        let claims = #"{"iss":"\#(credentials.teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#
        let signingInput = base64URL(Data(header.utf8)) + "." + base64URL(Data(claims.utf8))
        let signature: P256.Signing.ECDSASignature
        do { signature = try credentials.key.signature(for: Data(signingInput.utf8)) } catch {
            throw .credentialInvalid(source: "key \(credentials.keyID)", reason: "cannot sign with it (\(error))")
        }
        return signingInput + "." + base64URL(signature.rawRepresentation)
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
