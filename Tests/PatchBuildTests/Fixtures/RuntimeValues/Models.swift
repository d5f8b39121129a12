// Value types that do not declare Codable, as real apps' models mostly don't: the thunks carry them
// through generated value mirrors (docs/prepare.md "Values that are not Codable").

enum Timeframe {
    case today, week, month
}

extension Timeframe {
    // @patchable
    func next() -> Timeframe {
        switch self {
        case .today: .week
        case .week: .month
        case .month: .today
        }
    }
}

enum VisitStatus: String {
    case present = "here", away
}

enum Shape {
    case circle(radius: Double)
    case rect(Double, height: Double)
}

struct Point {
    var x: Int
    var y: Int
}

struct Route {
    var name: String
    var stops: [Point]
    var timeframe: Timeframe?
    var byName: [String: Point]
    let version = 1
}

struct Trip {
    var route: Route
    var legs: Int

    // @patchable
    mutating func extend(to point: Point) -> Int {
        route.stops.append(point)
        legs += 1
        return legs
    }
}

// @patchable
func label(for timeframe: Timeframe) -> String {
    switch timeframe {
    case .today: "native today"
    case .week: "native week"
    case .month: "native month"
    }
}

// @patchable
func status(after days: Int) -> VisitStatus {
    days > 3 ? .away : .present
}

// @patchable
func shifted(_ route: Route, by dx: Int) -> Route {
    var copy = route
    copy.stops = route.stops.map { Point(x: $0.x + dx, y: $0.y) }
    return copy
}

// @patchable
func grown(_ shape: Shape) -> Shape? {
    switch shape {
    case let .circle(radius): .circle(radius: radius * 2)
    case let .rect(width, height): .rect(width * 2, height: height * 2)
    }
}
