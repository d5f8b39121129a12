import PatchSDK

func describe(_ route: Route) -> String {
    "\(route.name) \(route.stops.map { "(\($0.x),\($0.y))" }.joined()) \(route.timeframe.map { "\($0)" } ?? "-") \(route.byName.keys.sorted()) v\(route.version)"
}

func exercise() -> String {
    let route = Route(name: "loop", stops: [Point(x: 1, y: 2)], timeframe: .week, byName: ["home": Point(x: 0, y: 0)])
    var trip = Trip(route: route, legs: 1)
    let legs = trip.extend(to: Point(x: 5, y: 6))
    let shape = grown(.rect(1, height: 2)).map { "\($0)" } ?? "nil"
    return "\(label(for: .month)) | \(status(after: 5)) | \(Timeframe.today.next()) | \(describe(shifted(route, by: 10))) | \(legs) \(describe(trip.route)) | \(shape)"
}

print("native: " + exercise())
// The JSON the module's guest codecs write for these types (GuestCodecGenerator): a plain enum as
// `{"case":{}}`, a String-backed one as its raw value, payloads keyed by label or `_0`, a struct by
// its stored property names, a nil optional left out.
Patch.shared.standInFunctionResults = [
    "_pf_label__for": #"{"value":"module label"}"#,
    "_pf_status__after": #"{"value":"here"}"#,
    "_pf_Timeframe_next__": #"{"value":{"month":{}}}"#,
    "_pf_shifted____by": #"{"value":{"name":"moved","stops":[{"x":7,"y":8}],"byName":{"work":{"x":3,"y":4}},"version":1}}"#,
    "_pf_Trip_extend__to": #"{"value":9,"self":{"route":{"name":"patched","stops":[],"timeframe":{"today":{}},"byName":{},"version":1},"legs":4}}"#,
    "_pf_grown___": #"{"value":{"circle":{"radius":3.5}}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
