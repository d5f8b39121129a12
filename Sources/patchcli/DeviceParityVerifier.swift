import PatchRuntime
import PatchStore

/// The module check of `release` and `verify`: the store's structural checks, then PatchRuntime's
/// device-parity run (activation as on a device, the smoke probes, the fallback rung).
struct DeviceParityVerifier: ModuleVerifier {
    var probes: [SmokeProbe] = []
    /// The module devices run today, replayed as the `previous` rung of the fallback ladder.
    var previous: [UInt8]?
    /// The caps of the proof: `run`'s flags and defaults (`RuntimeLimitOptions`).
    var limits = RuntimeLimits()
    /// Called once the module is proven, when publishing moves on (`release`'s progress).
    var proven: @Sendable () -> Void = {}

    /// Fixed seeds: a probe that reads the clock or random bytes gives the same answer on every run.
    var options: RuntimeOptions { .reproducible(limits: limits) }

    var name: String { "device-parity" }

    func verify(artifact: [UInt8]) throws(StoreError) -> ModuleCheckReport {
        let structure = try StructuralModuleVerifier().verify(artifact: artifact)
        let proof: PublishProof.Report
        do {
            proof = try PublishProof.prove(artifact, probes: probes, previous: previous, options: options)
        } catch {
            throw .moduleRejected(verifier: name, detail: error.description)
        }
        var checks = structure.checks + ["device parity (one memory, SDK features, served imports)", "every function validated",
                                         "instantiated, _initialize ran"]
        checks += proof.probes.map { "probe \($0.name): \($0.detail)" }
        if proof.fallback?.winner != nil { checks.append("fallback rung (the module devices run today) activates") }
        proven()
        return ModuleCheckReport(verifier: name, layout: structure.layout, modules: structure.modules, checks: checks, warnings: proof.warnings)
    }
}
