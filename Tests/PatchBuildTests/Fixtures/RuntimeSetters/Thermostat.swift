struct Thermostat {
    var tenths: Int
    let room: String

    // @patchable
    var degrees: Int {
        get { tenths / 10 }
        set { tenths = newValue * 10 }
    }

    nonisolated(unsafe) static var unit = "C"

    // @patchable
    static var label: String {
        get { "°" + unit }
        set { unit = String(newValue.dropFirst()) }
    }
}
