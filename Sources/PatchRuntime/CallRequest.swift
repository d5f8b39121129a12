/// One call as `run`, a smoke probe or a fallback probe describes it, and how it is carried out.
public struct CallRequest: Sendable, Equatable {
    public var export: String
    /// Scalar arguments as text. Non-empty means "call with these wasm values".
    public var arguments: [String]
    /// Bytes for a packed export (before `encoding`); nil means none were given.
    public var input: [UInt8]?
    public var encoding: InputEncoding
    public var decoding: OutputDecoding

    public init(export: String, arguments: [String] = [], input: [UInt8]? = nil,
                encoding: InputEncoding = .raw, decoding: OutputDecoding = .auto) {
        self.export = export
        self.arguments = arguments
        self.input = input
        self.encoding = encoding
        self.decoding = decoding
    }
}

/// A finished call: the raw outcome plus its decoded output when it used the packed ABI.
public struct CallResult: Sendable {
    public var outcome: CallOutcome
    public var decoded: DecodedOutput?

    public init(outcome: CallOutcome, decoded: DecodedOutput?) {
        self.outcome = outcome
        self.decoded = decoded
    }
}

extension RuntimeSession {
    /// Chooses the ABI: packed when the export is `(i32, i32) -> i64` and no scalar arguments were
    /// given (so a genuine two-int function can still be called with explicit arguments); with
    /// `--input` on any other `(i32, i32)` export, the buffer ABI (the input as its `(ptr, len)`,
    /// its scalar results printed); scalar otherwise. `decodesOutput: false` skips decoding a packed
    /// result for display (`decoded` is nil): `run --repeat` decodes only its last call's, so that
    /// the time it reports is the call's, not the display's.
    public func perform(_ request: CallRequest, decodesOutput: Bool = true) throws(RuntimeError) -> CallResult {
        let packed = try isPackedABI(request.export) && (request.input != nil || request.arguments.isEmpty)
        if !packed, let input = request.input {
            let type = try signature(of: request.export)
            guard type.parameters == [.i32, .i32] else {
                throw .unsupportedSignature(
                    export: request.export, signature: ServedImport.signatureText(parameters: type.parameters, results: type.results),
                    detail: "--input needs an export taking (i32 ptr, i32 len): (i32, i32) -> i64 returns packed bytes, "
                        + "(i32, i32) -> i32 (or other scalars) returns values; pass wasm arguments instead")
            }
            return CallResult(outcome: try callWithBuffer(request.export, input: try request.encoding.encode(input)), decoded: nil)
        }
        guard packed else {
            return CallResult(outcome: try callScalar(request.export, arguments: request.arguments), decoded: nil)
        }
        let bytes = try request.encoding.encode(request.input ?? [])
        let outcome = try callPacked(request.export, input: bytes)
        guard decodesOutput else { return CallResult(outcome: outcome, decoded: nil) }
        let decoded = try DecodedOutput.decode(outcome.output ?? [], as: request.decoding, export: request.export)
        return CallResult(outcome: outcome, decoded: decoded)
    }
}

/// A finished async call: its packed output and what the pump did.
public struct AsyncCallResult: Sendable {
    public var outcome: CallOutcome
    public var decoded: DecodedOutput
    public var report: AsyncPumpReport
}

extension RuntimeSession {
    /// Whether `export` is an async function's kickoff as `build` writes them (docs/async.md):
    /// `patch_start_…` of shape `(i32 ptr, i32 len) -> ()`, in a module that exports the pump.
    public func isAsyncKickoff(_ export: String) throws(RuntimeError) -> Bool {
        let routed = try route(export)
        return export.hasPrefix("patch_start_") && routed.type.parameters == [.i32, .i32] && routed.type.results.isEmpty
            && AsyncPump.supportsAsyncPump(routed.member.instance)
    }

    /// Calls an async function's kickoff as `Patch.callPackedAsync(export, input, resultExport:)` does
    /// (sdk-contract §4): input through `patch_malloc`, init, kickoff, pump until done (answering its
    /// HTTP requests from the fixtures and its `async_request`s), then the packed result of
    /// `resultExport`, both buffers freed.
    public func callAsync(_ request: CallRequest, resultExport: String) throws(RuntimeError) -> AsyncCallResult {
        let routed = try route(request.export)
        let input = try request.encoding.encode(request.input ?? [])
        let pump = AsyncPump(instance: routed.member.instance, state: bridgeState)
        let run = try invoke(routed.member, export: request.export) { () throws -> Result<(output: [UInt8], report: AsyncPumpReport), AsyncPumpError> in
            do {
                return .success(try pump.runPacked(kickoff: request.export, input: input, resultExport: resultExport))
            } catch let error as AsyncPumpError {
                return .failure(error)
            }
        }
        switch run.value {
        case .failure(let error):
            throw .asyncPump(export: request.export, error)
        case .success(let (output, report)):
            let outcome = CallOutcome(export: request.export, moduleIndex: routed.member.index, abi: .async, signature: routed.signature,
                                      values: [], output: output, fuelUsed: run.fuelUsed)
            let decoded = try DecodedOutput.decode(output, as: request.decoding, export: request.export)
            return AsyncCallResult(outcome: outcome, decoded: decoded, report: report)
        }
    }
}
