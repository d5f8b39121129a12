import Foundation
import Testing
import WasmKit

@testable import PatchRuntime

/// `patch.*` core bridges (sdk-contract §3.5) through a real guest.
@Suite struct BridgeCoreTests {
    @Test func logRecordsLevelsAndMessages() throws {
        let guest = try BridgeGuest()
        try guest.call("patch.log", [.i32(0)] + guest.put("starting"))
        try guest.call("patch.log", [.i32(2)] + guest.put("low disk"))
        try guest.call("patch.log", [.i32(7)] + guest.put("boom"))
        #expect(guest.state.logLines == [
            LogLine(level: .debug, message: "starting"),
            LogLine(level: .warning, message: "low disk"),
            LogLine(level: .error, message: "boom"),
        ])
        #expect(guest.state.calls.first?.description == "patch.log(debug, starting)")
    }

    @Test func defaultsRoundTripAndRemove() throws {
        let guest = try BridgeGuest()
        #expect(try guest.text(guest.call("patch.defaults_get", guest.put("theme"))) == nil)
        try guest.call("patch.defaults_set", guest.put("theme") + guest.put("dark"))
        #expect(try guest.text(guest.call("patch.defaults_get", guest.put("theme"))) == "dark")
        #expect(guest.state.defaults["theme"] == .string("dark"))
        try guest.call("patch.defaults_remove", guest.put("theme"))
        #expect(try guest.text(guest.call("patch.defaults_get", guest.put("theme"))) == nil)
    }

    @Test func notificationsNavigationsAndKeychain() throws {
        let guest = try BridgeGuest()
        try guest.call("patch.notify_post", guest.put("CartChanged"))
        try guest.call("patch.navigate", guest.put("settings/profile"))
        #expect(guest.state.postedNotifications == ["CartChanged"])
        #expect(guest.state.navigations == ["settings/profile"])

        #expect(try guest.call("patch.keychain_set", guest.put("token") + guest.put([0, 1, 2, 255])).int32 == 1)
        #expect(try guest.bytes(guest.call("patch.keychain_get", guest.put("token"))) == [0, 1, 2, 255])
        #expect(try guest.call("patch.keychain_delete", guest.put("token")).int32 == 1)
        #expect(try guest.call("patch.keychain_delete", guest.put("token")).int32 == 1)
        #expect(try guest.call("patch.keychain_get", guest.put("token")).int64 == 0)
    }

    @Test func clockLocaleAndTimeZoneAreTheConfiguredOnes() throws {
        let frozen = try BridgeGuest()
        #expect(try frozen.call("patch.now_unix_millis").int64 == 1_704_067_200_000)
        #expect(try frozen.call("patch_host.now_unix_millis").int64 == 1_704_067_200_000)
        #expect(try frozen.text(frozen.call("patch.locale_identifier")) == "en_US_POSIX")
        #expect(try frozen.text(frozen.call("patch.timezone_identifier")) == "UTC")

        let ticking = try BridgeGuest(
            configuration: HostBridgeConfiguration(
                epochMillis: 1000, clockStepMillis: 250, localeIdentifier: "de_DE", timeZoneIdentifier: "Europe/Berlin"))
        #expect(try ticking.call("patch.now_unix_millis").int64 == 1000)
        #expect(try ticking.call("patch_host.now_unix_millis").int64 == 1250)
        #expect(try ticking.text(ticking.call("patch.locale_identifier")) == "de_DE")
        #expect(try ticking.text(ticking.call("patch.timezone_identifier")) == "Europe/Berlin")
    }

    @Test func jsonCanonicalizeSortsKeysAndRejectsInvalidJSON() throws {
        let guest = try BridgeGuest()
        let canonical = try guest.text(
            guest.call("patch.json_canonicalize", guest.put(#"{ "b": [1, 2.5, true, null], "a": {"y": "x/\n", "x": 1e2} }"#)))
        #expect(canonical == #"{"a":{"x":100,"y":"x/\n"},"b":[1,2.5,true,null]}"#)
        #expect(try guest.text(guest.call("patch.json_canonicalize", guest.put("42"))) == "42")
        #expect(try guest.call("patch.json_canonicalize", guest.put("{oops")).int64 == 0)
    }

    @Test func blockingHTTPGetAnswersFromFixturesOnly() throws {
        let fixtures = NetworkFixtures(responses: [
            "https://api.example.com/price": .init(status: 200, body: Array("42".utf8)),
            "https://api.example.com/missing": .init(status: 404, body: Array("nope".utf8)),
        ])
        let guest = try BridgeGuest(configuration: HostBridgeConfiguration(fixtures: fixtures))
        #expect(try guest.text(guest.call("patch.http_get", guest.put("https://api.example.com/price"))) == "42")
        #expect(try guest.text(guest.call("patch.http_get", guest.put("https://api.example.com/missing"))) == "nope")
        #expect(try guest.call("patch.http_get", guest.put("https://elsewhere.example/")).int64 == 0)
        #expect(guest.state.unansweredRequests == ["GET https://elsewhere.example/"])
    }

    /// `--allow-network`: fixtures still win; anything else goes to the real network (here a
    /// loopback server), and only over http(s), so a module cannot read the host's files.
    @Test func allowNetworkFetchesWhatNoFixtureAnswers() throws {
        let server = try LoopbackHTTPServer(files: ["price.txt": "17"])
        defer { server.stop() }
        let fixtures = NetworkFixtures(responses: ["\(server.base)/fixed": .init(status: 200, body: Array("fixture".utf8))])
        let guest = try BridgeGuest(configuration: HostBridgeConfiguration(fixtures: fixtures, allowNetwork: true))
        #expect(try guest.text(guest.call("patch.http_get", guest.put("\(server.base)/fixed"))) == "fixture")
        #expect(try guest.text(guest.call("patch.http_get", guest.put("\(server.base)/price.txt"))) == "17")
        #expect(try guest.call("patch.http_get", guest.put("file:///etc/hostname")).int64 == 0)
        #expect(guest.state.liveRequests == ["GET \(server.base)/price.txt", "GET file:///etc/hostname"])
        #expect(guest.state.unansweredRequests == ["GET file:///etc/hostname"])

        let offline = try BridgeGuest(configuration: HostBridgeConfiguration(fixtures: fixtures))
        #expect(try offline.call("patch.http_get", offline.put("\(server.base)/price.txt")).int64 == 0)
        #expect(offline.state.liveRequests.isEmpty)
    }

    @Test func outOfBoundsArgumentsTrapWithTheBridgeName() throws {
        let guest = try BridgeGuest()
        let memorySize = try guest.memory().memory.byteCount
        let error = #expect(throws: BridgeTrap.self) {
            try guest.call("patch.log", [.i32(1), .i32(UInt32(memorySize - 2)), .i32(3)])
        }
        #expect(error == .memoryOutOfBounds(bridge: "patch.log", offset: UInt64(memorySize - 2), length: 3, memorySize: memorySize))
        #expect(error?.description.contains("patch.log") == true)
        // A length that wraps 32 bits is out of bounds too, never an overflow.
        #expect(throws: BridgeTrap.self) {
            try guest.call("patch.navigate", [.i32(0xFFFF_FFFF), .i32(0xFFFF_FFFF)])
        }
        #expect(guest.state.navigations.isEmpty)
    }

    @Test func resultPlacedOutOfBoundsByTheAllocatorIsFreedAndTraps() throws {
        let wat = """
            (module
              (import "patch" "locale_identifier" (func $locale (result i64)))
              (memory (export "memory") 1)
              (global $frees (export "frees") (mut i32) (i32.const 0))
              (func (export "patch_malloc") (param i32) (result i32) (i32.const 65530))
              (func (export "patch_free") (param i32)
                (global.set $frees (i32.add (global.get $frees) (i32.const 1))))
              (func (export "locale") (result i64) (call $locale)))
            """
        let guest = try BridgeGuest(wat: wat)
        let error = #expect(throws: BridgeTrap.self) { try guest.call("locale") }
        #expect(error == .memoryOutOfBounds(bridge: "patch.locale_identifier", offset: 65530, length: 11, memorySize: 65536))
        #expect(guest.frees == 1)
    }

    @Test func missingAllocatorOrMemoryIsNamed() throws {
        let noAllocator = try BridgeGuest(wat: """
            (module
              (import "patch" "locale_identifier" (func $locale (result i64)))
              (memory (export "memory") 1)
              (func (export "locale") (result i64) (call $locale)))
            """)
        #expect(throws: BridgeTrap.noAllocator(bridge: "patch.locale_identifier")) { try noAllocator.call("locale") }

        let noMemory = try BridgeGuest(wat: """
            (module
              (import "patch" "navigate" (func $navigate (param i32 i32)))
              (func (export "go") (call $navigate (i32.const 0) (i32.const 0))))
            """)
        #expect(throws: BridgeTrap.noMemoryExport(bridge: "patch.navigate")) { try noMemory.call("go") }
    }
}
