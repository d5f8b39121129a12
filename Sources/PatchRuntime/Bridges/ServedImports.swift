// Public surface of this file (used by the parity validator and `patchcli run`):
//   ServedImport            one import the device SDK serves: module, name, parameters, results, availability
//   PlatformProfile         .iOS (UIKit-family bridges present) or .macOS (they are compiled out)
//   ServedImports.all       every served import on any platform, including opt-in ones (app_group_*)
//   ServedImports.table(for:) / ServedImportTable.lookup(module:name:)
// The list itself is not written here: it is derived from the stand-in table (`HostBridges.standIns`),
// so a signature cannot be listed as served without a stand-in that answers it, or the reverse.

import WasmKit

/// The device platform whose bridge set `patchcli run` emulates. Bridges that the SDK only compiles
/// for UIKit platforms (iOS/tvOS/visionOS, sdk-contract §3.6 "when") are absent on macOS, and a module
/// importing one of them fails to instantiate there.
public enum PlatformProfile: String, Sendable, CaseIterable, CustomStringConvertible {
    case iOS = "ios"
    case macOS = "macos"

    public var description: String { rawValue }
}

/// Where the SDK registers an import (sdk-contract §3.6 "when" column, folded onto the two profiles).
public enum ImportAvailability: Sendable, Hashable {
    /// Registered by `registerDefaults()` on every platform.
    case allPlatforms
    /// Registered only where UIKit (or an iOS-family-only framework) exists; absent on macOS.
    case iOSFamilyOnly
    /// Served only once the app registers it explicitly (`app_group_*` needs a suite name), so a
    /// default device does not serve it. `patchcli run` offers a stand-in only on request.
    case appOptIn

    func isServed(on platform: PlatformProfile, includingOptIn: Bool) -> Bool {
        switch self {
        case .allPlatforms: return true
        case .iOSFamilyOnly: return platform == .iOS
        case .appOptIn: return includingOptIn
        }
    }
}

/// One wasm function import the device SDK answers, with its exact signature.
public struct ServedImport: Sendable, Hashable, CustomStringConvertible {
    public let module: String
    public let name: String
    public let parameters: [ValueType]
    public let results: [ValueType]
    public let availability: ImportAvailability

    public init(
        module: String, name: String, parameters: [ValueType], results: [ValueType],
        availability: ImportAvailability = .allPlatforms
    ) {
        self.module = module
        self.name = name
        self.parameters = parameters
        self.results = results
        self.availability = availability
    }

    /// `module.name(i32, i32) -> i64`, the form used in every diagnostic.
    public var description: String {
        "\(module).\(name)\(ServedImport.signatureText(parameters: parameters, results: results))"
    }

    public static func signatureText(parameters: [ValueType], results: [ValueType]) -> String {
        let params = parameters.map(valueTypeName).joined(separator: ", ")
        switch results.count {
        case 0: return "(\(params))"
        case 1: return "(\(params)) -> \(valueTypeName(results[0]))"
        default: return "(\(params)) -> (\(results.map(valueTypeName).joined(separator: ", ")))"
        }
    }

    static func valueTypeName(_ type: ValueType) -> String {
        switch type {
        case .i32: return "i32"
        case .i64: return "i64"
        case .f32: return "f32"
        case .f64: return "f64"
        case .v128: return "v128"
        case .ref: return "ref"
        }
    }
}

/// The served imports of one platform profile, indexed by (module, name).
public struct ServedImportTable: Sendable {
    public let platform: PlatformProfile
    public let imports: [ServedImport]
    private let byKey: [String: [String: ServedImport]]

    init(platform: PlatformProfile, includingOptIn: Bool) {
        self.platform = platform
        let served = ServedImports.all.filter {
            $0.availability.isServed(on: platform, includingOptIn: includingOptIn)
        }
        self.imports = served
        var byKey: [String: [String: ServedImport]] = [:]
        for entry in served {
            byKey[entry.module, default: [:]][entry.name] = entry
        }
        self.byKey = byKey
    }

    /// The served import with this module and name, or nil when the device does not serve it.
    public func lookup(module: String, name: String) -> ServedImport? {
        byKey[module]?[name]
    }

    /// True when the device serves `module.name` with exactly this signature.
    public func serves(module: String, name: String, parameters: [ValueType], results: [ValueType]) -> Bool {
        guard let entry = lookup(module: module, name: name) else { return false }
        return entry.parameters == parameters && entry.results == results
    }
}

public enum ServedImports {
    /// Every import any device configuration serves (both profiles, opt-in included).
    public static let all: [ServedImport] = HostBridges.standIns.map(\.served)

    /// The imports a default device of `platform` serves. `includingOptIn` adds the bridges an app
    /// must register itself (`app_group_*`).
    public static func table(for platform: PlatformProfile, includingOptIn: Bool = false) -> ServedImportTable {
        ServedImportTable(platform: platform, includingOptIn: includingOptIn)
    }
}
