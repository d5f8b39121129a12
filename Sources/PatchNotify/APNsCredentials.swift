import Crypto
import Foundation

/// What token-based APNs authentication needs (docs/triggers.md "Credentials"): the team, the key
/// id and the .p8 signing key Apple issued for it, the app's bundle id (the topic) and which APNs
/// environment the devices' tokens belong to.
public struct APNsCredentials: Sendable {
    public enum Environment: String, Codable, Sendable, CaseIterable {
        /// Development builds (Xcode, `aps-environment` development).
        case sandbox
        /// TestFlight and App Store builds.
        case production

        public var endpoint: URL {
            switch self {
            case .sandbox: URL(string: "https://api.sandbox.push.apple.com")!
            case .production: URL(string: "https://api.push.apple.com")!
            }
        }
    }

    public var teamID: String
    public var keyID: String
    public var key: P256.Signing.PrivateKey
    /// `apns-topic`: the app's bundle identifier.
    public var topic: String
    public var environment: Environment

    public init(teamID: String, keyID: String, key: P256.Signing.PrivateKey, topic: String, environment: Environment) {
        self.teamID = teamID
        self.keyID = keyID
        self.key = key
        self.topic = topic
        self.environment = environment
    }

    /// The credentials file's format (snake_case, like patchcli's other JSON). `key_file` is
    /// relative to the file's folder; `~` is the home folder.
    struct File: Codable {
        var teamId: String?
        var keyId: String?
        var keyFile: String?
        var topic: String?
        var environment: String?

        enum CodingKeys: String, CodingKey {
            case teamId = "team_id", keyId = "key_id", keyFile = "key_file", topic, environment
        }
    }

    /// The environment variables that configure APNs without a file (CI secrets), each overriding
    /// the file's field of the same meaning.
    public enum Variable: String, CaseIterable, Sendable {
        case credentials = "PATCHCLI_APNS_CREDENTIALS"
        case teamID = "PATCHCLI_APNS_TEAM_ID"
        case keyID = "PATCHCLI_APNS_KEY_ID"
        /// The .p8 file's text itself, as CI secret stores hold it.
        case key = "PATCHCLI_APNS_KEY"
        case keyFile = "PATCHCLI_APNS_KEY_FILE"
        case topic = "PATCHCLI_APNS_TOPIC"
        case environment = "PATCHCLI_APNS_ENVIRONMENT"
    }

    /// Whether anything configures APNs: the credentials file (given, named by
    /// `PATCHCLI_APNS_CREDENTIALS`, or at `defaultFile` when it exists) or any `PATCHCLI_APNS_*`
    /// variable. Without it, `--notify` only writes the payload.
    public static func configuredFile(explicit: String?, defaultFile: String?, environment: [String: String]) -> String? {
        if let explicit { return explicit }
        if let named = environment[Variable.credentials.rawValue], !named.isEmpty { return named }
        if let defaultFile, FileManager.default.fileExists(atPath: defaultFile) { return defaultFile }
        return nil
    }

    public static func isConfigured(file: String?, environment: [String: String]) -> Bool {
        file != nil || Variable.allCases.contains { environment[$0.rawValue].map { !$0.isEmpty } ?? false }
    }

    /// Reads the credentials from `file` (nil: none) with the environment's variables overriding
    /// its fields, and checks each: a missing or malformed one is named with where it came from.
    public static func load(file: String?, environment: [String: String], home: String) throws(NotifyError) -> APNsCredentials {
        var contents = File()
        if let file {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw .credentialInvalid(source: file, reason: "cannot be read (\((error as NSError).localizedDescription))")
            }
            do { contents = try JSONDecoder().decode(File.self, from: data) } catch {
                throw .credentialInvalid(source: file, reason: "not a credentials file: \(Self.describe(error)) (expected {\"team_id\", \"key_id\", \"key_file\", \"topic\", \"environment\"})")
            }
        }
        func value(_ variable: Variable, _ fileValue: String?, field: String) -> (String, source: String)? {
            if let set = environment[variable.rawValue], !set.isEmpty { return (set, variable.rawValue) }
            if let fileValue, let file { return (fileValue, "\(file) \(field)") }
            return nil
        }
        let searched = file.map { "\($0) and the PATCHCLI_APNS_* variables" } ?? "the PATCHCLI_APNS_* variables"
        func required(_ variable: Variable, _ fileValue: String?, field: String) throws(NotifyError) -> (String, source: String) {
            guard let found = value(variable, fileValue, field: field) else { throw .credentialMissing(field: field, searched: searched) }
            return found
        }

        let team = try required(.teamID, contents.teamId, field: "team_id")
        try checkIdentifier(team.0, source: team.source, what: "team id")
        let keyID = try required(.keyID, contents.keyId, field: "key_id")
        try checkIdentifier(keyID.0, source: keyID.source, what: "key id")
        let topic = try required(.topic, contents.topic, field: "topic")
        guard !topic.0.contains(where: { $0.isWhitespace }) else {
            throw .credentialInvalid(source: topic.source, reason: "the topic is the app's bundle id, without spaces; got \"\(topic.0)\"")
        }
        let environmentName = value(.environment, contents.environment, field: "environment") ?? (Environment.production.rawValue, "default")
        guard let apnsEnvironment = Environment(rawValue: environmentName.0) else {
            throw .credentialInvalid(source: environmentName.source, reason: "environment is sandbox or production, not \"\(environmentName.0)\"")
        }

        let keyText: String
        let keySource: String
        if let text = environment[Variable.key.rawValue], !text.isEmpty {
            (keyText, keySource) = (text, Variable.key.rawValue)
        } else {
            let path = try required(.keyFile, contents.keyFile, field: "key_file")
            let resolved = resolve(path.0, relativeTo: path.source == Variable.keyFile.rawValue ? nil : file, home: home)
            guard let data = FileManager.default.contents(atPath: resolved) else {
                throw .credentialInvalid(source: path.source, reason: "the key file \(resolved) cannot be read")
            }
            (keyText, keySource) = (String(decoding: data, as: UTF8.self), resolved)
        }
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(pemRepresentation: keyText) } catch {
            throw .credentialInvalid(
                source: keySource,
                reason: "not an APNs auth key: expected the .p8 file Apple issued (PEM \"BEGIN PRIVATE KEY\", a PKCS#8 P-256 key)")
        }
        return APNsCredentials(teamID: team.0, keyID: keyID.0, key: key, topic: topic.0, environment: apnsEnvironment)
    }

    /// Team and key ids are 10 upper-case letters and digits (as the developer account shows them);
    /// a wrong one would only fail at APNs, as InvalidProviderToken, for every device.
    static func checkIdentifier(_ value: String, source: String, what: String) throws(NotifyError) {
        guard value.count == 10, value.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
            throw .credentialInvalid(source: source, reason: "the \(what) is 10 upper-case letters and digits (as the Apple developer account shows it), got \"\(value)\" (\(value.count) characters)")
        }
    }

    static func resolve(_ path: String, relativeTo file: String?, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst(1) }
        if path.hasPrefix("/") { return path }
        guard let file else { return path }
        return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).path
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.keyNotFound(_, context), let DecodingError.dataCorrupted(context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
