import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The real network behind `patchcli run --allow-network`, for a request no fixture answers.
/// Blocking, like the SDK's own blocking bridges (sdk-contract §1.4: ~30 s waits); http and https
/// only, so a module can never read the host's files through a `file://` URL (redirects stay on
/// http and https too: AsyncHTTPClient follows no other scheme); the body is capped.
enum LiveHTTP {
    static let timeout: TimeAmount = .seconds(30)
    static let maxBodyBytes = 16 << 20

    /// The answer, or nil when the request fails as an offline device's would (bad URL, refused
    /// scheme, transport error, timeout, a body over the cap).
    static func fetch(method: String, url text: String) -> NetworkFixtures.Response? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let request = try? HTTPClient.Request(url: url, method: HTTPMethod(rawValue: method))
        else { return nil }
        // The accumulator ends the request once the body passes the cap (ResponseTooBigError).
        let accumulator = ResponseAccumulator(request: request, maxBodySize: maxBodyBytes)
        let task = HTTPClient.shared.execute(request: request, delegate: accumulator, deadline: .now() + timeout)
        guard let response = try? task.wait() else { return nil }
        return NetworkFixtures.Response(
            status: Int32(clamping: Int(response.status.code)), body: response.body.map { Array($0.readableBytesView) } ?? [])
    }
}
