import Foundation

extension Duration {
    /// The duration as fractional seconds, as reports and `--json` results print it.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Double {
    /// Rounded to `places` decimals. Ratios and times in `--json` results carry 3
    /// (docs/cli-envelope.schema.json), and so do `run`'s microsecond timings: more digits are
    /// below the clock's jitter, noise that makes results differ run to run for no reason.
    public func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

extension Double {
    /// The value with exactly `places` decimals, e.g. `0.5.fixed(places: 3)` is `0.500`: what
    /// `String(format: "%.3f")` prints for the non-negative sizes, times and ratios patchcli
    /// reports, without Foundation's formatter, whose first use costs a command on small inputs
    /// more than its work (CoreFoundation's format parser and locale set-up). Ties go to even, as
    /// printf's do (`1.25` → `1.2`); the scaled value is rounded, so a value just off a tie whose
    /// scaling lands on it may differ from printf in the last digit.
    public func fixed(places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((Swift.max(self, 0) * Double(scale)).rounded(.toNearestOrEven))
        guard places > 0 else { return String(scaled) }
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
