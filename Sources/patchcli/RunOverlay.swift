import Foundation
import PatchAssets
import PatchManifest
import PatchRuntime

/// `run ARTIFACT --overlay` / `--lookup-string` / `--lookup-color`: the resource overlay of a POVR
/// artifact as a device would install it, and lookups resolved by the SDK's rules (sdk-contract
/// §7.8, docs/assets.md).
extension Run {
    struct OverlaySummary: Encodable {
        struct Color: Encodable {
            var name: String
            /// r, g, b, a in sRGB 0…1, to 3 decimals (the envelope's precision; `hex` is exact to the byte).
            var light: [Double]
            var dark: [Double]?
            var hex: String
            var darkHex: String?

            init(_ color: ResourceOverlay.Color) {
                func components(_ rgba: ResourceOverlay.RGBA) -> [Double] {
                    [rgba.red, rgba.green, rgba.blue, rgba.alpha].map { $0.rounded(toPlaces: 3) }
                }
                name = color.name
                light = components(color.light)
                dark = color.dark.map(components)
                hex = color.light.hex
                darkHex = color.dark?.hex
            }
        }
        struct StringEntry: Encodable {
            var locale: String
            var table: String
            var key: String
            var value: String
        }
        struct Image: Encodable {
            var name: String
            var kind: String
            var scale: Int
            var mime: String
            var bytes: Int
            var width: Int?
            var height: Int?
        }
        struct Lookup: Encodable {
            var kind: String
            var name: String
            var found: Bool
            var value: String?
            /// The locale of the chain the override came from ("" = base).
            var locale: String?
            var chain: [String]?
        }
        var module: String
        var layers: [String]
        var sha256: String
        var overlayBytes: Int
        var colors: [Color]
        var strings: [StringEntry]
        var images: [Image]
        var lookup: Lookup?
    }

    func runOverlay(_ console: Console) throws -> OverlaySummary {
        guard let module else { throw usage("give the ARTIFACT whose overlay to show") }
        if lookupString != nil, lookupColor != nil { throw usage("--lookup-string and --lookup-color exclude each other") }
        let (artifact, _) = try loadArtifact(module)
        guard let chunk = artifact.overlay else {
            throw CommandFailure(kind: "no_overlay", message: "\(module) has no resource overlay (layers: \(artifact.layers.joined(separator: " > ")))",
                                 exitStatus: .malformedInput, hint: "only a POVR artifact carries one: `patchcli build` writes artifact/patch.povr when assets changed")
        }
        let overlay: ResourceOverlay
        do {
            overlay = try ResourceOverlay.decode(chunk)
        } catch {
            throw CommandFailure(kind: "malformed_input", message: "\(module): the overlay chunk is malformed: \(error); a device would install no overlay",
                                 exitStatus: .malformedInput, hint: "rebuild the artifact with `patchcli build`")
        }
        var summary = OverlaySummary(
            module: module, layers: artifact.layers, sha256: artifact.sha256, overlayBytes: chunk.count,
            colors: overlay.colors.map(OverlaySummary.Color.init),
            strings: overlay.locales.flatMap { locale in locale.entries.map { .init(locale: locale.identifier, table: $0.table, key: $0.key, value: $0.value) } },
            images: overlay.images.map { image in
                let decoded = try? ImageValidator.validate(image.payload).get()
                return .init(name: image.name, kind: image.kind == .inline ? "inline" : "external", scale: Int(image.scale), mime: image.mime,
                             bytes: image.payload.count, width: decoded?.width, height: decoded?.height)
            })
        if let key = lookupString {
            let chain = ResourceOverlay.localeChain(preferred: locale)
            let found = overlay.localizedString(forKey: key, table: table, preferredLocale: locale)
            summary.lookup = .init(kind: "string", name: key, found: found != nil, value: found?.value, locale: found?.locale, chain: chain)
            console.line(found.map { "\($0.value)" } ?? "no override for \"\(key)\" (tried \(chain.map { $0.isEmpty ? "base" : $0 }.joined(separator: " → "))): the bundle's string is used")
            if let found { console.line("(from \(found.locale.isEmpty ? "base" : found.locale))") }
            return summary
        }
        if let name = lookupColor {
            let found = overlay.color(named: name, dark: dark)
            summary.lookup = .init(kind: "color", name: name, found: found != nil, value: found?.hex)
            console.line(found.map { "\($0.hex)  (r \($0.red), g \($0.green), b \($0.blue), a \($0.alpha))" } ?? "no override for color \"\(name)\": the bundle's color is used")
            return summary
        }
        console.line("overlay of \(module) (\(artifact.layers.joined(separator: " > "))): \(summary.colors.count) color(s), \(summary.strings.count) string(s) in "
                     + "\(overlay.locales.count) locale(s), \(summary.images.count) image(s); PROV \(chunk.count) bytes")
        for color in summary.colors {
            console.line("color   \(color.name)  \(color.hex)\(color.darkHex.map { "  dark \($0)" } ?? "")")
        }
        for string in summary.strings {
            console.line("string  \(string.locale.isEmpty ? "base" : string.locale)  [\(string.table.isEmpty ? "any table" : string.table)]  \(string.key) = \(Build.oneLine(string.value))")
        }
        for image in summary.images {
            let size = image.width.map { "\($0)×\(image.height ?? 0) px" } ?? "not an image"
            console.line("image   \(image.name)  @\(max(image.scale, 1))x \(image.mime)  \(size), \(image.bytes) bytes")
        }
        return summary
    }
}
