/// Replays the SDK's activation ladder (sdk-contract §7.6 `activateBest`): current → previous →
/// bundled, the first that activates (and passes the probes, when given) wins.
public enum FallbackLadder {
    public enum Slot: String, Sendable, Codable { case current, previous, bundled }

    /// One rung as the device would hold it: the artifact bytes, or why there are none.
    public struct Candidate: Sendable {
        public var slot: Slot
        public var source: String
        public var bytes: Result<[UInt8], RuntimeError>
        public var expectedSHA256: String?

        public init(slot: Slot, source: String, bytes: Result<[UInt8], RuntimeError>, expectedSHA256: String? = nil) {
            self.slot = slot
            self.source = source
            self.bytes = bytes
            self.expectedSHA256 = expectedSHA256
        }
    }

    public struct Step: Sendable, Codable, Equatable {
        public var slot: Slot
        public var source: String
        /// "activated", "failed" or "not_tried" (a rung after the winner).
        public var outcome: String
        public var reason: String
        /// What the SDK does to its storage as a consequence of this step.
        public var storageEffect: String?
    }

    public struct Report: Sendable, Codable, Equatable {
        public var winner: Slot?
        public var steps: [Step]
    }

    public static func replay(_ candidates: [Candidate], options: RuntimeOptions, probes: [SmokeProbe]) -> Report {
        var steps: [Step] = []
        var winner: Slot?
        for candidate in candidates {
            if winner != nil {
                steps.append(Step(slot: candidate.slot, source: candidate.source, outcome: "not_tried",
                                  reason: "an earlier rung activated", storageEffect: nil))
                continue
            }
            let failure = attempt(candidate, options: options, probes: probes)
            if let failure {
                steps.append(Step(slot: candidate.slot, source: candidate.source, outcome: "failed", reason: failure,
                                  storageEffect: candidate.slot == .current ? "the current module is cleared from disk" : nil))
            } else {
                winner = candidate.slot
                let effect: String? = switch candidate.slot {
                case .current: nil
                case .previous: "previous is promoted to current"
                case .bundled: "storage is untouched (bundled bytes live in memory only)"
                }
                steps.append(Step(slot: candidate.slot, source: candidate.source, outcome: "activated",
                                  reason: probes.isEmpty ? "parsed, linked, initialized, exports memory" : "activated and passed \(probes.count) probe(s)",
                                  storageEffect: effect))
            }
        }
        return Report(winner: winner, steps: steps)
    }

    /// Nil when the rung activates, else why it did not.
    private static func attempt(_ candidate: Candidate, options: RuntimeOptions, probes: [SmokeProbe]) -> String? {
        do {
            let bytes = try candidate.bytes.get()
            let artifact = try ArtifactLoader.load(bytes, expectedSHA256: candidate.expectedSHA256, hashSource: "\(candidate.source) manifest")
            let failedProbes = try SmokeRunner.run(probes, activating: artifact, options: options).filter { !$0.passed }
            guard failedProbes.isEmpty else {
                return "probe failed: " + failedProbes.map { "\($0.name): \($0.detail)" }.joined(separator: "; ")
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
