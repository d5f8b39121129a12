import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real network behind `patchcli run --allow-network`, for a request no fixture answers.
/// Blocking, like the SDK's own blocking bridges (sdk-contract §1.4: ~30 s waits); http and https
/// only, so a module can never read the host's files through a `file://` URL; the body is capped.
enum LiveHTTP {
    static let timeoutSeconds: TimeInterval = 30
    static let maxBodyBytes = 16 << 20

    /// The answer, or nil when the request fails as an offline device's would (bad URL, refused
    /// scheme, transport error, timeout, a body over the cap).
    static func fetch(method: String, url text: String) -> NetworkFixtures.Response? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return nil
        }
        var request = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        request.httpMethod = method
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, _ in
            if let response = response as? HTTPURLResponse, let data, data.count <= maxBodyBytes {
                outcome.set(NetworkFixtures.Response(status: Int32(clamping: response.statusCode), body: [UInt8](data)))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeoutSeconds + 1) == .timedOut {
            task.cancel()
            return nil
        }
        return outcome.value
    }

    /// The completion handler runs on URLSession's queue; the caller reads after the semaphore.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var response: NetworkFixtures.Response?

        func set(_ response: NetworkFixtures.Response) { lock.withLock { self.response = response } }
        var value: NetworkFixtures.Response? { lock.withLock { response } }
    }
}
