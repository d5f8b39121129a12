/// The inspectable world behind `patchcli run`'s bridge stand-ins: everything a guest did through a
/// bridge lands here (in call order), and everything a bridge answers comes from here or from the
/// configuration.
///
/// A class because WasmKit host functions are plain (non-`Sendable`) closures that must share and mutate
/// one state during a run. It is not `Sendable`: create it, run the guest, and inspect it on one thread.
public final class BridgeState {
    public let configuration: HostBridgeConfiguration

    /// One entry per bridge call, in order, e.g. `patch.navigate("settings/profile")`.
    public private(set) var calls: [BridgeCallRecord] = []
    /// `patch.log` lines.
    public private(set) var logLines: [LogLine] = []
    /// `UserDefaults.standard` shared by `patch.defaults_*` and `patch_host.defaults_*`.
    public internal(set) var defaults: [String: DefaultsValue] = [:]
    /// Generic-password keychain items by account.
    public internal(set) var keychain: [String: [UInt8]] = [:]
    /// Notification names posted through `patch.notify_post`.
    public internal(set) var postedNotifications: [String] = []
    /// Routes passed to `patch.navigate`.
    public internal(set) var navigations: [String] = []
    /// `patch.analytics_track` / `patch.analytics_screen` in call order.
    public internal(set) var analyticsEvents: [AnalyticsEvent] = []
    /// Requests a network bridge made that nothing answered (`"GET https://…"`): no fixture, and
    /// no live answer under `--allow-network`.
    public internal(set) var unansweredRequests: [String] = []
    /// Requests sent to the real network under `--allow-network`, answered or not.
    public internal(set) var liveRequests: [String] = []
    /// `patch.file_*` sandbox: scope (`documents`/`caches`) → relative path → bytes.
    public internal(set) var scopedFiles: [String: [String: [UInt8]]] = [:]
    /// App-group suite strings (`app_group_*`, only when opt-in bridges are served).
    public internal(set) var appGroupDefaults: [String: String] = [:]
    /// Small device settings the device bridges set and read back.
    public internal(set) var badgeCount: Int32 = 0
    public internal(set) var brightnessPercent: Int32 = 50
    public internal(set) var idleTimerDisabled = false
    public internal(set) var audioVolumePercent: Int32 = 100
    public internal(set) var pasteboardString: String?

    /// Host-awaited work the guest is suspended on (sdk-contract §4), answered by the async pump.
    public internal(set) var owedAsyncRequests: [OwedAsyncRequest] = []
    public internal(set) var owedHTTPRequests: [OwedHTTPRequest] = []

    private var clockMillis: Int64
    /// SplitMix64 state of the seeded stream; nil draws from the system's CSPRNG.
    private var randomState: UInt64?
    var nextBackgroundTaskToken: Int32 = 1

    public init(configuration: HostBridgeConfiguration = HostBridgeConfiguration()) {
        self.configuration = configuration
        self.clockMillis = configuration.epochMillis
        self.randomState = configuration.randomSeed
    }

    func record(_ call: BridgeCallRecord) {
        calls.append(call)
    }

    func appendLog(_ line: LogLine) {
        logLines.append(line)
    }

    /// Reads the emulated clock, then advances it by the configured step.
    func readClock() -> Int64 {
        let now = clockMillis
        clockMillis = clockMillis &+ configuration.clockStepMillis
        return now
    }

    /// `patch.secure_random_bytes`' answer: the system's CSPRNG, or with a configured seed a
    /// deterministic stream (SplitMix64, not cryptographic: a seeded run must repeat). Either way the
    /// stream goes on across calls, so successive draws differ.
    func randomBytes(count: Int) -> [UInt8] {
        guard var state = randomState else {
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in generator.next() }
        }
        defer { randomState = state }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            for shift in stride(from: 0, to: 64, by: 8) where bytes.count < count {
                bytes.append(UInt8(truncatingIfNeeded: mixed >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// Takes every owed request out of the state (the pump answers them all in one resolve step).
    func takeOwedRequests() -> (http: [OwedHTTPRequest], async: [OwedAsyncRequest]) {
        defer {
            owedHTTPRequests.removeAll()
            owedAsyncRequests.removeAll()
        }
        return (owedHTTPRequests, owedAsyncRequests)
    }

    /// Clears owed work from an earlier kickoff (the SDK drains both brokers before each run).
    func discardOwedRequests() {
        owedHTTPRequests.removeAll()
        owedAsyncRequests.removeAll()
    }
}

/// One bridge call: `module.name` and a human-readable rendering of its arguments.
public struct BridgeCallRecord: Sendable, Equatable, CustomStringConvertible {
    public let module: String
    public let name: String
    public let arguments: [String]

    public var description: String { "\(module).\(name)(\(arguments.joined(separator: ", ")))" }
}

public struct LogLine: Sendable, Equatable, CustomStringConvertible {
    public enum Level: String, Sendable {
        case debug, info, warning, error

        /// `patch.log` levels: 0 debug, 1 info, 2 warning, ≥3 error (negative reads as debug).
        init(bridgeLevel: Int32) {
            switch bridgeLevel {
            case ...0: self = .debug
            case 1: self = .info
            case 2: self = .warning
            default: self = .error
            }
        }
    }

    public let level: Level
    public let message: String

    public var description: String { "[\(level.rawValue)] \(message)" }
}

/// A `UserDefaults` value as the bridges stored it. Reads coerce like `UserDefaults` does.
public enum DefaultsValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case int(Int64)
    case double(Double)

    /// `string(forKey:)`: strings as-is, numbers as their text (booleans as "1"/"0", like NSNumber).
    var stringValue: String {
        switch self {
        case .string(let value): return value
        case .bool(let value): return value ? "1" : "0"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        }
    }

    /// `integer(forKey:)`: numbers truncated toward zero, numeric strings parsed, anything else 0.
    var integerValue: Int64 {
        switch self {
        case .string(let value):
            if let integer = Int64(value) { return integer }
            return Double(value).flatMap { Int64(exactly: $0.rounded(.towardZero)) } ?? 0
        case .bool(let value): return value ? 1 : 0
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value.rounded(.towardZero)) ?? 0
        }
    }

    /// `double(forKey:)`.
    var doubleValue: Double {
        switch self {
        case .string(let value): return Double(value) ?? 0
        case .bool(let value): return value ? 1 : 0
        case .int(let value): return Double(value)
        case .double(let value): return value
        }
    }

    /// `bool(forKey:)`: non-zero numbers, "true"/"yes" (any case) and non-zero integer strings are true.
    var boolValue: Bool {
        switch self {
        case .string(let value):
            let lowered = value.lowercased()
            if lowered == "true" || lowered == "yes" { return true }
            return (Int64(value) ?? 0) != 0
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .double(let value): return value != 0
        }
    }
}

public enum AnalyticsEvent: Sendable, Equatable {
    /// `analytics_track`: event name and its props coerced to strings (like the SDK).
    case track(event: String, properties: [String: String])
    /// `analytics_track` whose argument was not `{"event": …}` JSON; kept verbatim.
    case malformedTrack(rawJSON: String)
    case screen(name: String)
}

public struct OwedAsyncRequest: Sendable, Equatable {
    public let token: Int32
    /// Fixed when the guest asked (the SDK consults its value provider at enqueue time).
    public let value: Int32
}

public struct OwedHTTPRequest: Sendable, Equatable {
    public let token: Int32
    public let method: String
    public let url: String
    public let body: [UInt8]
}
