// Stand-in for PatchSDK 1.4.0's public API, exactly as sdk-contract §11 quotes it (labels, defaults,
// generics, effects): a call the real SDK rejects fails to compile here too. Behaviour is only what
// the runtime test needs; members prefixed `standIn` are test control, not SDK API.
import Foundation

public struct WASIConfig: Sendable {
    public static let `default` = WASIConfig()
}

public enum PatchChannel: Sendable, Hashable {
    case production, staging, development
    case custom(String)

    public init(_ name: String) {
        switch name {
        case "production": self = .production
        case "staging": self = .staging
        case "development": self = .development
        default: self = .custom(name)
        }
    }
}

public struct PatchConfiguration: Sendable {
    public static let defaultAPIBaseURL = URL(string: "https://api.patchrelease.com/api/v1")!

    public var appKey: String
    public var fingerprint: String?
    public var channel: PatchChannel

    public init(appKey: String, appID: String? = nil, apiBaseURL: URL? = PatchConfiguration.defaultAPIBaseURL,
                fingerprint: String? = nil, deviceID: String? = nil, channel: PatchChannel = .production,
                cohort: String? = nil, autoApply: Bool = true, nativeFallbackEnabled: Bool = true,
                wasiConfig: WASIConfig = .default) {
        self.appKey = appKey
        self.fingerprint = fingerprint
        self.channel = channel
    }

    public init(appKey: String, appID: String? = nil, apiBaseURL: URL? = PatchConfiguration.defaultAPIBaseURL,
                fingerprint: String? = nil, deviceID: String? = nil, channelName: String,
                cohort: String? = nil, autoApply: Bool = true, nativeFallbackEnabled: Bool = true,
                wasiConfig: WASIConfig = .default) {
        self.init(appKey: appKey, appID: appID, apiBaseURL: apiBaseURL, fingerprint: fingerprint, deviceID: deviceID,
                  channel: PatchChannel(channelName), cohort: cohort, autoApply: autoApply,
                  nativeFallbackEnabled: nativeFallbackEnabled, wasiConfig: wasiConfig)
    }
}

/// What `start()` did. §11 does not list its cases, so the stand-in exposes none: generated code
/// may only discard it.
public struct StartOutcome: Sendable {}

public struct StandInError: Error {}

public final class Patch: @unchecked Sendable {
    public static let shared = Patch()

    /// Test control: the configuration `configure` received.
    public var standInConfiguration: PatchConfiguration?
    /// Test control: view type names the active module routes.
    public var standInRoutedViews: Set<String> = []
    /// Test control: function exports of the active module and the JSON each returns.
    public var standInFunctionResults: [String: String] = [:]
    /// Test control: every callJSON call, as `export <JSON of the argument>`, in order.
    public var standInCalls: [String] = []

    public static func configure(_ configuration: PatchConfiguration) {
        shared.standInConfiguration = configuration
    }

    @discardableResult
    public func start() async -> StartOutcome { StartOutcome() }

    public func hasFunction(_ function: String) -> Bool { standInFunctionResults[function] != nil }

    public func callJSON<A: Encodable, R: Decodable>(_ function: String, _ argument: A, returning: R.Type) throws -> R {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        standInCalls.append(function + " " + String(decoding: try encoder.encode(argument), as: UTF8.self))
        guard let result = standInFunctionResults[function] else { throw StandInError() }
        return try JSONDecoder().decode(R.self, from: Data(result.utf8))
    }

    public func callPacked(_ function: String, _ inputBytes: [UInt8]) throws -> [UInt8] { throw StandInError() }

    /// Answers as `callJSON` does: records `export <the input, keys sorted>` and returns the export's
    /// result from `standInFunctionResults` (the packed result a module's task ends with).
    public func callPackedAsync(_ function: String, _ inputBytes: [UInt8], resultExport: String) throws -> [UInt8] {
        let input = try JSONSerialization.jsonObject(with: Data(inputBytes))
        let sorted = try JSONSerialization.data(withJSONObject: input, options: [.sortedKeys, .fragmentsAllowed])
        standInCalls.append(function + " " + String(decoding: sorted, as: UTF8.self))
        guard let result = standInFunctionResults[function] else { throw StandInError() }
        return Array(result.utf8)
    }

    public func valueJSON<R: Decodable>(_ key: String, returning: R.Type) throws -> R { throw StandInError() }

    public func callValueJSON<A: Encodable, R: Decodable>(_ key: String, _ argument: A, returning: R.Type) throws -> R {
        throw StandInError()
    }
}
