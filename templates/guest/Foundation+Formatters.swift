// Guest Foundation layer (Foundation.swift): the date and number formatters over the SDK's
// formatting bridges (sdk-contract §3.2), and the `formatted` forms real code calls most that map
// onto them exactly. The device formats, so the text is the device's for its locale and zone.

// MARK: - DateFormatter

final class DateFormatter {
    enum Style: Hashable {
        case none, short, medium, long, full

        /// The bridge's code (§3.2): 0 none, 1 short, 2 medium, 3 long, 4 full.
        var _code: Int32 {
            switch self {
            case .none: return 0
            case .short: return 1
            case .medium: return 2
            case .long: return 3
            case .full: return 4
            }
        }
    }

    /// A pattern (`yyyy-MM-dd HH:mm`), formatted by `patch_host.date_format`, whose locale is fixed at
    /// `en_US_POSIX` (§3.2). Setting it replaces the styles, as in Foundation.
    var dateFormat: String = "" { didSet { _usesStyles = false } }
    /// Setting a style replaces `dateFormat`, as in Foundation: `patch_host.date_format_styled`.
    var dateStyle: Style = .none { didSet { _usesStyles = true } }
    var timeStyle: Style = .none { didSet { _usesStyles = true } }
    /// nil is the device's locale.
    var locale: Locale! = .current
    /// nil is the device's zone.
    var timeZone: TimeZone! = .current
    private var _usesStyles = true

    init() {}

    func string(from date: Date) -> String {
        let zone = timeZone ?? .current
        if !_usesStyles {
            // The bridge formats as en_US_POSIX: where `locale` would write other text, the call traps
            // and the thunk runs the native code, which formats in it.
            if _patchPatternDependsOnLocale(dateFormat, (locale ?? .current).identifier) {
                fatalError("DateFormatter.dateFormat with this locale needs the device's formatter: the date_format bridge is en_US_POSIX")
            }
            // date_format reads "" as UTC, so the device's zone is named.
            return _patchWithUTF8(dateFormat) { format, formatCount in
                _patchWithUTF8(zone.identifier) { zone, zoneCount in
                    _patchHostString(patch_host_date_format(date._unixMillis, format, formatCount, zone, zoneCount)) ?? ""
                }
            }
        }
        return _patchFormatStyled(date, dateStyle: dateStyle, timeStyle: timeStyle, locale: locale ?? .current, timeZone: zone)
    }

    @available(*, unavailable, message: "the SDK has no bridge parsing a date with a pattern or style (only ISO 8601): DateFormatter.date(from:) is native-only; use ISO8601DateFormatter")
    func date(from string: String) -> Date? { nil }
}

/// Whether `pattern` formats differently in `locale` than in en_US_POSIX (the date_format bridge's
/// locale): en_US and en_US_POSIX never do; other locales do with a field written as text (month or
/// weekday names, AM/PM, era, zone names, quarters: letters outside quotes) or in a language
/// whose locales write their own digits.
func _patchPatternDependsOnLocale(_ pattern: String, _ locale: String) -> Bool {
    if locale == "en_US_POSIX" || locale == "en_US" { return false }
    switch Locale._part(of: locale, at: 0) {
    case "ar", "fa", "ps", "ur", "bn", "as", "mr", "ne", "my", "dz", "ks", "sat", "mni": return true
    default: break
    }
    let bytes = Array(pattern.utf8)
    var quoted = false
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        var run = 1
        while index + run < bytes.count, bytes[index + run] == byte { run += 1 }
        if byte == UInt8(ascii: "'") {
            quoted.toggle()
        } else if !quoted {
            switch byte {
            case UInt8(ascii: "E"), UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "G"), UInt8(ascii: "z"),
                 UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "O"), UInt8(ascii: "U"):
                return true
            case UInt8(ascii: "M"), UInt8(ascii: "L"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "Q"), UInt8(ascii: "q"):
                if run >= 3 { return true }
            default: break
            }
        }
        index += byte == UInt8(ascii: "'") ? 1 : run
    }
    return false
}

/// `patch_host.date_format_styled`, which reads "" as the device's locale and zone.
func _patchFormatStyled(_ date: Date, dateStyle: DateFormatter.Style, timeStyle: DateFormatter.Style, locale: Locale, timeZone: TimeZone) -> String {
    _patchWithUTF8(locale._bridgeName) { locale, localeCount in
        _patchWithUTF8(timeZone._bridgeName) { zone, zoneCount in
            _patchHostString(patch_host_date_format_styled(date._unixMillis, dateStyle._code, timeStyle._code, locale, localeCount, zone, zoneCount)) ?? ""
        }
    }
}

// MARK: - ISO8601DateFormatter

/// Foundation's default options (`2021-01-01T00:00:00Z`, UTC, whole seconds): `patch_host.iso8601_format`
/// and `iso8601_parse`.
final class ISO8601DateFormatter {
    init() {}

    func string(from date: Date) -> String {
        _patchHostString(patch_host_iso8601_format(date._unixMillis)) ?? ""
    }

    func date(from string: String) -> Date? {
        Date(_unixMillis: _patchWithUTF8(string) { patch_host_iso8601_parse($0, $1) })
    }
}

// MARK: - RelativeDateTimeFormatter

/// Numeric presentation ("in 2 days", "3 hours ago"): `patch_host.relative_date_format`.
final class RelativeDateTimeFormatter {
    enum UnitsStyle: Hashable {
        case full, spellOut, short, abbreviated

        /// The bridge's code (§3.2): 0 full, 1 spellOut, 2 short, 3 abbreviated.
        var _code: Int32 {
            switch self {
            case .full: return 0
            case .spellOut: return 1
            case .short: return 2
            case .abbreviated: return 3
            }
        }
    }

    var unitsStyle: UnitsStyle = .full
    /// nil is the device's locale.
    var locale: Locale! = .current

    init() {}

    func localizedString(for date: Date, relativeTo reference: Date) -> String {
        _patchWithUTF8((locale ?? .current)._bridgeName) { locale, localeCount in
            _patchHostString(patch_host_relative_date_format(date._unixMillis, reference._unixMillis, unitsStyle._code, locale, localeCount)) ?? ""
        }
    }

    func localizedString(fromTimeInterval interval: TimeInterval) -> String {
        let now = Date()
        return localizedString(for: now.addingTimeInterval(interval), relativeTo: now)
    }
}

// MARK: - NumberFormatter

/// The number a formatter reads (Foundation's class cluster, reduced to the values code passes it).
struct NSNumber: Hashable {
    let doubleValue: Double

    init(value: Double) { doubleValue = value }
    init(value: Float) { doubleValue = Double(value) }
    init(value: Int) { doubleValue = Double(value) }

    var intValue: Int { Int(doubleValue) }
}

final class NumberFormatter {
    enum Style: Hashable {
        case none, decimal, currency, percent

        /// The bridge's code (§3.2): 0 decimal, 1 currency, 2 percent.
        var _code: Int32 {
            switch self {
            case .none, .decimal: return 0
            case .currency: return 1
            case .percent: return 2
            }
        }
    }

    /// Setting it resets the fraction digits to the style's, as in Foundation.
    var numberStyle: Style = .none {
        didSet {
            _minimum = nil
            _maximum = nil
        }
    }
    /// nil is the device's locale.
    var locale: Locale! = .current
    private var _minimum: Int?
    private var _maximum: Int?

    init() {}

    /// The style's unless set: 0 for none and percent, 0 for decimal, the currency's minor units
    /// for currency.
    var minimumFractionDigits: Int {
        get { _minimum ?? _styleDigits.minimum }
        set {
            _minimum = newValue
            if maximumFractionDigits < newValue { _maximum = newValue }
        }
    }

    /// The style's unless set: 0 for none and percent, 3 for decimal, the currency's minor units
    /// for currency.
    var maximumFractionDigits: Int {
        get { _maximum ?? _styleDigits.maximum }
        set {
            _maximum = newValue
            if minimumFractionDigits > newValue { _minimum = newValue }
        }
    }

    private var _styleDigits: (minimum: Int, maximum: Int) {
        switch numberStyle {
        case .none, .percent: return (0, 0)
        case .decimal: return (0, 3)
        case .currency:
            let units = _patchCurrencyMinorUnits(region: Locale._part(of: _locale.identifier, at: 1))
            return (units, units)
        }
    }

    private var _locale: Locale { locale ?? .current }

    func string(from number: NSNumber) -> String? {
        let value = number.doubleValue
        guard value.isFinite else { return nil }
        // `.none` is the integer, rounded half to even, without grouping: the guest's own text.
        guard numberStyle != .none else { return "\(Int(value.rounded(.toNearestOrEven)))" }
        // number_format reads "" as en_US, so the device's locale is named.
        return _patchFormatNumber(value, style: numberStyle._code, fractionDigits: minimumFractionDigits...maximumFractionDigits,
                                  locale: _locale.identifier)
    }

    func string(for value: Double?) -> String? { value.flatMap { string(from: NSNumber(value: $0)) } }
    func string(for value: Int?) -> String? { value.flatMap { string(from: NSNumber(value: $0)) } }
}

/// `patch_host.number_format`: `value` in `style` with exactly `fractionDigits` digits.
func _patchFormatNumber(_ value: Double, style: Int32, fractionDigits: Int, locale: String) -> String {
    _patchWithUTF8(locale) { locale, localeCount in
        _patchHostString(patch_host_number_format(Int64(bitPattern: value.bitPattern), style, Int32(clamping: fractionDigits), locale, localeCount)) ?? ""
    }
}

/// `patch_host.number_format` with between `fractionDigits.lowerBound` and `upperBound` digits: the
/// bridge takes one count, so the zeros past the minimum are removed here, after the locale's
/// decimal separator (the text between the digits of 0.5 formatted).
func _patchFormatNumber(_ value: Double, style: Int32, fractionDigits: ClosedRange<Int>, locale: String) -> String {
    let text = _patchFormatNumber(value, style: style, fractionDigits: fractionDigits.upperBound, locale: locale)
    guard fractionDigits.lowerBound < fractionDigits.upperBound else { return text }
    let half = Array(_patchFormatNumber(0.5, style: 0, fractionDigits: 1, locale: locale).utf8)
    guard half.count > 2 else { return text }
    return _patchTrimmingFraction(text, separator: half[1..<(half.count - 1)], keeping: fractionDigits.lowerBound)
}

/// `text` without the trailing zeros of its fraction (the ASCII digits after the last `separator`)
/// past `keeping` digits, and without the separator when no digit is left.
func _patchTrimmingFraction(_ text: String, separator: ArraySlice<UInt8>, keeping minimum: Int) -> String {
    let bytes = Array(text.utf8)
    var start: Int?
    var index = bytes.count - separator.count
    while index >= 0 {
        if bytes[index..<(index + separator.count)].elementsEqual(separator) { start = index; break }
        index -= 1
    }
    guard let start else { return text }
    let digitsStart = start + separator.count
    var digitsEnd = digitsStart
    while digitsEnd < bytes.count, bytes[digitsEnd] >= UInt8(ascii: "0"), bytes[digitsEnd] <= UInt8(ascii: "9") { digitsEnd += 1 }
    var kept = digitsEnd
    while kept - digitsStart > minimum, bytes[kept - 1] == UInt8(ascii: "0") { kept -= 1 }
    let cut = kept == digitsStart ? start : kept
    return String(decoding: bytes[..<cut] + bytes[digitsEnd...], as: UTF8.self)
}

/// ISO 4217 minor units of the currency of `region` where they are not 2 (JPY, KRW, VND…; the
/// bridge formats currency in the locale's own currency). Unknown regions have 2, as most currencies.
func _patchCurrencyMinorUnits(region: String?) -> Int {
    switch region {
    case "JP", "KR", "VN", "CL", "IS", "PY", "UG", "RW", "GN", "KM", "DJ", "VU", "BI", "XF": return 0
    case "BH", "IQ", "JO", "KW", "LY", "OM", "TN": return 3
    default: return 2
    }
}

// MARK: - formatted

extension Date {
    /// `Date.FormatStyle`'s date presets that format as a DateFormatter style in every locale
    /// (`.abbreviated` and `.numeric` do not, outside English: they stay native).
    struct FormatStyle {
        struct DateStyle: Hashable {
            let _style: DateFormatter.Style
            static let omitted = DateStyle(_style: .none)
            static let long = DateStyle(_style: .long)
            static let complete = DateStyle(_style: .full)
            @available(*, unavailable, message: "the SDK formats date styles with DateFormatter's, and .abbreviated is none of them outside English: stays native")
            static let abbreviated = DateStyle(_style: .medium)
            @available(*, unavailable, message: "the SDK formats date styles with DateFormatter's, and .numeric (4-digit year) is none of them: stays native")
            static let numeric = DateStyle(_style: .short)
        }

        struct TimeStyle: Hashable {
            let _style: DateFormatter.Style
            static let omitted = TimeStyle(_style: .none)
            static let shortened = TimeStyle(_style: .short)
            static let standard = TimeStyle(_style: .medium)
        }
    }

    @available(*, unavailable, message: "Date.formatted() writes a numeric date (4-digit year), which the SDK's DateFormatter styles do not: stays native")
    func formatted() -> String { "" }

    /// The device's locale and zone, as `date_format_styled` with the matching styles.
    func formatted(date: FormatStyle.DateStyle, time: FormatStyle.TimeStyle) -> String {
        _patchFormatStyled(self, dateStyle: date._style, timeStyle: time._style, locale: .current, timeZone: .current)
    }
}

extension Double {
    /// In the device's locale with up to 6 fraction digits, rounded half to even (`1,234.5`,
    /// `0.333333`), as `FloatingPointFormatStyle`'s default: `number_format`'s decimal style.
    /// Infinity and NaN trap (the device writes its own symbols for them).
    func formatted() -> String {
        guard isFinite else { fatalError("Double.formatted() of infinity or NaN needs the device's formatter") }
        return _patchFormatNumber(self, style: 0, fractionDigits: 0...6, locale: Locale.current.identifier)
    }
}

extension Float {
    /// As `Double.formatted()` of the same value.
    func formatted() -> String { Double(self).formatted() }
}

/// The number format styles code writes inline (`value.formatted(.number.precision(.fractionLength(2)))`,
/// `.percent`, `.locale(…)`), as `number_format` writes them: Foundation's `FloatingPointFormatStyle`
/// and its `Percent` reduced to their style, fraction digits (up to 6 by default, rounded half to
/// even) and locale (the device's unless set). Code naming `FloatingPointFormatStyle` stays native.
struct _PatchNumberFormatStyle {
    /// The bridge's style: 0 decimal, 2 percent (the value times 100).
    let _style: Int32
    var _fractionDigits: ClosedRange<Int> = 0...6
    var _locale: Locale?

    static var number: _PatchNumberFormatStyle { _PatchNumberFormatStyle(_style: 0) }
    static var percent: _PatchNumberFormatStyle { _PatchNumberFormatStyle(_style: 2) }

    struct Precision {
        let _fractionDigits: ClosedRange<Int>

        static func fractionLength(_ length: Int) -> Precision { Precision(_fractionDigits: length...length) }
        static func fractionLength(_ lengths: ClosedRange<Int>) -> Precision { Precision(_fractionDigits: lengths) }
    }

    func precision(_ precision: Precision) -> _PatchNumberFormatStyle {
        var style = self
        style._fractionDigits = precision._fractionDigits
        return style
    }

    func locale(_ locale: Locale) -> _PatchNumberFormatStyle {
        var style = self
        style._locale = locale
        return style
    }

    func format(_ value: Double) -> String {
        guard value.isFinite else { fatalError("formatting infinity or NaN needs the device's formatter") }
        return _patchFormatNumber(value, style: _style, fractionDigits: _fractionDigits, locale: (_locale ?? .current).identifier)
    }
}

extension Double {
    func formatted(_ style: _PatchNumberFormatStyle) -> String { style.format(self) }
}

extension BinaryInteger {
    /// Grouped in the device's locale (`1,234,567`): `number_format`'s decimal style with no fraction.
    func formatted() -> String {
        _patchFormatNumber(Double(self), style: 0, fractionDigits: 0, locale: Locale.current.identifier)
    }
}

// MARK: - Duration

extension Duration {
    /// `Duration.TimeFormatStyle(pattern: .hourMinute)` writes "4:59" with the device locale's
    /// separators; no bridge of the SDK formats a duration (sdk-contract §3.2), so it stays native.
    @available(*, unavailable, message: "the SDK has no bridge formatting a Duration in the device's locale (sdk-contract §3.2 formats numbers and dates): Duration.TimeFormatStyle stays native")
    struct TimeFormatStyle {
        struct Pattern {
            static var hourMinute: Pattern { Pattern() }
            static var hourMinuteSecond: Pattern { Pattern() }
            static var minuteSecond: Pattern { Pattern() }
        }

        init(pattern: Pattern) {}
    }
}
