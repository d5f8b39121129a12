import Foundation

/// The silent push that wakes devices for a release (docs/triggers.md "Payload"):
///
///     {"aps":{"content-available":1},"patch":{"app":"…","channel":"…","version":"…"}}
///
/// `aps.content-available = 1` with no alert, sound or badge is what makes APNs deliver it as a
/// background notification (`apns-push-type: background`, priority 5). The app's push handler
/// recognises patchcli's pushes by the `patch` key and runs the SDK's update check; `app`,
/// `channel` and `version` let it ignore a push meant for another app key or channel, or for a
/// version it already runs. `app` is left out when the release records no app key.
public struct SilentPush: Codable, Equatable, Sendable {
    /// APNs refuses a larger payload with 413 (PayloadTooLarge).
    public static let maximumPayloadBytes = 4096
    /// The top-level key of patchcli's part of the payload.
    public static let customKey = "patch"

    public struct Release: Codable, Equatable, Sendable {
        /// The app key devices send as `app_key` (patch.json's `appKey`).
        public var app: String?
        public var channel: String
        /// The release record's version, what a device that took it sends as `current_version`.
        public var version: String

        public init(app: String?, channel: String, version: String) {
            self.app = app
            self.channel = channel
            self.version = version
        }
    }

    struct APS: Codable, Equatable, Sendable {
        var contentAvailable = 1
        enum CodingKeys: String, CodingKey { case contentAvailable = "content-available" }
    }

    var aps = APS()
    public var patch: Release

    public init(app: String?, channel: String, version: String) {
        patch = Release(app: app, channel: channel, version: version)
    }

    /// The payload bytes: compact JSON, keys sorted, so the same release always sends the same bytes.
    public func payload() throws(NotifyError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do { bytes = [UInt8](try encoder.encode(self)) } catch { throw .payloadUnencodable("\(error)") }
        guard bytes.count <= Self.maximumPayloadBytes else { throw .payloadTooLarge(bytes: bytes.count) }
        return bytes
    }
}
