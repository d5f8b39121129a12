// Guest view DSL (see ViewDSL.swift): `Text(date, style:)` over the Foundation layer's Date
// (Foundation+Date.swift). The other Foundation value types views store (UUID, URL, Data) are the
// layer's too, and read the host's encoding of a view's inputs (sdk-contract §5.4: strings).

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
