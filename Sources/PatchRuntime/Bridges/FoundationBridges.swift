import Foundation
import WasmKit

/// `patch_host.*` Foundation value surface (sdk-contract §3.2), served on every platform.
/// Every formatter gets an explicit locale, time zone and calendar so results never depend on the
/// machine running `patchcli run`: "current" means the configured locale/zone (default en_US_POSIX/UTC).
extension HostBridges {
    /// `INT64_MIN`, the nil sentinel of the instant-returning functions.
    static let missingInstant = Value.int64(Int64.min)

    static let foundationStandIns: [StandIn] = [
        StandIn("patch_host", "decimal_op", [.i32, .i64, .i64, .i32], [.i64]) { call in
            let op = try call.i32(0)
            let lhs = try call.i64(1)
            let rhs = try call.i64(2)
            call.record(["op \(op)", String(lhs), String(rhs), "scale \(try call.i32(3))"])
            return [.int64(decimalOperation(op, lhs, rhs))]
        },
        StandIn("patch_host", "json_get_i64", [.i32, .i32, .i32, .i32], [.i64]) { call in
            let member = try jsonMember(call)
            switch member {
            case .integer(let value): return [.int64(value)]
            case .number(let value): return [.int64(Int64(exactly: value.rounded(.towardZero)) ?? 0)]
            default: return [.int64(0)]
            }
        },
        StandIn("patch_host", "json_get_string", [.i32, .i32, .i32, .i32], [.i64]) { call in
            guard case .string(let text) = try jsonMember(call) else { return [.i64(0)] }
            return try call.packed(text)
        },
        StandIn("patch_host", "json_get_f64", [.i32, .i32, .i32, .i32], [.i64]) { call in
            switch try jsonMember(call) {
            case .integer(let value): return [.f64Bits(Double(value))]
            case .number(let value): return [.f64Bits(value)]
            default: return [.f64Bits(0)]
            }
        },
        StandIn("patch_host", "json_get_bool", [.i32, .i32, .i32, .i32], [.i32]) { call in
            guard case .bool(let value) = try jsonMember(call) else { return [.int32(-1)] }
            return [.bool(value)]
        },
        StandIn("patch_host", "json_get_subobject", [.i32, .i32, .i32, .i32], [.i64]) { call in
            let member = try jsonMember(call)
            switch member {
            case .object, .array: return try call.packed(member?.canonicalText)
            default: return [.i64(0)]
            }
        },
        StandIn("patch_host", "now_unix_millis", [], [.i64]) { call in
            call.record([])
            return [.int64(call.state.readClock())]
        },
        StandIn("patch_host", "number_format", [.i64, .i32, .i32, .i32, .i32], [.i64]) { call in
            let value = try call.f64Bits(0)
            let style = try call.i32(1)
            let fractionDigits = try call.i32(2)
            let locale = try call.string(3)
            call.record([String(value), "style \(style)", "digits \(fractionDigits)", locale])
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: locale.isEmpty ? "en_US" : locale)
            // Clamped: a hostile digit count must not make the formatter build a huge string.
            let digits = Int(min(max(fractionDigits, 0), 20))
            switch style {
            case 1: formatter.numberStyle = .currency
            case 2: formatter.numberStyle = .percent
            default:
                // Linux's NumberFormatter keeps the decimal style's 3 digits when told fewer than 3 but
                // more than 0 (1234.5678 with 2 digits gives "1,234.568"); the format style, on the
                // same ICU, writes what the device's NumberFormatter does.
                return try call.packed(value.formatted(.number.precision(.fractionLength(digits)).locale(formatter.locale)))
            }
            formatter.minimumFractionDigits = digits
            formatter.maximumFractionDigits = digits
            return try call.packed(formatter.string(from: NSNumber(value: value)))
        },
        StandIn("patch_host", "regex_find", [.i32, .i32, .i32, .i32], [.i64]) { call in
            let text = try call.string(0)
            let pattern = try call.string(2)
            call.record([text, pattern])
            guard let regex = try? NSRegularExpression(pattern: pattern),
                let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range, in: text)
            else { return [.i64(0)] }
            return try call.packed(String(text[range]))
        },
        StandIn("patch_host", "regex_count", [.i32, .i32, .i32, .i32], [.i32]) { call in
            let text = try call.string(0)
            let pattern = try call.string(2)
            call.record([text, pattern])
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return [.int32(0)] }
            let count = regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
            return [.int32(Int32(clamping: count))]
        },
        StandIn("patch_host", "date_format", [.i64, .i32, .i32, .i32, .i32], [.i64]) { call in
            let millis = try call.i64(0)
            let format = try call.string(1)
            let zone = try call.string(3)
            call.record([String(millis), format, zone])
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone(zone.isEmpty ? "UTC" : zone)
            formatter.calendar = gregorian(timeZone: formatter.timeZone, call: call)
            formatter.dateFormat = format
            return try call.packed(formatter.string(from: date(millis)))
        },
        StandIn("patch_host", "iso8601_format", [.i64], [.i64]) { call in
            let millis = try call.i64(0)
            call.record([String(millis)])
            return try call.packed(ISO8601DateFormatter().string(from: date(millis)))
        },
        StandIn("patch_host", "iso8601_parse", [.i32, .i32], [.i64]) { call in
            let text = try call.string(0)
            call.record([text])
            guard let parsed = ISO8601DateFormatter().date(from: text), let millis = unixMillis(parsed) else {
                return [missingInstant]
            }
            return [.int64(millis)]
        },
        StandIn("patch_host", "relative_date_format", [.i64, .i64, .i32, .i32, .i32], [.i64]) { call in
            let target = try call.i64(0)
            let reference = try call.i64(1)
            let unitsStyle = try call.i32(2)
            let locale = try call.string(3)
            call.record([String(target), String(reference), "units \(unitsStyle)", locale])
            let text = RelativeDateText.format(
                date(target), relativeTo: date(reference), unitsStyle: unitsStyle,
                calendar: gregorian(timeZone: timeZone(call.configuration.timeZoneIdentifier), call: call))
            return try call.packed(text)
        },
        StandIn("patch_host", "date_format_styled", [.i64, .i32, .i32, .i32, .i32, .i32, .i32], [.i64]) { call in
            let millis = try call.i64(0)
            let dateStyle = try call.i32(1)
            let timeStyle = try call.i32(2)
            let locale = try call.string(3)
            let zone = try call.string(5)
            call.record([String(millis), "date \(dateStyle)", "time \(timeStyle)", locale, zone])
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale.isEmpty ? call.configuration.localeIdentifier : locale)
            formatter.timeZone = timeZone(zone.isEmpty ? call.configuration.timeZoneIdentifier : zone)
            formatter.calendar = gregorian(timeZone: formatter.timeZone, call: call)
            formatter.dateStyle = dateFormatterStyle(dateStyle)
            formatter.timeStyle = dateFormatterStyle(timeStyle)
            return try call.packed(formatter.string(from: date(millis)))
        },
        StandIn("patch_host", "calendar_date_op", [.i32, .i64, .i64, .i32, .i32, .i32], [.i64]) { call in
            let op = try call.i32(0)
            let first = try call.i64(1)
            let second = try call.i64(2)
            let component = try call.i32(3)
            let zone = try call.string(4)
            call.record(["op \(op)", String(first), String(second), "component \(component)", zone])
            let calendar = gregorian(
                timeZone: timeZone(zone.isEmpty ? call.configuration.timeZoneIdentifier : zone), call: call)
            switch op {
            case 0:
                return [unixMillis(calendar.startOfDay(for: date(first))).map(Value.int64) ?? missingInstant]
            case 1:
                guard let amount = Int(exactly: second),
                    let moved = calendar.date(byAdding: calendarComponent(component), value: amount, to: date(first))
                else { return [missingInstant] }
                return [unixMillis(moved).map(Value.int64) ?? missingInstant]
            case 2:
                return [.int64(calendar.isDate(date(first), inSameDayAs: date(second)) ? 1 : 0)]
            default:
                return [missingInstant]
            }
        },
        StandIn("patch_host", "calendar_component", [.i64, .i32, .i32, .i32], [.i64]) { call in
            let millis = try call.i64(0)
            let component = try call.i32(1)
            let zone = try call.string(2)
            call.record([String(millis), "component \(component)", zone])
            let calendar = gregorian(
                timeZone: timeZone(zone.isEmpty ? call.configuration.timeZoneIdentifier : zone), call: call)
            let instant = date(millis)
            switch component {
            case 7: return [.int64(Int64(calendar.component(.weekday, from: instant)))]
            case 8: return [.int64(Int64(calendar.ordinality(of: .day, in: .year, for: instant) ?? 0))]
            default: return [.int64(Int64(calendar.component(calendarComponent(component), from: instant)))]
            }
        },
    ]

    /// Exact integer arithmetic in 128 bits (wide enough for any product of two Int64), saturated back
    /// to Int64. op 0 mul, 1 div rounding half away from zero, 2 add, 4 div truncating, anything else
    /// sub; a zero divisor gives 0.
    static func decimalOperation(_ op: Int32, _ lhs: Int64, _ rhs: Int64) -> Int64 {
        let a = Int128(lhs)
        let b = Int128(rhs)
        let exact: Int128
        switch op {
        case 0: exact = a * b
        case 1:
            guard b != 0 else { return 0 }
            let quotient = a / b
            let remainder = a % b
            let awayFromZero: Int128 = (a < 0) != (b < 0) ? -1 : 1
            exact = remainder.magnitude * 2 >= b.magnitude ? quotient + awayFromZero : quotient
        case 2: exact = a + b
        case 4:
            guard b != 0 else { return 0 }
            exact = a / b
        default: exact = a - b
        }
        return Int64(clamping: exact)
    }

    /// The top-level member `key` of the JSON object at args (0,1); records the call.
    private static func jsonMember(_ call: BridgeInvocation) throws -> BridgeJSON? {
        let json = try call.bytes(0)
        let key = try call.string(2)
        call.record(["\(json.count) bytes", key])
        return BridgeJSON.parse(json)?[key]
    }

    static func date(_ millis: Int64) -> Date {
        Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// Milliseconds since 1970, or nil when the instant does not fit an Int64.
    static func unixMillis(_ date: Date) -> Int64? {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.towardZero))
    }

    /// An unknown identifier falls back to UTC rather than the machine's zone.
    static func timeZone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? .gmt
    }

    /// `Calendar.current` of the emulated device: Gregorian, configured locale, the given zone.
    static func gregorian(timeZone: TimeZone, call: BridgeInvocation) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: call.configuration.localeIdentifier)
        calendar.timeZone = timeZone
        return calendar
    }

    /// 0 s, 1 min, 2 h, 3 day, 4 weekOfYear, 5 month, 6 year; anything else day.
    static func calendarComponent(_ code: Int32) -> Calendar.Component {
        switch code {
        case 0: return .second
        case 1: return .minute
        case 2: return .hour
        case 4: return .weekOfYear
        case 5: return .month
        case 6: return .year
        default: return .day
        }
    }

    /// 0 none, 1 short, 2 medium, 3 long, 4 full (anything else none).
    static func dateFormatterStyle(_ code: Int32) -> DateFormatter.Style {
        switch code {
        case 1: return .short
        case 2: return .medium
        case 3: return .long
        case 4: return .full
        default: return .none
        }
    }
}

/// `RelativeDateTimeFormatter` (numeric presentation) for English text. The class is missing from
/// Foundation on Linux, so the stand-in picks the unit the same way (largest non-zero calendar
/// difference among year, month, week, day, hour, minute, second) and spells it out itself; other
/// locales are answered in English.
enum RelativeDateText {
    private static let units: [(Calendar.Component, full: String, short: String, abbreviated: String)] = [
        (.year, "year", "yr.", "y"),
        (.month, "month", "mo.", "mo"),
        (.weekOfMonth, "week", "wk.", "w"),
        (.day, "day", "day", "d"),
        (.hour, "hour", "hr.", "h"),
        (.minute, "minute", "min.", "m"),
        (.second, "second", "sec.", "s"),
    ]

    /// unitsStyle: 0 full, 1 spellOut, 2 short, 3 abbreviated (anything else full).
    static func format(_ date: Date, relativeTo reference: Date, unitsStyle: Int32, calendar: Calendar) -> String {
        let difference = calendar.dateComponents(
            [.year, .month, .weekOfMonth, .day, .hour, .minute, .second], from: reference, to: date)
        var chosen = units[units.count - 1]
        var amount = 0
        for unit in units {
            let value = difference.value(for: unit.0) ?? 0
            if value != 0 {
                chosen = unit
                amount = value
                break
            }
        }
        let count = amount.magnitude
        let quantity: String
        switch unitsStyle {
        case 1:
            let speller = NumberFormatter()
            speller.locale = Locale(identifier: "en_US")
            speller.numberStyle = .spellOut
            let words = speller.string(from: NSNumber(value: count)) ?? String(count)
            quantity = "\(words) \(chosen.full)\(count == 1 ? "" : "s")"
        case 2:
            quantity = "\(count) \(chosen.short)\(chosen.0 == .day && count != 1 ? "s" : "")"
        case 3:
            quantity = "\(count)\(chosen.abbreviated)"
        default:
            quantity = "\(count) \(chosen.full)\(count == 1 ? "" : "s")"
        }
        return amount < 0 ? "\(quantity) ago" : "in \(quantity)"
    }
}
