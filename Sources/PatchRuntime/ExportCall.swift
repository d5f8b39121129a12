import WasmKit

/// A typed wasm value as `run` prints it.
public struct TypedValue: Sendable, Equatable, Codable, CustomStringConvertible {
    public var type: String
    /// Integers as signed decimal, floats in Swift's shortest round-trip form ("nan", "inf" included).
    public var value: String

    public var description: String { "\(value) (\(type))" }

    init(_ value: Value) {
        switch value {
        case let .i32(bits): self = TypedValue(type: "i32", value: String(Int32(bitPattern: bits)))
        case let .i64(bits): self = TypedValue(type: "i64", value: String(Int64(bitPattern: bits)))
        case let .f32(bits): self = TypedValue(type: "f32", value: String(describing: Float(bitPattern: bits)))
        case let .f64(bits): self = TypedValue(type: "f64", value: String(describing: Double(bitPattern: bits)))
        default: self = TypedValue(type: "ref", value: String(describing: value))
        }
    }

    public init(type: String, value: String) {
        self.type = type
        self.value = value
    }
}

/// The outcome of one successful call.
public struct CallOutcome: Sendable {
    /// scalar: wasm values from text. packed: `(i32 ptr, i32 len) -> i64`, input and output bytes
    /// (`Patch.callPacked`). buffer: input bytes as the `(ptr, len)` arguments of an export with
    /// scalar results, as the SDK's typed `call` lowers one `String`/`Data` argument (§2.1), e.g.
    /// `(i32, i32) -> i32` for a function of a String returning Int32.
    /// async: an async function's kickoff `(i32 ptr, i32 len) -> ()` driven by the pump
    /// (`Patch.callPackedAsync`, sdk-contract §4).
    public enum ABI: String, Sendable, Codable { case scalar, packed, buffer, async }

    public var export: String
    public var moduleIndex: Int
    public var abi: ABI
    /// The export's wasm signature, e.g. "(i32, i32) -> i64".
    public var signature: String
    /// Scalar ABI: the raw results.
    public var values: [TypedValue]
    /// Packed ABI: the bytes the guest returned (already freed in the guest).
    public var output: [UInt8]?
    public var fuelUsed: UInt64?
}

/// An export routed to the module serving it, with what every call of it needs worked out once
/// (`RuntimeSession` keeps one per export it was asked for). A class, so that handing it to a call
/// retains one object rather than each of its fields.
final class RoutedExport {
    let member: ModuleInstance
    let function: Function
    let type: FunctionType
    /// The wasm signature as outcomes and messages print it, e.g. "(i32, i32) -> i64".
    let signature: String
    /// The first parameter that cannot be given as command-line text (a v128 or a reference), if any.
    let unsupportedParameter: (position: Int, typeName: String)?

    init(member: ModuleInstance, function: Function) {
        self.member = member
        self.function = function
        type = function.type
        signature = ServedImport.signatureText(parameters: type.parameters, results: type.results)
        unsupportedParameter = type.parameters.enumerated().lazy
            .map { (position: $0.offset + 1, typeName: ServedImport.valueTypeName($0.element)) }
            .first { !["i32", "i64", "f32", "f64"].contains($0.typeName) }
    }

    /// The canonical structured-blob shape `(i32 ptr, i32 len) -> i64`.
    var isPacked: Bool { type.parameters == [.i32, .i32] && type.results == [.i64] }

    /// Takes one buffer as `(i32 ptr, i32 len)`; with any results but the packed i64, those are
    /// plain values (the buffer ABI).
    var takesBuffer: Bool { type.parameters == [.i32, .i32] }
}

extension RuntimeSession {
    /// The export's signature, for deciding how to call it.
    public func signature(of export: String) throws(RuntimeError) -> FunctionType {
        try route(export).type
    }

    /// Whether the export has the canonical structured-blob shape `(i32 ptr, i32 len) -> i64`.
    public func isPackedABI(_ export: String) throws(RuntimeError) -> Bool {
        try route(export).isPacked
    }

    /// Calls `export` with arguments parsed from text according to its wasm parameter types.
    public func callScalar(_ export: String, arguments: [String]) throws(RuntimeError) -> CallOutcome {
        let routed = try route(export)
        let (member, function, type, signature) = (routed.member, routed.function, routed.type, routed.signature)
        guard arguments.count == type.parameters.count else {
            throw .argumentCountMismatch(export: export, signature: signature, expected: type.parameters.count, given: arguments.count)
        }
        if let (position, typeName) = routed.unsupportedParameter {
            throw .unsupportedSignature(export: export, signature: signature, detail: "parameter \(position) is a \(typeName), which cannot be given on the command line")
        }
        var values: [Value] = []
        values.reserveCapacity(arguments.count)
        for (position, (text, parameter)) in zip(arguments, type.parameters).enumerated() {
            guard let value = Self.parse(text, as: parameter) else {
                throw .invalidArgument(export: export, position: position + 1, text: text, type: ServedImport.valueTypeName(parameter))
            }
            values.append(value)
        }
        let (results, fuelUsed) = try invoke(member, export: export) { try function.invoke(values, reusing: member.stack) }
        return CallOutcome(export: export, moduleIndex: member.index, abi: .scalar, signature: signature,
                           values: results.map(TypedValue.init), output: nil, fuelUsed: fuelUsed)
    }

    /// Calls a `(i32 ptr, i32 len) -> i64` export the way `Patch.callPacked` does (sdk-contract §2.4):
    /// input through `patch_malloc` (none for empty input), output read from the packed result, then
    /// both buffers released with `patch_free`, the input even when the call fails.
    public func callPacked(_ export: String, input: [UInt8]) throws(RuntimeError) -> CallOutcome {
        let routed = try route(export)
        guard routed.isPacked else {
            throw .unsupportedSignature(export: export, signature: routed.signature, detail: "the packed ABI needs (i32, i32) -> i64")
        }
        let (call, memory, inputPointer, inputFuel) = try invokeWithBuffer(routed, export: export, input: input)
        let (member, signature) = (routed.member, routed.signature)
        var fuelUsed = inputFuel
        guard call.count == 1, case let .i64(packed) = call[0] else {
            throw .unsupportedSignature(export: export, signature: signature, detail: "it returned \(call) instead of one i64")
        }
        let outputPointer = UInt32(truncatingIfNeeded: packed >> 32)
        let outputLength = UInt32(truncatingIfNeeded: packed)
        let output: [UInt8]
        do {
            output = try memory.read(packed: packed)
        } catch {
            output = []
        }
        let outputReadable = packed == 0 || output.count == Int(outputLength)
        // Both buffers are released even when the output is unreadable, as the SDK does.
        if outputPointer != 0 { fuelUsed &+= try invoke(member, export: "patch_free") { try memory.free(outputPointer) }.fuelUsed ?? 0 }
        if inputPointer != 0 { fuelUsed &+= try invoke(member, export: "patch_free") { try memory.free(inputPointer) }.fuelUsed ?? 0 }
        guard outputReadable else {
            throw .packedResultOutOfBounds(export: export, pointer: outputPointer, length: outputLength, memoryBytes: memory.memory.byteCount)
        }
        return CallOutcome(export: export, moduleIndex: member.index, abi: .packed, signature: signature, values: [],
                           output: output, fuelUsed: options.limits.fuel == nil ? nil : fuelUsed)
    }

    /// Calls a `(i32 ptr, i32 len) -> scalars` export with `input` as its buffer, the way the SDK's
    /// typed `call` lowers a `String` or `Data` argument (sdk-contract §2.1): the bytes in a fresh
    /// `patch_malloc` buffer (none for empty input, which is `(0, 0)`), released with `patch_free`
    /// after the call; the results are the export's own values (`Int32` as i32, `Bool` as i32 0/1).
    public func callWithBuffer(_ export: String, input: [UInt8]) throws(RuntimeError) -> CallOutcome {
        let routed = try route(export)
        guard routed.takesBuffer, !routed.isPacked else {
            throw .unsupportedSignature(export: export, signature: routed.signature, detail: "--input needs an export taking (i32 ptr, i32 len)")
        }
        let (call, memory, inputPointer, inputFuel) = try invokeWithBuffer(routed, export: export, input: input)
        let member = routed.member
        var fuelUsed = inputFuel
        if inputPointer != 0 { fuelUsed &+= try invoke(member, export: "patch_free") { try memory.free(inputPointer) }.fuelUsed ?? 0 }
        return CallOutcome(export: export, moduleIndex: member.index, abi: .buffer, signature: routed.signature,
                           values: call.map(TypedValue.init), output: nil, fuelUsed: options.limits.fuel == nil ? nil : fuelUsed)
    }

    /// The host half both buffer-taking ABIs share: `input` into a fresh `patch_malloc` buffer (none
    /// when empty), the export invoked with `(ptr, len)`, the input freed if the call fails. Returns
    /// the call's results, the memory and input pointer for the caller to release, and the fuel used.
    private func invokeWithBuffer(_ routed: RoutedExport, export: String, input: [UInt8])
        throws(RuntimeError) -> (results: [Value], memory: GuestMemory, inputPointer: UInt32, fuelUsed: UInt64)
    {
        let (member, function, signature) = (routed.member, routed.function, routed.signature)
        guard var memory = member.guestMemory else {
            throw .unsupportedSignature(export: export, signature: signature, detail: "\(BridgeTrap.noMemoryExport(bridge: export))")
        }
        memory.site = export
        var fuelUsed: UInt64 = 0
        var inputPointer: UInt32 = 0
        if !input.isEmpty {
            guard memory.allocator != nil else {
                throw .allocatorMissing(export: export, moduleIndex: member.index, byteCount: input.count)
            }
            let allocation = try invoke(member, export: "patch_malloc") { () throws -> Result<UInt32, BridgeTrap> in
                do { return .success(try memory.allocate(input)) } catch let trap as BridgeTrap { return .failure(trap) }
            }
            fuelUsed &+= allocation.fuelUsed ?? 0
            switch allocation.value {
            case let .success(pointer): inputPointer = pointer
            case let .failure(trap):
                throw .allocationFailed(moduleIndex: member.index, byteCount: input.count, detail: "\(trap)")
            }
        }
        let call: (value: [Value], fuelUsed: UInt64?)
        do {
            call = try invoke(member, export: export) {
                try function.invoke([.i32(inputPointer), .i32(UInt32(input.count))], reusing: member.stack)
            }
        } catch {
            _ = try? invoke(member, export: "patch_free") { try memory.free(inputPointer) }
            throw error
        }
        fuelUsed &+= call.fuelUsed ?? 0
        return (call.value, memory, inputPointer, fuelUsed)
    }

    /// Parses command-line text as a wasm value: integers in signed or unsigned range (decimal or
    /// 0x-hex), floats in Swift's syntax including "nan" and "inf".
    static func parse(_ text: String, as type: ValueType) -> Value? {
        switch type {
        case .i32:
            if let value = integer(text, Int32.self) { return .i32(UInt32(bitPattern: value)) }
            return integer(text, UInt32.self).map { .i32($0) }
        case .i64:
            if let value = integer(text, Int64.self) { return .i64(UInt64(bitPattern: value)) }
            return integer(text, UInt64.self).map { .i64($0) }
        case .f32: return Float(text).map { .f32($0.bitPattern) }
        case .f64: return Double(text).map { .f64($0.bitPattern) }
        default: return nil
        }
    }

    private static func integer<T: FixedWidthInteger>(_ text: String, _: T.Type) -> T? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return T(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("-0x") { return T("-" + text.dropFirst(3), radix: 16) }
        return T(text)
    }
}
