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
