import WasmKit

/// Export names and caps of the async pump contract (sdk-contract §4); defaults are the SDK's.
public struct AsyncPumpContract: Sendable, Equatable {
    public var initExport = "patch_init"
    public var pumpExport = "patch_pump"
    public var doneExport = "patch_done"
    public var pendingExport = "patch_pending"
    public var resolveExport = "patch_resolve"
    public var resolveHTTPExport = "patch_resolve_http"
    /// Max jobs one `patch_pump` call may run.
    public var budget: Int32 = 256
    /// Rounds (done-check + pump + maybe resolve) before giving up with `neverCompleted`.
    public var maxRounds = 1_000_000
    /// Wall-clock cap checked between rounds; nil for none. It cannot interrupt a single guest call
    /// that never returns (WasmKit has no interruption); fuel or the CLI watchdog covers that.
    public var timeLimit: Duration? = .seconds(30)

    public init() {}
}

/// What a completed pump did.
public struct AsyncPumpReport: Sendable, Equatable {
    /// Loop iterations, the last one being the one that saw `patch_done() == 1`.
    public var rounds = 0
    /// Jobs the guest reported running across all `patch_pump` calls.
    public var jobsRun: Int64 = 0
    /// `patch_resolve(token, value)` calls, in order.
    public var resolvedAsyncRequests: [OwedAsyncRequest] = []
    /// `patch_resolve_http` calls, in order, with the status handed to the guest (0 = transport failure).
    public var resolvedHTTPRequests: [ResolvedHTTPRequest] = []
    /// Each suspension the host answered, in order, as `run --trace` prints it
    /// (`round 2: resume http_get GET https://… (token 1): status 200, 17 bytes`).
    public var trace: [String] = []
}

public struct ResolvedHTTPRequest: Sendable, Equatable {
    public let request: OwedHTTPRequest
    public let status: Int32
    public let bodyByteCount: Int
}

public enum AsyncPumpError: Error, CustomStringConvertible, Equatable {
    /// A contract export the run needs is missing.
    case missingExport(name: String, purpose: String)
    /// A contract export exists with a signature the pump cannot call.
    case wrongSignature(name: String, expected: String, found: String)
    /// `patch_pump` ran nothing and nothing was owed by the host: the guest waits on something that
    /// will never come (sdk-contract §4 `stuck(pending:)`).
    case stuck(pending: Int32?, rounds: Int)
    /// `patch_done` never reported 1 within the round cap.
    case neverCompleted(rounds: Int)
    /// The wall-clock cap passed between two rounds.
    case timedOut(limit: Duration, rounds: Int)
    /// A contract export returned something other than its documented result.
    case unexpectedResult(export: String, detail: String)

    public var description: String {
        switch self {
        case .missingExport(let name, let purpose):
            return "the module does not export \(name), which the async pump needs \(purpose)"
        case .wrongSignature(let name, let expected, let found):
            return "export \(name) has signature \(found); the async pump contract needs \(expected)"
        case .stuck(let pending, let rounds):
            let queued = pending.map { ", \($0) job(s) still queued per patch_pending" } ?? ""
            return "async guest is stuck after \(rounds) round(s): patch_pump ran no job and no host request (async_request/http_get) is outstanding\(queued); the task awaits something the host never provides"
        case .neverCompleted(let rounds):
            return "async guest did not finish within \(rounds) rounds (patch_done never returned 1)"
        case .timedOut(let limit, let rounds):
            return "async guest did not finish within \(limit) (\(rounds) rounds)"
        case .unexpectedResult(let export, let detail):
            return "export \(export) \(detail)"
        }
    }
}

/// Drives an async guest to completion the way `WASMRuntime.pumpToCompletion` does (sdk-contract §4):
/// init, kickoff, then rounds of done-check / `patch_pump(budget)`, answering host-awaited work
/// (`patch_host.http_get`/`http_request` from fixtures via `patch_resolve_http`, then
/// `patch_host.async_request` via `patch_resolve`) whenever a pump call runs no job.
///
/// Errors: `AsyncPumpError`, `BridgeTrap` (host side, e.g. an out-of-bounds allocation), or whatever
/// WasmKit throws for a guest trap, unchanged.
public struct AsyncPump {
    public let instance: Instance
    public let state: BridgeState
    public let contract: AsyncPumpContract

    public init(instance: Instance, state: BridgeState, contract: AsyncPumpContract = AsyncPumpContract()) {
        self.instance = instance
        self.state = state
        self.contract = contract
    }

    /// `supportsAsyncPump` of the SDK: the module exports both `patch_pump` and `patch_done`.
    public static func supportsAsyncPump(_ instance: Instance, contract: AsyncPumpContract = AsyncPumpContract()) -> Bool {
        instance.exports[function: contract.pumpExport] != nil && instance.exports[function: contract.doneExport] != nil
    }

    /// `Patch.callAsyncResult`: kicks off `kickoff(arguments)`, pumps to completion, then returns the
    /// first result of `resultExport` as an i32 (0 when it returns nothing).
    public func runScalar(
        kickoff: String, arguments: [Value] = [], resultExport: String = "patch_result"
    ) throws -> (result: Int32, report: AsyncPumpReport) {
        let report = try run(kickoff: kickoff, arguments: arguments)
        let results = try function(resultExport, purpose: "to read the task's result").invoke()
        guard let first = results.first else { return (0, report) }
        guard case .i32(let raw) = first else {
            throw AsyncPumpError.unexpectedResult(export: resultExport, detail: "returned \(first) instead of an i32")
        }
        return (Int32(bitPattern: raw), report)
    }

    /// `Patch.callPackedAsync`: writes `input` into a `patch_malloc` buffer, kicks off
    /// `kickoff(ptr, len)`, pumps, reads the packed i64 of `resultExport`, frees output and input.
    public func runPacked(
        kickoff: String, input: [UInt8], resultExport: String
    ) throws -> (output: [UInt8], report: AsyncPumpReport) {
        let memory = try GuestMemory(instance: instance, site: kickoff)
        let inputPointer = input.isEmpty ? 0 : try memory.allocate(input)
        // The input must stay alive until the pump finishes; it is released on every path after that.
        defer { try? memory.free(inputPointer) }
        let report = try run(kickoff: kickoff, arguments: [.i32(inputPointer), .i32(UInt32(input.count))])
        let results = try function(resultExport, purpose: "to read the task's packed result").invoke()
        guard results.count == 1, case .i64(let packed) = results[0] else {
            throw AsyncPumpError.unexpectedResult(
                export: resultExport, detail: "returned \(results) instead of one packed i64")
        }
        let output: [UInt8]
        do {
            output = try memory.read(packed: packed)
        } catch {
            try memory.free(UInt32(truncatingIfNeeded: packed >> 32))
            throw error
        }
        try memory.free(UInt32(truncatingIfNeeded: packed >> 32))
        return (output, report)
    }

    /// Init, kickoff and pump until `patch_done() == 1`.
    public func run(kickoff: String, arguments: [Value] = []) throws -> AsyncPumpReport {
        let pump = try function(contract.pumpExport, purpose: "to run queued jobs")
        let done = try function(contract.doneExport, purpose: "to know when the task finished")
        try expectSignature(pump, name: contract.pumpExport, parameters: [.i32], results: [.i32])
        try expectSignature(done, name: contract.doneExport, parameters: [], results: [.i32])

        state.discardOwedRequests()
        if let initialize = instance.exports[function: contract.initExport] {
            try initialize.invoke()
        }
        try function(kickoff, purpose: "to start the task").invoke(arguments)

        var report = AsyncPumpReport()
        let clock = ContinuousClock()
        let deadline = contract.timeLimit.map { clock.now.advanced(by: $0) }
        while true {
            if report.rounds >= contract.maxRounds {
                throw AsyncPumpError.neverCompleted(rounds: report.rounds)
            }
            if let deadline, clock.now >= deadline, let limit = contract.timeLimit {
                throw AsyncPumpError.timedOut(limit: limit, rounds: report.rounds)
            }
            report.rounds += 1
            if try int32Result(of: done, name: contract.doneExport) == 1 { return report }
            let ran = try int32Result(of: pump, name: contract.pumpExport, arguments: [.i32(UInt32(contract.budget))])
            report.jobsRun += Int64(max(ran, 0))
            if ran == 0 {
                try resolveOwedWork(&report)
            }
        }
    }

    /// The host-resolve step: every owed HTTP request first, then every owed async token.
    private func resolveOwedWork(_ report: inout AsyncPumpReport) throws {
        let owed = state.takeOwedRequests()
        guard !owed.http.isEmpty || !owed.async.isEmpty else {
            let pending = try instance.exports[function: contract.pendingExport].map {
                try int32Result(of: $0, name: contract.pendingExport)
            }
            throw AsyncPumpError.stuck(pending: pending, rounds: report.rounds)
        }
        if !owed.http.isEmpty {
            let resolveHTTP = try function(contract.resolveHTTPExport, purpose: "to hand HTTP responses back")
            try expectSignature(
                resolveHTTP, name: contract.resolveHTTPExport, parameters: [.i32, .i32, .i32, .i32], results: [])
            let memory = try GuestMemory(instance: instance, site: contract.resolveHTTPExport)
            for request in owed.http {
                let response = HostBridges.fixtureResponse(state: state, method: request.method, url: request.url)
                let status = response?.status ?? 0
                let body = response?.body ?? []
                // The body buffer becomes the guest's (§2.3); (0, 0) when empty.
                let pointer = body.isEmpty ? 0 : try memory.allocate(body)
                try resolveHTTP.invoke([
                    .int32(request.token), .i32(pointer), .i32(UInt32(body.count)), .int32(status),
                ])
                report.resolvedHTTPRequests.append(
                    ResolvedHTTPRequest(request: request, status: status, bodyByteCount: body.count))
                report.trace.append("round \(report.rounds): resume \(request.method) \(request.url) (token \(request.token)): "
                    + (status == 0 ? "transport failure (status 0)" : "status \(status), \(body.count) bytes"))
            }
        }
        if !owed.async.isEmpty {
            let resolve = try function(contract.resolveExport, purpose: "to resume async_request continuations")
            try expectSignature(resolve, name: contract.resolveExport, parameters: [.i32, .i32], results: [])
            for request in owed.async {
                try resolve.invoke([.int32(request.token), .int32(request.value)])
                report.resolvedAsyncRequests.append(request)
                report.trace.append("round \(report.rounds): resume async_request (token \(request.token)) with \(request.value)")
            }
        }
    }

    private func function(_ name: String, purpose: String) throws(AsyncPumpError) -> Function {
        guard let function = instance.exports[function: name] else {
            throw .missingExport(name: name, purpose: purpose)
        }
        return function
    }

    private func expectSignature(
        _ function: Function, name: String, parameters: [ValueType], results: [ValueType]
    ) throws(AsyncPumpError) {
        let type = function.type
        guard type.parameters == parameters, type.results == results else {
            throw .wrongSignature(
                name: name,
                expected: ServedImport.signatureText(parameters: parameters, results: results),
                found: ServedImport.signatureText(parameters: type.parameters, results: type.results))
        }
    }

    private func int32Result(of function: Function, name: String, arguments: [Value] = []) throws -> Int32 {
        let results = try function.invoke(arguments)
        guard results.count == 1, case .i32(let raw) = results[0] else {
            throw AsyncPumpError.unexpectedResult(export: name, detail: "returned \(results) instead of one i32")
        }
        return Int32(bitPattern: raw)
    }
}
