/// A platform an app ships a native build for (docs/prepare.md "Platforms"). Each is a separate
/// binary with its own `#if` branches, so `build` compiles a module per platform and each binary
/// reports its own fingerprint (`BuildFingerprint.compute(canonicalBaseline:platform:)`).
/// The raw value is what patch.json, the baseline and `build --platform` spell.
public enum AppPlatform: String, CaseIterable, Codable, Sendable, Comparable {
    // Declaration order is the order a project's platforms are listed in: its first is the default.
    case iOS = "ios"
    case macOS = "macos"
    /// An iOS app built for the Mac with Mac Catalyst: `os(iOS)` with `targetEnvironment(macCatalyst)`.
    case macCatalyst = "maccatalyst"
    case visionOS = "visionos"
    case tvOS = "tvos"
    case watchOS = "watchos"

    public static func < (lhs: AppPlatform, rhs: AppPlatform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// As Apple writes it (`macOS`, `Mac Catalyst`).
    public var displayName: String {
        switch self {
        case .iOS: return "iOS"
        case .macOS: return "macOS"
        case .macCatalyst: return "Mac Catalyst"
        case .visionOS: return "visionOS"
        case .tvOS: return "tvOS"
        case .watchOS: return "watchOS"
        }
    }

    /// The name `#if os(…)` tests: a Mac Catalyst build is `os(iOS)`.
    public var operatingSystem: String {
        switch self {
        case .iOS, .macCatalyst: return "iOS"
        case .macOS: return "macOS"
        case .visionOS: return "visionOS"
        case .tvOS: return "tvOS"
        case .watchOS: return "watchOS"
        }
    }

    /// The `#if` condition that holds in this platform's build and in no other platform's: what the
    /// fingerprint file selects each platform's constant with.
    public var compilationCondition: String {
        switch self {
        case .iOS: return "os(iOS) && !targetEnvironment(macCatalyst)"
        case .macCatalyst: return "targetEnvironment(macCatalyst)"
        default: return "os(\(operatingSystem))"
        }
    }

    /// The raw values, for messages (`ios, macos`).
    public static func list(_ platforms: [AppPlatform]) -> String {
        platforms.map(\.rawValue).joined(separator: ", ")
    }
}
