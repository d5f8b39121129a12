import Foundation
import PatchManifest

/// One overridable resource of the app, read from its asset sources and converted to what a `PROV`
/// chunk carries (sdk-contract §1.3, §7.8).
public struct AssetEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case color, string, image, config
    }

    public enum Value: Sendable, Equatable {
        case color(ResourceOverlay.Color)
        case string(locale: String, ResourceOverlay.StringEntry)
        /// An image, or a JSON config file riding as an inline byte entry (`Kind.config`).
        case bytes(ResourceOverlay.Image)
    }

    /// Stable across edits of the value: `color:<name>`, `string:<locale>:<table>:<key>` (locale ""
    /// = base), `image:<name>`, `config:<name>`. What the baseline records and `build` compares.
    public var id: String
    public var kind: Kind
    /// The file it was read from, relative to the project root.
    public var file: String
    public var value: Value
    /// One line for reports: `#3E3D98 (dark #1A1A2E)`, `120×80 px @3x image/png`, the string.
    public var summary: String

    /// SHA-256 of the entry's own PROV encoding: equal exactly when the device would see the same
    /// override.
    public var contentHash: String {
        SHA256Hasher.hex(of: (try? ResourceOverlay(value).encode()) ?? [])
    }

    /// The bytes the entry adds to the PROV chunk (its share of the artifact; a string's locale
    /// header is shared with the locale's other strings and not counted).
    public var encodedBytes: Int {
        ResourceOverlay(value).entrySizes.first?.bytes ?? 0
    }
}

extension ResourceOverlay {
    init(_ value: AssetEntry.Value) {
        switch value {
        case let .color(color): self.init(colors: [color])
        case let .string(locale, entry): self.init(locales: [.init(identifier: locale, entries: [entry])])
        case let .bytes(image): self.init(images: [image])
        }
    }

    /// The overlay of these entries, a locale per identifier.
    public init(entries: [AssetEntry]) {
        self.init()
        var byLocale: [String: [StringEntry]] = [:]
        for entry in entries {
            switch entry.value {
            case let .color(color): colors.append(color)
            case let .string(locale, string): byLocale[locale, default: []].append(string)
            case let .bytes(image): images.append(image)
            }
        }
        locales = byLocale.map { Locale(identifier: $0.key, entries: $0.value) }
        self = sorted
    }
}

/// A problem with one asset: the file, the key inside it (a color, string key or image name; nil
/// when the whole file is at fault) and the reason. As an error it stops `build`; as a note it says
/// what cannot ride a PROV chunk and needs an app release.
public struct AssetIssue: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var reason: String

    public init(file: String, line: Int? = nil, key: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(key.map { "\($0): " } ?? "")\(reason)"
    }
}

/// An asset that is broken, or that parses but that PROV cannot carry. It has an id and a hash of its
/// source like an entry, so the baseline records it and `build` acts only on the ones that changed:
/// an app's long-standing problems do not block a patch that leaves them alone.
public struct AssetFinding: Sendable, Equatable {
    /// The entry id it concerns (`string:en:Localizable:%lld birds`), or `file:<path>` for a file
    /// that does not parse, `format:<table>:<key>` for arguments that differ between locales.
    public var id: String
    /// SHA-256 of the source it was read from (the localization's JSON, the file, the values…).
    public var contentHash: String
    public var issue: AssetIssue

    public init(id: String, source: [UInt8], issue: AssetIssue) {
        self.id = id
        self.contentHash = SHA256Hasher.hex(of: source)
        self.issue = issue
    }
}

/// Everything the asset sources of a project hold, after validation.
public struct AssetInventory: Sendable {
    /// Sorted by id.
    public var entries: [AssetEntry]
    /// Assets that are broken: a build stops on those that changed since the baseline.
    public var errors: [AssetFinding]
    /// Assets that parse but that PROV cannot carry (plural variants, vector images, …), sorted by id.
    public var unshippable: [AssetFinding]

    public init(entries: [AssetEntry], errors: [AssetFinding], unshippable: [AssetFinding]) {
        self.entries = entries.sorted { $0.id < $1.id }
        self.errors = errors
        self.unshippable = unshippable.sorted { $0.id < $1.id }
    }
}
