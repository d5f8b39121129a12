import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What Native.swift and NativeFlow.swift share: URLSession answered from fixtures.json (the file
// `run --fixtures` reads) and each outcome printed as the module's envelope would be.

/// The project's `URLSession.shared.data(from:)` and `data(for:)` resolve to this type, which the
/// module declares (a module's own type shadows Foundation's): it answers from the fixtures as `run`
/// does, an unknown URL failing in transport, after a real suspension as a network answer has.
/// Not a URLProtocol: FoundationNetworking's task registry on Linux crashes now and then under load
/// ("Trying to access a behaviour for a task that in not in the registry"), failing the comparison
/// for a reason that is neither the module's nor the native code's.
final class URLSession: @unchecked Sendable {
    static let shared = URLSession()
    var fixtures: [String: [String: Any]] = [:]

    func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        await Task.yield()
        guard let url = request.url,
              let entry = fixtures[(request.httpMethod ?? "GET") + " " + url.absoluteString] ?? fixtures[url.absoluteString] else {
            throw URLError(.notConnectedToInternet)
        }
        let response = HTTPURLResponse(url: url, statusCode: entry["status"] as? Int ?? 200, httpVersion: nil, headerFields: nil)!
        return (Data((entry["body"] as? String ?? "").utf8), response)
    }
}

/// One outcome as the module's envelope says it: `{"value":…}`, `{"thrown":{…}}` or `{"urlError":…}`.
func envelope<T: Encodable>(_ body: () async throws -> T) async -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    do {
        let value = try await body()
        return #"{"value":"# + String(decoding: try! encoder.encode(value), as: UTF8.self) + "}"
    } catch let error as QuoteError {
        return #"{"thrown":{"type":"QuoteError","value":"# + String(decoding: try! encoder.encode(String(decoding: try! encoder.encode(error), as: UTF8.self)), as: UTF8.self) + "}}"
    } catch is URLError {
        return #"{"urlError":-1}"#
    } catch {
        return "unexpected \(error)"
    }
}

/// Reads the fixtures named by the first argument, which every URLSession request is answered from.
func answerFromFixtures() {
    URLSession.shared.fixtures = try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))) as! [String: [String: Any]]
}
