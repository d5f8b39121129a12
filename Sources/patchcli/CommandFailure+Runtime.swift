import PatchRuntime

extension CommandFailure {
    /// `run`'s failures: the kind names what happened (a trap's kind for traps), the exit code its class.
    init(runtime error: RuntimeError) {
        let status: ExitStatus
        var kind: String
        let hint: String
        switch error.category {
        case .integrity:
            (status, kind) = (.verificationFailed, "hash_mismatch")
            hint = "the artifact is not the one --sha256 or manifest.json describes: rebuild it, or fix the expected hash"
        case .malformedInput:
            (status, kind) = (.malformedInput, "malformed_input")
            hint = "give a raw .wasm, PMOD or POVR artifact (as `patchcli build` writes), and well-formed manifest, probes and inputs"
        case .usage:
            (status, kind) = (.usage, "usage")
            hint = "`patchcli run --help` shows the usage"
        case .parity:
            (status, kind) = (.moduleRejected, "module_rejected")
            hint = "the device's WasmKit would refuse this module too; --no-parity runs it anyway for debugging"
        case .missingImport:
            (status, kind) = (.missingImport, "missing_import")
            hint = "devices serve only WASI Preview 1 and the patch/patch_host bridges; --allow-missing-imports traps only when one is called"
        case .trap:
            (status, kind) = (.guestTrapped, "trap")
            hint = "the wasm backtrace (on stderr without --json) names the guest function that trapped"
        case .fuelExhausted:
            (status, kind) = (.fuelExhausted, "fuel_exhausted")
            hint = "raise --fuel (or --no-fuel-limit) if the work is legitimate; otherwise look for an infinite loop"
        case .timeout:
            (status, kind) = (.timedOut, "timeout")
            hint = "raise --timeout if the work is legitimate; otherwise look for a call that never returns"
        case .memoryLimit:
            (status, kind) = (.memoryLimit, "memory_limit")
            hint = "raise --max-memory-pages if the module really needs more memory"
        case .tableLimit:
            (status, kind) = (.memoryLimit, "table_limit")
            hint = "look for a table.grow loop, or raise --max-table-elements (per table) or --max-total-table-elements if the module really needs the elements"
        case .stackExhausted:
            (status, kind) = (.stackExhausted, "stack_exhausted")
            hint = "look for runaway recursion, or raise --stack-size"
        case .smokeFailed:
            (status, kind) = (.smokeProbeFailed, "smoke_failed")
            hint = "each FAIL line names the probe and what it returned; fix the function or the probe's expectation"
        case .callFailed:
            (status, kind) = (.callFailed, "call_failed")
            hint = "`patchcli run MODULE` lists the exports; the message says which signature the call needs"
        case .fallbackExhausted:
            (status, kind) = (.fallbackExhausted, "fallback_exhausted")
            hint = "each rung's reason says why it did not activate; a device would run the app's native code"
        case .viewInvalid:
            (status, kind) = (.viewInvalid, "view_invalid")
            hint = "the device would demote this view to its native body; fix what the guest emits at that path"
        case .viewUnavailable:
            (status, kind) = (.viewUnavailable, "view_unavailable")
            hint = "give a view name and event ids the module's patch_view_manifest and tree list (the message names them)"
        }
        if case let .trapped(report) = error, report.kind != .fuelExhausted, report.kind != .memoryLimit,
           report.kind != .tableLimit, report.kind != .stackExhausted {
            kind = "trap_" + report.kind.rawValue
        }
        if case .asyncPump(_, let pumpError) = error {
            switch pumpError {
            case .stuck, .neverCompleted, .timedOut:
                // A device's `callPackedAsync` fails the same way, and the app's thunk runs the original.
                self.init(kind: "async_stuck", message: error.description, exitStatus: status,
                          hint: "the async function awaits something the host never answers (docs/async.md); a device would run the app's own code instead")
                return
            case .missingExport, .wrongSignature, .unexpectedResult: break
            }
        }
        self.init(kind: kind, message: error.description, exitStatus: status, hint: hint)
    }
}
