import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What Native.swift and NativeFlow.swift share: URLSession answered from fixtures.json (the file
// `run --fixtures` reads) and each outcome printed as the module's envelope would be.

/// Answers every request from the fixtures as `run` does: an unknown URL fails in transport.
final class FixtureProtocol: URLProtocol {
    nonisolated(unsafe) static var fixtures: [String: [String: Any]] = [:]
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        guard let url = request.url,
              let entry = Self.fixtures[(request.httpMethod ?? "GET") + " " + url.absoluteString] ?? Self.fixtures[url.absoluteString] else {
            client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
            return
        }
        let response = HTTPURLResponse(url: url, statusCode: entry["status"] as? Int ?? 200, httpVersion: nil, headerFields: nil)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data((entry["body"] as? String ?? "").utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
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

/// Reads the fixtures named by the first argument and answers every URLSession request from them.
func answerFromFixtures() {
    FixtureProtocol.fixtures = try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))) as! [String: [String: Any]]
    URLProtocol.registerClass(FixtureProtocol.self)
}
