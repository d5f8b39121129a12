// Guest Foundation layer (Foundation.swift): Date, with the device clock behind `Date()`
// (`patch_host.now_unix_millis`, sdk-contract §3.2).

// MARK: - Date

struct Date: Hashable, Comparable, CustomStringConvertible {
    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    static let _referenceDateOffset: TimeInterval = 978_307_200

    /// Seconds since the reference date, what Foundation's Date stores: the conversions to and from
    /// 1970 then round as Foundation's do.
    var timeIntervalSinceReferenceDate: TimeInterval

    init(timeIntervalSinceReferenceDate interval: TimeInterval) { timeIntervalSinceReferenceDate = interval }
    init(timeIntervalSince1970 interval: TimeInterval) { timeIntervalSinceReferenceDate = interval - Date._referenceDateOffset }
    init(timeInterval interval: TimeInterval, since date: Date) { timeIntervalSinceReferenceDate = date.timeIntervalSinceReferenceDate + interval }
    init(timeIntervalSinceNow interval: TimeInterval) { self.init(timeInterval: interval, since: Date()) }

    /// The device clock, to the millisecond the bridge gives.
    init() { self.init(timeIntervalSince1970: Double(patch_host_now_unix_millis()) / 1000) }

    static var now: Date { Date() }

    static let distantPast = Date(timeIntervalSinceReferenceDate: -63_114_076_800)
    static let distantFuture = Date(timeIntervalSinceReferenceDate: 63_113_904_000)

    var timeIntervalSince1970: TimeInterval { timeIntervalSinceReferenceDate + Date._referenceDateOffset }
    var timeIntervalSinceNow: TimeInterval { timeIntervalSince(Date()) }

    func timeIntervalSince(_ date: Date) -> TimeInterval { timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate }
    func addingTimeInterval(_ interval: TimeInterval) -> Date { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate + interval) }
    func advanced(by interval: TimeInterval) -> Date { addingTimeInterval(interval) }
    func distance(to other: Date) -> TimeInterval { other.timeIntervalSinceReferenceDate - timeIntervalSinceReferenceDate }
    mutating func addTimeInterval(_ interval: TimeInterval) { timeIntervalSinceReferenceDate += interval }

    /// Seconds since 1970 (Foundation prints a formatted UTC date).
    var description: String { "\(timeIntervalSince1970)" }

    static func < (lhs: Date, rhs: Date) -> Bool { lhs.timeIntervalSinceReferenceDate < rhs.timeIntervalSinceReferenceDate }
    static func + (date: Date, interval: TimeInterval) -> Date { date.addingTimeInterval(interval) }
    static func - (date: Date, interval: TimeInterval) -> Date { date.addingTimeInterval(-interval) }
    static func - (lhs: Date, rhs: Date) -> TimeInterval { lhs.timeIntervalSince(rhs) }
    static func += (date: inout Date, interval: TimeInterval) { date.addTimeInterval(interval) }
    static func -= (date: inout Date, interval: TimeInterval) { date.addTimeInterval(-interval) }
}

extension Date: _PatchJSONCodable {
    /// A number of seconds: since 2001 in what `callJSON` carries (JSONEncoder's default, §2.4),
    /// since 1970 in a view's inputs and the state it returns (§5.4); the entry point of the call
    /// says which (`_patchDatesSince1970`).
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let seconds = try Double(_patchJSON: value)
        self = _patchDatesSince1970 ? Date(timeIntervalSince1970: seconds) : Date(timeIntervalSinceReferenceDate: seconds)
    }

    func _patchEncode(into writer: inout _PatchJSONWriter) {
        (_patchDatesSince1970 ? timeIntervalSince1970 : timeIntervalSinceReferenceDate)._patchEncode(into: &writer)
    }
}
