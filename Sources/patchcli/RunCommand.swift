import ArgumentParser
import Foundation
import PatchManifest
import PatchRuntime

/// `patchcli run`: executes a Patch module the way a device would (WasmKit 0.4.2, the SDK's calling
/// ABI, stand-ins for its host bridges) under CI-safe limits. Exit codes 20-29, 37 and 38 are in docs/cli.md.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a Patch module (raw .wasm, PMOD, POVR) with device parity, under limits.",
        discussion: """
            patchcli run MODULE EXPORT [ARG...]    call an export (arguments typed from its signature)
            patchcli run MODULE EXPORT --input TEXT
                                                   write TEXT into guest memory as the export's (ptr, len):
                                                   (i32,i32)->i64 returns packed bytes (printed decoded),
                                                   (i32,i32)->i32 a value (printed as is)
            patchcli run MODULE patch_start_… --input JSON [--fixtures F] [--trace]
                                                   drive an async function's kickoff with the async pump
                                                   (sdk-contract §4), as Patch.callPackedAsync does
            patchcli run MODULE                    activate only: parity checks, instantiate, _initialize
            patchcli run MODULE --smoke            run the probes of MODULE's manifest.json (or --probes)
            patchcli run --fallback CURRENT [PREVIOUS] [BUNDLED]
                                                   replay the SDK's activation ladder
            patchcli run MODULE --view NAME [--inputs JSON] [--event ID[=VALUE]]...
                                                   render a SwiftUI view, apply events
            patchcli run ARTIFACT --overlay        print the resource overlay (colors, strings, images)
            patchcli run ARTIFACT --lookup-string KEY [--locale pt-BR] [--table T]
            patchcli run ARTIFACT --lookup-color NAME [--dark]
                                                   resolve as the SDK does (docs/assets.md)
            A manifest.json next to MODULE supplies the expected sha256 and the probes.
            """)

    @Argument(help: "The artifact: raw .wasm, PMOD container or POVR envelope (detected by magic).")
    var module: String?

    @Argument(help: "The export to call.")
    var export: String?

    @Argument(help: "Arguments typed from the export's wasm signature (put negative numbers after --).")
    var arguments: [String] = []

    @Option(help: "Expected SHA-256 of the artifact, checked before parsing (default: manifest.json's).")
    var sha256: String?

    @Option(help: "Input bytes for an export taking (ptr, len): text/JSON as given, or @FILE.")
    var input: String?

    @Option(help: "How --input is sent: raw, or msgpack (JSON input re-encoded as the SDK's MessagePack).")
    var encode: InputEncoding = .raw

    @Option(help: "How a packed result is shown: auto, text, json, msgpack, hex.")
    var decode: OutputDecoding = .auto

    @OptionGroup var limits: RuntimeLimitOptions

    @Option(help: "Make WASI clocks and random_get, and the patch.secure_random_bytes bridge, deterministic with this seed.")
    var seed: UInt64?

    @Option(help: "Device platform whose bridge set is served: ios or macos.")
    var platform: String = PlatformProfile.iOS.rawValue

    @Option(help: "JSON file of canned HTTP answers for the network bridges.")
    var fixtures: String?

    @Flag(help: "With an async function's kickoff (patch_start_…): print each suspension the host answered, in order.")
    var trace = false

    @Flag(help: "Send requests no --fixtures entry answers to the real network (http and https only).")
    var allowNetwork = false

    @Flag(help: "Let imports the device does not serve link to functions that trap when called.")
    var allowMissingImports = false

    @Flag(help: "Skip the device-parity checks (debugging only: the device would still refuse the module).")
    var noParity = false

    @Flag(help: "Run smoke probes (from manifest.json next to MODULE, or --probes).")
    var smoke = false

    @Option(help: "Probe file (same format as manifest.json).")
    var probes: String?

    @Option(help: "Write the smoke results as JUnit XML to this file.")
    var junit: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Call the export this many times in one activation and report the mean time per call (benchmarks). With --view: "
            + "render the view, and dispatch the first --event, this many times more and report the mean times."))
    var repeatCount: Int = 1

    @Option(parsing: .upToNextOption, help: "Replay the activation ladder: CURRENT [PREVIOUS] [BUNDLED].")
    var fallback: [String] = []

    @Option(help: ArgumentHelp("Render this view of MODULE's patch_view_manifest (its type name) and print the IR tree.",
                               valueName: "NAME"))
    var view: String?

    @Option(help: ArgumentHelp("The view's properties for --view: a JSON object (the host's flat inputs), or @FILE.",
                               valueName: "JSON"))
    var inputs: String?

    @Option(name: .customLong("event"), help: ArgumentHelp(
        "With --view: dispatch event ID (with VALUE for controls), then re-render. Repeatable, applied in order.",
        valueName: "ID[=VALUE]"))
    var events: [String] = []

    @Flag(help: "Print the artifact's resource overlay (POVR's PROV chunk): colors, strings per locale and table, images.")
    var overlay = false

    @Option(name: .customLong("lookup-string"), help: ArgumentHelp("Resolve a localized string in the overlay as the SDK does (--locale, --table).", valueName: "KEY"))
    var lookupString: String?

    @Option(help: "With --lookup-string: the device's preferred locale (pt-BR tries pt-BR, pt, then the base); default: the base.")
    var locale: String = ""

    @Option(help: "With --lookup-string: the strings table the app asks for (default: none, which any override matches).")
    var table: String?

    @Option(name: .customLong("lookup-color"), help: ArgumentHelp("Resolve a color in the overlay as the SDK does (--dark for dark mode).", valueName: "NAME"))
    var lookupColor: String?

    @Flag(help: "With --lookup-color: the dark appearance.")
    var dark = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let console = Console(output)
        if overlay || lookupString != nil || lookupColor != nil {
            try await console.perform("run") { try runOverlay(console) }
        } else if !fallback.isEmpty {
            try await console.perform("run") { try runFallback(console) }
        } else if view != nil || inputs != nil || !events.isEmpty {
            try await console.perform("run") { try runView(console) }
        } else if smoke || probes != nil || junit != nil {
            try await console.perform("run") { try runSmoke(console) }
        } else {
            try await console.perform("run") { try runCall(console) }
        }
    }

    // MARK: Modes

    struct CallSummary: Encodable {
        var module: String
        var layers: [String]
        var sha256: String
        var export: String?
        var moduleIndex: Int?
        var abi: String?
        var signature: String?
        var values: [TypedValue]?
        var outputEncoding: String?
        /// The decoded output as text (JSON text for JSON/MessagePack results), so guest keys are
        /// never rewritten by the envelope's key strategy.
        var output: String?
        var outputBytes: Int?
        var exports: [String]?
        var fuelUsed: UInt64?
        var timeMs: Double
        /// Activation (load, validate, instantiate, `_initialize`) alone.
        var activationMs: Double
        /// Mean wall time of one call (over --repeat calls).
        var callMeanUs: Double?
        var calls: Int?
        /// The host bridges the call(s) used, in order (`patch_host.defaults_set_int(launches, 3)`): what
        /// a function returning nothing did (absent when none).
        var bridgeCalls: [String]?
        /// An async kickoff: the pump's rounds and jobs, and (with --trace) each suspension the host answered.
        var pumpRounds: Int?
        var jobsRun: Int64?
        var trace: [String]?
        var memoryHighWaterBytes: Int
        var memoryHighWaterPages: Int
    }

    private func runCall(_ console: Console) throws -> CallSummary {
        guard let module else { throw usage("give MODULE (and an EXPORT to call), or --fallback CURRENT [PREVIOUS] [BUNDLED]") }
        let (artifact, _) = try loadArtifact(module)
        let options = try runtimeOptions()
        let request: CallRequest? = try export.map { name in
            CallRequest(export: name, arguments: arguments, input: try inputBytes(), encoding: encode, decoding: decode)
        }
        if export == nil && input != nil { throw usage("--input needs an EXPORT to call") }
        // The input is the export's whole argument (its packed bytes or its (ptr, len) buffer).
        if input != nil && !arguments.isEmpty { throw usage("--input and wasm arguments cannot be combined: --input is the export's whole input") }
        guard (1...10_000_000).contains(repeatCount) else { throw usage("--repeat must be 1…10000000") }
        let started = ContinuousClock.now
        let (result, exports, highWater, activation, calling, bridgeCalls, pumped) = try RuntimeSession.withSession(artifact: artifact, options: options) {
            session throws(RuntimeError) in
            let activated = ContinuousClock.now
            var result: CallResult?
            var pumped: AsyncPumpReport?
            if let request {
                // An async function's kickoff runs under the pump (docs/async.md), as callPackedAsync does.
                var isAsync = false
                if arguments.isEmpty { isAsync = try session.isAsyncKickoff(request.export) }
                for number in 1...repeatCount {
                    if isAsync {
                        let call = try session.callAsync(request, resultExport: PatchNames.asyncResultExport)
                        (result, pumped) = (CallResult(outcome: call.outcome, decoded: call.decoded), call.report)
                    } else {
                        // Only the last call's output is shown: decoding every one timed the display.
                        result = try session.perform(request, decodesOutput: number == repeatCount)
                    }
                }
            }
            return (result, session.exportedFunctions, session.memoryHighWaterBytes, activated - started, ContinuousClock.now - activated,
                    session.bridgeState.calls.map(\.description), pumped)
        }
        if trace && pumped == nil { throw usage("--trace shows an async function's suspensions: call its kickoff (patch_start_…) with --input") }
        let elapsed = ContinuousClock.now - started
        var summary = CallSummary(
            module: module, layers: artifact.layers, sha256: artifact.sha256, timeMs: Self.milliseconds(elapsed),
            activationMs: Self.milliseconds(activation),
            memoryHighWaterBytes: highWater, memoryHighWaterPages: highWater / 65536)
        if let result {
            summary.calls = repeatCount
            summary.callMeanUs = (Self.milliseconds(calling) * 1000 / Double(repeatCount)).rounded(toPlaces: 3)
            summary.export = result.outcome.export
            summary.moduleIndex = result.outcome.moduleIndex
            summary.abi = result.outcome.abi.rawValue
            summary.signature = result.outcome.signature
            summary.fuelUsed = result.outcome.fuelUsed
            if !bridgeCalls.isEmpty { summary.bridgeCalls = bridgeCalls }
            if let pumped {
                summary.pumpRounds = pumped.rounds
                summary.jobsRun = pumped.jobsRun
                if trace {
                    summary.trace = pumped.trace
                    pumped.trace.forEach { console.line($0) }
                    console.line("done after \(pumped.rounds) round(s), \(pumped.jobsRun) job(s)")
                }
            }
            if let decoded = result.decoded {
                summary.outputEncoding = decoded.encoding
                summary.output = decoded.rendered
                summary.outputBytes = result.outcome.output?.count
                console.line(decoded.rendered)
            } else {
                summary.values = result.outcome.values
                result.outcome.values.forEach { console.line($0.value) }
            }
        } else {
            summary.exports = exports
            console.line("activated \(module) (\(artifact.layers.joined(separator: " > ")), \(artifact.modules.count) module(s)); exports: \(exports.joined(separator: ", "))")
        }
        return summary
    }

    struct SmokeSummary: Encodable {
        var module: String
        var sha256: String
        var passed: Int
        var failed: Int
        var probes: [ProbeResult]
    }

    private func runSmoke(_ console: Console) throws -> SmokeSummary {
        guard let module else { throw usage("--smoke needs MODULE") }
        guard export == nil else { throw usage("--smoke runs the manifest's probes; drop EXPORT or run without --smoke") }
        let (artifact, manifest) = try loadArtifact(module)
        let probeList: [SmokeProbe]
        if let probes {
            probeList = try RunManifest.parse(try FileAccess.read(probes), source: probes).probes
        } else {
            guard let manifest else {
                throw RuntimeError.invalidProbes(source: Self.manifestPath(for: module), detail: "no manifest.json next to the module; give --probes FILE")
            }
            probeList = manifest.probes
        }
        // No probes is success (a build whose functions state none), but the module must still activate.
        let results = try SmokeRunner.run(probeList, activating: artifact, options: try runtimeOptions())
        if let junit {
            try FileAccess.writeAtomically(Array(SmokeRunner.junitXML(results, suite: URL(fileURLWithPath: module).lastPathComponent).utf8), to: junit)
        }
        for result in results { console.line("\(result.passed ? "PASS" : "FAIL")  \(result.name)  \(result.detail)") }
        if results.isEmpty { console.line("no probes; the module activates") }
        try SmokeRunner.requirePassed(results)
        return SmokeSummary(module: module, sha256: artifact.sha256, passed: results.count, failed: 0, probes: results)
    }

    struct ViewSummary: Encodable {
        var module: String
        var sha256: String
        var manifestSchemaVersion: Int
        var entry: ViewManifestEntry
        var events: [AppliedViewEvent]
        /// The flat inputs JSON of the last render.
        var input: String
        /// The last render's root ViewNode as JSON text, so the guest's keys are never rewritten by
        /// the envelope's key strategy.
        var tree: String
        var schemaVersion: Int?
        var coverage: String?
        var nodes: Int
        var modifiers: Int
        /// Event ids the last tree can dispatch.
        var dispatchable: [String]
        /// `.opaque` ids and host-token ids the app's thunk must supply.
        var slots: [String]
        var tokens: [String]
        var outline: String
        /// With --repeat N > 1: mean render and dispatch times.
        var timing: ViewTiming?
    }

    private func runView(_ console: Console) throws -> ViewSummary {
        guard let view else { throw usage("--inputs and --event need --view NAME") }
        guard let module else { throw usage("--view needs MODULE") }
        guard export == nil, arguments.isEmpty, input == nil else { throw usage("--view calls the view's own exports; drop EXPORT and --input") }
        guard !smoke, probes == nil, junit == nil else { throw usage("--view and --smoke are separate modes") }
        guard (1...10_000_000).contains(repeatCount) else { throw usage("--repeat must be 1…10000000") }
        let (artifact, _) = try loadArtifact(module)
        let properties = try viewInputs()
        let requests = events.map(ViewEventRequest.init(parsing:))
        let options = try runtimeOptions()
        let (run, timing) = try RuntimeSession.withSession(artifact: artifact, options: options) { session throws(RuntimeError) in
            let run = try session.runView(view, inputs: properties, events: requests)
            guard repeatCount > 1 else { return (run, nil as ViewTiming?) }
            return (run, try session.timeView(view, inputs: properties, event: requests.first, count: repeatCount))
        }
        let tree = run.render.tree
        let outline = ViewOutline.render(tree.root)
        for event in run.events {
            console.line("event \(event.id)\(event.source.map { " (\($0))" } ?? ""): \(event.value) -> state \(event.state)")
        }
        console.line(outline)
        if !tree.slots.isEmpty { console.line("needs slots: \(tree.slots.joined(separator: ", "))") }
        if !tree.tokens.isEmpty { console.line("needs tokens: \(tree.tokens.joined(separator: ", "))") }
        if let timing {
            console.line("render: \(timing.renderMeanUs.rounded(toPlaces: 3)) µs mean of \(timing.calls)"
                + (timing.dispatchMeanUs.map { "; dispatch \(requests[0].id): \($0.rounded(toPlaces: 3)) µs mean" } ?? ""))
        }
        return ViewSummary(
            module: module, sha256: artifact.sha256, manifestSchemaVersion: run.manifestSchemaVersion, entry: run.entry,
            events: run.events, input: run.render.input, tree: tree.root.renderJSON(pretty: false),
            schemaVersion: run.render.schemaVersion, coverage: run.render.coverage.map { $0.renderJSON(pretty: false) },
            nodes: tree.nodeCount, modifiers: tree.modifierCount,
            dispatchable: run.dispatchable,
            slots: tree.slots, tokens: tree.tokens, outline: outline, timing: timing)
    }

    private func runFallback(_ console: Console) throws -> FallbackLadder.Report {
        guard module == nil else { throw usage("--fallback takes the rung paths itself; drop MODULE") }
        guard fallback.count <= 3 else { throw usage("--fallback takes at most 3 paths: CURRENT [PREVIOUS] [BUNDLED]") }
        let slots: [FallbackLadder.Slot] = [.current, .previous, .bundled]
        let candidates = zip(slots, fallback).map { slot, path -> FallbackLadder.Candidate in
            let bytes: Result<[UInt8], RuntimeError>
            do {
                bytes = .success(try FileAccess.read(path))
            } catch {
                bytes = .failure(.invalidManifest(path: path, detail: "\(error)"))
            }
            let manifest = try? Self.siblingManifest(of: path)
            return FallbackLadder.Candidate(slot: slot, source: path, bytes: bytes, expectedSHA256: manifest?.sha256)
        }
        let probeList = try probes.map { try RunManifest.parse(try FileAccess.read($0), source: $0).probes } ?? []
        let report = FallbackLadder.replay(candidates, options: try runtimeOptions(), probes: probeList)
        for step in report.steps {
            console.line("\(step.slot.rawValue): \(step.outcome) — \(step.reason)\(step.storageEffect.map { " (\($0))" } ?? "")")
        }
        guard let winner = report.winner else { throw RuntimeError.noRungActivated(attempted: candidates.count) }
        console.line("winner: \(winner.rawValue)")
        return report
    }

    // MARK: Inputs

    func loadArtifact(_ path: String) throws -> (LoadedArtifact, RunManifest?) {
        let bytes = try FileAccess.read(path)
        let manifest = try Self.siblingManifest(of: path)
        let expected = sha256 ?? manifest?.sha256
        let source = sha256 != nil ? "--sha256" : Self.manifestPath(for: path)
        return (try ArtifactLoader.load(bytes, expectedSHA256: expected, hashSource: source), manifest)
    }

    static func manifestPath(for module: String) -> String {
        URL(fileURLWithPath: module).deletingLastPathComponent().appendingPathComponent("manifest.json").path
    }

    /// The `manifest.json` next to a module, if there is one.
    static func siblingManifest(of module: String) throws -> RunManifest? {
        let path = manifestPath(for: module)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try RunManifest.parse(try FileAccess.read(path), source: path)
    }

    /// `--inputs` as JSON (an empty object when not given).
    private func viewInputs() throws -> MessagePackValue {
        guard let inputs else { return .map([]) }
        let text = try Self.bytes(ofTextOrFile: inputs)
        do throws(JSONSyntaxError) {
            return try MessagePackValue.readJSON(text)
        } catch {
            throw RuntimeError.view(.invalidInputs(detail: "not valid JSON at \(error)"))
        }
    }

    private func inputBytes() throws -> [UInt8]? {
        try input.map(Self.bytes(ofTextOrFile:))
    }

    /// An option value given inline, or as `@FILE` for the file's bytes.
    private static func bytes(ofTextOrFile value: String) throws -> [UInt8] {
        value.hasPrefix("@") ? try FileAccess.read(String(value.dropFirst())) : Array(value.utf8)
    }

    private func runtimeOptions() throws -> RuntimeOptions {
        guard let profile = PlatformProfile(rawValue: platform) else {
            throw usage("--platform must be one of \(PlatformProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var bridges = HostBridgeConfiguration(platform: profile, allowNetwork: allowNetwork, allowMissingImports: allowMissingImports)
        if let seed { bridges.randomSeed = seed }
        if let fixtures {
            do {
                bridges.fixtures = try NetworkFixtures.parse(Data(try FileAccess.read(fixtures)), source: fixtures)
            } catch let error as NetworkFixturesError {
                throw CommandFailure(kind: "malformed_input", message: "\(error)", exitStatus: .malformedInput,
                                     hint: "fix the --fixtures file where the message says (its format: docs/cli.md, `run`)")
            }
        }
        return RuntimeOptions(limits: try limits.limits(), enforceParity: !noParity, seed: seed, bridges: bridges)
    }

    func usage(_ message: String) -> CommandFailure {
        CommandFailure(kind: "usage", message: message, exitStatus: .usage, hint: "run `patchcli run --help`")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        (duration.inSeconds * 1000).rounded(toPlaces: 3)
    }
}

extension InputEncoding: ExpressibleByArgument {}
extension OutputDecoding: ExpressibleByArgument {}
