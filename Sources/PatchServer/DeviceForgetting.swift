import Foundation
import PatchManifest
import Synchronization

/// Keeps the event database's `device_slots` from growing without bound (docs/serve.md,
/// "Forgetting devices"). A device's row is deleted when it has not checked for
/// `ServerConfiguration.forgetDevicesAfter`, or when none of its versions is a release the store
/// still has (its slots can never name a diff's base again). A forgotten device that checks again
/// is a device never seen: its previous slot is unknown, so it gets the full module once, and
/// diffs again from its next update on.
///
/// `serve` sweeps at start and every `interval`; the versions sweep runs only when the store's
/// version changed since the last one, the age sweep goes through an index: both are cheap.
final class DeviceForgetting: Sendable {
    static let defaultAfter: Duration = .seconds(90 * 86_400)
    static let interval: Duration = .seconds(3600)
    /// A device's `updated_at` is rewritten when its slots change, or when a check finds it older
    /// than this: "last seen" is exact to a day, at the cost of at most one write per device a day
    /// (`forgetDevicesAfter` is at least a day).
    static let lastSeenResolution: TimeInterval = 86_400

    /// The store (timestamp) version the last versions sweep ran against.
    private let sweptStoreVersion = Mutex<Int?>(nil)

    /// A check at `now` of a device last seen at `seenAt` (nil: never) must record it as seen.
    static func mustRecordSeen(_ seenAt: String?, now: Date) -> Bool {
        guard let seenAt else { return true }
        return seenAt < TUFTime.format(now.addingTimeInterval(-lastSeenResolution))
    }

    /// Forgets devices not seen since `now - after`, and, when `catalog` is a store version not
    /// swept yet, devices running none of its versions.
    func sweep(_ events: any EventStore, catalog: ReleaseCatalog?, now: Date, after: Duration) async throws -> ForgottenDevices {
        var forgotten = ForgottenDevices()
        forgotten.unseen = try await events.forgetDevices(seenBefore: TUFTime.format(now.addingTimeInterval(-after.inSeconds)))
        guard let catalog, sweptStoreVersion.withLock({ $0 }) != catalog.timestampVersion else { return forgotten }
        forgotten.gone = try await events.forgetDevices(runningNoneOf: Set(catalog.versions.keys))
        sweptStoreVersion.withLock { $0 = catalog.timestampVersion }
        return forgotten
    }
}

/// How many devices' slots one sweep deleted.
public struct ForgottenDevices: Sendable, Equatable {
    /// Not seen for `forgetDevicesAfter`.
    public var unseen = 0
    /// None of their versions is a release the store still has.
    public var gone = 0
    /// Rows of events, refused checks and wasted diffs older than `serve --events-retention`.
    public var events = 0

    public init(unseen: Int = 0, gone: Int = 0, events: Int = 0) {
        self.unseen = unseen
        self.gone = gone
        self.events = events
    }
}
