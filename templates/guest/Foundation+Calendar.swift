// Guest Foundation layer (Foundation.swift): Calendar (Gregorian, as the device's
// `Calendar.current` the bridges use) over `patch_host.calendar_component` and
// `patch_host.calendar_date_op` (sdk-contract §3.2), which count in milliseconds since 1970.

// MARK: - Calendar

struct Calendar {
    enum Identifier: Hashable { case gregorian, iso8601 }

    /// The components the bridges compute; code using another one (`.nanosecond`, `.era`,
    /// `.weekOfMonth`, `.quarter`) stays native with the name the compiler quotes.
    enum Component: Hashable {
        case second, minute, hour, day, weekOfYear, month, year, weekday, dayOfYear

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

    private func _dateOperation(_ operation: Int32, _ first: Int64, _ second: Int64, _ component: Component) -> Int64 {
        _patchWithUTF8(timeZone._bridgeName) { zone, zoneCount in
            patch_host_calendar_date_op(operation, first, second, component._code, zone, zoneCount)
        }
    }
}

// MARK: - DateComponents

/// The components `Calendar.dateComponents(_:from:)` reads; building a date from components has no
/// bridge and stays native.
struct DateComponents: Hashable {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int?
    var minute: Int?
    var second: Int?
    var weekday: Int?
    var weekOfYear: Int?
    var dayOfYear: Int?

    init(year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil, second: Int? = nil,
         weekday: Int? = nil, weekOfYear: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
        self.weekOfYear = weekOfYear
    }

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
