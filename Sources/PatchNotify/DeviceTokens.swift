import Foundation

/// The device tokens to notify: one hex token per line, as an app reports
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`'s bytes in hex. Blank lines
/// and lines starting with `#` are skipped; a token repeated is sent once.
public enum DeviceTokens {
    /// APNs device tokens are 32 bytes today; Apple says their length may change, so only the
    /// shape is checked: an even number of hex digits, at least 16 bytes, at most 100.
    static let byteRange = 16...100

    public static func parse(_ text: String, source: String) throws(NotifyError) -> [String] {
        var tokens: [String] = []
        var seen: Set<String> = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if let bad = line.first(where: { !($0.isASCII && $0.isHexDigit) }) {
                throw .deviceTokenInvalid(source: source, line: index + 1, reason: "\"\(line.prefix(80))\" is not a hex device token (\"\(bad)\" is not a hex digit)")
            }
            guard line.count % 2 == 0, byteRange.contains(line.count / 2) else {
                throw .deviceTokenInvalid(source: source, line: index + 1, reason: "a device token is an even number of hex digits, \(byteRange.lowerBound * 2) to \(byteRange.upperBound * 2) (64 today), got \(line.count)")
            }
            let token = line.lowercased()
            if seen.insert(token).inserted { tokens.append(token) }
        }
        return tokens
    }
}
