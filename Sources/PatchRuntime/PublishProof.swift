/// The proof a module owes before it is published (`patchcli release`, `patchcli verify`): it
/// activates exactly as a device activates it and passes its smoke probes there; and the rung
/// devices fall back to if it fails on them (sdk-contract §7.6) still activates.
public enum PublishProof {
    public struct Report: Sendable, Codable, Equatable {
        /// Layers peeled off, outermost first: "POVR", "PMOD", "wasm".
        public var layers: [String]
        public var modules: Int
        public var probes: [ProbeResult]
        /// The fallback ladder replayed with the module devices run today as `previous`: what a
        /// device on which the candidate fails ends up running. Nil when nothing is published yet.
        public var fallback: FallbackLadder.Report?
        /// Problems that do not block publishing, e.g. a fallback rung that no longer activates.
        public var warnings: [String]
    }

    /// Activates `artifact` under `options` (device parity, eager validation of every function,
    /// `_initialize`) and runs `probes` in that activation; then replays the ladder over `previous`.
    /// Throws the activation error or `smokeFailed` naming each failed probe.
    public static func prove(_ artifact: [UInt8], probes: [SmokeProbe], previous: [UInt8]?, options: RuntimeOptions) throws(RuntimeError) -> Report {
        let loaded = try ArtifactLoader.load(artifact, expectedSHA256: nil)
        let results = try SmokeRunner.run(probes, activating: loaded, options: options)
        try SmokeRunner.requirePassed(results)

        var fallback: FallbackLadder.Report?
        var warnings: [String] = []
        if let previous {
            // Without the candidate's probes: they describe the new behaviour, not the old.
            let report = FallbackLadder.replay([FallbackLadder.Candidate(slot: .previous, source: "the published module", bytes: .success(previous))],
                                               options: options, probes: [])
            if report.winner == nil {
                let reason = report.steps.first?.reason ?? "it did not activate"
                warnings.append("the module devices run today does not activate (\(reason)): a device on which the new module fails falls back to the bundled code")
            }
            fallback = report
        }
        return Report(layers: loaded.layers, modules: loaded.modules.count, probes: results, fallback: fallback, warnings: warnings)
    }
}
