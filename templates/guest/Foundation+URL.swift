// Guest Foundation layer (see Foundation.swift): URL, URLComponents and URLQueryItem over one RFC 3986
// parser, with Foundation's (iOS 17+, swift-foundation) behaviour for what real code does with
// them: `URL(string:)` percent-encodes characters a component does not allow (a space becomes %20, a
// lone % becomes %25) and is nil only for an invalid scheme, host or port; `path` is decoded and loses
// a trailing slash; `query` and `fragment` stay encoded; query items encode `&` and `=` besides.
// JSON (function glue, JSONEncoder's default) and a view's inputs (sdk-contract §5.4) carry a URL as
// its absolute string. Relative URLs (`relativeTo:`), file-system resolution and IDNA hosts are not
// here: the guest has no file system and no IDNA tables.

// MARK: - Percent-encoding

extension StringProtocol {
    /// Every UTF-8 byte of a scalar outside `allowed` as %XX (upper-case hex), as Foundation writes
    /// it; like Foundation, only ASCII is ever left as it is.
    func addingPercentEncoding(withAllowedCharacters allowed: CharacterSet) -> String? {
        _patchPercentEncoded { $0.isASCII && allowed.contains($0) }
    }

    /// The string with %XX sequences decoded; nil for a malformed sequence or bytes that are not UTF-8.
    var removingPercentEncoding: String? {
        var bytes: [UInt8] = []
        var utf8 = self.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(_patchHexValue), let low = utf8.next().flatMap(_patchHexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Encodes the scalars `allowed` rejects; with `keepingEscapes`, a valid %XX stays as it is
    /// (what URL(string:) does with an already-encoded string) and only a stray % is encoded.
    func _patchPercentEncoded(keepingEscapes: Bool = false, _ allowed: (Unicode.Scalar) -> Bool) -> String {
        var result = ""
        let scalars = Array(unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if keepingEscapes, scalar == "%", index + 2 < scalars.count,
               _patchHexValue(UInt8(truncatingIfNeeded: scalars[index + 1].value)) != nil, scalars[index + 1].isASCII,
               _patchHexValue(UInt8(truncatingIfNeeded: scalars[index + 2].value)) != nil, scalars[index + 2].isASCII {
                result.unicodeScalars.append(contentsOf: scalars[index...(index + 2)])
                index += 3
                continue
            }
            if allowed(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    result.unicodeScalars.append("%")
                    result.unicodeScalars.append(_patchHexDigit(byte >> 4))
                    result.unicodeScalars.append(_patchHexDigit(byte & 0xF))
                }
            }
            index += 1
        }
        return result
    }
}

func _patchHexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}

func _patchHexDigit(_ value: UInt8) -> Unicode.Scalar {
    Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
}

// MARK: - Parsing

/// A URL string split into its RFC 3986 components, each as it is written (percent-encoded).
struct _PatchURLParts: Hashable {
    var scheme: String?
    var user: String?
    var password: String?
    /// Present (possibly empty) when the string has an authority (`//…`).
    var host: String?
    /// The port's digits as written: `https://h.com:/x` has an empty one (and no `port`).
    var portText: String?
    var path = ""
    var query: String?
    var fragment: String?

    /// Parses `string`, encoding what each component does not allow; nil where Foundation's
    /// URL(string:) is nil: an empty string, an invalid scheme, host or port.
    init?(parsing string: String, encodingInvalidCharacters: Bool) {
        guard !string.isEmpty else { return nil }
        // Scalars, not Characters: URL syntax is ASCII, and grapheme breaking would link its tables.
        var rest = Substring(string).unicodeScalars
        // A ':' before any '/', '?' or '#' ends a scheme, which must then be valid.
        if let colon = rest.firstIndex(where: { $0 == ":" || $0 == "/" || $0 == "?" || $0 == "#" }), rest[colon] == ":" {
            // Foundation takes an empty scheme ("://host") too.
            let candidate = rest[..<colon]
            guard candidate.first.map(Self.isASCIILetter) ?? true,
                  candidate.allSatisfy({ Self.isASCIILetter($0) || Self.isASCIIDigit($0) || $0 == "+" || $0 == "-" || $0 == "." })
            else { return nil }
            scheme = String(String.UnicodeScalarView(candidate))
            rest = rest[rest.index(after: colon)...]
        }
        if let hash = rest.firstIndex(of: "#") {
            fragment = Self.encode(rest[rest.index(after: hash)...], encodingInvalidCharacters) { _patchURLAllows($0, ":@/?") }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = Self.encode(rest[rest.index(after: question)...], encodingInvalidCharacters) { _patchURLAllows($0, ":@/?") }
            rest = rest[..<question]
        }
        if rest.starts(with: ["/", "/"] as [Unicode.Scalar]) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<end]
            rest = rest[end...]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                authority = authority[authority.index(after: at)...]
                let colon = userInfo.firstIndex(of: ":")
                user = Self.encode(userInfo[..<(colon ?? userInfo.endIndex)], encodingInvalidCharacters) { _patchURLAllows($0, "") }
                if let colon {
                    password = Self.encode(userInfo[userInfo.index(after: colon)...], encodingInvalidCharacters) { _patchURLAllows($0, "") }
                }
            }
            // The port follows the last ':', or for an IPv6 literal the ':' right after its brackets.
            let portColon: Substring.Index?
            if authority.first == "[" {
                let hostEnd = authority.firstIndex(of: "]").map { authority.index(after: $0) } ?? authority.endIndex
                portColon = hostEnd < authority.endIndex && authority[hostEnd] == ":" ? hostEnd : nil
            } else {
                portColon = authority.lastIndex(of: ":")
            }
            if let colon = portColon {
                let digits = authority[authority.index(after: colon)...]
                guard digits.allSatisfy(Self.isASCIIDigit) else { return nil }
                portText = String(String.UnicodeScalarView(digits))
                authority = authority[..<colon]
            }
            // A host is never encoded: an invalid one makes the URL nil.
            guard authority.allSatisfy({ _patchURLAllows($0, ":[]") || $0 == "%" }) else { return nil }
            host = String(String.UnicodeScalarView(authority))
        }
        path = Self.encode(rest, encodingInvalidCharacters) { _patchURLAllows($0, ":@/") }
    }

    init() {}

    private static func encode(_ text: Substring.UnicodeScalarView, _ encodingInvalidCharacters: Bool, _ allowed: (Unicode.Scalar) -> Bool) -> String {
        let text = String(String.UnicodeScalarView(text))
        return encodingInvalidCharacters ? text._patchPercentEncoded(keepingEscapes: true, allowed) : text
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }

    var port: Int? { portText.flatMap { Int($0) } }

    var string: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let host {
            text += "//"
            if let user {
                text += user
                if let password { text += ":" + password }
                text += "@"
            }
            text += host
            if let portText { text += ":" + portText }
        }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// The encoded path's last segment, as Foundation's lastPathComponent finds it (a trailing
    /// slash is ignored, "/" is its own last component).
    var lastSegment: Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/" else { return trimmed }
        return trimmed[(trimmed.lastIndex(of: "/").map { trimmed.index(after: $0) } ?? trimmed.startIndex)...]
    }
}

// MARK: - URL

struct URL: Hashable, CustomStringConvertible {
    private var parts: _PatchURLParts

    fileprivate init(parts: _PatchURLParts) { self.parts = parts }

    init?(string: String) {
        guard let parts = _PatchURLParts(parsing: string, encodingInvalidCharacters: true) else { return nil }
        self.parts = parts
    }

    init?(string: String, encodingInvalidCharacters: Bool) {
        guard let parts = _PatchURLParts(parsing: string, encodingInvalidCharacters: encodingInvalidCharacters) else { return nil }
        self.parts = parts
    }

    var absoluteString: String { parts.string }
    var description: String { absoluteString }
    var scheme: String? { parts.scheme }
    /// Decoded, without an IPv6 literal's brackets.
    var host: String? {
        guard var host = parts.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.removingPercentEncoding ?? host
    }
    var port: Int? { parts.port }
    var user: String? { parts.user.map { $0.removingPercentEncoding ?? $0 } }
    var password: String? { parts.password.map { $0.removingPercentEncoding ?? $0 } }
    /// Decoded, without a trailing slash (but "/" itself).
    var path: String {
        var path = Substring(parts.path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path.removingPercentEncoding ?? String(path)
    }
    var query: String? { parts.query }
    var fragment: String? { parts.fragment }

    var lastPathComponent: String {
        let segment = parts.lastSegment
        return segment.removingPercentEncoding ?? String(segment)
    }

    var pathExtension: String {
        let last = lastPathComponent
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        return String(last[last.index(after: dot)...])
    }

    var pathComponents: [String] {
        var components: [String] = []
        if parts.path.hasPrefix("/") { components.append("/") }
        for segment in parts.path.split(separator: "/") { components.append(segment.removingPercentEncoding ?? String(segment)) }
        return components
    }

    /// `component` encoded for a path (a space as %20, `?` and `#` too), after a slash.
    func appendingPathComponent(_ component: String) -> URL {
        appending(encodedPath: component._patchPercentEncoded { _patchURLAllows($0, ":@/") })
    }

    func appending<Component: StringProtocol>(path component: Component) -> URL {
        appending(encodedPath: component._patchPercentEncoded { _patchURLAllows($0, ":@/") })
    }

    func appending<Component: StringProtocol>(component: Component) -> URL {
        appending(encodedPath: component._patchPercentEncoded { _patchURLAllows($0, ":@/") && $0 != "/" })
    }

    private func appending(encodedPath component: String) -> URL {
        var copy = parts
        if !copy.path.hasSuffix("/") && !(copy.path.isEmpty && copy.host == nil) { copy.path += "/" }
        copy.path += component.hasPrefix("/") ? String(component.dropFirst()) : component
        return URL(parts: copy)
    }

    func appendingPathExtension(_ pathExtension: String) -> URL {
        guard !parts.lastSegment.isEmpty else { return self }
        var copy = parts
        let trailingSlash = copy.path.count > 1 && copy.path.hasSuffix("/")
        if trailingSlash { copy.path.removeLast() }
        copy.path += "." + pathExtension._patchPercentEncoded { _patchURLAllows($0, ":@/") }
        if trailingSlash { copy.path += "/" }
        return URL(parts: copy)
    }

    func deletingLastPathComponent() -> URL {
        var copy = parts
        let segment = parts.lastSegment
        guard segment != "/", !segment.isEmpty else { return self }
        copy.path = String(parts.path[..<segment.startIndex])
        // A relative reference's only segment leaves the current directory.
        if copy.path.isEmpty, copy.host == nil, copy.scheme == nil { copy.path = "./" }
        return URL(parts: copy)
    }

    func deletingPathExtension() -> URL {
        let segment = parts.lastSegment
        guard let dot = segment.lastIndex(of: "."), dot != segment.startIndex else { return self }
        var copy = parts
        copy.path = String(parts.path[..<dot]) + parts.path[segment.endIndex...]
        return URL(parts: copy)
    }

    mutating func appendPathComponent(_ component: String) { self = appendingPathComponent(component) }

    func appending(queryItems: [URLQueryItem]) -> URL {
        var copy = parts
        let added = URLQueryItem._encoded(queryItems)
        copy.query = copy.query.map { $0.isEmpty ? added : $0 + "&" + added } ?? added
        return URL(parts: copy)
    }

    mutating func append(queryItems: [URLQueryItem]) { self = appending(queryItems: queryItems) }
}

extension URL: _PatchJSONCodable {
    /// JSONEncoder writes a URL as its absolute string.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let url = URL(string: try String(_patchJSON: value)) else { throw _PatchDecodeError("expected a URL string") }
        self = url
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { absoluteString._patchEncode(into: &writer) }
}

// MARK: - URLComponents

struct URLQueryItem: Hashable {
    var name: String
    var value: String?

    init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// `name=value&…`, each encoded for a query with `&` and `=` encoded besides (`+` stays).
    static func _encoded(_ items: [URLQueryItem]) -> String {
        func encode(_ text: String) -> String {
            text._patchPercentEncoded { _patchURLAllows($0, ":@/?") && $0 != "&" && $0 != "=" }
        }
        var query = ""
        for (position, item) in items.enumerated() {
            if position > 0 { query += "&" }
            query += encode(item.name)
            if let value = item.value { query += "=" + encode(value) }
        }
        return query
    }
}

struct URLComponents: Hashable {
    private var parts = _PatchURLParts()

    init() {}

    init?(string: String) {
        guard let parts = _PatchURLParts(parsing: string, encodingInvalidCharacters: true) else { return nil }
        self.parts = parts
    }

    init?(url: URL, resolvingAgainstBaseURL resolve: Bool) {
        self.init(string: url.absoluteString)
    }

    var url: URL? { URL(string: string ?? "") }

    var string: String? { parts.string }

    var scheme: String? {
        get { parts.scheme }
        set { parts.scheme = newValue }
    }

    var host: String? {
        get { parts.host.map { $0.removingPercentEncoding ?? $0 } }
        set { parts.host = newValue?._patchPercentEncoded { _patchURLAllows($0, ":[]") } }
    }

    var percentEncodedHost: String? {
        get { parts.host }
        set { parts.host = newValue }
    }

    var port: Int? {
        get { parts.port }
        set { parts.portText = newValue.map { String($0) } }
    }

    var user: String? {
        get { parts.user.map { $0.removingPercentEncoding ?? $0 } }
        set { parts.user = newValue?._patchPercentEncoded { _patchURLAllows($0, "") } }
    }

    var password: String? {
        get { parts.password.map { $0.removingPercentEncoding ?? $0 } }
        set { parts.password = newValue?._patchPercentEncoded { _patchURLAllows($0, "") } }
    }

    /// Decoded, as set (no trailing slash removed).
    var path: String {
        get { parts.path.removingPercentEncoding ?? parts.path }
        set { parts.path = newValue._patchPercentEncoded { _patchURLAllows($0, ":@/") } }
    }

    var percentEncodedPath: String {
        get { parts.path }
        set { parts.path = newValue }
    }

    var query: String? {
        get { parts.query.map { $0.removingPercentEncoding ?? $0 } }
        set { parts.query = newValue?._patchPercentEncoded { _patchURLAllows($0, ":@/?") } }
    }

    var percentEncodedQuery: String? {
        get { parts.query }
        set { parts.query = newValue }
    }

    var fragment: String? {
        get { parts.fragment.map { $0.removingPercentEncoding ?? $0 } }
        set { parts.fragment = newValue?._patchPercentEncoded { _patchURLAllows($0, ":@/?") } }
    }

    /// The query split at `&` and at each item's first `=`, decoded (a `+` stays a `+`); nil without a query.
    var queryItems: [URLQueryItem]? {
        get {
            guard let query = parts.query else { return nil }
            guard !query.isEmpty else { return [] }
            return query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return URLQueryItem(name: pair.removingPercentEncoding ?? String(pair), value: nil) }
                let name = pair[..<equals], value = pair[pair.index(after: equals)...]
                return URLQueryItem(name: name.removingPercentEncoding ?? String(name), value: value.removingPercentEncoding ?? String(value))
            }
        }
        set { parts.query = newValue.map(URLQueryItem._encoded) }
    }
}
