extension Duration {
    /// The duration as fractional seconds, as reports and `--json` results print it.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
