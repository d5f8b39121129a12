import Foundation
import PatchRuntime
import WasmKit

// `PatchRunBench [--calls N] [--samples N] MODULE.wasm`: the in-process half of benchmarks/run.
//
// Times bare WasmKit and PatchRuntime side by side in one process, the same way: each sample
// activates every runtime once (timed), then times `calls` scalar calls `add(1, 2)` and `calls`
// 1 KB round trips through `echo` on that instance. The runtimes take turns within a sample, starting
// with a different one each time, so drift in the shared machine's load hits all of them alike.
// Prints one JSON object; benchmarks/run/bench.py runs it, adds the out-of-process peers and
// writes the tables.

/// A failure of the benchmark itself, with what to do about it.
enum BenchFailure: Error, CustomStringConvertible {
    case usage(String)
    case unreadableModule(path: String, detail: String)
    case missingExport(String)
    case unexpectedResult(runtime: String, export: String, detail: String)

    var description: String {
        switch self {
        case .usage(let detail):
            return "\(detail)\nusage: PatchRunBench [--calls N] [--samples N] MODULE.wasm (a module built from Tests/PatchRuntimeTests/Fixtures/guest.c)"
        case .unreadableModule(let path, let detail):
            return "cannot read the module \(path): \(detail)"
        case .missingExport(let name):
            return "the module exports no \(name); build it from Tests/PatchRuntimeTests/Fixtures/guest.c"
        case .unexpectedResult(let runtime, let export, let detail):
            return "\(runtime): \(export) returned \(detail), so its timings would not be of a working call"
        }
    }
}

/// One way of running the guest. `init` is the timed activation.
protocol Runtime: AnyObject {
    /// `add(1, 2)`, the result as the runtime reports it.
    func add() throws -> Int32
    /// `echo(payload)` through the packed ABI: patch_malloc, copy in, call, read, patch_free × 2.
    func echo(_ payload: [UInt8]) throws -> [UInt8]
    func close()
}

/// WasmKit with nothing of ours on top, on the engine configuration PatchRuntime uses (eager
/// translation) and parsed with the device's features (`RuntimeSession.deviceFeatures`): parse, instantiate, `_initialize`, and exports looked
/// up once, as a lean host would. With `reusedStack`, every call runs on one `ExecutionStack` (as
/// PatchRuntime's calls do) instead of the one `Function.invoke(_:)` allocates per call: the floor
/// for any host on this engine.
final class BareWasmKit: Runtime {
    private let runtimeName: String
    private var stack: ExecutionStack?
    private let store: Store
    private let addFunction: Function
    private let echoFunction: Function
    private let malloc: Function
    private let free: Function
    private let memory: Memory

    init(module bytes: [UInt8], reusedStack: Bool) throws {
        runtimeName = reusedStack ? "bare WasmKit, reused stack" : "bare WasmKit"
        store = Store(engine: Engine(configuration: RuntimeSession.engineConfiguration(limits: RuntimeLimits(fuel: nil))))
        let instance = try parseWasm(bytes: bytes, features: RuntimeSession.deviceFeatures)
            .instantiate(store: store, imports: Imports())
        if let initialize = instance.exports[function: "_initialize"] { try initialize.invoke([]) }
        func export(_ name: String) throws(BenchFailure) -> Function {
            guard let function = instance.exports[function: name] else { throw .missingExport(name) }
            return function
        }
        addFunction = try export("add")
        echoFunction = try export("echo")
        malloc = try export("patch_malloc")
        free = try export("patch_free")
        guard let memory = instance.exports[memory: "memory"] else { throw BenchFailure.missingExport("memory") }
        self.memory = memory
        if reusedStack { stack = ExecutionStack(engine: store.engine) }
    }

    private func invoke(_ function: Function, _ arguments: [Value]) throws -> [Value] {
        guard var reused = stack.take() else { return try function.invoke(arguments) }
        do {
            let results = try function.invoke(arguments, on: &reused)
            stack = consume reused
            return results
        } catch {
            stack = consume reused
            throw error
        }
    }

    func add() throws -> Int32 {
        guard case let .i32(sum)? = try invoke(addFunction, [.i32(1), .i32(2)]).first else {
            throw BenchFailure.unexpectedResult(runtime: runtimeName, export: "add", detail: "no i32")
        }
        return Int32(bitPattern: sum)
    }

    func echo(_ payload: [UInt8]) throws -> [UInt8] {
        guard case let .i32(input)? = try invoke(malloc, [.i32(UInt32(payload.count))]).first else {
            throw BenchFailure.unexpectedResult(runtime: runtimeName, export: "patch_malloc", detail: "no i32")
        }
        memory.withUnsafeMutableBufferPointer(offset: UInt(input), count: payload.count) { $0.copyBytes(from: payload) }
        guard case let .i64(packed)? = try invoke(echoFunction, [.i32(input), .i32(UInt32(payload.count))]).first else {
            throw BenchFailure.unexpectedResult(runtime: runtimeName, export: "echo", detail: "no i64")
        }
        let output = UInt32(truncatingIfNeeded: packed >> 32)
        let bytes = memory.withUnsafeBufferPointer(offset: UInt(output), count: Int(UInt32(truncatingIfNeeded: packed))) { Array($0) }
        _ = try invoke(free, [.i32(output)])
        _ = try invoke(free, [.i32(input)])
        return bytes
    }

    func close() {}
}

/// PatchRuntime's own path, as `patchcli run` and the smoke probes take it: `ArtifactLoader` (SHA-256,
/// container detection), `RuntimeSession` (parity scan, WASI and host bridges, memory cap), calls
/// through `callScalar` and the packed ABI's `callPacked`.
final class PatchRuntimeSession: Runtime {
    private let session: RuntimeSession

    init(module bytes: [UInt8], options: RuntimeOptions) throws {
        session = try RuntimeSession(artifact: try ArtifactLoader.load(bytes, expectedSHA256: nil), options: options)
    }

    func add() throws -> Int32 {
        let values = try session.callScalar("add", arguments: ["1", "2"]).values
        guard values.count == 1, let sum = Int32(values[0].value) else {
            throw BenchFailure.unexpectedResult(runtime: "PatchRuntime", export: "add", detail: "\(values)")
        }
        return sum
    }

    func echo(_ payload: [UInt8]) throws -> [UInt8] {
        try session.callPacked("echo", input: payload).output ?? []
    }

    func close() {
        session.close()
    }
}

struct Contender {
    /// The key bench.py reads.
    var key: String
    var activate: ([UInt8]) throws -> any Runtime
}

struct Timings: Encodable {
    var instantiateMs: [Double] = []
    var scalarUs: [Double] = []
    var roundtripUs: [Double] = []
}

struct Report: Encodable {
    var module: String
    var bytes: Int
    var calls: Int
    var samples: Int
    var payloadBytes: Int
    /// Per contender key, every sample (bench.py takes the medians).
    var runtimes: [String: Timings]
}

func parseArguments(_ arguments: [String]) throws(BenchFailure) -> (module: String, calls: Int, samples: Int) {
    var calls = 20_000, samples = 5, module: String?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--calls", "--samples":
            guard let text = rest.popFirst(), let value = Int(text), (1...10_000_000).contains(value) else {
                throw .usage("\(argument) needs a whole number from 1 to 10000000")
            }
            if argument == "--calls" { calls = value } else { samples = value }
        default:
            guard module == nil, !argument.hasPrefix("-") else { throw .usage("unexpected argument \(argument)") }
            module = argument
        }
    }
    guard let module else { throw .usage("give the MODULE to run") }
    return (module, calls, samples)
}

func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

func run() throws -> Report {
    let (path, calls, samples) = try parseArguments(Array(CommandLine.arguments.dropFirst()))
    let bytes: [UInt8]
    do {
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        throw BenchFailure.unreadableModule(path: path, detail: error.localizedDescription)
    }
    let contenders = [
        Contender(key: "bare_wasmkit") { try BareWasmKit(module: $0, reusedStack: false) },
        Contender(key: "bare_wasmkit_stack") { try BareWasmKit(module: $0, reusedStack: true) },
        // The device meters no fuel; this is the like-for-like row for the targets.
        Contender(key: "patchruntime") { try PatchRuntimeSession(module: $0, options: RuntimeOptions(limits: RuntimeLimits(fuel: nil))) },
        // `patchcli run`'s default: a fuel budget per call, so translated code counts every operator.
        Contender(key: "patchruntime_fuel") { try PatchRuntimeSession(module: $0, options: RuntimeOptions()) },
    ]
    let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 1024)
    // Untimed calls before each timed loop, so first-call effects (page faults, caches) stay out.
    let warmUp = min(calls, 500)
    let clock = ContinuousClock()
    var timings = [String: Timings]()
    for sample in 0..<samples {
        for turn in 0..<contenders.count {
            let contender = contenders[(sample + turn) % contenders.count]
            var timing = timings[contender.key, default: Timings()]
            let started = clock.now
            let runtime = try contender.activate(bytes)
            timing.instantiateMs.append(microseconds(clock.now - started) / 1000)
            defer { runtime.close() }

            for _ in 0..<warmUp { _ = try runtime.add() }
            let scalar = try clock.measure { for _ in 0..<calls { _ = try runtime.add() } }
            timing.scalarUs.append(microseconds(scalar) / Double(calls))
            for _ in 0..<warmUp { _ = try runtime.echo(payload) }
            let roundtrip = try clock.measure { for _ in 0..<calls { _ = try runtime.echo(payload) } }
            timing.roundtripUs.append(microseconds(roundtrip) / Double(calls))

            // Checked outside the timed loops: a fast wrong answer must not become a number.
            let sum = try runtime.add()
            guard sum == 3 else { throw BenchFailure.unexpectedResult(runtime: contender.key, export: "add", detail: "\(sum)") }
            let echoed = try runtime.echo(payload)
            guard echoed == payload else {
                throw BenchFailure.unexpectedResult(runtime: contender.key, export: "echo", detail: "\(echoed.count) byte(s) that differ from the input")
            }
            timings[contender.key] = timing
        }
    }
    return Report(module: path, bytes: bytes.count, calls: calls, samples: samples, payloadBytes: payload.count, runtimes: timings)
}

do {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(try run()) + Data("\n".utf8))
} catch {
    FileHandle.standardError.write(Data("PatchRunBench: \(error)\n".utf8))
    exit(1)
}
