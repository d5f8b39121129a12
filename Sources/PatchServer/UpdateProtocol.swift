import Foundation

/// The body of `POST /api/v1/modules/check` exactly as the SDK's `UpdateCheckRequest` encodes it
/// (sdk-contract §7.2): snake_case keys, optionals omitted when nil.
public struct UpdateCheckRequest: Codable, Sendable, Equatable {
    public var currentVersion: String
    public var fingerprint: String
    public var deviceID: String
    public var appID: String?
    public var appKey: String?
    public var osVersion: String?
    public var appVersion: String?
    public var sdkVersion: String?
    public var cohort: String?
    public var channel: String

    enum CodingKeys: String, CodingKey {
        case currentVersion = "current_version", fingerprint, deviceID = "device_id", appID = "app_id"
        case appKey = "app_key", osVersion = "os_version", appVersion = "app_version", sdkVersion = "sdk_version"
        case cohort, channel
    }

    public init(
        currentVersion: String, fingerprint: String, deviceID: String, channel: String, cohort: String? = nil,
        appID: String? = nil, appKey: String? = nil, osVersion: String? = nil, appVersion: String? = nil, sdkVersion: String? = nil
    ) {
        self.currentVersion = currentVersion
        self.fingerprint = fingerprint
        self.deviceID = deviceID
        self.channel = channel
        self.cohort = cohort
        self.appID = appID
        self.appKey = appKey
        self.osVersion = osVersion
        self.appVersion = appVersion
        self.sdkVersion = sdkVersion
    }

    /// Bounds on what a device can send: generous for real values, small enough that one request
    /// cannot make the server hash or store megabytes. Every field is an identifier.
    func validate() throws(RequestProblem) {
        try RequestProblem.identifier("current_version", currentVersion, maxLength: 128)
        try RequestProblem.identifier("fingerprint", fingerprint, maxLength: 256, allowEmpty: true)
        try RequestProblem.identifier("device_id", deviceID, maxLength: 256)
        try RequestProblem.identifier("channel", channel, maxLength: 64)
        for (field, value) in [("app_id", appID), ("app_key", appKey), ("os_version", osVersion), ("app_version", appVersion), ("sdk_version", sdkVersion), ("cohort", cohort)] {
            if let value { try RequestProblem.identifier(field, value, maxLength: 256, allowEmpty: true) }
        }
    }
}

/// The SDK's `UpdateCheckResponse` (sdk-contract §7.2). `has_update: false` carries nothing else.
public struct UpdateCheckResponse: Codable, Sendable, Equatable {
    public var hasUpdate: Bool
    public var version: String?
    public var moduleURL: String?
    public var diffURL: String?
    public var sha256: String?
    public var size: Int?
    public var diffSize: Int?
    public var mandatory: Bool?
    public var releaseNotes: String?

    enum CodingKeys: String, CodingKey {
        case hasUpdate = "has_update", version, moduleURL = "module_url", diffURL = "diff_url", sha256, size
        case diffSize = "diff_size", mandatory, releaseNotes = "release_notes"
    }

    public static let noUpdate = UpdateCheckResponse(hasUpdate: false)

    public init(hasUpdate: Bool, version: String? = nil, moduleURL: String? = nil, diffURL: String? = nil, sha256: String? = nil,
                size: Int? = nil, diffSize: Int? = nil, mandatory: Bool? = nil, releaseNotes: String? = nil) {
        self.hasUpdate = hasUpdate
        self.version = version
        self.moduleURL = moduleURL
        self.diffURL = diffURL
        self.sha256 = sha256
        self.size = size
        self.diffSize = diffSize
        self.mandatory = mandatory
        self.releaseNotes = releaseNotes
    }
}

/// What devices report (sdk-contract §7.3).
public enum DeviceEventType: String, Codable, Sendable, CaseIterable {
    case download, activation, error, fallback
}

/// The body of `POST /api/v1/events`, the SDK's `DeviceEventPayload` (sdk-contract §7.3).
public struct DeviceEvent: Codable, Sendable, Equatable {
    public var appID: String?
    public var appKey: String?
    public var deviceID: String
    public var eventType: DeviceEventType
    public var moduleVersion: String?
    public var osVersion: String?
    public var deviceModel: String?
    public var appVersion: String?
    public var errorMessage: String?
    public var durationMS: Int?

    enum CodingKeys: String, CodingKey {
        case appID = "app_id", appKey = "app_key", deviceID = "device_id", eventType = "event_type"
        case moduleVersion = "module_version", osVersion = "os_version", deviceModel = "device_model"
        case appVersion = "app_version", errorMessage = "error_message", durationMS = "duration_ms"
    }

    public init(deviceID: String, eventType: DeviceEventType, moduleVersion: String? = nil, errorMessage: String? = nil,
                appID: String? = nil, appKey: String? = nil, osVersion: String? = nil, deviceModel: String? = nil,
                appVersion: String? = nil, durationMS: Int? = nil) {
        self.deviceID = deviceID
        self.eventType = eventType
        self.moduleVersion = moduleVersion
        self.errorMessage = errorMessage
        self.appID = appID
        self.appKey = appKey
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.appVersion = appVersion
        self.durationMS = durationMS
    }

    /// `error_message` is free text, stored as sent (control characters included); every other
    /// string is an identifier.
    func validate() throws(RequestProblem) {
        try RequestProblem.identifier("device_id", deviceID, maxLength: 256)
        try RequestProblem.text("error_message", errorMessage ?? "", maxLength: 4096, allowEmpty: true)
        for (field, value) in [("app_id", appID), ("app_key", appKey), ("module_version", moduleVersion), ("os_version", osVersion), ("device_model", deviceModel), ("app_version", appVersion)] {
            if let value { try RequestProblem.identifier(field, value, maxLength: 256, allowEmpty: true) }
        }
        if let durationMS, durationMS < 0 { throw RequestProblem(reason: "duration_ms must not be negative") }
    }

    /// Synthesized but for `duration_ms`: a number with a fraction (`1.5`) is valid JSON, so it is
    /// refused by name rather than as a body that does not parse.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appID = try container.decodeIfPresent(String.self, forKey: .appID)
        appKey = try container.decodeIfPresent(String.self, forKey: .appKey)
        deviceID = try container.decode(String.self, forKey: .deviceID)
        eventType = try container.decode(DeviceEventType.self, forKey: .eventType)
        moduleVersion = try container.decodeIfPresent(String.self, forKey: .moduleVersion)
        osVersion = try container.decodeIfPresent(String.self, forKey: .osVersion)
        deviceModel = try container.decodeIfPresent(String.self, forKey: .deviceModel)
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        errorMessage = try container.decodeIfPresent(String.self, forKey: .errorMessage)
        do {
            durationMS = try container.decodeIfPresent(Int.self, forKey: .durationMS)
        } catch where (try? container.decode(Double.self, forKey: .durationMS)) != nil {
            throw DecodingError.typeMismatch(Int.self, DecodingError.Context(
                codingPath: container.codingPath + [CodingKeys.durationMS], debugDescription: "a number with a fraction or out of range"))
        }
    }
}

/// Why a request was refused with 400: the reason goes back to the caller verbatim.
public struct RequestProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { reason }

    /// Free text: only its length is bounded.
    static func text(_ field: String, _ value: String, maxLength: Int, allowEmpty: Bool = false) throws(RequestProblem) {
        if value.utf8.count > maxLength { throw RequestProblem(reason: "\(field) is longer than \(maxLength) bytes") }
        if !allowEmpty, value.isEmpty { throw RequestProblem(reason: "\(field) must not be empty") }
    }

    /// An id, version or name: bounded like text and without control characters (Unicode `Cc`,
    /// U+0000-U+001F and U+007F-U+009F), which no real id has and which a log line, a terminal or
    /// a C string would cut or forge (a NUL once passed `"\u0000"` as a non-empty device id).
    static func identifier(_ field: String, _ value: String, maxLength: Int, allowEmpty: Bool = false) throws(RequestProblem) {
        try text(field, value, maxLength: maxLength, allowEmpty: allowEmpty)
        guard let index = value.unicodeScalars.firstIndex(where: \.isControlCharacter) else { return }
        let code = String(value.unicodeScalars[index].value, radix: 16, uppercase: true)
        let offset = value.utf8.distance(from: value.startIndex, to: index)
        throw RequestProblem(reason: "\(field) contains the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) at byte \(offset); ids and versions must be printable text")
    }

    /// Decodes a request body, turning the decoder's error into a reason that names the field.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(RequestProblem) -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw RequestProblem(reason: reason(for: error))
        } catch {
            throw RequestProblem(reason: "the body is not valid JSON")
        }
    }

    private static func reason(for error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case let .keyNotFound(key, context):
            return "missing field \(field(context.codingPath + [key]))"
        case let .valueNotFound(_, context):
            if context.codingPath.isEmpty { return "the request body must be a JSON object, not null" }
            return "field \(field(context.codingPath)) must not be null"
        case let .typeMismatch(type, context):
            if context.codingPath.isEmpty { return "the request body must be a JSON object" }
            return "field \(field(context.codingPath)) must be \(typeName(type))"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "field \(field(context.codingPath)) has an invalid value (\(context.debugDescription))"
        @unknown default:
            return "the body could not be decoded"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type: "an integer (a whole number)"
        default: "a \(type)"
        }
    }
}

extension Unicode.Scalar {
    /// Unicode `Cc`: U+0000-U+001F and U+007F-U+009F.
    var isControlCharacter: Bool { properties.generalCategory == .control }
}

extension String {
    /// The text with each control character written as `\u{1B}`, for a terminal: free text a
    /// device sent (an event's error message, stored as sent) can then neither move the cursor,
    /// recolour or clear the screen, nor hide what follows a NUL.
    package var withControlCharactersEscaped: String {
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isControlCharacter {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
