import Foundation
import Testing

/// Issue 16's hostile modules, each through `patchcli run` and through `release`'s pre-publish proof:
/// every one ends with its documented exit code and error kind within the limits, and the refused
/// release publishes nothing. The modules are WAT, compiled with wabt's `wat2wasm` at test time.
@Suite(.enabled(if: HostileModule.wat2wasm != nil || HostileModule.isContinuousIntegration,
                "needs wabt's wat2wasm (apt-get install wabt; required under CI=true)"))
struct HostileModuleTests {
    @Test(arguments: HostileModule.all)
    func runAndReleaseEndWithTheDocumentedExitCode(_ hostile: HostileModule) throws {
        try withScratchDirectory { directory in
            try hostile.write(to: directory.appendingPathComponent("hostile.wasm"))
            let call = hostile.export.map { [$0] } ?? []
            let run = try CLI.run(["run", "hostile.wasm"] + call + hostile.limits + ["--json"], in: directory)
            #expect(run.status == hostile.runStatus, "\(run.stdout)\(run.stderr)")
            #expect(run.error?["kind"] as? String == hostile.runKind, "\(run.stdout)")
            #expect(run.error?["exit_code"] as? Int == Int(hostile.runStatus))

            try ReleaseCommandTests.prepare(directory)
            var proof = hostile.limits
            if let export = hostile.export {
                try Data(#"{"probes": [{"name": "hostile", "export": "\#(export)"}]}"#.utf8)
                    .write(to: directory.appendingPathComponent("probes.json"))
                proof += ["--probes", "probes.json"]
            }
            let release = try ReleaseCommandTests.publish("hostile.wasm", in: directory, extra: proof)
            #expect(release.status == 44, "\(release.stdout)\(release.stderr)")
            #expect(release.error?["kind"] as? String == "module_rejected", "\(release.stdout)")
            // The one-line message says the module was rejected; `detail` lists the violations.
            let message = release.errorText
            #expect(message.contains(hostile.proofNames), "\(message)")
            let listed = try CLI.run(["release", "list", "--store", "store", "--json"], in: directory)
            #expect((listed.result?["channels"] as? [Any])?.count == 0, "\(listed.stdout)")
        }
    }
}

struct HostileModule: Sendable, CustomTestStringConvertible {
    var name: String
    var wat: String
    /// The export to call (and the probe release runs); nil when activation alone must fail.
    var export: String?
    /// Limits given to both `run` and `release`, so the runaway ones end quickly.
    var limits: [String] = []
    var runStatus: Int32
    var runKind: String
    /// What release's refusal message must name.
    var proofNames: String

    var testDescription: String { name }

    static let all: [HostileModule] = [
        HostileModule(
            name: "infinite loop",
            wat: #"(module (memory (export "memory") 1) (func (export "spin") (result i32) (loop $l (br $l)) (i32.const 0)))"#,
            export: "spin", limits: ["--fuel", "1000000"], runStatus: 22, runKind: "fuel_exhausted", proofNames: "fuel_exhausted in spin"),
        HostileModule(
            name: "memory.grow loop",
            wat: #"""
                (module (memory (export "memory") 1)
                  (func (export "bomb") (result i32)
                    (loop $l (br_if $l (i32.ne (memory.grow (i32.const 16)) (i32.const -1)))) (i32.const 0)))
                """#,
            export: "bomb", limits: ["--max-memory-pages", "32"], runStatus: 24, runKind: "memory_limit",
            proofNames: "memory_limit in bomb"),
        // The 76-byte module of issue 16, which reached 4.3 GB before tables had a cap.
        HostileModule(
            name: "table.grow loop",
            wat: #"""
                (module (memory (export "memory") 1) (table $t 1 funcref)
                  (func (export "grow") (result i32)
                    (loop $l (br_if $l (i32.ne (table.grow $t (ref.null func) (i32.const 50000000)) (i32.const -1))))
                    (table.size $t)))
                """#,
            export: "grow", runStatus: 24, runKind: "table_limit", proofNames: "table_limit in grow"),
        HostileModule(
            name: "deep recursion",
            wat: #"(module (memory (export "memory") 1) (func $down (export "down") (result i32) (call $down)))"#,
            export: "down", runStatus: 25, runKind: "stack_exhausted", proofNames: "stack_exhausted in down"),
        HostileModule(
            name: "huge declared memory", wat: #"(module (memory (export "memory") 65536))"#,
            runStatus: 24, runKind: "memory_limit", proofNames: "initial memory of 65536 pages, over the --max-memory-pages limit of 4096"),
        HostileModule(
            name: "huge declared table", wat: #"(module (memory (export "memory") 1) (table 50000000 funcref))"#,
            runStatus: 24, runKind: "table_limit", proofNames: "table 0 with 50000000 initial elements, over the --max-table-elements limit"),
        HostileModule(
            name: "huge data segment",
            wat: #"(module (memory (export "memory") 1) (data (i32.const 0) "\#(String(repeating: "x", count: 70_000))"))"#,
            runStatus: 21, runKind: "trap_memory_out_of_bounds", proofNames: "memory_out_of_bounds in (instantiation)"),
        HostileModule(
            name: "bad import", wat: #"(module (import "env" "helper" (func)) (memory (export "memory") 1))"#,
            runStatus: 26, runKind: "missing_import", proofNames: "unserved_import: env.helper"),
        HostileModule(
            name: "trap in start", wat: #"(module (memory (export "memory") 1) (func $setup unreachable) (start $setup))"#,
            runStatus: 21, runKind: "trap_unreachable", proofNames: "unreachable in (start)"),
        HostileModule(
            name: "trap in _initialize", wat: #"(module (memory (export "memory") 1) (func (export "_initialize") unreachable))"#,
            runStatus: 21, runKind: "trap_unreachable", proofNames: "unreachable in _initialize"),
    ]

    static var isContinuousIntegration: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    static let wat2wasm: URL? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("wat2wasm")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// Compiles the WAT to `url` with wat2wasm.
    func write(to url: URL) throws {
        guard let wat2wasm = Self.wat2wasm else {
            throw CompileFailure(description: "wat2wasm (wabt) is not on PATH: apt-get install wabt or brew install wabt")
        }
        let source = url.deletingPathExtension().appendingPathExtension("wat")
        try Data(wat.utf8).write(to: source)
        let result = try CLI.run([source.path, "-o", url.path], executable: wat2wasm)
        guard result.status == 0 else { throw CompileFailure(description: "wat2wasm failed on \(name): \(result.stderr)") }
    }

    struct CompileFailure: Error, CustomStringConvertible {
        let description: String
    }
}
