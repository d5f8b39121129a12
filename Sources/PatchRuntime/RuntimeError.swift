import PatchManifest

/// Everything `patchcli run` can fail with. Each case says what went wrong and where; `category` is
/// what the CLI maps onto its exit codes.
public enum RuntimeError: Error, Sendable, CustomStringConvertible {
    // Loading
    case integrityMismatch(expected: String, actual: String, source: String)
    case malformedContainer(ContainerFormatError)
    case unrecognizedArtifact(firstBytes: String)
    case compressedArtifact(codec: String, detail: String)
    case invalidManifest(path: String, detail: String)
    case invalidSHA256(value: String, source: String)
    // Parity and instantiation
    case parityRejected(moduleIndex: Int, violations: [ParityViolation])
    case initialMemoryExceedsLimit(moduleIndex: Int, pages: UInt64, limit: Int)
    /// `table` nil: the tables together exceed the total cap.
    case initialTableExceedsLimit(moduleIndex: Int, table: Int?, elements: UInt64, limit: Int)
    case instantiationFailed(moduleIndex: Int, detail: String)
    case invalidLimit(name: String, value: String, allowed: String)
    // Execution
    case trapped(TrapReport)
    case timedOut(seconds: Double, phase: String)
    // Calling
    case exportNotFound(name: String, available: [String])
    case unsupportedSignature(export: String, signature: String, detail: String)
    case argumentCountMismatch(export: String, signature: String, expected: Int, given: Int)
    case invalidArgument(export: String, position: Int, text: String, type: String)
    case allocatorMissing(export: String, moduleIndex: Int, byteCount: Int)
    case allocationFailed(moduleIndex: Int, byteCount: Int, detail: String)
    case packedResultOutOfBounds(export: String, pointer: UInt32, length: UInt32, memoryBytes: Int)
    case undecodableOutput(export: String, encoding: String, detail: String)
    case invalidInput(detail: String)
    case messagePack(MessagePackError)
    /// An async function's kickoff the pump could not finish (sdk-contract §4: stuck, never completed,
    /// out of time) or whose contract exports are missing or misshapen.
    case asyncPump(export: String, AsyncPumpError)
    // Smoke probes and the fallback ladder
    case invalidProbes(source: String, detail: String)
    case smokeFailed(failed: Int, total: Int, failures: [ProbeResult])
    case noRungActivated(attempted: Int)
    // `--view`
    case view(ViewError)

    /// Groups the cases by the exit code they deserve (docs/cli.md, 20-29, 37 and 38 for `run`).
    public enum Category: Sendable {
        case integrity, malformedInput, usage, parity, missingImport, trap, fuelExhausted, timeout,
             memoryLimit, tableLimit, stackExhausted, smokeFailed, callFailed, fallbackExhausted, viewInvalid, viewUnavailable
    }

    public var category: Category {
        switch self {
        case .integrityMismatch: return .integrity
        case .malformedContainer, .unrecognizedArtifact, .compressedArtifact, .invalidManifest, .invalidSHA256,
             .invalidProbes, .invalidInput:
            return .malformedInput
        case .invalidLimit, .argumentCountMismatch, .invalidArgument: return .usage
        case let .parityRejected(_, violations):
            return violations.allSatisfy { $0.isImportProblem } ? .missingImport : .parity
        case .instantiationFailed: return .parity
        case .initialMemoryExceedsLimit: return .memoryLimit
        case .initialTableExceedsLimit: return .tableLimit
        case let .trapped(report):
            switch report.kind {
            case .fuelExhausted: return .fuelExhausted
            case .memoryLimit: return .memoryLimit
            case .tableLimit: return .tableLimit
            case .stackExhausted: return .stackExhausted
            default: return .trap
            }
        case .timedOut: return .timeout
        case .exportNotFound, .unsupportedSignature, .allocatorMissing, .allocationFailed, .packedResultOutOfBounds,
             .undecodableOutput, .messagePack, .asyncPump:
            return .callFailed
        case .smokeFailed: return .smokeFailed
        case .noRungActivated: return .fallbackExhausted
        case let .view(error):
            switch error.category {
            case .invalidOutput: return .viewInvalid
            case .unavailable: return .viewUnavailable
            case .usage: return .usage
            }
        }
    }

    public var description: String {
        switch self {
        case let .integrityMismatch(expected, actual, source):
            return "SHA-256 mismatch: the artifact hashes to \(actual) but \(source) expects \(expected)"
        case let .malformedContainer(error):
            return "malformed artifact: \(error)"
        case let .unrecognizedArtifact(firstBytes):
            return "not a Patch artifact: the first bytes (\(firstBytes)) are neither \\0asm, PMOD, POVR nor a known compression format"
        case let .compressedArtifact(codec, detail):
            return "cannot decompress the \(codec) artifact: \(detail)"
        case let .invalidManifest(path, detail):
            return "\(path): invalid manifest: \(detail)"
        case let .invalidSHA256(value, source):
            return "\(source): \"\(value)\" is not a SHA-256 (64 hex digits)"
        case let .parityRejected(moduleIndex, violations):
            let list = violations.map { "  - \($0)" }.joined(separator: "\n")
            return "module \(moduleIndex) would be rejected by the device runtime:\n\(list)"
        case let .initialMemoryExceedsLimit(moduleIndex, pages, limit):
            return "module \(moduleIndex) declares an initial memory of \(pages) pages, over the --max-memory-pages limit of \(limit)"
        case let .initialTableExceedsLimit(moduleIndex, table?, elements, limit):
            return "module \(moduleIndex) declares table \(table) with \(elements) initial elements, over the --max-table-elements limit of \(limit)"
        case let .initialTableExceedsLimit(moduleIndex, nil, elements, limit):
            return "module \(moduleIndex) declares tables of \(elements) initial elements together, over the --max-total-table-elements limit of \(limit)"
        case let .instantiationFailed(moduleIndex, detail):
            return "module \(moduleIndex) failed to instantiate: \(detail)"
        case let .invalidLimit(name, value, allowed):
            return "--\(name) \(value) is out of range (allowed: \(allowed))"
        case let .trapped(report):
            return "trap: \(report)"
        case let .timedOut(seconds, phase):
            return "timed out after \(seconds) s while \(phase)"
        case let .exportNotFound(name, available):
            let shown = available.prefix(20).joined(separator: ", ")
            return "no module exports a function named \"\(name)\" (exported functions: \(shown.isEmpty ? "none" : shown)\(available.count > 20 ? ", …" : ""))"
        case let .unsupportedSignature(export, signature, detail):
            return "export \(export)\(signature) cannot be called from the command line: \(detail)"
        case let .argumentCountMismatch(export, signature, expected, given):
            return "export \(export)\(signature) takes \(expected) argument(s) but \(given) were given"
        case let .invalidArgument(export, position, text, type):
            return "argument \(position) of \(export) (\"\(text)\") is not a valid \(type)"
        case let .allocatorMissing(export, moduleIndex, byteCount):
            return "module \(moduleIndex) does not export patch_malloc, needed to pass \(byteCount) input byte(s) to \(export)"
        case let .allocationFailed(moduleIndex, byteCount, detail):
            return "passing \(byteCount) input byte(s) to module \(moduleIndex) failed: \(detail)"
        case let .packedResultOutOfBounds(export, pointer, length, memoryBytes):
            return "\(export) returned the packed buffer (ptr \(pointer), len \(length)), which lies outside the \(memoryBytes)-byte memory"
        case let .undecodableOutput(export, encoding, detail):
            return "the output of \(export) is not valid \(encoding): \(detail)"
        case let .invalidInput(detail):
            return "invalid --input: \(detail)"
        case let .asyncPump(export, error):
            return "\(export): \(error)"
        case let .messagePack(error):
            return "MessagePack: \(error)"
        case let .invalidProbes(source, detail):
            return "\(source): invalid probes: \(detail)"
        case let .smokeFailed(failed, total, failures):
            let named = failures.map { "\($0.name): \($0.detail)" }.joined(separator: "; ")
            return "\(failed) of \(total) smoke probe(s) failed" + (named.isEmpty ? "" : ": " + named)
        case let .noRungActivated(attempted):
            return "none of the \(attempted) fallback rung(s) activated; the device would run native code only"
        case let .view(error):
            return error.description
        }
    }
}
