import Foundation
import PatchBuild
@testable import PatchRuntime
import Testing

/// The guest Foundation layer's dates built from components, component differences, month and
/// weekday names and `Double.formatted()` (templates/guest/Foundation+Calendar.swift,
/// Foundation+Formatters.swift), built by `build`'s pipeline and run with `run`'s bridges: each
/// answer is compared with Foundation on Linux for the same inputs, zones and locales, on fixed
/// edge cases and on random dates from a seeded generator.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct GuestCalendarMathTests {
    /// App code as real apps write it (Food Truck's `Calendar.current.date(from: DateComponents(…))`,
    /// ACHNBrowserUI's `DateComponents(calendar: .current, hour:).date` and `shortMonthSymbols`,
    /// Enchanted's `dateComponents([.day], from:to:)`); -1 stands for an absent component.
    static let source = """
        import Foundation

        func zoned(_ zone: String) -> Calendar {
            var calendar = Calendar.current
            calendar.timeZone = TimeZone(identifier: zone)!
            return calendar
        }

        func built(_ parts: [Int], zone: String) -> Double {
            var components = DateComponents()
            if parts[0] != -1 { components.year = parts[0] }
            if parts[1] != -1 { components.month = parts[1] }
            if parts[2] != -1 { components.day = parts[2] }
            if parts[3] != -1 { components.hour = parts[3] }
            if parts[4] != -1 { components.minute = parts[4] }
            if parts[5] != -1 { components.second = parts[5] }
            return zoned(zone).date(from: components)!.timeIntervalSince1970
        }

        func atHour(_ hour: Int, zone: String) -> Double {
            DateComponents(calendar: zoned(zone), hour: hour).date!.timeIntervalSince1970
        }

        func between(_ start: Date, _ end: Date, zone: String) -> [Int] {
            let calendar = zoned(zone)
            let all = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start, to: end)
            let weeks = calendar.dateComponents([.weekOfYear, .hour], from: start, to: end)
            return [all.year!, all.month!, all.day!, all.hour!, all.minute!, all.second!, weeks.weekOfYear!, weeks.hour!,
                    calendar.dateComponents([.day], from: start, to: end).day!]
        }

        func added(_ date: Date, _ amounts: [Int], zone: String) -> Date? {
            zoned(zone).date(byAdding: DateComponents(year: amounts[0], month: amounts[1], day: amounts[2], hour: amounts[3], minute: amounts[4]), to: date)
        }

        func names(locale: String) -> [[String]] {
            var calendar = Calendar.current
            calendar.locale = Locale(identifier: locale)
            return [calendar.monthSymbols, calendar.shortMonthSymbols, calendar.veryShortMonthSymbols, calendar.standaloneMonthSymbols,
                    calendar.shortStandaloneMonthSymbols, calendar.weekdaySymbols, calendar.shortWeekdaySymbols,
                    calendar.veryShortWeekdaySymbols, calendar.standaloneWeekdaySymbols, calendar.shortStandaloneWeekdaySymbols]
        }

        func decimals(_ values: [Double]) -> [String] {
            values.map { $0.formatted() } + [Float(3.14159).formatted(), Float(0.1).formatted()]
        }

        func styledDecimals(_ values: [Double]) -> [String] {
            values.flatMap { rating in
                [rating.formatted(.number.precision(.fractionLength(2))), rating.formatted(.number.precision(.fractionLength(0...1))),
                 rating.formatted(.percent), rating.formatted(.number), rating.formatted(.number.locale(Locale(identifier: "de_CH")))]
            }
        }

        """

    static let exports = ["built(_:zone:)", "atHour(_:zone:)", "between(_:_:zone:)", "added(_:_:zone:)", "names(locale:)", "decimals(_:)", "styledDecimals(_:)"]

    static let guest: Result<(module: [UInt8], symbols: [String: String]), GuestBuilder.BuildFailure> = {
        do {
            return .success(try GuestFoundationTests.build(["Dates.swift": source], exports: exports))
        } catch {
            return .failure(GuestBuilder.BuildFailure(description: "\(error)"))
        }
    }()

    /// A session on a device in `locale`.
    static func session(locale: String = "en_US") throws -> (RuntimeSession, [String: String]) {
        let (module, symbols) = try guest.get()
        var options = testOptions(fuel: nil)
        options.bridges.localeIdentifier = locale
        options.bridges.timeZoneIdentifier = "America/Los_Angeles"
        return (try PatchRuntimeTests.session(module, options), symbols)
    }

    static func value<Arguments: Encodable, Result: Decodable>(_ guest: RuntimeSession, _ symbols: [String: String], _ declaration: String,
                                                              _ arguments: Arguments, as type: Result.Type) throws -> Result {
        try GuestFoundationTests.value(guest, symbols, declaration, arguments, as: type)
    }

    static func foundationCalendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    /// Zones with summer time both ways, a half-hour change (Lord Howe), a quarter-hour offset
    /// (Kathmandu) and a skipped day (Apia, 2011-12-30).
    static let zones = ["UTC", "America/Los_Angeles", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia"]

    struct Built: Encodable { var parts: [Int]; var zone: String }

    @Test func aDateFromComponentsIsFoundationsInEachZone() throws {
        let (guest, symbols) = try Self.session()
        func expect(_ parts: [Int], _ zone: String) throws {
            var components = DateComponents()
            for (value, key) in zip(parts, [\DateComponents.year, \.month, \.day, \.hour, \.minute, \.second]) where value != -1 {
                components[keyPath: key] = value
            }
            let expected = try #require(Self.foundationCalendar(zone).date(from: components)).timeIntervalSince1970
            #expect(try Self.value(guest, symbols, "built(_:zone:)", Built(parts: parts, zone: zone), as: Double.self) == expected,
                    "\(parts) in \(zone)")
        }
        let edges: [([Int], String)] = [
            ([2022, 5, 6, 9, -1, -1], "America/Los_Angeles"),  // Food Truck's weather chart start
            ([2024, 3, 10, 2, 30, 0], "America/Los_Angeles"),  // skipped: 03:30
            ([2024, 11, 3, 1, 30, 0], "America/Los_Angeles"),  // repeated: the first
            ([2024, 3, 31, 2, 15, 0], "Europe/Berlin"),
            ([2024, 10, 27, 2, 15, 0], "Europe/Berlin"),
            ([2024, 4, 7, 1, 45, 0], "Australia/Lord_Howe"),  // half an hour repeated
            ([2011, 12, 30, 12, 0, 0], "Pacific/Apia"),  // a day the zone skipped
            ([2024, 13, 0, 25, -1, -1], "America/Los_Angeles"),  // values past their range carry
            ([2024, 2, 30, -1, 61, 3601], "Asia/Kathmandu"),
            ([-1, 3, 5, -1, -1, -1], "America/Los_Angeles"),  // year 1: Julian, local mean time
            ([-1, -1, -1, 9, -1, -1], "Europe/Berlin"),
            ([1582, 10, 15, -1, -1, -1], "UTC"),  // the first Gregorian day
            ([1582, 10, 4, -1, -1, -1], "UTC"),  // the last Julian one
            ([1900, 1, 1, -1, -1, -1], "Asia/Kathmandu"),
        ]
        for (parts, zone) in edges { try expect(parts, zone) }
        var random = SeededRandomSource(seed: 18)
        for _ in 0..<60 {
            let parts = [Int.random(in: 1901...2099, using: &random), Int.random(in: 1...12, using: &random), Int.random(in: 1...31, using: &random),
                         Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random), Int.random(in: 0...59, using: &random)]
            try expect(parts, Self.zones.randomElement(using: &random)!)
        }
        // ACHNBrowserUI's opening hours: a components' own calendar builds the date.
        struct Hour: Encodable { var hour: Int; var zone: String }
        for (hour, zone) in [(5, "America/Los_Angeles"), (21, "Asia/Kathmandu")] {
            let expected = try #require(DateComponents(calendar: Self.foundationCalendar(zone), hour: hour).date).timeIntervalSince1970
            #expect(try Self.value(guest, symbols, "atHour(_:zone:)", Hour(hour: hour, zone: zone), as: Double.self) == expected)
        }
    }

    @Test func componentDifferencesAndComponentSumsAreFoundations() throws {
        let (guest, symbols) = try Self.session()
        struct Between: Encodable { var start: Date; var end: Date; var zone: String }
        struct Added: Encodable { var date: Date; var amounts: [Int]; var zone: String }
        var random = SeededRandomSource(seed: 2026)
        var pairs: [(Date, Date, String)] = [
            (Date(timeIntervalSince1970: 1_706_745_599), Date(timeIntervalSince1970: 1_711_848_600), "Europe/Berlin"),  // Jan 31 → across summer time
            (Date(timeIntervalSince1970: 1_711_848_600), Date(timeIntervalSince1970: 1_700_000_000.25), "America/Los_Angeles"),  // backwards
            (Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 1_700_000_000), "UTC"),
        ]
        for _ in 0..<40 {
            let start = Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)))
            let end = start.addingTimeInterval(Double(Int.random(in: -400_000_000...400_000_000, using: &random)) / Double([1, 1, 100, 10_000][Int.random(in: 0...3, using: &random)]))
            pairs.append((start, end, Self.zones.randomElement(using: &random)!))
        }
        for (start, end, zone) in pairs {
            let calendar = Self.foundationCalendar(zone)
            let all = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start, to: end)
            let weeks = calendar.dateComponents([.weekOfYear, .hour], from: start, to: end)
            let expected = [all.year!, all.month!, all.day!, all.hour!, all.minute!, all.second!, weeks.weekOfYear!, weeks.hour!,
                            calendar.dateComponents([.day], from: start, to: end).day!]
            #expect(try Self.value(guest, symbols, "between(_:_:zone:)", Between(start: start, end: end, zone: zone), as: [Int].self) == expected,
                    "\(start) → \(end) in \(zone)")

            let amounts = (0..<5).map { _ in Int.random(in: -40...40, using: &random) }
            let sum = calendar.date(byAdding: DateComponents(year: amounts[0], month: amounts[1], day: amounts[2], hour: amounts[3], minute: amounts[4]), to: start)
            #expect(try Self.value(guest, symbols, "added(_:_:zone:)", Added(date: start, amounts: amounts, zone: zone), as: Date?.self) == sum,
                    "\(start) + \(amounts) in \(zone)")
        }
    }

    @Test func monthAndWeekdayNamesAreEnglishsAndOtherLanguagesRunNatively() throws {
        let (guest, symbols) = try Self.session()
        struct Names: Encodable { var locale: String }
        for locale in ["en_US", "en_US_POSIX", "en"] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = Locale(identifier: locale)
            let expected = [calendar.monthSymbols, calendar.shortMonthSymbols, calendar.veryShortMonthSymbols, calendar.standaloneMonthSymbols,
                            calendar.shortStandaloneMonthSymbols, calendar.weekdaySymbols, calendar.shortWeekdaySymbols,
                            calendar.veryShortWeekdaySymbols, calendar.standaloneWeekdaySymbols, calendar.shortStandaloneWeekdaySymbols]
            #expect(try Self.value(guest, symbols, "names(locale:)", Names(locale: locale), as: [[String]].self) == expected)
        }
        // German names: no bridge writes them, so the call fails and the thunk runs the native code.
        #expect(throws: (any Error).self) {
            try GuestFoundationTests.call(guest, symbols["names(locale:)"], #"{"locale":"de_DE"}"#)
        }
    }

    @Test func aDoubleFormatsAsFoundationsDefaultStyleInTheDevicesLocale() throws {
        struct Values: Encodable { var values: [Double] }
        var random = SeededRandomSource(seed: 7)
        let values = [3.14159, 1.0 / 3, 1_234_567.891, 0.000001, 1e-10, -0.5, 72, 2.5, 0.125, 0.1234565, 123_456_789.123_456_789, 9.9999999]
            + (0..<20).map { _ in Double(Int.random(in: -10_000_000...10_000_000, using: &random)) / Double([1, 10, 1000, 1_000_000][Int.random(in: 0...3, using: &random)]) }
        for locale in ["en_US", "de_DE", "fr_FR"] {
            let (guest, symbols) = try Self.session(locale: locale)
            let foundation = Locale(identifier: locale)
            let expected = values.map { $0.formatted(.number.locale(foundation)) }
                + [Float(3.14159).formatted(.number.locale(foundation)), Float(0.1).formatted(.number.locale(foundation))]
            #expect(try Self.value(guest, symbols, "decimals(_:)", Values(values: values), as: [String].self) == expected, "\(locale)")
            // Swiftfin's `rating.formatted(.number.precision(.fractionLength(2)))` and its neighbours.
            let styled = values.flatMap { rating in
                [rating.formatted(.number.precision(.fractionLength(2)).locale(foundation)),
                 rating.formatted(.number.precision(.fractionLength(0...1)).locale(foundation)), rating.formatted(.percent.locale(foundation)),
                 rating.formatted(.number.locale(foundation)), rating.formatted(.number.locale(Locale(identifier: "de_CH")))]
            }
            let answers = try Self.value(guest, symbols, "styledDecimals(_:)", Values(values: values), as: [String].self)
            #expect(answers.count == styled.count)
            // Past 15 significant digits (123456789.123456789 as a percent) the percent style's bridge,
            // NumberFormatter, writes fewer digits than the format style: the bridge's answer, not the layer's.
            for (index, (answer, expected)) in zip(answers, styled).enumerated() where !(index % 5 == 2 && values[index / 5].magnitude >= 1e8) {
                #expect(answer == expected, "\(locale) \(values[index / 5]) style \(index % 5)")
            }
        }
    }
}
