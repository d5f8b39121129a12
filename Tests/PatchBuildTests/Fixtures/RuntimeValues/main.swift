import Foundation
import PatchSDK

func describe(_ route: Route) -> String {
    "\(route.name) \(route.stops.map { "(\($0.x),\($0.y))" }.joined()) \(route.timeframe.map { "\($0)" } ?? "-") \(route.byName.keys.sorted()) v\(route.version)"
}

func exercise() -> String {
    var planner = Planner(current: .today, note: "")
    planner.period = .week
    let period = planner.period
    let route = Route(name: "loop", stops: [Point(x: 1, y: 2)], timeframe: .week, byName: ["home": Point(x: 0, y: 0)])
    var trip = Trip(route: route, legs: 1)
    let legs = trip.extend(to: Point(x: 5, y: 6))
    let shape = grown(.rect(1, height: 2)).map { "\($0)" } ?? "nil"
    return "\(label(for: .month)) | \(status(after: 5)) | \(Timeframe.today.next()) | \(describe(shifted(route, by: 10))) | \(legs) \(describe(trip.route)) | \(shape) | \(period) \(planner.note)"
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
    "_pf_Planner_period__set": #"{"self":{"current":{"month":{}},"note":"module set"}}"#,
    "_pf_Planner_period__get": #"{"value":{"today":{}}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }

// Property: for random values, a thunk sends exactly what the types' synthesized Codable writes
// (the twins below declare it), and builds back from that JSON the value itself.
enum TimeframeTwin: Codable { case today, week, month }
struct PointTwin: Codable { var x: Int; var y: Int }
struct RouteTwin: Codable { var name: String; var stops: [PointTwin]; var timeframe: TimeframeTwin?; var byName: [String: PointTwin]; var version: Int }
enum ShapeTwin: Codable { case circle(radius: Double), rect(Double, height: Double) }

func twin(_ point: Point) -> PointTwin { PointTwin(x: point.x, y: point.y) }
func twin(_ route: Route) -> RouteTwin {
    let timeframe = route.timeframe.map { value -> TimeframeTwin in
        switch value {
        case .today: .today
        case .week: .week
        case .month: .month
        }
    }
    return RouteTwin(name: route.name, stops: route.stops.map(twin), timeframe: timeframe, byName: route.byName.mapValues(twin), version: route.version)
}
func twin(_ shape: Shape) -> ShapeTwin {
    switch shape {
    case let .circle(radius): .circle(radius: radius)
    case let .rect(width, height): .rect(width, height: height)
    }
}

/// SplitMix64: the same values on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let encoder = JSONEncoder()
encoder.outputFormatting = .sortedKeys
func json<T: Encodable>(_ value: T) -> String { String(decoding: try! encoder.encode(value), as: UTF8.self) }
var generator = SeededGenerator(state: 18)
var mismatches: [String] = []
for _ in 0..<200 {
    let point = { Point(x: Int.random(in: -1000...1000, using: &generator), y: Int.random(in: -1000...1000, using: &generator)) }
    let timeframes: [Timeframe?] = [nil, .today, .week, .month]
    let route = Route(name: String((0..<Int.random(in: 0...6, using: &generator)).map { _ in "aé\"\\z".randomElement(using: &generator)! }),
                      stops: (0..<Int.random(in: 0...4, using: &generator)).map { _ in point() },
                      timeframe: timeframes.randomElement(using: &generator)!,
                      byName: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &generator)).map { ("k\($0)", point()) }))
    Patch.shared.standInCalls = []
    Patch.shared.standInFunctionResults["_pf_shifted____by"] = #"{"value":"# + json(twin(route)) + "}"
    let back = shifted(route, by: 0)
    if Patch.shared.standInCalls != [#"_pf_shifted____by {"dx":0,"route":"# + json(twin(route)) + "}"] || json(twin(back)) != json(twin(route)) {
        mismatches.append(json(twin(route)))
    }
    let shape = Bool.random(using: &generator) ? Shape.circle(radius: Double.random(in: -1e6...1e6, using: &generator))
        : Shape.rect(Double.random(in: 0...1, using: &generator), height: Double(Int.random(in: -9...9, using: &generator)))
    Patch.shared.standInCalls = []
    Patch.shared.standInFunctionResults["_pf_grown___"] = #"{"value":"# + json(twin(shape)) + "}"
    let grownBack = grown(shape)
    if Patch.shared.standInCalls != [#"_pf_grown___ {"shape":"# + json(twin(shape)) + "}"] || grownBack.map({ json(twin($0)) }) != json(twin(shape)) {
        mismatches.append(json(twin(shape)))
    }
}
print("property: \(mismatches.isEmpty ? "200 routes and 200 shapes round-trip" : "mismatches \(mismatches)")")
