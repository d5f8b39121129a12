import Foundation

/// Bridges between the JSON tree and Codable structs. Metadata this project *writes* is built from
/// typed structs and converted to a tree once; metadata it *reads* is verified on the tree and only
/// then decoded into a typed view for its semantics.
extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Int64.self) { self = .integer(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let elements = try? container.decode([JSONValue].self) { self = .array(elements) }
        else if let members = try? container.decode([String: JSONValue].self) { self = .object(members) }
        else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer-only JSON value")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(flag): try container.encode(flag)
        case let .integer(number): try container.encode(number)
        case let .string(text): try container.encode(text)
        case let .array(elements): try container.encode(elements)
        case let .object(members): try container.encode(members)
        }
    }

    /// The tree of an Encodable value (through JSONEncoder, then this module's strict parser).
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self = try JSONValue.parse([UInt8](try encoder.encode(value)))
    }

    /// Decodes a typed view of this tree.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(CanonicalJSON.serialize(self)))
    }
}

/// TUF's timestamp form, `YYYY-MM-DDTHH:MM:SSZ` (UTC, no fractions), converted without a shared
/// formatter so it is identical on every platform.
public enum TUFTime {
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    /// nil unless `text` is exactly the TUF form with a valid calendar date.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        guard civilDate(daysSinceEpoch: days) == (year, month, day) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    // Howard Hinnant's days-from-civil / civil-from-days (proleptic Gregorian calendar).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
