// Stand-in for PatchSDK's `Patch`: which exports the "active module" has, and what they return.
import Foundation

public final class Patch: @unchecked Sendable {
    public static let shared = Patch()

    /// View type names the active module's manifest routes (thunkSafe entries).
    public var routedViews: Set<String> = []
    /// Function exports of the active module and the JSON each returns.
    public var functionResults: [String: String] = [:]
    /// The JSON arguments of every callJSON call, in order.
    public var calls: [String] = []

    public func hasFunction(_ name: String) -> Bool { functionResults[name] != nil }

    public func callJSON<Arguments: Encodable, Result: Decodable>(_ name: String, _ arguments: Arguments) throws -> Result {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        calls.append(name + " " + String(decoding: try encoder.encode(arguments), as: UTF8.self))
        return try JSONDecoder().decode(Result.self, from: Data((functionResults[name] ?? "null").utf8))
    }
}
