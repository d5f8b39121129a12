import Foundation
import PatchBuild
@testable import PatchRuntime
import Testing
import WasmKit

/// The guest Foundation layer (templates/guest/Foundation*.swift) compiled by `build`'s pipeline and
/// run with `run`'s bridges: results are compared with Foundation on Linux for the same inputs.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct GuestFoundationTests {
    /// A guest module built from `files` (name → source) exporting `exports` and rendering `views`
    /// (type names), with its packed-JSON symbols by declaration id.
    static func build(_ files: [String: String], exports: [String], views: [String] = []) throws -> (module: [UInt8], symbols: [String: String]) {
        let sources = try GuestBuilder.scratch()
        for (name, text) in files { try text.write(to: sources.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let output = try GuestBuilder.scratch()
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources.path, exports: exports,
            views: views.map { GuestViewRequest(declarationID: "Foundation:\($0).body", typeName: $0, path: [$0]) },
            outputDirectory: output.path, toolchain: try Toolchain.discover()))
        guard result.manifest.unpatchable.isEmpty else {
            throw GuestBuilder.BuildFailure(description: "left native: " + result.manifest.unpatchable.map(\.description).joined(separator: "; "))
        }
        let module = [UInt8](try Data(contentsOf: output.appendingPathComponent("module.wasm")))
        return (module, Dictionary(uniqueKeysWithValues: result.manifest.exports.map { ($0.declarationID, $0.symbol) }))
    }

    /// The bridges a module imports, as `run` lists them; each must be served by the device SDK with
    /// the signature the module declares (sdk-contract §3).
    static func bridgeImports(_ module: [UInt8]) throws -> [String] {
        let declared = HostBridges.declaredFunctionImports(of: try parseWasm(bytes: module))
        #expect(HostBridges.unservedImports(declared, table: ServedImports.table(for: .iOS)).isEmpty)
        return declared.map(\.description)
    }

    static func call(_ guest: RuntimeSession, _ symbol: String?, _ input: String) throws -> String {
        let symbol = try #require(symbol)
        let output = try #require(try guest.callPacked(symbol, input: Array(input.utf8)).output)
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Date across the calling ABIs

    static let booking = """
        import Foundation

        struct Booking {
            var start: Date
            var nights: Int
        }

        func checkout(_ booking: Booking) -> Date {
            booking.start.addingTimeInterval(TimeInterval(booking.nights) * 86_400)
        }

        func secondsSince1970() -> Double {
            Date().timeIntervalSince1970
        }

        """

    static let stay = """
        import SwiftUI

        struct Stay: View {
            let arrival: Date

            var body: some View {
                Text("\\(Int(arrival.timeIntervalSince1970)) \\(Int(arrival.timeIntervalSinceReferenceDate))")
            }
        }

        """

    /// What the native side's thunk encodes and decodes (`callJSON`: JSONEncoder's defaults).
    struct Booking: Codable {
        var start: Date
        var nights: Int
    }

    struct Arguments: Encodable {
        var booking: Booking
    }

    struct Returned: Decodable {
        var value: Date
    }

    @Test func aDateCrossesCallJSONAsJSONEncoderWritesItAndAViewsInputsAsTheHostDoes() throws {
        let (module, symbols) = try Self.build(["Booking.swift": Self.booking, "Stay.swift": Self.stay],
                                               exports: ["checkout(_:)", "secondsSince1970()"], views: ["Stay"])
        let guest = try session(module)
        let booking = Booking(start: Date(timeIntervalSince1970: 1_700_000_000.25), nights: 3)
        let input = String(decoding: try JSONEncoder().encode(Arguments(booking: booking)), as: UTF8.self)
        let expected = booking.start.addingTimeInterval(3 * 86_400)
        func checkout() throws -> Date {
            let output = try Self.call(guest, symbols["checkout(_:)"], input)
            return try JSONDecoder().decode(Returned.self, from: Data(output.utf8)).value
        }
        #expect(try checkout() == expected)
        // A view's inputs carry seconds since 1970 (§5.4); a call after the render reads 2001 again.
        let render = try guest.runView("Stay", inputs: try #require(MessagePackValue.parseJSON(Array(#"{"arrival":1700000000}"#.utf8))), events: [])
        #expect(ViewOutline.render(render.render.tree.root) == #"text("1700000000 721692800")"#)
        #expect(try checkout() == expected)
        // `Date()` reads the device clock (`run`'s default: 2024-01-01T00:00:00Z).
        #expect(try Self.call(guest, symbols["secondsSince1970()"], "{}") == #"{"value":1704067200}"#)
        #expect(try Self.bridgeImports(module) == ["patch_host.now_unix_millis() -> i64"])
    }

    @Test func aModuleUsingNoneOfTheLayerImportsNoBridge() throws {
        let (module, _) = try Self.build(["Math.swift": "func add(_ a: Int, _ b: Int) -> Int { a + b }\n"], exports: ["add(_:_:)"])
        #expect(try Self.bridgeImports(module) == [])
    }

    // MARK: - Calendar, formatters and the device's locale

    /// Each function written as app code writes it; the test runs the same code on Foundation.
    static let formats = """
        import Foundation

        let styles: [DateFormatter.Style] = [.none, .short, .medium, .long, .full]

        func calendarFacts(_ date: Date, zone: String) -> [Int] {
            var calendar = Calendar.current
            calendar.timeZone = TimeZone(identifier: zone)!
            let start = calendar.startOfDay(for: date)
            let nextMonth = calendar.date(byAdding: .month, value: 1, to: date)!
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .weekday], from: date)
            return [calendar.component(.year, from: date), calendar.component(.month, from: date), calendar.component(.day, from: date),
                    calendar.component(.hour, from: date), calendar.component(.minute, from: date), calendar.component(.weekday, from: date),
                    calendar.component(.weekOfYear, from: date), Int(start.timeIntervalSince1970), Int(nextMonth.timeIntervalSince1970),
                    calendar.isDate(date, inSameDayAs: start) ? 1 : 0, calendar.isDate(date, inSameDayAs: nextMonth) ? 1 : 0,
                    calendar.isDateInWeekend(date) ? 1 : 0, parts.year!, parts.month!, parts.day!, parts.hour!, parts.weekday!]
        }

        func pattern(_ date: Date, format: String, zone: String) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = format
            formatter.timeZone = TimeZone(identifier: zone)
            return formatter.string(from: date)
        }

        func styled(_ date: Date, dateStyle: Int, timeStyle: Int, locale: String, zone: String) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = TimeZone(identifier: zone)
            formatter.dateStyle = styles[dateStyle]
            formatter.timeStyle = styles[timeStyle]
            return formatter.string(from: date)
        }

        func iso(_ date: Date) -> String {
            ISO8601DateFormatter().string(from: date)
        }

        func parsed(_ text: String) -> Date? {
            ISO8601DateFormatter().date(from: text)
        }

        func number(_ value: Double, style: Int, minimum: Int, maximum: Int, locale: String) -> String {
            let styles: [NumberFormatter.Style] = [.none, .decimal, .currency, .percent]
            let formatter = NumberFormatter()
            formatter.numberStyle = styles[style]
            formatter.locale = Locale(identifier: locale)
            if minimum >= 0 { formatter.minimumFractionDigits = minimum }
            if maximum >= 0 { formatter.maximumFractionDigits = maximum }
            return formatter.string(from: NSNumber(value: value)) ?? "nil"
        }

        func relative(_ date: Date, to reference: Date, style: Int) -> String {
            let styles: [RelativeDateTimeFormatter.UnitsStyle] = [.full, .spellOut, .short, .abbreviated]
            let formatter = RelativeDateTimeFormatter()
            formatter.unitsStyle = styles[style]
            return formatter.localizedString(for: date, relativeTo: reference)
        }

        /// What reads the device's locale and zone.
        func onTheDevice(_ date: Date, count: Int) -> [String] {
            let formatter = DateFormatter()
            formatter.dateStyle = .medium
            formatter.timeStyle = .short
            return [Locale.current.identifier, TimeZone.current.identifier, formatter.string(from: date),
                    date.formatted(date: .long, time: .shortened), date.formatted(date: .omitted, time: .standard),
                    date.formatted(date: .complete, time: .omitted), count.formatted(), "\\(Calendar.current.component(.hour, from: date))",
                    Locale.current.languageCode ?? "-", Locale.current.regionCode ?? "-"]
        }

        /// A pattern with month names in the device's locale: only the native formatter can write it.
        func monthName(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = "d MMMM"
            return formatter.string(from: date)
        }

        """

    static let device = (locale: "de_DE", zone: "Europe/Berlin")

    /// The built module of `formats`, run as a device in `device`'s locale and zone.
    static let formatsGuest: Result<(module: [UInt8], symbols: [String: String]), GuestBuilder.BuildFailure> = {
        do {
            return .success(try build(["Formats.swift": formats], exports: [
                "calendarFacts(_:zone:)", "pattern(_:format:zone:)", "styled(_:dateStyle:timeStyle:locale:zone:)", "iso(_:)", "parsed(_:)",
                "number(_:style:minimum:maximum:locale:)", "relative(_:to:style:)", "onTheDevice(_:count:)", "monthName(_:)",
            ]))
        } catch {
            return .failure(GuestBuilder.BuildFailure(description: "\(error)"))
        }
    }()

    static func deviceSession() throws -> (RuntimeSession, [String: String]) {
        let (module, symbols) = try formatsGuest.get()
        var options = testOptions(fuel: nil)
        options.bridges.localeIdentifier = device.locale
        options.bridges.timeZoneIdentifier = device.zone
        return (try session(module, options), symbols)
    }

    /// Calls `declaration` with `arguments` encoded as the thunk encodes them, and decodes its value.
    static func value<Arguments: Encodable, Result: Decodable>(_ guest: RuntimeSession, _ symbols: [String: String], _ declaration: String,
                                                              _ arguments: Arguments, as type: Result.Type) throws -> Result {
        let output = try call(guest, symbols[declaration], String(decoding: try JSONEncoder().encode(arguments), as: UTF8.self))
        do {
            return try JSONDecoder().decode(Envelope<Result>.self, from: Data(output.utf8)).value
        } catch {
            throw GuestBuilder.BuildFailure(description: "\(declaration) answered \(output)")
        }
    }

    struct Envelope<Value: Decodable>: Decodable {
        var value: Value
    }

    static let instants: [Date] = [
        Date(timeIntervalSince1970: 1_700_000_000.25),  // 2023-11-14T22:13:20Z, a Tuesday
        Date(timeIntervalSince1970: 1_711_848_600),  // 2024-03-31T01:30:00Z, the night Berlin moves to summer time
        Date(timeIntervalSince1970: 1_706_745_599),  // 2024-01-31T23:59:59Z: a month later is the end of February
        Date(timeIntervalSince1970: 1_704_499_200),  // 2024-01-06T00:00:00Z, a Saturday
    ]

    @Test func calendarAnswersAsFoundationsGregorianCalendarInEachZone() throws {
        let (guest, symbols) = try Self.deviceSession()
        struct Arguments: Encodable { var date: Date; var zone: String }
        for date in Self.instants {
            for zone in ["UTC", "Europe/Berlin", "Asia/Tokyo", "America/New_York"] {
                var calendar = Calendar(identifier: .gregorian)
                calendar.locale = Locale(identifier: Self.device.locale)
                calendar.timeZone = TimeZone(identifier: zone)!
                let start = calendar.startOfDay(for: date)
                let nextMonth = calendar.date(byAdding: .month, value: 1, to: date)!
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .weekday], from: date)
                let expected = [calendar.component(.year, from: date), calendar.component(.month, from: date), calendar.component(.day, from: date),
                                calendar.component(.hour, from: date), calendar.component(.minute, from: date), calendar.component(.weekday, from: date),
                                calendar.component(.weekOfYear, from: date), Int(start.timeIntervalSince1970), Int(nextMonth.timeIntervalSince1970),
                                calendar.isDate(date, inSameDayAs: start) ? 1 : 0, calendar.isDate(date, inSameDayAs: nextMonth) ? 1 : 0,
                                calendar.isDateInWeekend(date) ? 1 : 0, parts.year!, parts.month!, parts.day!, parts.hour!, parts.weekday!]
                let answer = try Self.value(guest, symbols, "calendarFacts(_:zone:)", Arguments(date: date, zone: zone), as: [Int].self)
                #expect(answer == expected, "\(date) in \(zone)")
            }
        }
    }

    @Test func dateFormattersWriteWhatFoundationWrites() throws {
        let (guest, symbols) = try Self.deviceSession()
        struct Pattern: Encodable { var date: Date; var format: String; var zone: String }
        struct Styled: Encodable { var date: Date; var dateStyle: Int; var timeStyle: Int; var locale: String; var zone: String }
        let styles: [DateFormatter.Style] = [.none, .short, .medium, .long, .full]
        for date in Self.instants {
            for zone in ["UTC", "Europe/Berlin", "Asia/Tokyo"] {
                for format in ["yyyy-MM-dd'T'HH:mm:ss", "EEE, d MMM yyyy h:mm a", "'week' w, D"] {
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.dateFormat = format
                    formatter.timeZone = TimeZone(identifier: zone)
                    #expect(try Self.value(guest, symbols, "pattern(_:format:zone:)", Pattern(date: date, format: format, zone: zone), as: String.self)
                            == formatter.string(from: date))
                }
                for locale in ["en_US", "de_DE", "ja_JP"] {
                    for (dateStyle, timeStyle) in [(2, 0), (3, 0), (4, 0), (0, 1), (0, 2), (1, 1), (3, 1)] {
                        let formatter = DateFormatter()
                        formatter.locale = Locale(identifier: locale)
                        formatter.timeZone = TimeZone(identifier: zone)
                        formatter.dateStyle = styles[dateStyle]
                        formatter.timeStyle = styles[timeStyle]
                        let answer = try Self.value(guest, symbols, "styled(_:dateStyle:timeStyle:locale:zone:)",
                                                    Styled(date: date, dateStyle: dateStyle, timeStyle: timeStyle, locale: locale, zone: zone), as: String.self)
                        #expect(answer == formatter.string(from: date), "\(locale) \(dateStyle) \(timeStyle)")
                    }
                }
            }
            struct One: Encodable { var date: Date }
            #expect(try Self.value(guest, symbols, "iso(_:)", One(date: date), as: String.self) == ISO8601DateFormatter().string(from: date))
        }
        struct Text: Encodable { var text: String }
        for text in ["2023-11-14T22:13:20Z", "2024-03-31T03:30:00+02:00", "not a date"] {
            #expect(try Self.value(guest, symbols, "parsed(_:)", Text(text: text), as: Date?.self) == ISO8601DateFormatter().date(from: text))
        }
        // Linux's Foundation has no RelativeDateTimeFormatter: the numeric presentation Apple's writes.
        struct Relative: Encodable { var date: Date; var reference: Date; var style: Int }
        let reference = Self.instants[0]
        for (offset, style, text) in [(2 * 86_400.0, 0, "in 2 days"), (-3 * 3_600.0, 0, "3 hours ago"), (2 * 86_400.0, 1, "in two days"),
                                      (-3 * 3_600.0, 2, "3 hr. ago")] {
            #expect(try Self.value(guest, symbols, "relative(_:to:style:)",
                                   Relative(date: reference.addingTimeInterval(offset), reference: reference, style: style), as: String.self) == text)
        }
    }

    @Test func numberFormattersWriteWhatFoundationWritesWithTheStylesDigits() throws {
        let (guest, symbols) = try Self.deviceSession()
        struct Arguments: Encodable { var value: Double; var style: Int; var minimum: Int; var maximum: Int; var locale: String }
        let styles: [NumberFormatter.Style] = [.none, .decimal, .currency, .percent]
        for locale in ["en_US", "de_DE", "ja_JP"] {
            for value in [1234.5678, 0.5, -3, 1_234_567] {
                for style in 0..<4 {
                    // `.none` writes the rounded integer; the guest does not apply digit settings to it.
                    for (minimum, maximum) in style == 0 ? [(-1, -1)] : [(-1, -1), (2, 2), (0, 2), (1, 4)] {
                        let answer = try Self.value(guest, symbols, "number(_:style:minimum:maximum:locale:)",
                                                    Arguments(value: value, style: style, minimum: minimum, maximum: maximum, locale: locale), as: String.self)
                        #expect(answer == Self.foundationsNumber(value, style: styles[style], minimum: minimum, maximum: maximum, locale: Locale(identifier: locale)),
                                "\(locale) \(value) style \(style) \(minimum)…\(maximum)")
                    }
                }
            }
        }
    }

    /// What the device's NumberFormatter writes: the style's fraction digits (decimal 0…3, currency its
    /// minor units, percent 0) unless set. Linux's NumberFormatter does not apply a maximum below the
    /// decimal style's 3 or above a set minimum's style default, so the format styles on the same ICU
    /// write the expectations where digits are set.
    static func foundationsNumber(_ value: Double, style: NumberFormatter.Style, minimum: Int, maximum: Int, locale: Locale) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = style
        // Linux's formatter writes the style's own digits right (JPY's 0) though it reports 2 for them.
        if style == .none || (minimum < 0 && maximum < 0) { return formatter.string(from: NSNumber(value: value)) ?? "nil" }
        var digits = (formatter.minimumFractionDigits, formatter.maximumFractionDigits)
        if minimum >= 0 { digits = (minimum, max(minimum, digits.1)) }
        if maximum >= 0 { digits = (min(digits.0, maximum), maximum) }
        let range = digits.0...digits.1
        switch style {
        case .decimal: return value.formatted(.number.precision(.fractionLength(range)).locale(locale))
        case .currency: return value.formatted(.currency(code: locale.currency?.identifier ?? "USD").precision(.fractionLength(range)).locale(locale))
        default: return value.formatted(.percent.precision(.fractionLength(range)).locale(locale))
        }
    }

    @Test func theDevicesLocaleAndZoneAreTheOnesCurrentReads() throws {
        let (guest, symbols) = try Self.deviceSession()
        struct Arguments: Encodable { var date: Date; var count: Int }
        let date = Self.instants[0]
        let locale = Locale(identifier: Self.device.locale)
        let zone = TimeZone(identifier: Self.device.zone)!
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = zone
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func style(_ date: Date.FormatStyle.DateStyle, _ time: Date.FormatStyle.TimeStyle) -> String {
            Self.instants[0].formatted(Date.FormatStyle(date: date, time: time, locale: locale, timeZone: zone))
        }
        let expected = [Self.device.locale, Self.device.zone, formatter.string(from: date), style(.long, .shortened), style(.omitted, .standard),
                        style(.complete, .omitted), 1_234_567.formatted(.number.locale(locale)), "\(calendar.component(.hour, from: date))", "de", "DE"]
        #expect(try Self.value(guest, symbols, "onTheDevice(_:count:)", Arguments(date: date, count: 1_234_567), as: [String].self) == expected)
        // A month name in German: the en_US_POSIX bridge cannot write it, so the call fails and the
        // thunk runs the native code.
        struct One: Encodable { var date: Date }
        #expect(throws: (any Error).self) {
            try Self.call(guest, symbols["monthName(_:)"], String(decoding: try JSONEncoder().encode(One(date: date)), as: UTF8.self))
        }
    }

    @Test func eachBridgeTheLayerImportsIsServedWithItsSignature() throws {
        let (module, _) = try Self.formatsGuest.get()
        // The device's locale and zone are read where `current` names them; Set<Calendar.Component>
        // (dateComponents) hashes with a seed drawn from the host.
        #expect(Set(try Self.bridgeImports(module).map { String($0.prefix { $0 != "(" }) }) == [
            "patch.locale_identifier", "patch.timezone_identifier", "patch.secure_random_bytes",
            "patch_host.calendar_component", "patch_host.calendar_date_op", "patch_host.date_format", "patch_host.date_format_styled",
            "patch_host.iso8601_format", "patch_host.iso8601_parse", "patch_host.number_format", "patch_host.relative_date_format",
        ])
    }

    // MARK: - Defaults, bundle and logging

    static let settings = """
        import Foundation
        import os

        let log = Logger(subsystem: "com.example.app", category: "settings")

        func remember(_ flag: Bool, count: Int, ratio: Double, name: String?) -> [String] {
            let defaults = UserDefaults.standard
            defaults.set(flag, forKey: "flag")
            defaults.set(count, forKey: "count")
            defaults.set(ratio, forKey: "ratio")
            defaults.set(name, forKey: "name")
            log.info("stored \\(count, privacy: .public) for \\(name ?? "nobody")")
            print("ratio \\(ratio)")
            return ["\\(defaults.bool(forKey: "flag"))", "\\(defaults.integer(forKey: "count"))", "\\(defaults.double(forKey: "ratio"))",
                    defaults.string(forKey: "name") ?? "nil", "\\(defaults.bool(forKey: "absent"))", "\\(defaults.integer(forKey: "absent"))"]
        }

        func about() -> [String] {
            let version = Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String ?? "?"
            let build = Bundle.main.object(forInfoDictionaryKey: "CFBundleVersion") as? String ?? "?"
            log.error("about \\(version)")
            return [version, build, Bundle.main.bundleIdentifier ?? "-", Bundle.main.object(forInfoDictionaryKey: "Missing") ?? "-",
                    Bundle.main.path(forResource: "terms", ofType: "html") ?? "-"]
        }

        """

    @Test func defaultsBundleAndLogGoThroughTheirBridges() throws {
        let (module, symbols) = try Self.build(["Settings.swift": Self.settings], exports: ["remember(_:count:ratio:name:)", "about()"])
        var options = testOptions(fuel: nil)
        options.bridges.bundleInfo = ["CFBundleShortVersionString": "2.1", "CFBundleVersion": "77", "CFBundleIdentifier": "com.example.app"]
        options.bridges.bundleResourcePaths = ["terms.html": "/app/terms.html"]
        let guest = try session(module, options)
        struct Remember: Encodable { var flag: Bool; var count: Int; var ratio: Double; var name: String? }
        #expect(try Self.value(guest, symbols, "remember(_:count:ratio:name:)", Remember(flag: true, count: 42, ratio: 0.25, name: "Ada"), as: [String].self)
                == ["true", "42", "0.25", "Ada", "false", "0"])
        // A nil String removes the key.
        #expect(try Self.value(guest, symbols, "remember(_:count:ratio:name:)", Remember(flag: false, count: -1, ratio: 2, name: nil), as: [String].self)
                == ["false", "-1", "2.0", "nil", "false", "0"])
        struct None: Encodable {}
        #expect(try Self.value(guest, symbols, "about()", None(), as: [String].self) == ["2.1", "77", "com.example.app", "-", "/app/terms.html"])
        #expect(guest.bridgeState.logLines.map { "\($0.level.rawValue) \($0.message)" } == [
            "info stored 42 for Ada", "info ratio 0.25", "info stored -1 for nobody", "info ratio 2.0", "error about 2.1",
        ])
        #expect(Set(try Self.bridgeImports(module).map { String($0.prefix { $0 != "(" }) }) == [
            "patch.log", "patch.defaults_get", "patch.defaults_set", "patch.defaults_remove", "patch_host.defaults_get_bool",
            "patch_host.defaults_get_int", "patch_host.defaults_get_double", "patch_host.defaults_set_bool", "patch_host.defaults_set_int",
            "patch_host.defaults_set_double", "patch_host.bundle_info_string", "patch_host.bundle_resource_path",
        ])
    }
}

