import WASI
import WasmKit

/// What ended a guest call abnormally, in a form CI can branch on: a stable `kind`, the message, the
/// export and module that were running, and the wasm backtrace (innermost first) with names from the
/// module's name section (or its export names where the name section has none).
public struct TrapReport: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case unreachable
        case memoryOutOfBounds = "memory_out_of_bounds"
        case fuelExhausted = "fuel_exhausted"
        case stackExhausted = "stack_exhausted"
        case memoryLimit = "memory_limit"
        case tableLimit = "table_limit"
        case integerDivideByZero = "integer_divide_by_zero"
        case integerOverflow = "integer_overflow"
        case invalidConversion = "invalid_conversion_to_integer"
        case indirectCallFailure = "indirect_call_failure"
        case tableOutOfBounds = "table_out_of_bounds"
        /// The guest called WASI `proc_exit`, which a reactor module must never do.
        case processExit = "proc_exit"
        /// A host function (WASI or a bridge) failed.
        case hostFailure = "host_failure"
        case other
    }

    public var kind: Kind
    public var message: String
    /// The export being called, or `_initialize`, `(start)` (the start function) or `(instantiation)`
    /// (segment initialization in a module without one) for the activation phase.
    public var export: String
    /// Index of the module inside a PMOD container (0 for a plain module).
    public var moduleIndex: Int
    public var backtrace: [String]

    public init(kind: Kind, message: String, export: String, moduleIndex: Int, backtrace: [String]) {
        self.kind = kind
        self.message = message
        self.export = export
        self.moduleIndex = moduleIndex
        self.backtrace = backtrace
    }

    public var description: String {
        var text = "\(kind.rawValue) in \(export) (module \(moduleIndex)): \(message)"
        if !backtrace.isEmpty {
            text += "\nwasm backtrace:\n" + backtrace.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
        }
        return text
    }

    /// Classifies an error thrown out of a guest call. WasmKit 0.4.2 keeps a trap's reason and
    /// backtrace package-internal and only exposes them through `description` ("Trap: <reason>"
    /// followed by one "    N: (0xADDR) name" line per frame), so that text is what is parsed here.
    ///
    /// `limitHit` is the cap that stopped the guest, if one did; `name` resolves a function index to
    /// its name (name section, else export name).
    static func classify(_ error: Error, export: String, moduleIndex: Int, limitHit: ResourceCap.Resource?,
                         name: (UInt32) -> String) -> TrapReport {
        if let limitHit {
            return TrapReport(kind: limitHit == .memory ? .memoryLimit : .tableLimit, message: String(describing: error),
                              export: export, moduleIndex: moduleIndex, backtrace: backtrace(of: error, name: name))
        }
        if let exit = error as? WASIExitCode {
            return TrapReport(kind: .processExit, message: "the guest called proc_exit(\(exit.code))", export: export,
                              moduleIndex: moduleIndex, backtrace: [])
        }
        let text = String(describing: error)
        guard error is Trap else {
            return TrapReport(kind: .hostFailure, message: text, export: export, moduleIndex: moduleIndex, backtrace: [])
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var reason = lines.first ?? text
        if reason.hasPrefix("Trap: ") { reason.removeFirst("Trap: ".count) }
        return TrapReport(kind: kind(ofReason: reason), message: reason, export: export, moduleIndex: moduleIndex,
                          backtrace: backtrace(of: error, name: name))
    }

    static func kind(ofReason reason: String) -> Kind {
        switch reason {
        case "unreachable": return .unreachable
        case "out of bounds memory access": return .memoryOutOfBounds
        case "out of fuel": return .fuelExhausted
        case "call stack exhausted": return .stackExhausted
        case "integer divide by zero": return .integerDivideByZero
        case "integer overflow": return .integerOverflow
        case "invalid conversion to integer": return .invalidConversion
        case _ where reason.hasPrefix("indirect call"): return .indirectCallFailure
        case _ where reason.hasPrefix("out of bounds table access"): return .tableOutOfBounds
        default: return .other
        }
    }

    /// Frames kept in a report; runaway recursion would otherwise print thousands of lines.
    static let maximumFrames = 32

    /// The frames of a trap description's backtrace lines ("    0: (0x1234) wasm function[7]"),
    /// innermost first, named through `name`, with runs of one function folded into "name (×N)".
    static func backtrace(of error: Error, name: (UInt32) -> String) -> [String] {
        let frames: [String] = String(describing: error).split(separator: "\n").dropFirst().compactMap { line in
            guard let close = line.firstIndex(of: ")") else { return nil }
            let symbol = String(line[line.index(after: close)...].drop { $0 == " " })
            // "unknown" is the host's entry frame, not guest code.
            guard !symbol.isEmpty, symbol != "unknown" else { return nil }
            if symbol.hasPrefix("wasm function["), symbol.hasSuffix("]"),
               let index = UInt32(symbol.dropFirst("wasm function[".count).dropLast()) {
                return name(index)
            }
            return symbol
        }
        var folded: [(name: String, count: Int)] = []
        for frame in frames {
            if let last = folded.last, last.name == frame { folded[folded.count - 1].count += 1 } else { folded.append((frame, 1)) }
        }
        var lines = folded.prefix(maximumFrames).map { $0.count > 1 ? "\($0.name) (×\($0.count))" : $0.name }
        if folded.count > maximumFrames { lines.append("… \(folded.count - maximumFrames) more frame group(s)") }
        return lines
    }
}
