import PatchRuntime

extension CommandFailure {
    /// `run`'s failures: the kind names what happened (a trap's kind for traps), the exit code its class.
    init(runtime error: RuntimeError) {
        let status: ExitStatus
        var kind: String
        var hint: String?
        switch error.category {
        case .integrity: (status, kind) = (.verificationFailed, "hash_mismatch")
        case .malformedInput: (status, kind) = (.malformedInput, "malformed_input")
        case .usage: (status, kind) = (.usage, "usage")
        case .parity:
            (status, kind) = (.moduleRejected, "module_rejected")
            hint = "the device's WasmKit would refuse this module too; --no-parity runs it anyway for debugging"
        case .missingImport:
            (status, kind) = (.missingImport, "missing_import")
            hint = "devices serve only WASI Preview 1 and the patch/patch_host bridges; --allow-missing-imports traps only when one is called"
        case .trap: (status, kind) = (.guestTrapped, "trap")
        case .fuelExhausted:
            (status, kind) = (.fuelExhausted, "fuel_exhausted")
            hint = "raise --fuel (or --no-fuel-limit) if the work is legitimate; otherwise look for an infinite loop"
        case .timeout: (status, kind) = (.timedOut, "timeout")
        case .memoryLimit:
            (status, kind) = (.memoryLimit, "memory_limit")
            hint = "raise --max-memory-pages if the module really needs more memory"
        case .tableLimit:
            (status, kind) = (.memoryLimit, "table_limit")
            hint = "look for a table.grow loop, or raise --max-table-elements (per table) or --max-total-table-elements if the module really needs the elements"
        case .stackExhausted:
            (status, kind) = (.stackExhausted, "stack_exhausted")
            hint = "look for runaway recursion, or raise --stack-size"
        case .smokeFailed: (status, kind) = (.smokeProbeFailed, "smoke_failed")
        case .callFailed: (status, kind) = (.callFailed, "call_failed")
        case .fallbackExhausted: (status, kind) = (.fallbackExhausted, "fallback_exhausted")
        case .viewInvalid:
            (status, kind) = (.viewInvalid, "view_invalid")
            hint = "the device would demote this view to its native body; fix what the guest emits at that path"
        case .viewUnavailable: (status, kind) = (.viewUnavailable, "view_unavailable")
        }
        if case let .trapped(report) = error, report.kind != .fuelExhausted, report.kind != .memoryLimit,
           report.kind != .tableLimit, report.kind != .stackExhausted {
            kind = "trap_" + report.kind.rawValue
        }
        self.init(kind: kind, message: error.description, exitStatus: status, hint: hint)
    }
}
