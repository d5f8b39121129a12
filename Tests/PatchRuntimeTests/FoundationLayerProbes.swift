import Foundation

// Compiled twice: natively into the test target against Foundation, and by `patchcli build` (read
// from this file's text) into a guest module with the guest Foundation layer.
// FoundationStringLayerTests calls both on the same inputs and expects the same answers, so this
// file must stay within what the layer has (templates/guest/Foundation+String/Format/URL/UUID/Data/JSON.swift).

/// Each sample through the String and CharacterSet API, one line per sample.
func probeStrings(_ samples: [String]) -> [String] {
    samples.map { sample in
        var parts: [String] = []
        parts.append(sample.trimmingCharacters(in: .whitespacesAndNewlines))
        parts.append(sample.trimmingCharacters(in: .whitespaces))
        parts.append(sample.trimmingCharacters(in: .letters))
        parts.append(sample.trimmingCharacters(in: .punctuationCharacters))
        parts.append(sample.trimmingCharacters(in: CharacterSet(charactersIn: " \u{301}l")))
        parts.append(sample.components(separatedBy: ",").joined(separator: "¦"))
        parts.append(sample.components(separatedBy: "e").joined(separator: "¦"))
        parts.append(sample.components(separatedBy: .newlines).joined(separator: "¦"))
        parts.append(sample.components(separatedBy: .whitespacesAndNewlines).joined(separator: "¦"))
        parts.append(sample.replacingOccurrences(of: "e", with: "E"))
        parts.append(sample.replacingOccurrences(of: "é", with: "[é]"))
        parts.append(sample.replacingOccurrences(of: " ", with: ""))
        parts.append("\(sample.contains("é")) \(sample.contains("ll")) \(sample.contains(""))")
        if let range = sample.range(of: "l") { parts.append(String(sample[..<range.lowerBound])) }
        parts.append(sample.capitalized)
        parts.append(sample.lowercased() + sample.uppercased())
        parts.append("\(sample.caseInsensitiveCompare(sample.uppercased()) == .orderedSame)")
        parts.append("\(sample.localizedCaseInsensitiveContains("LL")) \(sample.localizedCaseInsensitiveContains("É"))")
        parts.append(String(sample.unicodeScalars.filter(CharacterSet.alphanumerics.contains)))
        parts.append(String(sample.unicodeScalars.filter { CharacterSet.decimalDigits.union(.symbols).contains($0) }))
        parts.append(sample.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "nil")
        parts.append(sample.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)?.removingPercentEncoding ?? "nil")
        return parts.joined(separator: " | ")
    }
}

/// Ordering by case-insensitive comparison (samples without accents: see docs/guest-foundation.md).
func probeOrdering(_ words: [String]) -> [String] {
    words.sorted { $0.caseInsensitiveCompare($1) == .orderedAscending }
}

/// printf's conversions as real code writes them.
func probeFormat(_ values: [Double], _ integers: [Int]) -> [String] {
    values.map { value in
        String(format: "%.0f %.1f %.2f %.3f %f %08.2f %-8.1f| %+.1f", value, value, value, value, value, value, value, value)
    } + integers.map { value in
        String(format: "%d %02d %5d %-5d| %x %02X %o %ld %lx %@", value, value, value, value, value, value, value, value, value, "\(value)")
    }
}

/// Each URL string's components, through URL and URLComponents.
func probeURLs(_ strings: [String]) -> [String] {
    strings.map { string in
        guard let url = URL(string: string) else { return "nil" }
        var parts = [url.absoluteString, url.scheme ?? "-", url.host ?? "-", url.path, url.query ?? "-", url.fragment ?? "-",
                     url.port.map { "\($0)" } ?? "-", url.lastPathComponent, url.pathExtension, url.pathComponents.joined(separator: "¦")]
        parts.append(url.appendingPathComponent("a b/c?d").absoluteString)
        parts.append(url.appending(path: "v/w").absoluteString)
        parts.append(url.appending(queryItems: [URLQueryItem(name: "k", value: "v w&=+")]).absoluteString)
        parts.append(url.deletingLastPathComponent().absoluteString)
        parts.append(url.deletingPathExtension().appendingPathExtension("json").absoluteString)
        if let components = URLComponents(string: string) {
            parts.append(components.queryItems?.map { "\($0.name)=\($0.value ?? "nil")" }.joined(separator: "¦") ?? "no query")
            parts.append(components.percentEncodedQuery ?? "-")
            parts.append(components.path)
        }
        return parts.joined(separator: " | ")
    }
}

/// A request URL built from parts, as networking code does.
func probeComponents(host: String, path: String, query: [String: String]) -> String {
    var components = URLComponents()
    components.scheme = "https"
    components.host = host
    components.path = path
    components.queryItems = query.keys.sorted().map { URLQueryItem(name: $0, value: query[$0]) } + [URLQueryItem(name: "flag", value: nil)]
    return (components.url?.absoluteString ?? "nil") + " | " + (components.string ?? "nil")
}

/// UUID strings normalized (or rejected), and Data through base64 and UTF-8.
func probeIdentifiersAndData(_ strings: [String]) -> [String] {
    strings.map { string in
        let uuid = UUID(uuidString: string)?.uuidString ?? "no uuid"
        let data = Data(string.utf8)
        let base64 = data.base64EncodedString()
        let back = Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) } ?? "nil"
        let decoded = Data(base64Encoded: string).map { "\($0.count) bytes" } ?? "not base64"
        let ascii = string.data(using: .ascii).map { "\($0.count)" } ?? "not ascii"
        return [uuid, base64, back, decoded, ascii, "\(data.count) \(data.prefix(2).count) \(data.dropFirst().startIndex)"].joined(separator: " | ")
    }
}

/// A Codable model with renamed keys, decoded, changed and encoded again.
struct ProbeProfile: Codable {
    var id: UUID
    var displayName: String
    var homepage: URL?
    var avatar: Data
    var tags: [String]
    var localOnly: Bool = false

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name"
        case homepage, avatar, tags
    }
}

func probeJSON(_ json: String) -> String {
    let profile: ProbeProfile
    do {
        profile = try JSONDecoder().decode(ProbeProfile.self, from: Data(json.utf8))
    } catch {
        return "undecodable"
    }
    var changed = profile
    changed.tags.append(profile.displayName.lowercased())
    changed.homepage = profile.homepage?.appendingPathComponent("about")
    guard let encoded = try? JSONEncoder().encode(changed) else { return "unencodable" }
    return String(data: encoded, encoding: .utf8) ?? "not UTF-8"
}

/// An encoder configured in place (JSONEncoder is a class), without escaping slashes.
func probeUnescapedSlashes(_ strings: [String]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    let urls = strings.compactMap { URL(string: $0) }
    guard let encoded = try? encoder.encode(urls) else { return "unencodable" }
    return String(data: encoded, encoding: .utf8) ?? "not UTF-8"
}
