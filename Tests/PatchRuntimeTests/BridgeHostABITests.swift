import Foundation
import Testing
import WasmKit

@testable import PatchRuntime

/// `patch_host.*` host-ABI family (§3.3) and `patch.*` device bridges (§3.6) through a real guest.
@Suite struct BridgeHostABITests {
    @Test func virtualFilesBundleEnvironmentAndOSVersion() throws {
        let configuration = HostBridgeConfiguration(
            bundleInfo: ["CFBundleShortVersionString": "2.3"],
            bundleResourcePaths: ["config.json": "/App.app/config.json"],
            hostFiles: ["/etc/motd": Array("hi".utf8)],
            environment: ["MODE": "test"])
        let guest = try BridgeGuest(configuration: configuration)
        #expect(try guest.call("patch_host.file_exists", guest.put("/etc/motd")).int32 == 1)
        #expect(try guest.text(guest.call("patch_host.file_read", guest.put("/etc/motd"))) == "hi")
        #expect(try guest.call("patch_host.file_size", guest.put("/etc/motd")).int64 == 2)
        #expect(try guest.call("patch_host.file_exists", guest.put("/etc/passwd")).int32 == 0)
        #expect(try guest.call("patch_host.file_read", guest.put("/etc/passwd")).int64 == 0)
        #expect(try guest.call("patch_host.file_size", guest.put("/etc/passwd")).int64 == -1)
        #expect(try guest.text(guest.call("patch_host.bundle_info_string", guest.put("CFBundleShortVersionString"))) == "2.3")
        #expect(try guest.call("patch_host.bundle_info_string", guest.put("CFBundleVersion")).int64 == 0)
        #expect(try guest.text(guest.call("patch_host.bundle_resource_path", guest.put("config") + guest.put("json"))) == "/App.app/config.json")
        #expect(try guest.call("patch_host.bundle_resource_path", guest.put("config") + guest.put("")).int64 == 0)
        #expect(try guest.text(guest.call("patch_host.process_env", guest.put("MODE"))) == "test")
        #expect(try guest.call("patch_host.process_env", guest.put("PATH")).int64 == 0)
        #expect(try guest.text(guest.call("patch_host.os_version")) == "18.0.0")

        let mac = try BridgeGuest(configuration: HostBridgeConfiguration(platform: .macOS))
        #expect(try mac.text(mac.call("patch_host.os_version")) == "15.0.0")
        #expect(try mac.call("patch_host.process_env", mac.put("PATH")).int64 == 0)  // host env never leaks
    }

    @Test func typedDefaultsShareTheStoreWithStringDefaults() throws {
        let guest = try BridgeGuest()
        #expect(try guest.call("patch_host.defaults_get_bool", guest.put("flag")).int32 == -1)
        #expect(try guest.call("patch_host.defaults_get_int", guest.put("count")).int64 == 0)
        #expect(try guest.call("patch_host.defaults_get_double", guest.put("ratio")).doubleFromBits == 0)

        try guest.call("patch_host.defaults_set_bool", guest.put("flag") + [.i32(1)])
        try guest.call("patch_host.defaults_set_int", guest.put("count") + [.int64(-12)])
        try guest.call("patch_host.defaults_set_double", guest.put("ratio") + [.f64Bits(0.75)])
        #expect(try guest.call("patch_host.defaults_get_bool", guest.put("flag")).int32 == 1)
        #expect(try guest.call("patch_host.defaults_get_int", guest.put("count")).int64 == -12)
        #expect(try guest.call("patch_host.defaults_get_double", guest.put("ratio")).doubleFromBits == 0.75)
        #expect(try guest.text(guest.call("patch.defaults_get", guest.put("count"))) == "-12")

        try guest.call("patch.defaults_set", guest.put("limit") + guest.put("40"))
        #expect(try guest.call("patch_host.defaults_get_int", guest.put("limit")).int64 == 40)
        #expect(try guest.call("patch_host.defaults_get_bool", guest.put("limit")).int32 == 1)
        #expect(guest.state.defaults == ["flag": .bool(true), "count": .int(-12), "ratio": .double(0.75), "limit": .string("40")])
    }

    @Test func deviceBridgesRecordSideEffectsAndRoundTripState() throws {
        let guest = try BridgeGuest()
        try guest.call("patch.analytics_track", guest.put(#"{"event":"purchase","props":{"amount":9.5,"sku":"A1"}}"#))
        try guest.call("patch.analytics_track", guest.put("not json"))
        try guest.call("patch.analytics_screen", guest.put("Checkout"))
        #expect(guest.state.analyticsEvents == [
            .track(event: "purchase", properties: ["amount": "9.5", "sku": "A1"]),
            .malformedTrack(rawJSON: "not json"),
            .screen(name: "Checkout"),
        ])

        try guest.call("patch.set_badge", [.int32(-4)])
        #expect(try guest.call("patch.get_badge").int32 == 0)
        try guest.call("patch.set_badge", [.int32(3)])
        #expect(try guest.call("patch.get_badge").int32 == 3)
        try guest.call("patch.set_brightness", [.int32(140)])
        #expect(try guest.call("patch.get_brightness").int32 == 100)
        #expect(try guest.call("patch.pasteboard_has_strings").int32 == 0)
        try guest.call("patch.pasteboard_set_string", guest.put("copied"))
        #expect(try guest.text(guest.call("patch.pasteboard_get_string")) == "copied")
        #expect(try guest.call("patch.begin_background_task", guest.put("sync")).int32 == 1)
        #expect(try guest.call("patch.begin_background_task", guest.put("sync")).int32 == 2)

        try guest.call("patch.haptic_impact", guest.put("heavy"))
        #expect(guest.state.calls.last?.description == "patch.haptic_impact(heavy)")
        #expect(try guest.call("patch.biometry_evaluate", guest.put("Unlock")).int32 == 0)
        #expect(try guest.call("patch.location_current").int64 == 0)
        #expect(try guest.call("patch.open_url", guest.put("https://example.com")).int32 == 1)
        #expect(try guest.call("patch.can_open_url", guest.put("tel:123")).int32 == 0)
        #expect(try guest.text(guest.call("patch.device_info"))?.contains(#""systemVersion":"18.0.0""#) == true)
        #expect(try guest.text(guest.call("patch.connectivity_status"))?.contains(#""online":true"#) == true)
    }

    @Test func scopedFilesRejectTraversalAndUnknownScopes() throws {
        let guest = try BridgeGuest()
        func write(_ scope: String, _ path: String) throws -> Int32? {
            try guest.call("patch.file_write", guest.put(scope) + guest.put(path) + guest.put("data")).int32
        }
        #expect(try write("documents", "notes/a.txt") == 1)
        #expect(try write("documents", "../escape") == 0)
        #expect(try write("documents", "/abs") == 0)
        #expect(try write("library", "a.txt") == 0)
        #expect(try guest.call("patch.file_exists", guest.put("documents") + guest.put("notes/a.txt")).int32 == 1)
        #expect(try guest.text(guest.call("patch.file_read", guest.put("documents") + guest.put("notes/a.txt"))) == "data")
        #expect(try guest.call("patch.file_exists", guest.put("caches") + guest.put("notes/a.txt")).int32 == 0)
        #expect(try guest.call("patch.file_delete", guest.put("documents") + guest.put("notes/a.txt")).int32 == 1)
        #expect(try guest.call("patch.file_delete", guest.put("documents") + guest.put("notes/a.txt")).int32 == 0)
    }

    @Test func downloadsAndImagesComeFromFixtures() throws {
        let fixtures = NetworkFixtures(responses: ["https://cdn.example/logo.png": .init(status: 200, body: [0x89, 0x50])])
        let guest = try BridgeGuest(configuration: HostBridgeConfiguration(fixtures: fixtures))
        #expect(try guest.bytes(guest.call("patch.network_image", guest.put("https://cdn.example/logo.png"))) == [0x89, 0x50])
        #expect(try guest.text(guest.call("patch.download_file", guest.put("https://cdn.example/logo.png"))) == "caches/downloads/logo.png")
        #expect(try guest.bytes(guest.call("patch.file_read", guest.put("caches") + guest.put("downloads/logo.png"))) == [0x89, 0x50])
        #expect(try guest.call("patch.download_file", guest.put("https://cdn.example/none")).int64 == 0)
    }

    @Test func secureRandomBytesAreSeededAndBounded() throws {
        let first = try BridgeGuest(configuration: HostBridgeConfiguration(randomSeed: 7))
        let second = try BridgeGuest(configuration: HostBridgeConfiguration(randomSeed: 7))
        let other = try BridgeGuest(configuration: HostBridgeConfiguration(randomSeed: 8))
        let a = try first.bytes(first.call("patch.secure_random_bytes", [.int32(33)]))
        #expect(a.count == 33)
        #expect(try second.bytes(second.call("patch.secure_random_bytes", [.int32(33)])) == a)
        #expect(try other.bytes(other.call("patch.secure_random_bytes", [.int32(33)])) != a)
        #expect(try first.call("patch.secure_random_bytes", [.int32(0)]).int64 == 0)
        #expect(try first.call("patch.secure_random_bytes", [.int32(4097)]).int64 == 0)
    }

    @Test func servedTableFollowsThePlatformProfile() {
        let iOS = ServedImports.table(for: .iOS)
        let macOS = ServedImports.table(for: .macOS)
        #expect(iOS.lookup(module: "patch", name: "device_info") != nil)
        #expect(macOS.lookup(module: "patch", name: "device_info") == nil)
        #expect(macOS.lookup(module: "patch", name: "analytics_track") != nil)
        #expect(iOS.lookup(module: "patch", name: "app_group_get") == nil)
        #expect(ServedImports.table(for: .iOS, includingOptIn: true).lookup(module: "patch", name: "app_group_get") != nil)
        #expect(iOS.serves(module: "patch_host", name: "http_get", parameters: [.i32, .i32, .i32], results: []))
        #expect(iOS.serves(module: "patch", name: "http_get", parameters: [.i32, .i32], results: [.i64]))
        #expect(!iOS.serves(module: "patch", name: "http_get", parameters: [.i32, .i32, .i32], results: []))
        #expect(iOS.lookup(module: "patch", name: "file_read")?.description == "patch.file_read(i32, i32, i32, i32) -> i64")
        #expect(iOS.lookup(module: "patch_host", name: "file_read")?.description == "patch_host.file_read(i32, i32) -> i64")
        // §3.3: the set the engine emits must all be served.
        let engineEmitted = [
            "file_exists", "file_read", "file_size", "bundle_info_string", "bundle_resource_path", "process_env",
            "os_version", "defaults_get_bool", "defaults_get_int", "defaults_get_double", "defaults_set_bool",
            "defaults_set_int", "defaults_set_double", "now_unix_millis", "iso8601_format", "iso8601_parse",
            "relative_date_format", "number_format", "calendar_date_op", "http_get",
        ]
        for name in engineEmitted {
            #expect(macOS.lookup(module: "patch_host", name: name) != nil, "patch_host.\(name)")
        }
        let keys = ServedImports.all.map { "\($0.module).\($0.name)" }
        #expect(Set(keys).count == keys.count, "every (module, name) is listed once")
    }
}
