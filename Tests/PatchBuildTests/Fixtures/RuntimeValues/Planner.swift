// A computed property with a setter whose type is a non-Codable enum: the getter decodes the
// module's value, the setter sends `newValue` through the same mirror.
struct Planner {
    var current: Timeframe
    var note: String

    // @patchable
    var period: Timeframe {
        get { current }
        set {
            current = newValue
            note = "native set"
        }
    }
}
