import Foundation
import HummingbirdTesting
import PatchDiff
import PatchManifest
import PatchServer
import PatchStore
import Testing

/// `serve` offers the diff the device's SDK will really apply: one from its previous slot when it
/// has one (sdk-contract §7.4), as its history of checks reveals it, and none where that history
/// does not settle it.
struct DiffBaseTests {
    /// The SDK's slots and download path (sdk-contract §7.4–7.5): a diff applies to `previous`
    /// when there is one, else to `current`; a diff whose result fails the SHA-256 falls back to
    /// the full module; installing demotes `current` to `previous`.
    struct Device {
        var id = "device-1"
        var current: (version: String, bytes: [UInt8])?
        var previous: (version: String, bytes: [UInt8])?
        /// How each update was acquired: "diff", "full after a failed diff" or "full".
        var acquisitions: [String] = []

        var currentVersion: String { current?.version ?? DeviceSlots.noModule }

        mutating func update(from client: some TestClientProtocol) async throws {
            let answer = try await client.check(sdkCheckBody(currentVersion: currentVersion, deviceID: id))
            guard answer.hasUpdate, let version = answer.version, let sha256 = answer.sha256 else { return }
            var bytes: [UInt8]?
            if let diffURL = answer.diffURL.flatMap(URL.init(string:)) {
                let patch = try await client.execute(uri: diffURL.path, method: .get)
                let base = (previous ?? current)?.bytes ?? []
                let patched = try? BSPatch.apply(old: base, patch: Array(patch.body.readableBytesView))
                if let patched, SHA256Hasher.hex(of: patched) == sha256 { bytes = patched }
            }
            acquisitions.append(bytes != nil ? "diff" : answer.diffURL != nil ? "full after a failed diff" : "full")
            if bytes == nil {
                let module = try await client.execute(uri: try #require(answer.moduleURL.flatMap(URL.init(string:))).path, method: .get)
                bytes = try CodecKind.brotli.decompress(Array(module.body.readableBytesView), maxOutputBytes: 16 << 20)
            }
            let installed = try #require(bytes)
            #expect(SHA256Hasher.hex(of: installed) == sha256)
            if let current, current.version != version { previous = current }
            current = (version, installed)
        }
    }

    @Test func aDeviceThatUpdatedTwicePatchesItsPreviousSlot() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            var device = Device()
            let first = try fixture.publish(answer: 1)
            try await device.update(from: client)
            #expect(device.currentVersion == first.version)

            // Second OTA: no previous slot yet, the diff applies to current.
            _ = try fixture.publish(answer: 2)
            try await device.update(from: client)

            // Third: the SDK patches its previous slot (v1), so the diff must be from v1, not from
            // the v2 it reports.
            let third = try fixture.publish(answer: 3)
            #expect(third.diffs.contains { $0.fromVersion == first.version })
            try await device.update(from: client)
            let fourth = try fixture.publish(answer: 4)
            try await device.update(from: client)
            #expect(device.currentVersion == fourth.version)
            #expect(device.acquisitions == ["full", "diff", "diff", "diff"])
        }
    }

    @Test func aDeviceWhoseHistoryIsUnknownGetsTheFullModule() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        _ = try fixture.publish(answer: 2)
        try await fixture.application.test(.router) { client async throws in
            // Never seen at v1: it may hold a previous slot this server knows nothing of.
            let stranger = try await client.check(sdkCheckBody(currentVersion: first.version, deviceID: "device-9"))
            #expect(stranger.hasUpdate && stranger.diffURL == nil)
            // The SDK's placeholder id is shared by every device without one: no history at all.
            try fixture.deviceInstalledFirst(first.version, deviceID: DeviceSlots.unconfiguredDeviceID)
            let anonymous = try await client.check(sdkCheckBody(currentVersion: first.version, deviceID: DeviceSlots.unconfiguredDeviceID))
            #expect(anonymous.hasUpdate && anonymous.diffURL == nil)
        }
    }

    /// A failed update promotes previous to current and empties the previous slot (§7.7); the
    /// device then reports its previous version and its next diff applies to that.
    @Test func aDeviceRolledBackToItsPreviousSlotPatchesIt() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            var device = Device()
            let first = try fixture.publish(answer: 1)
            try await device.update(from: client)
            _ = try fixture.publish(answer: 2)
            try await device.update(from: client)
            _ = try fixture.publish(answer: 3)
            // The download of v3 fails on the device: recoverFromBadCurrent promotes v1.
            _ = try await client.check(sdkCheckBody(currentVersion: device.currentVersion, deviceID: device.id))
            device.current = device.previous
            device.previous = nil
            #expect(device.currentVersion == first.version)
            try await device.update(from: client)
            #expect(device.acquisitions == ["full", "diff", "diff"])
        }
    }

    @Test(arguments: [
        // (known slots, reported version, expected slots)
        (nil, "0.0.0", DeviceSlots(current: nil, previous: .empty)),
        (nil, "2-b", DeviceSlots(current: "2-b", previous: .unknown)),
        (DeviceSlots(current: "2-b", previous: .version("1-a"), offered: "3-c"), "2-b", DeviceSlots(current: "2-b", previous: .version("1-a"), offered: "3-c")),
        (DeviceSlots(current: "2-b", previous: .version("1-a"), offered: "3-c"), "3-c", DeviceSlots(current: "3-c", previous: .version("2-b"))),
        (DeviceSlots(current: nil, previous: .empty, offered: "1-a"), "1-a", DeviceSlots(current: "1-a", previous: .empty)),
        (DeviceSlots(current: "2-b", previous: .version("1-a"), offered: "3-c"), "1-a", DeviceSlots(current: "1-a", previous: .empty)),
        (DeviceSlots(current: "1-a", previous: .empty), "0.0.0", DeviceSlots(current: nil, previous: .empty)),
        (DeviceSlots(current: "2-b", previous: .version("1-a")), "0.0.0", DeviceSlots(current: nil, previous: .unknown)),
        (DeviceSlots(current: "2-b", previous: .version("1-a"), offered: "3-c"), "4-d", DeviceSlots(current: "4-d", previous: .unknown)),
    ] as [(DeviceSlots?, String, DeviceSlots)])
    func slotsFollowTheSDK(known: DeviceSlots?, reported: String, expected: DeviceSlots) {
        #expect(DeviceSlots.observing(reported, after: known) == expected)
    }

    @Test func theSDKPatchesPreviousWhenItHasOne() {
        #expect(DeviceSlots(current: "2-b", previous: .version("1-a")).patchBase == "1-a")
        #expect(DeviceSlots(current: "2-b", previous: .empty).patchBase == "2-b")
        #expect(DeviceSlots(current: "2-b", previous: .unknown).patchBase == nil)
        #expect(DeviceSlots(current: nil, previous: .empty).patchBase == nil)
    }

    @Test func slotsSurviveTheDatabase() throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        for slots in [DeviceSlots(current: "2-b", previous: .version("1-a"), offered: "3-c"), DeviceSlots(current: nil, previous: .empty),
                      DeviceSlots(current: "2-b", previous: .unknown)] {
            try fixture.events.saveDeviceSlots(slots, deviceID: "d", appKey: nil, at: "2026-11-27T08:00:00Z")
            #expect(try fixture.events.deviceSlots(deviceID: "d", appKey: nil) == slots)
        }
        #expect(try fixture.events.deviceSlots(deviceID: "d", appKey: "other-app") == nil, "slots are per app key, as the SDK keeps them")
    }
}
