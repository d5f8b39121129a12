// Guest view DSL (see ViewDSL.swift): `Text(date, style:)` over the Foundation layer's Date
// (Foundation+Date.swift), and stand-ins for the Foundation value types views store, in the host's
// encoding of a view's inputs (sdk-contract §5.4: UUID and URL as strings). The guest has no random
// source: what needs one is unavailable with the reason, which build reports as the view's
// `view_not_lowerable` detail.

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

    /// `Text(date, style: .relative)`: the IR's `dateText`, which the host keeps up to date as its
    /// clock runs. `Text(date, format:)` has no IR form and stays native. A leaf past the
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
