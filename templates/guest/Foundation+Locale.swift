// Guest Foundation layer (Foundation.swift): Locale and TimeZone. `current` is the device's, read
// from `patch.locale_identifier` / `patch.timezone_identifier` (sdk-contract §3.5) only when its
// identifier is asked for: the formatter and calendar bridges take "" for the device's own.

// MARK: - Locale

struct Locale: Hashable {
    /// nil for `current`.
    let _name: String?

    init(identifier: String) { _name = identifier }
    private init(current: ()) { _name = nil }

    static var current: Locale { Locale(current: ()) }
    static var autoupdatingCurrent: Locale { current }

    var identifier: String { _name ?? _patchHostString(patch_locale_identifier()) ?? "en_US_POSIX" }

    /// The language of the identifier (`de` of `de_DE`), as Foundation's deprecated `languageCode`.
    var languageCode: String? { Locale._part(of: identifier, at: 0) }
    /// The region of the identifier (`DE` of `de_DE`), as Foundation's deprecated `regionCode`.
    var regionCode: String? { Locale._part(of: identifier, at: 1) }

    /// The `index`th of the identifier's `_`/`-` separated parts, nil when absent or empty.
    static func _part(of identifier: String, at index: Int) -> String? {
        let parts = identifier.utf8.split(whereSeparator: { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        guard index < parts.count else { return nil }
        return String(decoding: parts[index], as: UTF8.self)
    }

    /// What the bridges taking a locale read: "" for the device's own.
    var _bridgeName: String { _name ?? "" }
}

// MARK: - TimeZone

struct TimeZone: Hashable {
    /// nil for `current`.
    let _name: String?

    /// Any identifier is kept: the device's zone database decides, and an unknown one formats as GMT.
    init?(identifier: String) {
        guard !identifier.isEmpty else { return nil }
        _name = identifier
    }

    /// `GMT` for 0, else `GMT+hhmm` / `GMT-hhmm` as Foundation names them; nil past ±18 hours.
    init?(secondsFromGMT seconds: Int) {
        guard seconds.magnitude <= 18 * 3600 else { return nil }
        guard seconds != 0 else { _name = "GMT"; return }
        let minutes = Int(seconds.magnitude) / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        _name = "GMT" + (seconds < 0 ? "-" : "+") + twoDigits(minutes / 60) + twoDigits(minutes % 60)
    }

    private init(current: ()) { _name = nil }

    static var current: TimeZone { TimeZone(current: ()) }
    static var autoupdatingCurrent: TimeZone { current }
    static let gmt = TimeZone(identifier: "GMT")!

    var identifier: String { _name ?? _patchHostString(patch_timezone_identifier()) ?? "GMT" }

    /// What the calendar and styled-format bridges read: "" for the device's own.
    var _bridgeName: String { _name ?? "" }
}
