import Foundation
import Hummingbird
import NIOCore
import PatchManifest
import Synchronization

/// The request context of `serve`'s routes: Hummingbird's core storage, the client's address (what
/// ties a full download to a diff fetched on the same connection: `DiffFallbacks`), and what the
/// handler learned of the request for its log line.
public struct ServerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// `ip:port` of the client's connection; nil when there is none (in-process tests).
    let connection: String?
    let notes: RequestNotes

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = source.channel.remoteAddress.flatMap { address in address.ipAddress.map { "\($0):\(address.port ?? 0)" } }
        notes = RequestNotes()
    }
}

/// The app and device of a check or event, set by its handler and read by `RequestObserver`
/// once the answer is made (the context a handler gets is a copy; this box is shared).
final class RequestNotes: Sendable {
    private let state = Mutex<(app: String?, device: String?)>((nil, nil))

    func note(appKey: String?, deviceID: String) {
        state.withLock { $0 = (appKey.map(RequestLog.appTag(ofKey:)), RequestLog.deviceBucket(of: deviceID)) }
    }

    var noted: (app: String?, device: String?) { state.withLock { $0 } }
}

/// Times every request and, once it is answered, writes its log line and records its duration and
/// status in the metrics. Outermost, so it sees the answer the client gets (JSON 404/405 included).
struct RequestObserver: RouterMiddleware {
    typealias Context = ServerRequestContext
    let log: RequestLog?
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - started
            metrics.answered(path: request.uri.path, status: status, after: elapsed)
            if let log {
                let noted = context.notes.noted
                log.write(RequestLog.Entry(
                    time: Date(), method: request.method.rawValue, path: String(request.uri.path.prefix(512)), status: status,
                    milliseconds: elapsed.inSeconds * 1000, app: noted.app, device: noted.device))
            }
        }
        let response = try await next(request, context)
        status = response.status.code
        return response
    }
}
