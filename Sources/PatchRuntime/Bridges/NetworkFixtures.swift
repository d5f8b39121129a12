import Foundation

/// Canned HTTP answers for `patchcli run --fixtures FILE`: every network bridge answers from here, so a
/// run never depends on the real network.
///
/// File format (JSON object; keys are `"URL"` for a GET or `"METHOD URL"` for any method):
///
///     {
///       "https://api.example.com/prices": {"status": 200, "body": "{\"eur\":1}"},
///       "POST https://api.example.com/orders": {"status": 201, "body_base64": "AAEC"}
///     }
///
/// `status` defaults to 200; a response carries at most one of `body` (UTF-8 text) and `body_base64`;
/// neither means an empty body.
public struct NetworkFixtures: Sendable, Equatable {
    public struct Response: Sendable, Equatable {
        public var status: Int32
        public var body: [UInt8]

        public init(status: Int32, body: [UInt8]) {
            self.status = status
            self.body = body
        }
    }

    /// Responses keyed by `"METHOD URL"` with the method upper-cased.
    public private(set) var responses: [String: Response]

    public static let empty = NetworkFixtures(responses: [:])

    public init(responses: [String: Response]) {
        var normalized: [String: Response] = [:]
        for (key, response) in responses {
            normalized[NetworkFixtures.normalizedKey(key)] = response
        }
        self.responses = normalized
    }

    /// The canned answer for `method url` (an empty method means GET, as on the device).
    public func response(method: String, url: String) -> Response? {
        responses[NetworkFixtures.requestKey(method: method, url: url)]
    }

    static func requestKey(method: String, url: String) -> String {
        let verb = method.isEmpty ? "GET" : method.uppercased()
        return "\(verb) \(url)"
    }

    /// `"URL"` ⇒ `"GET URL"`; `"post URL"` ⇒ `"POST URL"`.
    private static func normalizedKey(_ key: String) -> String {
        let parts = key.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        if parts.count == 2 {
            return requestKey(method: String(parts[0]), url: String(parts[1]))
        }
        return requestKey(method: "GET", url: key.trimmingCharacters(in: .whitespaces))
    }

    /// Parses the fixtures file format described on the type. `source` names the file in errors.
    public static func parse(_ data: Data, source: String) throws(NetworkFixturesError) -> NetworkFixtures {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformedJSON(source: source, detail: "\(error.localizedDescription)")
        }
        guard let entries = object as? [String: Any] else {
            throw .notAnObject(source: source)
        }
        var responses: [String: Response] = [:]
        for key in entries.keys.sorted() {
            guard let entry = entries[key] as? [String: Any] else {
                throw .invalidEntry(source: source, key: key, detail: "the value must be an object {\"status\", \"body\"}")
            }
            let unknown = Set(entry.keys).subtracting(["status", "body", "body_base64"])
            if let field = unknown.sorted().first {
                throw .invalidEntry(
                    source: source, key: key,
                    detail: "unknown field \"\(field)\" (allowed: status, body, body_base64)")
            }
            var status: Int32 = 200
            if let rawStatus = entry["status"] {
                guard let number = rawStatus as? Int, let value = Int32(exactly: number), (0...999).contains(value)
                else {
                    throw .invalidEntry(source: source, key: key, detail: "\"status\" must be an integer 0…999")
                }
                status = value
            }
            if entry["body"] != nil && entry["body_base64"] != nil {
                throw .invalidEntry(source: source, key: key, detail: "give either \"body\" or \"body_base64\", not both")
            }
            var body: [UInt8] = []
            if let rawBody = entry["body"] {
                guard let text = rawBody as? String else {
                    throw .invalidEntry(source: source, key: key, detail: "\"body\" must be a string")
                }
                body = Array(text.utf8)
            } else if let rawBase64 = entry["body_base64"] {
                guard let text = rawBase64 as? String, let decoded = Data(base64Encoded: text) else {
                    throw .invalidEntry(source: source, key: key, detail: "\"body_base64\" must be valid base64 text")
                }
                body = Array(decoded)
            }
            let normalized = normalizedKey(key)
            if responses[normalized] != nil {
                throw .invalidEntry(source: source, key: key, detail: "duplicates another key for \(normalized)")
            }
            responses[normalized] = Response(status: status, body: body)
        }
        return NetworkFixtures(responses: responses)
    }
}

public enum NetworkFixturesError: Error, CustomStringConvertible, Equatable {
    case malformedJSON(source: String, detail: String)
    case notAnObject(source: String)
    case invalidEntry(source: String, key: String, detail: String)

    public var description: String {
        switch self {
        case .malformedJSON(let source, let detail):
            return "fixtures file \(source) is not valid JSON: \(detail)"
        case .notAnObject(let source):
            return "fixtures file \(source) must contain a JSON object mapping \"URL\" or \"METHOD URL\" to {\"status\", \"body\"}"
        case .invalidEntry(let source, let key, let detail):
            return "fixtures file \(source), entry \"\(key)\": \(detail)"
        }
    }
}
