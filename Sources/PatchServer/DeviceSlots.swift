/// What `serve` knows of one device's module slots, so that a diff it offers is one the device's
/// SDK can apply (docs/serve.md, "Which diff a device gets").
///
/// The SDK keeps an OTA module in a `current` slot and the one before it in a `previous` slot, and
/// applies a diff to the bytes of `previous` when it has one, else to `current` (sdk-contract
/// §7.4–7.5). A check reveals only `current_version` (`"0.0.0"` when the current slot is empty), so
/// the previous slot is worked out from the device's history of checks: the version it reported
/// before and the version it was offered then. Where that history does not settle the previous
/// slot, it is `unknown` and the device gets no diff (the full download always works).
public struct DeviceSlots: Sendable, Equatable {
    /// The device's previous slot.
    public enum Previous: Sendable, Equatable {
        /// No previous module: a diff applies to the current slot.
        case empty
        case version(String)
        /// Not settled by what the device reported: no diff is offered.
        case unknown
    }

    /// The version in the current slot; nil when the device reported `"0.0.0"` (no OTA module).
    public var current: String?
    public var previous: Previous
    /// The version the device's last check was offered (nil: none), which it installs next.
    public var offered: String?

    public init(current: String?, previous: Previous, offered: String? = nil) {
        self.current = current
        self.previous = previous
        self.offered = offered
    }

    /// What the SDK reports for an empty current slot (sdk-contract §7.2).
    public static let noModule = "0.0.0"
    /// The `device_id` the SDK sends when the app configures none (sdk-contract §7.1): shared by
    /// every such device, so it has no history of its own and gets no diff.
    public static let unconfiguredDeviceID = "anon"

    /// The slots after a check reporting `currentVersion`, given what the device's earlier checks
    /// left (`known`, nil for a device never seen), following the SDK's slot moves (§7.5–7.7):
    ///
    /// - the same current version: nothing moved (re-installing a version does not demote it);
    /// - the version it was offered: it installed it, and the old current became previous (with no
    ///   current, the previous slot is left as it was);
    /// - its previous version: a failed update or launch promoted previous to current, leaving the
    ///   previous slot empty;
    /// - `"0.0.0"` after an empty previous: its current was cleared and nothing is left;
    /// - anything else (another server updated it, a version it was not offered): unknown.
    ///
    /// A device never seen that reports `"0.0.0"` is taken as a fresh install with both slots
    /// empty: the previous slot survives an empty current only when both OTA modules failed to
    /// activate, and then a wasted diff costs one extra download (counted by `status`).
    public static func observing(_ currentVersion: String, after known: DeviceSlots?) -> DeviceSlots {
        let reported = currentVersion == noModule ? nil : currentVersion
        guard let known else { return DeviceSlots(current: reported, previous: reported == nil ? .empty : .unknown) }
        if reported == known.current { return DeviceSlots(current: reported, previous: known.previous, offered: known.offered) }
        if let reported, reported == known.offered {
            return DeviceSlots(current: reported, previous: known.current.map(Previous.version) ?? known.previous)
        }
        if let reported, known.previous == .version(reported) { return DeviceSlots(current: reported, previous: .empty) }
        if reported == nil, known.previous == .empty { return DeviceSlots(current: nil, previous: .empty) }
        return DeviceSlots(current: reported, previous: .unknown)
    }

    /// The version whose bytes the device's SDK applies a diff to: its previous slot when it has
    /// one, else its current slot; nil when that is not known or both are empty (no diff).
    public var patchBase: String? {
        switch previous {
        case let .version(version): version
        case .empty: current
        case .unknown: nil
        }
    }
}
