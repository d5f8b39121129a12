import ArgumentParser
import Foundation
import PatchManifest
import PatchNotify

/// Where APNs credentials and device tokens come from, shared by `release --notify` and
/// `serve --notify-on-publish` (docs/triggers.md).
struct APNsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Device tokens to wake: one hex APNs token per line (# comments and blank lines skipped). Read again for every notification.", valueName: "FILE"))
    var deviceTokens: String?

    @Option(help: ArgumentHelp(
        "APNs credentials: JSON {team_id, key_id, key_file (the .p8), topic, environment} (default: $PATCHCLI_APNS_CREDENTIALS, else ~/.config/patch/apns/<app key>.json when it exists; PATCHCLI_APNS_* variables override each field).",
        valueName: "FILE"))
    var apnsCredentials: String?

    @Option(help: ArgumentHelp("Send to this APNs base URL instead of the credentials' environment (a proxy or a mock APNs).", valueName: "URL"))
    var apnsEndpoint: String?

    @Option(help: ArgumentHelp("Trust the CA certificates in this PEM file for the APNs endpoint instead of the system's.", valueName: "FILE"))
    var apnsCa: String?

    /// Where the credentials of `appKey` are kept unless told otherwise: next to the project's
    /// signing keys (`~/.config/patch/keys/<app key>`), outside every repository, because the .p8
    /// key lets anyone push to the app's users.
    static func defaultCredentialsFile(appKey: String?) -> String? {
        appKey.map { "\(FileAccess.homeDirectory)/.config/patch/apns/\($0).json" }
    }

    /// How to deliver: with APNs when anything configures it (credentials and tokens checked now,
    /// before anything is published), else nil: the payload is only written out.
    func delivery(appKey: String?) throws -> APNsDelivery? {
        let environment = ProcessInfo.processInfo.environment
        let file = APNsCredentials.configuredFile(explicit: apnsCredentials, defaultFile: Self.defaultCredentialsFile(appKey: appKey), environment: environment)
        guard APNsCredentials.isConfigured(file: file, environment: environment) else {
            if deviceTokens != nil {
                throw NotifyError.credentialMissing(field: "credentials", searched: Self.defaultCredentialsFile(appKey: appKey).map { "--apns-credentials, PATCHCLI_APNS_*, \($0)" } ?? "--apns-credentials and PATCHCLI_APNS_*")
            }
            return nil
        }
        let credentials = try APNsCredentials.load(file: file, environment: environment, home: FileAccess.homeDirectory)
        guard let deviceTokens else {
            throw CommandFailure(kind: "usage", message: "APNs credentials are configured (\(file ?? "PATCHCLI_APNS_*")) but no device tokens are given", exitStatus: .usage,
                                 hint: "pass --device-tokens FILE (one hex token per line)")
        }
        let endpoint = try apnsEndpoint.map { text throws(NotifyError) -> URL in
            guard let url = URL(string: text), url.scheme == "https", url.host != nil else {
                throw .endpointInvalid("--apns-endpoint \(text): expected an https:// URL")
            }
            return url
        }
        if let apnsCa { _ = try FileAccess.read(apnsCa) }
        let delivery = APNsDelivery(
            sender: APNsSender(credentials: credentials, endpoint: endpoint, trustedCAFile: apnsCa), providerToken: ProviderToken(credentials: credentials),
            tokenFile: deviceTokens, credentialsSource: file ?? "PATCHCLI_APNS_*")
        _ = try delivery.tokens()
        return delivery
    }
}

/// A configured APNs sender and its device-token file.
struct APNsDelivery: Sendable {
    var sender: APNsSender
    /// One provider token for every push this process sends (serve sends many over hours).
    var providerToken: ProviderToken
    var tokenFile: String
    var credentialsSource: String

    func tokens() throws -> [String] {
        try DeviceTokens.parse(String(decoding: try FileAccess.read(tokenFile), as: UTF8.self), source: tokenFile)
    }

    func send(_ push: SilentPush) async throws -> NotifyReport {
        let payload = try push.payload()
        let tokens = try tokens()
        let summary = try await sender.send(payload, to: tokens, providerToken: providerToken)
        return NotifyReport(push: push, payloadFile: nil, apns: .init(endpoint: sender.endpoint.absoluteString, topic: sender.credentials.topic, devices: tokens.count, summary: summary))
    }
}

/// `notify` in `release`'s --json result: the payload, and what APNs did with it when sent.
struct NotifyReport: Encodable, Sendable {
    struct APNs: Encodable, Sendable {
        var endpoint: String
        var topic: String
        var devices: Int
        var summary: NotifySummary
    }

    var push: SilentPush
    /// Where `--notify-payload-out` wrote the payload.
    var payloadFile: String?
    /// Nil when no credentials are configured: the payload was only written out.
    var apns: APNs?

    /// The human lines: what was sent, and each token to drop.
    func lines() -> [String] {
        guard let apns else { return [] }
        let summary = apns.summary
        var lines = ["notified \(apns.devices) device(s) via \(apns.endpoint) (topic \(apns.topic)): \(summary.sent) sent, \(summary.invalid.count) invalid, \(summary.failed.count) failed, \(summary.retried) retried"]
        for token in summary.invalid {
            let since = token.timestamp.map { " since \(TUFTime.format(Date(timeIntervalSince1970: Double($0) / 1000)))" } ?? ""
            lines.append("  invalid token \(token.token): \(token.status) \(token.reason)\(since); remove it from the token list")
        }
        for failure in summary.failed {
            lines.append("  failed \(failure.token): \(failure.status.map { "\($0) " } ?? "")\(failure.reason)")
        }
        return lines
    }

    /// Deliveries that still failed after the retries fail the command (exit 71); `result` (the
    /// command's success-shaped report) goes with the failure so CI sees which tokens.
    func checkDelivered(published: String, result: any Encodable & Sendable) throws {
        guard let summary = apns?.summary, !summary.failed.isEmpty else { return }
        throw CommandFailure(
            kind: "notify_failed", message: "\(published); \(summary.failed.count) of \(apns?.devices ?? 0) push(es) failed after retries", exitStatus: .notifyFailed,
            hint: "the release is live either way: a device the push missed finds it at its next update check; the failed tokens and APNs' reasons are listed above (under --json: result.notify)",
            result: result)
    }
}
