import Foundation
import Testing
import WasmKit

@testable import PatchRuntime

/// `patch_host.*` Foundation value surface (sdk-contract §3.2) through a real guest.
@Suite struct BridgeFoundationTests {
    /// 2021-01-01T00:00:00Z
    static let newYear2021: Int64 = 1_609_459_200_000

    private func decimal(_ guest: BridgeGuest, _ op: Int32, _ a: Int64, _ b: Int64) throws -> Int64? {
        try guest.call("patch_host.decimal_op", [.int32(op), .int64(a), .int64(b), .int32(2)]).int64
    }

    @Test func decimalOperationsAreExactWithHalfUpDivision() throws {
        let guest = try BridgeGuest()
        #expect(try decimal(guest, 0, 12_345, 100) == 1_234_500)
        #expect(try decimal(guest, 1, 7, 2) == 4)
        #expect(try decimal(guest, 1, -7, 2) == -4)
        #expect(try decimal(guest, 1, 5, 3) == 2)
        #expect(try decimal(guest, 1, 4, 3) == 1)
        #expect(try decimal(guest, 1, 9, 0) == 0)
        #expect(try decimal(guest, 2, 1, 2) == 3)
        #expect(try decimal(guest, 3, 10, 3) == 7)
        #expect(try decimal(guest, 9, 10, 3) == 7)  // any other op is sub
        #expect(try decimal(guest, 4, 7, 2) == 3)
        #expect(try decimal(guest, 4, -7, 2) == -3)
        #expect(try decimal(guest, 4, 7, 0) == 0)
        // Exact in 128 bits, then saturated: no trap on overflow.
        #expect(try decimal(guest, 0, Int64.max, 2) == Int64.max)
        #expect(try decimal(guest, 0, Int64.min, 2) == Int64.min)
        #expect(try decimal(guest, 1, Int64.min, -1) == Int64.max)
        #expect(try decimal(guest, 0, 3_037_000_499, 3_037_000_499) == 9_223_372_030_926_249_001)
    }

    @Test func jsonGettersReadTopLevelMembers() throws {
        let guest = try BridgeGuest()
        let json = #"{"n": 42, "f": 2.5, "s": "hi", "b": true, "one": 1, "o": {"z": 1, "a": [2]}, "neg": -3.9}"#
        func get(_ name: String, _ key: String) throws -> [Value] {
            try guest.call("patch_host.\(name)", guest.put(json) + guest.put(key))
        }
        #expect(try get("json_get_i64", "n").int64 == 42)
        #expect(try get("json_get_i64", "neg").int64 == -3)
        #expect(try get("json_get_i64", "s").int64 == 0)
        #expect(try get("json_get_i64", "missing").int64 == 0)
        #expect(try guest.text(get("json_get_string", "s")) == "hi")
        #expect(try get("json_get_string", "n").int64 == 0)
        #expect(try get("json_get_f64", "f").doubleFromBits == 2.5)
        #expect(try get("json_get_f64", "n").doubleFromBits == 42)
        #expect(try get("json_get_f64", "missing").doubleFromBits == 0)
        #expect(try get("json_get_bool", "b").int32 == 1)
        #expect(try get("json_get_bool", "one").int32 == -1)  // integer 1 is not true
        #expect(try get("json_get_bool", "missing").int32 == -1)
        #expect(try guest.text(get("json_get_subobject", "o")) == #"{"a":[2],"z":1}"#)
        #expect(try get("json_get_subobject", "n").int64 == 0)
        #expect(try guest.call("patch_host.json_get_i64", guest.put("[1,2]") + guest.put("n")).int64 == 0)
        #expect(try guest.call("patch_host.json_get_bool", guest.put("not json") + guest.put("b")).int32 == -1)
    }

    @Test func numberFormatUsesTheGivenOrDefaultLocale() throws {
        let guest = try BridgeGuest()
        func format(_ value: Double, _ style: Int32, _ digits: Int32, _ locale: String) throws -> String? {
            try guest.text(guest.call(
                "patch_host.number_format", [.f64Bits(value), .int32(style), .int32(digits)] + guest.put(locale)))
        }
        #expect(try format(1234.5, 0, 2, "") == "1,234.50")
        #expect(try format(1234.5, 1, 2, "") == "$1,234.50")
        #expect(try format(0.256, 2, 1, "en_US") == "25.6%")
        #expect(try format(1234.5, 0, 2, "de_DE") == "1.234,50")
        #expect(try format(2, 0, -5, "") == "2")
    }

    @Test func regexFindAndCount() throws {
        let guest = try BridgeGuest()
        #expect(try guest.text(guest.call("patch_host.regex_find", guest.put("order 66 and 77") + guest.put("\\d+"))) == "66")
        #expect(try guest.call("patch_host.regex_count", guest.put("order 66 and 77") + guest.put("\\d+")).int32 == 2)
        #expect(try guest.call("patch_host.regex_find", guest.put("abc") + guest.put("\\d")).int64 == 0)
        #expect(try guest.call("patch_host.regex_find", guest.put("abc") + guest.put("(")).int64 == 0)
        #expect(try guest.call("patch_host.regex_count", guest.put("abc") + guest.put("(")).int32 == 0)
    }

    @Test func dateFormattingAndISO8601() throws {
        let guest = try BridgeGuest()
        let newYear = Value.int64(Self.newYear2021)
        #expect(try guest.text(guest.call("patch_host.date_format", [newYear] + guest.put("yyyy-MM-dd HH:mm") + guest.put(""))) == "2021-01-01 00:00")
        #expect(try guest.text(guest.call("patch_host.date_format", [newYear] + guest.put("yyyy-MM-dd HH:mm") + guest.put("America/New_York"))) == "2020-12-31 19:00")
        #expect(try guest.text(guest.call("patch_host.iso8601_format", [newYear])) == "2021-01-01T00:00:00Z")
        #expect(try guest.call("patch_host.iso8601_parse", guest.put("2021-01-01T00:00:00Z")).int64 == Self.newYear2021)
        #expect(try guest.call("patch_host.iso8601_parse", guest.put("yesterday")).int64 == Int64.min)
        #expect(try guest.text(guest.call("patch_host.date_format_styled", [newYear, .int32(3), .int32(0)] + guest.put("en_US") + guest.put(""))) == "January 1, 2021")
    }

    @Test func relativeDateFormatPicksTheLargestUnit() throws {
        let guest = try BridgeGuest()
        let hour: Int64 = 3_600_000
        func relative(_ offset: Int64, _ style: Int32) throws -> String? {
            try guest.text(guest.call(
                "patch_host.relative_date_format",
                [.int64(Self.newYear2021 + offset), .int64(Self.newYear2021), .int32(style)] + guest.put("")))
        }
        #expect(try relative(-5 * hour, 0) == "5 hours ago")
        #expect(try relative(48 * hour, 1) == "in two days")
        #expect(try relative(-21 * 24 * hour, 2) == "3 wk. ago")
        #expect(try relative(90_000, 3) == "in 1m")
        #expect(try relative(hour, 0) == "in 1 hour")
    }

    @Test func calendarOperationsAndComponents() throws {
        let guest = try BridgeGuest()
        let noon = Self.newYear2021 + 12 * 3_600_000
        func op(_ code: Int32, _ a: Int64, _ b: Int64, _ component: Int32, _ zone: String = "") throws -> Int64? {
            try guest.call("patch_host.calendar_date_op", [.int32(code), .int64(a), .int64(b), .int32(component)] + guest.put(zone)).int64
        }
        #expect(try op(0, noon, 0, 0) == Self.newYear2021)
        #expect(try op(0, noon, 0, 0, "America/New_York") == Self.newYear2021 + 5 * 3_600_000)
        let january31 = Self.newYear2021 + 30 * 86_400_000
        #expect(try op(1, january31, 1, 5) == 1_614_470_400_000)  // clamps to Feb 28
        #expect(try op(1, Self.newYear2021, 90, 0) == Self.newYear2021 + 90_000)
        #expect(try op(2, Self.newYear2021, noon, 0) == 1)
        #expect(try op(2, Self.newYear2021, Self.newYear2021 + 86_400_000, 0) == 0)
        #expect(try op(7, noon, 0, 0) == Int64.min)

        let instant = Value.int64(1_615_815_930_000)  // 2021-03-15T13:45:30Z, a Monday
        func component(_ code: Int32, _ zone: String = "") throws -> Int64? {
            try guest.call("patch_host.calendar_component", [instant, .int32(code)] + guest.put(zone)).int64
        }
        #expect(try component(0) == 30)
        #expect(try component(1) == 45)
        #expect(try component(2) == 13)
        #expect(try component(2, "America/New_York") == 9)
        #expect(try component(3) == 15)
        #expect(try component(5) == 3)
        #expect(try component(6) == 2021)
        #expect(try component(7) == 2)
        #expect(try component(8) == 74)
        #expect(try component(42) == 15)  // unknown ⇒ day
    }
}
