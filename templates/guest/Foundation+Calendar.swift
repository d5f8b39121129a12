// Guest Foundation layer (Foundation.swift): Calendar (Gregorian, as the device's
// `Calendar.current` the bridges use) over `patch_host.calendar_component` and
// `patch_host.calendar_date_op` (sdk-contract §3.2), which count in milliseconds since 1970.
// Building a date from components is the guest's own arithmetic, with the zone's offset read
// from `patch_host.date_format` (§3.2 has no bridge for it).

// MARK: - Calendar

struct Calendar: Hashable {
    enum Identifier: Hashable { case gregorian, iso8601 }

    /// The components the bridges compute; code using another one (`.nanosecond`, `.era`,
    /// `.weekOfMonth`, `.quarter`) stays native with the name the compiler quotes.
    enum Component: Hashable {
        case second, minute, hour, day, weekOfYear, month, year, weekday, dayOfYear

        /// About how long one is, to start the search `dateComponents(_:from:to:)` makes.
        var _approximateSeconds: Double {
            switch self {
            case .second: return 1
            case .minute: return 60
            case .hour: return 3600
            case .day, .weekday, .dayOfYear: return 86_400
            case .weekOfYear: return 604_800
            case .month: return 2_629_746
            case .year: return 31_556_952
            }
        }

        /// The bridges' code (§3.2): 0 s, 1 min, 2 h, 3 day, 4 weekOfYear, 5 month, 6 year, 7 weekday, 8 dayOfYear.
        var _code: Int32 {
            switch self {
            case .second: return 0
            case .minute: return 1
            case .hour: return 2
            case .day: return 3
            case .weekOfYear: return 4
            case .month: return 5
            case .year: return 6
            case .weekday: return 7
            case .dayOfYear: return 8
            }
        }
    }

    var timeZone: TimeZone = .current
    var locale: Locale? = .current

    static var current: Calendar { Calendar() }
    static var autoupdatingCurrent: Calendar { current }

    private init() {}
    /// The bridges compute with the Gregorian calendar, which iso8601 agrees with on every component here
    /// except weekOfYear.
    init(identifier: Identifier) {}

    func component(_ component: Component, from date: Date) -> Int {
        _patchWithUTF8(timeZone._bridgeName) { zone, zoneCount in
            Int(truncatingIfNeeded: patch_host_calendar_component(date._unixMillis, component._code, zone, zoneCount))
        }
    }

    func startOfDay(for date: Date) -> Date {
        Date(_unixMillis: _dateOperation(0, date._unixMillis, 0, .day)) ?? date
    }

    /// `value` units of `component` later, in this calendar's zone (a month later from January 31 is
    /// the end of February); nil when the bridge cannot.
    func date(byAdding component: Component, value: Int, to date: Date) -> Date? {
        let start = date._unixMillis
        guard let moved = Date(_unixMillis: _dateOperation(1, start, Int64(value), component)) else { return nil }
        // The bridge counts whole milliseconds: what the date holds below that is kept.
        return date.addingTimeInterval(moved.timeIntervalSince(Date(_unixMillis: start)!))
    }

    func isDate(_ date: Date, inSameDayAs other: Date) -> Bool {
        _dateOperation(2, date._unixMillis, other._unixMillis, .day) == 1
    }

    func isDateInToday(_ date: Date) -> Bool { isDate(date, inSameDayAs: Date()) }

    func isDateInYesterday(_ date: Date) -> Bool {
        guard let yesterday = self.date(byAdding: .day, value: -1, to: Date()) else { return false }
        return isDate(date, inSameDayAs: yesterday)
    }

    func isDateInTomorrow(_ date: Date) -> Bool {
        guard let tomorrow = self.date(byAdding: .day, value: 1, to: Date()) else { return false }
        return isDate(date, inSameDayAs: tomorrow)
    }

    /// Saturday or Sunday (weekday 7 or 1), the Gregorian weekend of the locales the bridge serves.
    func isDateInWeekend(_ date: Date) -> Bool {
        let weekday = component(.weekday, from: date)
        return weekday == 1 || weekday == 7
    }

    /// The requested components of `date`, one bridge call each; the others stay nil.
    func dateComponents(_ components: Set<Component>, from date: Date) -> DateComponents {
        var result = DateComponents()
        for component in components { result.setValue(self.component(component, from: date), for: component) }
        return result
    }

    /// The date whose wall time in this calendar's zone (or the components' own `timeZone`) the
    /// components give, counting as Foundation does: a missing year is 1, a missing month or day 1,
    /// a missing time 0, and values past their range carry (month 13 is January of the next year,
    /// day 0 the last of the previous month). Dates before 1582-10-15 are Julian, as Foundation's
    /// Gregorian calendar's. A wall time a zone skips (spring forward) or repeats (fall back) is
    /// read with the offset in effect before the change: 02:30 skipped is 03:30, 01:30 repeated is
    /// its first. Components naming a weekday or week trap: Foundation resolves them by rules the
    /// guest does not copy, so the thunk runs the native code.
    func date(from components: DateComponents) -> Date? {
        if components.weekday != nil || components.weekOfYear != nil || components.dayOfYear != nil {
            fatalError("Calendar.date(from:) with a weekday, weekOfYear or dayOfYear needs the device's calendar")
        }
        var year = Int64(components.year ?? 1)
        var month = Int64(components.month ?? 1) - 1
        year += month >= 0 ? month / 12 : (month - 11) / 12
        month -= (month >= 0 ? month / 12 : (month - 11) / 12) * 12
        let days = _patchDaysSince1970(year: year, month: month + 1, day: Int64(components.day ?? 1))
        let wall = days * 86_400 + Int64(components.hour ?? 0) * 3600 + Int64(components.minute ?? 0) * 60 + Int64(components.second ?? 0)
        let zone = components.timeZone ?? timeZone
        // A zone changes its offset at most once in two days around any wall time it has had since 1900.
        let before = _patchOffsetSeconds(at: wall - 86_400, in: zone)
        let after = _patchOffsetSeconds(at: wall + 86_400, in: zone)
        for offset in before == after ? [before] : [before, after] where _patchOffsetSeconds(at: wall - offset, in: zone) == offset {
            return Date(timeIntervalSince1970: Double(wall - offset))
        }
        return Date(timeIntervalSince1970: Double(wall - before))
    }

    /// Each component's amount added in Foundation's order (years, months, days, weeks, then the
    /// time), one bridge call each; nil when one cannot be added. Weekday and dayOfYear amounts trap.
    func date(byAdding components: DateComponents, to date: Date) -> Date? {
        if components.weekday != nil || components.dayOfYear != nil {
            fatalError("Calendar.date(byAdding:to:) of a weekday or dayOfYear amount needs the device's calendar")
        }
        var result = date
        for component in [Component.year, .month, .day, .weekOfYear, .hour, .minute, .second] {
            guard let amount = components.value(for: component), amount != 0 else { continue }
            guard let moved = self.date(byAdding: component, value: amount, to: result) else { return nil }
            result = moved
        }
        return result
    }

    /// How many whole years, months, weeks, days, hours, minutes and seconds (of those asked) lead
    /// from `start` toward `end`, the larger first, as Foundation counts: each is the most that,
    /// added to where the larger ones led, does not pass `end` (negative when `end` is earlier).
    /// `.weekday` and `.dayOfYear` trap: Foundation's differences of them are not counts.
    func dateComponents(_ components: Set<Component>, from start: Date, to end: Date) -> DateComponents {
        if components.contains(.weekday) || components.contains(.dayOfYear) {
            fatalError("Calendar.dateComponents(_:from:to:) of weekday or dayOfYear needs the device's calendar")
        }
        var result = DateComponents()
        var reached = start
        let step = end < start ? -1 : 1
        for component in [Component.year, .month, .weekOfYear, .day, .hour, .minute, .second] where components.contains(component) {
            func passes(_ count: Int) -> Bool {
                guard let moved = date(byAdding: component, value: count, to: reached) else { return true }
                return step > 0 ? moved > end : moved < end
            }
            // The estimate from the seconds between is off by a unit or two (month lengths, zone changes).
            var count = Int((end.timeIntervalSince(reached) / component._approximateSeconds).rounded(.towardZero))
            while count != 0, passes(count) { count -= step }
            while !passes(count + step) { count += step }
            result.setValue(count, for: component)
            if count != 0, let moved = date(byAdding: component, value: count, to: reached) { reached = moved }
        }
        return result
    }

    // MARK: Month and weekday names

    /// English names, which the devices in English locales use: no bridge writes another
    /// language's, so another locale traps and the thunk runs the native code.
    var monthSymbols: [String] { _englishSymbols(Self._months) }
    var shortMonthSymbols: [String] { _englishSymbols(Self._months.map { String($0.prefix(3)) }) }
    var veryShortMonthSymbols: [String] { _englishSymbols(Self._months.map { String($0.prefix(1)) }) }
    var standaloneMonthSymbols: [String] { monthSymbols }
    var shortStandaloneMonthSymbols: [String] { shortMonthSymbols }
    var veryShortStandaloneMonthSymbols: [String] { veryShortMonthSymbols }
    var weekdaySymbols: [String] { _englishSymbols(Self._weekdays) }
    var shortWeekdaySymbols: [String] { _englishSymbols(Self._weekdays.map { String($0.prefix(3)) }) }
    var veryShortWeekdaySymbols: [String] { _englishSymbols(Self._weekdays.map { String($0.prefix(1)) }) }
    var standaloneWeekdaySymbols: [String] { weekdaySymbols }
    var shortStandaloneWeekdaySymbols: [String] { shortWeekdaySymbols }
    var veryShortStandaloneWeekdaySymbols: [String] { veryShortWeekdaySymbols }

    private static let _months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                  "October", "November", "December"]
    private static let _weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `symbols` where this calendar's locale (the device's when nil) is `en`, `en_US` or
    /// `en_US_POSIX`; English elsewhere (`en_GB`'s "Sept") may differ by CLDR version, so it traps too.
    private func _englishSymbols(_ symbols: [String]) -> [String] {
        switch (locale ?? .current).identifier {
        case "en", "en_US", "en_US_POSIX", "en-US": return symbols
        default: fatalError("Calendar month and weekday names outside en_US need the device's calendar")
        }
    }

    private func _dateOperation(_ operation: Int32, _ first: Int64, _ second: Int64, _ component: Component) -> Int64 {
        _patchWithUTF8(timeZone._bridgeName) { zone, zoneCount in
            patch_host_calendar_date_op(operation, first, second, component._code, zone, zoneCount)
        }
    }
}

// MARK: - DateComponents

/// The components `Calendar.dateComponents` reads and `Calendar.date(from:)` builds from.
struct DateComponents: Hashable {
    var calendar: Calendar?
    var timeZone: TimeZone?
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int?
    var minute: Int?
    var second: Int?
    var weekday: Int?
    var weekOfYear: Int?
    var dayOfYear: Int?

    init(calendar: Calendar? = nil, timeZone: TimeZone? = nil, year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil,
         minute: Int? = nil, second: Int? = nil, weekday: Int? = nil, weekOfYear: Int? = nil) {
        self.calendar = calendar
        self.timeZone = timeZone
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
        self.weekOfYear = weekOfYear
    }

    /// The date of these components in `calendar`; nil without one, as in Foundation.
    var date: Date? { calendar?.date(from: self) }

    func value(for component: Calendar.Component) -> Int? {
        switch component {
        case .second: return second
        case .minute: return minute
        case .hour: return hour
        case .day: return day
        case .weekOfYear: return weekOfYear
        case .month: return month
        case .year: return year
        case .weekday: return weekday
        case .dayOfYear: return dayOfYear
        }
    }

    mutating func setValue(_ value: Int?, for component: Calendar.Component) {
        switch component {
        case .second: second = value
        case .minute: minute = value
        case .hour: hour = value
        case .day: day = value
        case .weekOfYear: weekOfYear = value
        case .month: month = value
        case .year: year = value
        case .weekday: weekday = value
        case .dayOfYear: dayOfYear = value
        }
    }
}

// MARK: - Milliseconds, the bridges' instants

extension Date {
    /// Milliseconds since 1970 toward zero, as the bridges take an instant (§3.2).
    var _unixMillis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.towardZero)) }

    /// nil for the bridges' `INT64_MIN`.
    init?(_unixMillis millis: Int64) {
        guard millis != Int64.min else { return nil }
        self.init(timeIntervalSince1970: Double(millis) / 1000)
    }
}

// MARK: - Civil days and zone offsets

/// Days from 1970-01-01 to `day` (counted from 1, carrying past the month's end) of `month` (1…12)
/// of `year`: Gregorian from 1582-10-15, Julian before, as Foundation's Gregorian calendar counts
/// (the Julian Day Number formulas).
func _patchDaysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let shift = (14 - month) / 12
    let years = year + 4800 - shift
    let months = month + 12 * shift - 3
    let common = day + (153 * months + 2) / 5 + 365 * years + years / 4 - 2_440_588
    let gregorian = common - years / 100 + years / 400 - 32_045
    // -141_427 is 1582-10-15, the first Gregorian day.
    return gregorian >= -141_427 ? gregorian : common - 32_083
}

/// The zone's offset from UTC in seconds at `seconds` since 1970, read as `patch_host.date_format`
/// writes it with the pattern `xxxxx` (`+05:30`, `-07:52:58` for local mean time).
func _patchOffsetSeconds(at seconds: Int64, in zone: TimeZone) -> Int64 {
    let text = _patchWithUTF8("xxxxx") { format, formatCount in
        _patchWithUTF8(zone.identifier) { name, nameCount in
            _patchHostString(patch_host_date_format(seconds * 1000, format, formatCount, name, nameCount)) ?? ""
        }
    }
    var bytes = Array(text.utf8)
    guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return 0 }
    bytes.removeFirst()
    var total: Int64 = 0
    for (index, part) in bytes.split(separator: UInt8(ascii: ":")).enumerated() where index < 3 {
        var value: Int64 = 0
        for digit in part { value = value * 10 + Int64(digit &- UInt8(ascii: "0")) }
        total += value * [3600, 60, 1][index]
    }
    return sign == UInt8(ascii: "-") ? -total : total
}
