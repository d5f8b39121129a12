import Foundation
import HummingbirdTesting
import PatchManifest
import PatchServer
import Synchronization
import Testing

/// `device_slots` does not grow without bound (docs/serve.md "Forgetting devices"): devices not
/// seen for `forgetDevicesAfter`, and devices running none of the store's releases, are forgotten.
struct DeviceForgettingTests {
    /// The server's clock, moved by the test.
    final class TestClock: Sendable {
        let now: Mutex<Date>
        init(_ date: Date) { now = Mutex(date) }
        func advance(days: Double) { now.withLock { $0 = $0.addingTimeInterval(days * 86_400) } }
        var read: @Sendable () -> Date { { self.now.withLock { $0 } } }
    }

    private static func server(_ fixture: ServerFixture, clock: TestClock, days: Int = 90) -> UpdateServer {
        UpdateServer(store: fixture.store, events: fixture.events,
                     configuration: ServerConfiguration(forgetDevicesAfter: .seconds(days * 86_400), clock: clock.read))
    }

    private static func time(_ clock: TestClock, daysAgo days: Double) -> String {
        TUFTime.format(clock.read().addingTimeInterval(-days * 86_400))
    }

    /// More old devices than one delete batch, one recent: the old ones go, batch by batch.
    @Test func devicesNotSeenForTheWindowAreForgotten() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        let clock = TestClock(Date())
        let slots = DeviceSlots(current: release.version, previous: .empty)
        for index in 0..<2_500 {
            try fixture.events.saveDeviceSlots(slots, deviceID: "old-\(index)", appKey: "demo-app", at: Self.time(clock, daysAgo: 91))
        }
        try fixture.events.saveDeviceSlots(slots, deviceID: "recent", appKey: "demo-app", at: Self.time(clock, daysAgo: 89))
        let server = Self.server(fixture, clock: clock)
        #expect(await server.forgetDevices() == ForgottenDevices(unseen: 2_500, gone: 0))
        #expect(try fixture.events.rows("SELECT device_id FROM device_slots") == [["recent"]])
        clock.advance(days: 2)
        #expect(await server.forgetDevices().unseen == 1, "the window moves with the clock")
    }

    /// A device none of whose versions (current, previous, offered) is a release the store has is
    /// forgotten, once per store version; a device with any one of them is kept.
    @Test func slotsOfReleasesTheStoreNoLongerHasAreForgottenOncePerStoreVersion() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        let clock = TestClock(Date())
        let now = Self.time(clock, daysAgo: 0)
        let kept = [
            ("a-current", DeviceSlots(current: release.version, previous: .unknown)),
            ("m-previous", DeviceSlots(current: "7-gone", previous: .version(release.version))),
            ("z-offered", DeviceSlots(current: nil, previous: .empty, offered: release.version)),
        ]
        for (device, slots) in kept { try fixture.events.saveDeviceSlots(slots, deviceID: device, appKey: "demo-app", at: now) }
        // Keys on both sides of the kept ones, across more than one batch of keys.
        for index in 0..<1_500 {
            try fixture.events.saveDeviceSlots(
                DeviceSlots(current: "9-gone", previous: .version("8-gone"), offered: "10-gone"), deviceID: "g-\(index)", appKey: "demo-app", at: now)
        }
        try fixture.events.saveDeviceSlots(DeviceSlots(current: nil, previous: .empty), deviceID: "n-empty", appKey: "demo-app", at: now)
        let server = Self.server(fixture, clock: clock)
        #expect(await server.forgetDevices() == ForgottenDevices(unseen: 0, gone: 1_501))
        #expect(try fixture.events.rows("SELECT device_id FROM device_slots ORDER BY device_id").compactMap(\.first) == kept.map(\.0))

        try fixture.events.saveDeviceSlots(DeviceSlots(current: "9-gone", previous: .unknown), deviceID: "late", appKey: "demo-app", at: now)
        #expect(await server.forgetDevices().gone == 0, "the same store version is swept once")
        _ = try fixture.publish(answer: 2)
        #expect(await server.forgetDevices().gone == 1, "a new store version is swept again")
    }

    /// A check rewrites an unchanged device's row only when it was last seen over a day ago, so a
    /// device that checks every day is never forgotten and costs one write a day.
    @Test func aCheckRecordsTheDeviceAsSeenAtMostOnceADay() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let release = try fixture.publish(answer: 1)
        let clock = TestClock(Date())
        let installed = Self.time(clock, daysAgo: 0.5)
        try fixture.events.saveDeviceSlots(DeviceSlots(current: release.version, previous: .empty), deviceID: "device-1", appKey: "demo-app", at: installed)
        let server = Self.server(fixture, clock: clock, days: 2)
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(currentVersion: release.version)) == .noUpdate)
            #expect(try fixture.events.device(deviceID: "device-1", appKey: "demo-app")?.seenAt == installed, "seen within a day: not rewritten")
            clock.advance(days: 1.5)
            #expect(try await client.check(sdkCheckBody(currentVersion: release.version)) == .noUpdate)
            #expect(try fixture.events.device(deviceID: "device-1", appKey: "demo-app")?.seenAt == Self.time(clock, daysAgo: 0))
        }
        clock.advance(days: 1.5)
        #expect(await server.forgetDevices().unseen == 0, "seen 1.5 days ago, inside the 2-day window")
    }

    /// What docs/serve.md promises a forgotten device: the full module, once.
    @Test func aForgottenDeviceGetsTheFullModule() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        _ = try fixture.publish(answer: 2)
        let clock = TestClock(Date())
        try fixture.events.saveDeviceSlots(DeviceSlots(current: first.version, previous: .empty), deviceID: "device-1", appKey: "demo-app",
                                           at: Self.time(clock, daysAgo: 100))
        let server = Self.server(fixture, clock: clock)
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(currentVersion: first.version)).diffURL != nil, "remembered: a diff from its only module")
            try fixture.events.saveDeviceSlots(DeviceSlots(current: first.version, previous: .empty), deviceID: "device-1", appKey: "demo-app",
                                               at: Self.time(clock, daysAgo: 100))
            #expect(await server.forgetDevices().unseen == 1)
            let update = try await client.check(sdkCheckBody(currentVersion: first.version))
            #expect(update.hasUpdate && update.moduleURL != nil && update.diffURL == nil, "forgotten: its previous slot is unknown")
        }
    }
}
