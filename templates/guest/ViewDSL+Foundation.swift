// Guest view DSL (see ViewDSL.swift): stand-ins for the Foundation value types views store, in the
// host's encoding of a view's inputs (sdk-contract §5.4: Date as seconds since 1970, UUID and URL
// as strings). The guest has no Foundation, no clock and no random source: what needs them is
// unavailable with the reason, which build reports as the view's `view_not_lowerable` detail.

typealias TimeInterval = Double

// MARK: - Date

struct Date: Hashable, Comparable, CustomStringConvertible {
    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    static let _referenceDateOffset: TimeInterval = 978_307_200

    var timeIntervalSince1970: TimeInterval

    init(timeIntervalSince1970 interval: TimeInterval) { timeIntervalSince1970 = interval }
    init(timeIntervalSinceReferenceDate interval: TimeInterval) { timeIntervalSince1970 = interval + Date._referenceDateOffset }
    init(timeInterval interval: TimeInterval, since date: Date) { timeIntervalSince1970 = date.timeIntervalSince1970 + interval }

    @available(*, unavailable, message: "the guest has no clock: Date() and Date.now are native-only; pass the date in as a property")
    init() { fatalError() }

    @available(*, unavailable, message: "the guest has no clock: Date() and Date.now are native-only; pass the date in as a property")
    static var now: Date { fatalError() }

    @available(*, unavailable, message: "the guest has no clock: timeIntervalSinceNow is native-only")
    var timeIntervalSinceNow: TimeInterval { fatalError() }

    @available(*, unavailable, message: "the guest has no Foundation formatters (locale, calendar, time zone): formatted() is native-only")
    func formatted() -> String { fatalError() }

    static let distantPast = Date(timeIntervalSince1970: -62_135_769_600)
    static let distantFuture = Date(timeIntervalSince1970: 64_092_211_200)

    var timeIntervalSinceReferenceDate: TimeInterval { timeIntervalSince1970 - Date._referenceDateOffset }

    func timeIntervalSince(_ date: Date) -> TimeInterval { timeIntervalSince1970 - date.timeIntervalSince1970 }
    func addingTimeInterval(_ interval: TimeInterval) -> Date { Date(timeIntervalSince1970: timeIntervalSince1970 + interval) }
    func advanced(by interval: TimeInterval) -> Date { addingTimeInterval(interval) }
    func distance(to other: Date) -> TimeInterval { other.timeIntervalSince1970 - timeIntervalSince1970 }
    mutating func addTimeInterval(_ interval: TimeInterval) { timeIntervalSince1970 += interval }

    /// Seconds since 1970, as the inputs carry it (Foundation prints a formatted UTC date).
    var description: String { "\(timeIntervalSince1970)" }

    static func < (lhs: Date, rhs: Date) -> Bool { lhs.timeIntervalSince1970 < rhs.timeIntervalSince1970 }
    static func + (date: Date, interval: TimeInterval) -> Date { date.addingTimeInterval(interval) }
    static func - (date: Date, interval: TimeInterval) -> Date { date.addingTimeInterval(-interval) }
    static func - (lhs: Date, rhs: Date) -> TimeInterval { lhs.timeIntervalSince(rhs) }
    static func += (date: inout Date, interval: TimeInterval) { date.addTimeInterval(interval) }
    static func -= (date: inout Date, interval: TimeInterval) { date.addTimeInterval(-interval) }
}

extension Date: _PatchJSONCodable {
    /// Seconds since 1970 both ways: the inputs carry a date so, and the state the guest returns
    /// comes back to it merged into the next inputs.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        self.init(timeIntervalSince1970: try Double(_patchJSON: value))
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { timeIntervalSince1970._patchEncode(into: &writer) }
}

// MARK: - Text(date, style:)

extension Text {
    /// SwiftUI's `Text.DateStyle`: the IRDateTextStyle the host formats with its clock and locale.
    struct DateStyle {
        let _name: StaticString

        static let date = DateStyle(_name: "date")
        static let time = DateStyle(_name: "time")
        static let relative = DateStyle(_name: "relative")
        static let offset = DateStyle(_name: "offset")
        static let timer = DateStyle(_name: "timer")
    }

    /// `Text(date, style: .relative)`: the IR's `dateText`, which the host keeps up to date (the
    /// guest has no clock). `Text(date, format:)` has no IR form and stays native. A leaf past the
    /// base set, so schema 2 (§5.5).
    init(_ date: Date, style: DateStyle) {
        var ir = _PatchIR()
        ir.raw("{\"dateText\":{\"epoch\":")
        ir.number(date.timeIntervalSince1970)
        ir.raw(",\"style\":\"")
        ir.raw(style._name)
        ir.raw("\"}}")
        _kind = ir
        _schemaVersion = 2
    }
}

// MARK: - UUID

struct UUID: Hashable, CustomStringConvertible {
    /// As the host sends it: `UUID.uuidString`, upper-case hex in 8-4-4-4-12 groups.
    let uuidString: String

    @available(*, unavailable, message: "the guest has no random source: UUID() is native-only; pass identifiers in as properties")
    init() { fatalError() }

    /// nil unless `uuidString` is 32 hex digits in 8-4-4-4-12 groups.
    init?(uuidString: String) {
        var count = 0
        for byte in uuidString.utf8 {
            let isDash = byte == UInt8(ascii: "-")
            guard isDash == (count == 8 || count == 13 || count == 18 || count == 23) else { return nil }
            let isHex = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
            guard isDash || isHex else { return nil }
            count += 1
        }
        guard count == 36 else { return nil }
        self.uuidString = uuidString
    }

    var description: String { uuidString }
}

extension UUID: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let uuid = UUID(uuidString: try String(_patchJSON: value)) else { throw _PatchDecodeError("expected a UUID string") }
        self = uuid
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { uuidString._patchEncode(into: &writer) }
}

// MARK: - URL

struct URL: Hashable, CustomStringConvertible {
    /// As the host sends it: `URL.absoluteString`.
    let absoluteString: String

    /// nil for an empty string (Foundation's check; the guest does not parse the URL further).
    init?(string: String) {
        guard !string.isEmpty else { return nil }
        absoluteString = string
    }

    var description: String { absoluteString }
}

extension URL: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let url = URL(string: try String(_patchJSON: value)) else { throw _PatchDecodeError("expected a URL string") }
        self = url
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { absoluteString._patchEncode(into: &writer) }
}

// MARK: - UserDefaults

/// The store `@AppStorage(_:store:)` names. The guest never reads it: the host passes the stored
/// value in the view's inputs and writes changes back into the store it belongs to (§5.4).
struct UserDefaults {
    static let standard = UserDefaults()

    private init() {}
    init?(suiteName: String?) {}
}
