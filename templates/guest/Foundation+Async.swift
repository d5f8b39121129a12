// The guest half of the async pump contract (sdk-contract §4) for the async functions `build`
// transforms (docs/async.md). Embedded wasm32 has no _Concurrency, so an async function is compiled
// as a plain function taking its continuation (`_ resume`): each `await` it makes starts the host
// request and returns; the host's answer enqueues the rest of the function as a job on a FIFO that
// `patch_pump` drains. Nothing here runs unless a module exports the pump (only modules with async
// functions do; `--gc-sections` drops it elsewhere).

/// How a transformed async function ends: its value, what it threw, or the transport failure of a
/// request it awaited (the `URLError` code the app's thunk throws, as URLSession would natively).
enum _PatchAsyncOutcome<Value, Failure: Error> {
    case value(Value)
    case thrown(Failure)
    case urlError(Int)
}

extension _PatchAsyncOutcome {
    /// Continues the awaiting function with the value, or ends it (`resume`) with the failure.
    func then<Other>(_ resume: (_PatchAsyncOutcome<Other, Failure>) -> Void, _ next: (Value) -> Void) {
        switch self {
        case .value(let value): next(value)
        case .thrown(let error): resume(.thrown(error))
        case .urlError(let code): resume(.urlError(code))
        }
    }
}

extension _PatchAsyncOutcome {
    /// `try? await f()`: continues with the value, or with nil for any failure.
    func thenOptional(_ next: (Value?) -> Void) {
        if case .value(let value) = self { next(value) } else { next(nil) }
    }
}

extension _PatchAsyncOutcome where Failure == Never {
    /// An await that cannot throw (a request's transport failure aside) continues any function.
    func thenInfallible<Other, OtherFailure>(_ resume: (_PatchAsyncOutcome<Other, OtherFailure>) -> Void, _ next: (Value) -> Void) {
        switch self {
        case .value(let value): next(value)
        case .urlError(let code): resume(.urlError(code))
        }
    }
}

/// The state of the one top-level task a module runs at a time (the host pumps one call to the end).
struct _PatchExecutor {
    /// Runnable continuations, first in first out.
    var jobs: [() -> Void] = []
    var head = 0
    /// Continuations waiting for `patch_resolve(token, value)` (`Task.sleep`) and
    /// `patch_resolve_http(token, …)` (`URLSession`), by token.
    var valueWaiters: [Int32: (Int32) -> Void] = [:]
    var httpWaiters: [Int32: (Int32, Data) -> Void] = [:]
    var nextToken: Int32 = 1
    var done: Int32 = 0
    /// The finished task's packed JSON result (`patch_result_packed`), owned by the host once read.
    var result: Int64 = 0

    var pending: Int32 { Int32(jobs.count - head) }

    mutating func token() -> Int32 {
        defer { nextToken &+= 1 }
        return nextToken
    }
}

nonisolated(unsafe) var _patchExecutor = _PatchExecutor()

func _patchEnqueue(_ job: @escaping () -> Void) {
    _patchExecutor.jobs.append(job)
}

/// `patch_init`: a fresh executor before every kickoff (idempotent); a result the host never read is freed.
@_cdecl("patch_init")
public func _patch_init() {
    if _patchExecutor.result != 0 { patch_free(UnsafeMutableRawPointer(bitPattern: UInt(UInt64(bitPattern: _patchExecutor.result) >> 32))) }
    _patchExecutor = _PatchExecutor()
}

/// `patch_pump(budget)`: runs up to `budget` queued jobs, returns how many ran.
@_cdecl("patch_pump")
public func _patch_pump(_ budget: Int32) -> Int32 {
    var ran: Int32 = 0
    while ran < budget, _patchExecutor.head < _patchExecutor.jobs.count {
        let job = _patchExecutor.jobs[_patchExecutor.head]
        _patchExecutor.head += 1
        job()
        ran += 1
    }
    if _patchExecutor.head == _patchExecutor.jobs.count {
        _patchExecutor.jobs.removeAll(keepingCapacity: true)
        _patchExecutor.head = 0
    }
    return ran
}

@_cdecl("patch_pending")
public func _patch_pending() -> Int32 { _patchExecutor.pending }

@_cdecl("patch_done")
public func _patch_done() -> Int32 { _patchExecutor.done }

/// The task's `{"value": …}` / `{"thrown": …}` / `{"urlError": code}` / `{"error": …}` as a packed i64;
/// the host frees it (sdk-contract §2.3).
@_cdecl("patch_result_packed")
public func _patch_result_packed() -> Int64 {
    defer { _patchExecutor.result = 0 }
    return _patchExecutor.result
}

/// `patch_resolve(token, value)`: the answer to `async_request(token)`; its continuation is queued.
@_cdecl("patch_resolve")
public func _patch_resolve(_ token: Int32, _ value: Int32) {
    guard let waiter = _patchExecutor.valueWaiters.removeValue(forKey: token) else { return }
    _patchEnqueue { waiter(value) }
}

/// `patch_resolve_http(token, body, length, status)`: the body is the guest's to free (§2.3); status 0
/// is a transport failure.
@_cdecl("patch_resolve_http")
public func _patch_resolve_http(_ token: Int32, _ body: UnsafeMutablePointer<UInt8>?, _ length: Int32, _ status: Int32) {
    var data = Data()
    if let body {
        data = Data(UnsafeBufferPointer(start: body, count: Int(length)))
        patch_free(body)
    }
    guard let waiter = _patchExecutor.httpWaiters.removeValue(forKey: token) else { return }
    _patchEnqueue { waiter(status, data) }
}

/// A kickoff `patch_start_<export>(ptr, len)`: decodes the arguments now and queues the call
/// `body` returns (the host runs it with `patch_pump`); arguments it cannot decode finish the task
/// at once with `{"error": …}`, as `_patchExport` answers.
func _patchAsyncStart(
    _ input: UnsafePointer<UInt8>?, _ length: Int32,
    _ body: (_PatchJSONValue) throws(_PatchDecodeError) -> (() -> Void)
) {
    _patchDatesSince1970 = false
    _patchExecutor.done = 0
    do throws(_PatchDecodeError) {
        let arguments = try _PatchJSONReader.parse(input, length)
        guard arguments.isObject else { throw _PatchDecodeError("expected a JSON object of arguments") }
        _patchEnqueue(try body(arguments))
    } catch {
        _patchAsyncFinish { writer in writer.writeError(error) }
    }
}

/// Ends the task with the envelope `write` produces.
func _patchAsyncFinish(_ write: (inout _PatchJSONWriter) -> Void) {
    var writer = _PatchJSONWriter()
    write(&writer)
    _patchExecutor.result = writer.packedResult()
    _patchExecutor.done = 1
}

extension _PatchJSONWriter {
    /// A request the task awaited failed in transport (status 0): `{"urlError": code}`.
    mutating func writeURLErrorEnvelope(_ code: Int) {
        append("{\"urlError\":")
        writeInteger(Int64(code))
        append(UInt8(ascii: "}"))
    }

    /// A class's method whose request failed: the object as the task left it goes back too,
    /// `{"urlError": code, "self": …}` (the app writes back what changed, docs/async.md).
    mutating func writeURLErrorEnvelope<Receiver: _PatchJSONCodable>(_ code: Int, receiver: Receiver) {
        append("{\"urlError\":")
        writeInteger(Int64(code))
        append(",\"self\":")
        receiver._patchEncode(into: &self)
        append(UInt8(ascii: "}"))
    }
}

// MARK: - What transformed awaits call

/// `URLError.Code.unknown`: the SDK reports every transport failure as status 0, without its cause.
let _patchTransportFailure = -1

/// `try await URLSession.shared.data(from: url)`: `http_get`, resumed by `patch_resolve_http`.
func _patchHTTPGet(_ url: URL, _ resume: @escaping (_PatchAsyncOutcome<(Data, URLResponse), Never>) -> Void) {
    let token = _patchExecutor.token()
    _patchExecutor.httpWaiters[token] = { status, body in
        resume(status == 0 ? .urlError(_patchTransportFailure) : .value((body, HTTPURLResponse(url: url, statusCode: Int(status)))))
    }
    var text = url.absoluteString
    text.withUTF8 { patch_host_http_get($0.baseAddress, Int32($0.count), token) }
}

/// `try await URLSession.shared.data(for: request)`: `http_request` (method, URL and body; the SDK's
/// bridge carries no headers, so a request that sets any does not compile: `URLRequest` has no
/// `setValue(_:forHTTPHeaderField:)` here).
func _patchHTTPRequest(_ request: URLRequest, _ resume: @escaping (_PatchAsyncOutcome<(Data, URLResponse), Never>) -> Void) {
    let token = _patchExecutor.token()
    let url = request.url
    _patchExecutor.httpWaiters[token] = { status, body in
        resume(status == 0 ? .urlError(_patchTransportFailure) : .value((body, HTTPURLResponse(url: url, statusCode: Int(status)))))
    }
    var method = request.httpMethod ?? "GET"
    var text = url?.absoluteString ?? ""
    let body = Array(request.httpBody ?? Data())
    method.withUTF8 { method in
        text.withUTF8 { url in
            body.withUnsafeBufferPointer { body in
                patch_host_http_request(method.baseAddress, Int32(method.count), url.baseAddress, Int32(url.count),
                                        body.baseAddress, Int32(body.count), token)
            }
        }
    }
}

/// `try await Task.sleep(…)`: one round trip through `async_request`. The SDK answers it as soon as
/// the guest runs out of jobs, so the delay itself is not waited (docs/async.md).
func _patchSleep(_ resume: @escaping (_PatchAsyncOutcome<Void, Never>) -> Void) {
    let token = _patchExecutor.token()
    _patchExecutor.valueWaiters[token] = { _ in resume(.value(())) }
    patch_host_async_request(token)
}

func _patchSleep(nanoseconds: UInt64, _ resume: @escaping (_PatchAsyncOutcome<Void, Never>) -> Void) { _patchSleep(resume) }

func _patchSleep(for duration: Duration, _ resume: @escaping (_PatchAsyncOutcome<Void, Never>) -> Void) { _patchSleep(resume) }

/// `Task.yield()`: a suspension the guest resumes itself.
func _patchYield(_ resume: @escaping (_PatchAsyncOutcome<Void, Never>) -> Void) {
    _patchEnqueue { resume(.value(())) }
}

// MARK: - The URLSession surface awaited code reads

class URLResponse {
    let url: URL?

    init(url: URL?) { self.url = url }
}

final class HTTPURLResponse: URLResponse {
    let statusCode: Int

    init(url: URL?, statusCode: Int) {
        self.statusCode = statusCode
        super.init(url: url)
    }
}

/// What `data(for:)` sends: method, URL and body (no headers: the SDK's `http_request` has none).
struct URLRequest {
    var url: URL?
    var httpMethod: String?
    var httpBody: Data?

    init(url: URL) {
        self.url = url
        httpMethod = "GET"
    }
}

// MARK: - async let

/// `async let a = f()`: `f` starts when the declaration runs (its host request in flight with the
/// others'); each read of `a` waits for the one outcome (docs/async.md).
final class _PatchAsyncLet<Value, Failure: Error> {
    var outcome: _PatchAsyncOutcome<Value, Failure>?
    var waiter: ((_PatchAsyncOutcome<Value, Failure>) -> Void)?

    func complete(_ outcome: _PatchAsyncOutcome<Value, Failure>) {
        self.outcome = outcome
        if let waiter {
            self.waiter = nil
            waiter(outcome)
        }
    }

    func wait(_ resume: @escaping (_PatchAsyncOutcome<Value, Failure>) -> Void) {
        if let outcome { resume(outcome) } else { waiter = resume }
    }
}

/// Starts the continuation-passing call `start` makes and returns its handle.
func _patchAsyncLet<Value, Failure>(_ start: (@escaping (_PatchAsyncOutcome<Value, Failure>) -> Void) -> Void) -> _PatchAsyncLet<Value, Failure> {
    let handle = _PatchAsyncLet<Value, Failure>()
    start { handle.complete($0) }
    return handle
}
