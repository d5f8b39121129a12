/// Everything that shapes the answers of `patchcli run`'s host-bridge stand-ins. Two runs with equal
/// configurations (a `randomSeed` included) and the same guest produce the same bridge answers and the
/// same `BridgeState`.
public struct HostBridgeConfiguration: Sendable, Equatable {
    /// Which device bridge set to serve (UIKit-only bridges exist only on `.iOS`).
    public var platform: PlatformProfile
    /// What the clock reads first, in ms since 1970. Default 2024-01-01T00:00:00Z.
    public var epochMillis: Int64
    /// How far the clock moves after each read. 0 (default) keeps it frozen at `epochMillis`.
    public var clockStepMillis: Int64
    /// Seed of a deterministic byte stream behind `patch.secure_random_bytes`; nil (the default) draws
    /// from the system's CSPRNG, as the device does.
    public var randomSeed: UInt64?
    /// `Locale.current` / `TimeZone.current` of the emulated device.
    public var localeIdentifier: String
    public var timeZoneIdentifier: String
    /// Canned network answers (`--fixtures`).
    public var fixtures: NetworkFixtures
    /// `--allow-network`: a request no fixture answers goes to the real network (http and https only).
    public var allowNetwork: Bool
    /// `--allow-missing-imports`: imports nobody serves get a function that traps only when called.
    public var allowMissingImports: Bool
    /// Also serve the bridges an app must opt into (`app_group_*`).
    public var serveOptInBridges: Bool
    /// `Bundle.main` Info.plist strings for `patch_host.bundle_info_string`.
    public var bundleInfo: [String: String]
    /// `Bundle.main.path(forResource:ofType:)` answers, keyed by `"name.ext"`.
    public var bundleResourcePaths: [String: String]
    /// Read-only files visible to `patch_host.file_*`, keyed by path. Empty by default.
    public var hostFiles: [String: [UInt8]]
    /// Environment visible to `patch_host.process_env`. Empty by default (the host's is never leaked).
    public var environment: [String: String]
    /// `"major.minor.patch"`; nil ⇒ the platform default (iOS 18.0.0, macOS 15.0.0).
    public var osVersion: String?
    /// Values for `patch_host.async_request` tokens; a token not listed gets `token*100+7` like the SDK's
    /// default value provider.
    public var asyncRequestValues: [Int32: Int32]

    public init(
        platform: PlatformProfile = .iOS,
        epochMillis: Int64 = 1_704_067_200_000,
        clockStepMillis: Int64 = 0,
        randomSeed: UInt64? = nil,
        localeIdentifier: String = "en_US_POSIX",
        timeZoneIdentifier: String = "UTC",
        fixtures: NetworkFixtures = .empty,
        allowNetwork: Bool = false,
        allowMissingImports: Bool = false,
        serveOptInBridges: Bool = false,
        bundleInfo: [String: String] = [:],
        bundleResourcePaths: [String: String] = [:],
        hostFiles: [String: [UInt8]] = [:],
        environment: [String: String] = [:],
        osVersion: String? = nil,
        asyncRequestValues: [Int32: Int32] = [:]
    ) {
        self.platform = platform
        self.epochMillis = epochMillis
        self.clockStepMillis = clockStepMillis
        self.randomSeed = randomSeed
        self.localeIdentifier = localeIdentifier
        self.timeZoneIdentifier = timeZoneIdentifier
        self.fixtures = fixtures
        self.allowNetwork = allowNetwork
        self.allowMissingImports = allowMissingImports
        self.serveOptInBridges = serveOptInBridges
        self.bundleInfo = bundleInfo
        self.bundleResourcePaths = bundleResourcePaths
        self.hostFiles = hostFiles
        self.environment = environment
        self.osVersion = osVersion
        self.asyncRequestValues = asyncRequestValues
    }

    /// The served-import table this configuration emulates.
    public var servedImports: ServedImportTable {
        ServedImports.table(for: platform, includingOptIn: serveOptInBridges)
    }

    var effectiveOSVersion: String {
        if let osVersion { return osVersion }
        switch platform {
        case .iOS: return "18.0.0"
        case .macOS: return "15.0.0"
        }
    }

    /// The SDK's default async value provider is `token*100+7`; wrapping keeps hostile tokens from trapping.
    func asyncRequestValue(for token: Int32) -> Int32 {
        asyncRequestValues[token] ?? (token &* 100 &+ 7)
    }
}
