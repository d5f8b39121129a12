import PatchManifest

/// Which of 100 rollout buckets a device falls in for one release content (docs/release.md,
/// "Rollout buckets"): the first four bytes of SHA-256("<module sha256>:<device_id>"), big-endian,
/// modulo 100. A release at N% reaches the devices in buckets 0..<N.
///
/// Keyed by the module's content, not the release counter, so raising a rollout from 10% to 50%
/// keeps the first 10% in, and every server instance (or anyone with the formula) agrees.
public enum RolloutBucket {
    public static func bucket(contentSHA256: String, deviceID: String) -> Int {
        let digest = SHA256Hasher.hex(of: Array("\(contentSHA256):\(deviceID)".utf8))
        // The first 8 hex digits are the first four bytes, big-endian; a hex digest always has them.
        let prefix = UInt32(digest.prefix(8), radix: 16) ?? 0
        return Int(prefix % 100)
    }

    public static func includes(_ record: ReleaseRecord, deviceID: String) -> Bool {
        bucket(contentSHA256: record.module.sha256, deviceID: deviceID) < record.rolloutPercent
    }
}
