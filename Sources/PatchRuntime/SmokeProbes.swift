import Foundation

/// One smoke probe: call an export and compare the result (sdk-contract §7.6 "probe").
public struct SmokeProbe: Sendable, Equatable {
    public var name: String
    public var request: CallRequest
    /// The decoded packed output, or for scalar exports the result value(s); nil = only "does not fail".
    public var expected: MessagePackValue?
    /// The trap kind the call must end with instead of returning (e.g. "unreachable").
    public var expectedTrap: String?
}

/// The `manifest.json` that may sit next to a module: its SHA-256 and its smoke probes.
///
///     {"sha256": "<64 hex>",
///      "probes": [{"name": "greets", "export": "greet", "input": "Ann", "expected": "Hello, Ann"},
///                 {"export": "add", "args": ["2", "3"], "expected": 5},
///                 {"export": "encode", "input": {"a": 1}, "encode": "msgpack", "decode": "msgpack", "expected": {"a": 1}},
///                 {"export": "boom", "expect_trap": "unreachable"}]}
///
/// `input` is sent as its text when it is a JSON string and as compact JSON otherwise.
public struct RunManifest: Sendable {
    public var sha256: String?
    public var probes: [SmokeProbe]
    /// The fingerprint of the native build the module patches (`baselineFingerprint`, written by
    /// `patchcli build`): what `release` publishes it for.
    public var baselineFingerprint: String?

    public static func parse(_ bytes: [UInt8], source: String) throws(RuntimeError) -> RunManifest {
        guard case let .object(root)? = BridgeJSON.parse(bytes) else {
            throw .invalidManifest(path: source, detail: "not a JSON object")
        }
        var sha256: String?
        if let value = root["sha256"] {
            guard case let .string(text) = value else { throw .invalidManifest(path: source, detail: "\"sha256\" must be a string") }
            sha256 = text
        }
        var baselineFingerprint: String?
        if let value = root["baselineFingerprint"] {
            guard case let .string(text) = value else { throw .invalidManifest(path: source, detail: "\"baselineFingerprint\" must be a string") }
            baselineFingerprint = text
        }
        var probes: [SmokeProbe] = []
        if let value = root["probes"] {
            guard case let .array(entries) = value else { throw .invalidProbes(source: source, detail: "\"probes\" must be an array") }
            for (index, entry) in entries.enumerated() {
                probes.append(try probe(entry, index: index, source: source))
            }
        }
        return RunManifest(sha256: sha256, probes: probes, baselineFingerprint: baselineFingerprint)
    }

    private static let probeKeys: Set<String> = ["name", "export", "input", "args", "expected", "encode", "decode", "expect_trap"]

    private static func probe(_ entry: BridgeJSON, index: Int, source: String) throws(RuntimeError) -> SmokeProbe {
        let place = "probes[\(index)]"
        guard case let .object(fields) = entry else { throw .invalidProbes(source: source, detail: "\(place) must be an object") }
        if let unknown = Set(fields.keys).subtracting(probeKeys).sorted().first {
            throw .invalidProbes(source: source, detail: "\(place) has unknown field \"\(unknown)\" (allowed: \(probeKeys.sorted().joined(separator: ", ")))")
        }
        guard case let .string(export)? = fields["export"], !export.isEmpty else {
            throw .invalidProbes(source: source, detail: "\(place) needs an \"export\" string")
        }
        var request = CallRequest(export: export)
        if let input = fields["input"] {
            if case let .string(text) = input {
                request.input = Array(text.utf8)
            } else {
                request.input = Array(MessagePackValue(json: input).renderJSON(pretty: false).utf8)
            }
        }
        if let args = fields["args"] {
            guard case let .array(values) = args else { throw .invalidProbes(source: source, detail: "\(place).args must be an array") }
            for value in values {
                switch value {
                case let .string(text): request.arguments.append(text)
                case let .integer(number): request.arguments.append(String(number))
                case let .number(number): request.arguments.append(String(number))
                default: throw .invalidProbes(source: source, detail: "\(place).args holds a value that is neither a number nor a string")
                }
            }
        }
        if let encode = fields["encode"] {
            guard case let .string(text) = encode, let encoding = InputEncoding(rawValue: text) else {
                throw .invalidProbes(source: source, detail: "\(place).encode must be one of \(InputEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            request.encoding = encoding
        }
        if let decode = fields["decode"] {
            guard case let .string(text) = decode, let decoding = OutputDecoding(rawValue: text) else {
                throw .invalidProbes(source: source, detail: "\(place).decode must be one of \(OutputDecoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            request.decoding = decoding
        }
        var expectedTrap: String?
        if let trap = fields["expect_trap"] {
            guard case let .string(kind) = trap, TrapReport.Kind(rawValue: kind) != nil else {
                throw .invalidProbes(source: source, detail: "\(place).expect_trap must be one of \(TrapReport.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            expectedTrap = kind
        }
        var name = "\(index): \(export)"
        if case let .string(given)? = fields["name"] { name = given }
        return SmokeProbe(name: name, request: request, expected: fields["expected"].map(MessagePackValue.init(json:)),
                          expectedTrap: expectedTrap)
    }
}

/// The verdict on one probe.
public struct ProbeResult: Sendable, Codable, Equatable {
    public var name: String
    public var export: String
    public var passed: Bool
    /// Why it failed, or what it returned when it passed.
    public var detail: String
    public var fuelUsed: UInt64?
}

public enum SmokeRunner {
    /// Activates `artifact` and runs every probe in that one activation (`run(_:in:)`).
    public static func run(_ probes: [SmokeProbe], activating artifact: LoadedArtifact, options: RuntimeOptions) throws(RuntimeError) -> [ProbeResult] {
        try RuntimeSession.withSession(artifact: artifact, options: options) { session in run(probes, in: session) }
    }

    /// Throws `smokeFailed` naming every failed probe, if any failed.
    public static func requirePassed(_ results: [ProbeResult]) throws(RuntimeError) {
        let failed = results.filter { !$0.passed }
        guard failed.isEmpty else { throw .smokeFailed(failed: failed.count, total: results.count, failures: failed) }
    }

    /// Runs every probe against one activated session, in order (state carries over, as on a device).
    public static func run(_ probes: [SmokeProbe], in session: RuntimeSession) -> [ProbeResult] {
        probes.map { probe in
            do {
                let result = try session.perform(probe.request)
                return verdict(probe, result)
            } catch let RuntimeError.trapped(report) where probe.expectedTrap != nil {
                let passed = report.kind.rawValue == probe.expectedTrap
                return ProbeResult(name: probe.name, export: probe.request.export, passed: passed,
                                   detail: passed ? "trapped as expected: \(report.message)" : "expected a \(probe.expectedTrap ?? "") trap, got \(report.kind.rawValue): \(report.message)",
                                   fuelUsed: nil)
            } catch {
                return ProbeResult(name: probe.name, export: probe.request.export, passed: false, detail: "\(error)", fuelUsed: nil)
            }
        }
    }

    static func actualValue(_ result: CallResult) -> MessagePackValue {
        if let decoded = result.decoded { return decoded.value ?? .string(decoded.rendered) }
        let numbers = result.outcome.values.map { typed -> MessagePackValue in
            if let integer = Int64(typed.value) { return .int(integer) }
            return .double(Double(typed.value) ?? .nan)
        }
        return numbers.count == 1 ? numbers[0] : .array(numbers)
    }

    private static func verdict(_ probe: SmokeProbe, _ result: CallResult) -> ProbeResult {
        let actual = actualValue(result)
        let shown = actual.renderJSON(pretty: false)
        var passed = true
        var detail = "returned \(shown)"
        if let trap = probe.expectedTrap {
            passed = false
            detail = "expected a \(trap) trap, but it returned \(shown)"
        } else if let expected = probe.expected, expected != actual {
            passed = false
            detail = "expected \(expected.renderJSON(pretty: false)), got \(shown)"
        }
        return ProbeResult(name: probe.name, export: probe.request.export, passed: passed, detail: detail,
                           fuelUsed: result.outcome.fuelUsed)
    }

    /// JUnit XML of the results, one test case per probe, for CI dashboards.
    public static func junitXML(_ results: [ProbeResult], suite: String) -> String {
        let failures = results.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"\(escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for result in results {
            xml += "    <testcase classname=\"\(escape(suite))\" name=\"\(escape(result.name))\""
            if result.passed {
                xml += "/>\n"
            } else {
                xml += ">\n      <failure message=\"\(escape(result.detail))\">\(escape(result.detail))</failure>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            // XML 1.0 cannot carry most control characters at all, escaped or not.
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": output += "?"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
