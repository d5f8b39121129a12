import Foundation
import PatchManifest

/// A `*.colorset/Contents.json` of an asset catalog → one PROV color: the universal (or first) idiom's
/// "any"/light appearance and its dark appearance, converted to sRGB 0…1 from every color space
/// Xcode writes.
enum ColorSetReader {
    /// nil: no variant has a color (Xcode's empty AccentColor), so there is nothing to override.
    static func read(_ bytes: [UInt8], name: String, file: String) -> Result<ResourceOverlay.Color, AssetIssue>? {
        func fail(_ reason: String) -> Result<ResourceOverlay.Color, AssetIssue> { .failure(AssetIssue(file: file, key: name, reason: reason)) }
        guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return fail("Contents.json is not a JSON object") }
        guard let variants = root["colors"] as? [[String: Any]] else { return fail("Contents.json has no \"colors\"") }
        guard variants.contains(where: { $0["color"] != nil }) else { return nil }
        // The idiom the app's phone/universal build reads; another idiom only when it is the only one.
        let idiom = variants.contains { ($0["idiom"] as? String ?? "universal") == "universal" } ? "universal" : variants[0]["idiom"] as? String
        var light: ResourceOverlay.RGBA?
        var dark: ResourceOverlay.RGBA?
        for variant in variants where (variant["idiom"] as? String ?? "universal") == idiom {
            let appearances = variant["appearances"] as? [[String: Any]] ?? []
            let luminosity = appearances.first { $0["appearance"] as? String == "luminosity" }?["value"] as? String
            // High-contrast variants have no slot in PROV; the bundle keeps serving them.
            if appearances.contains(where: { $0["appearance"] as? String != "luminosity" }) { continue }
            guard let color = variant["color"] as? [String: Any] else { continue }
            let converted: ResourceOverlay.RGBA
            switch convert(color) {
            case let .success(value): converted = value
            case let .failure(reason): return fail(reason.text)
            }
            switch luminosity {
            case "dark": dark = converted
            case "light": light = converted
            default: if light == nil { light = converted }
            }
        }
        guard let light else { return fail("no any/light appearance to override") }
        return .success(ResourceOverlay.Color(name: name, light: light, dark: dark))
    }

    struct Reason: Error { var text: String }

    /// One `"color"` object → sRGB 0…1. A `"reference"` to a system color has no components to carry.
    static func convert(_ color: [String: Any]) -> Result<ResourceOverlay.RGBA, Reason> {
        if let reference = color["reference"] as? String {
            return .failure(Reason(text: "refers to the system color \(reference), which has no components a patch can carry"))
        }
        guard let space = color["color-space"] as? String else { return .failure(Reason(text: "the color has no \"color-space\"")) }
        guard let components = color["components"] as? [String: Any] else { return .failure(Reason(text: "the color has no \"components\"")) }
        func component(_ key: String) -> Result<Double, Reason> {
            guard let raw = components[key] else { return .failure(Reason(text: "component \"\(key)\" is missing")) }
            guard let value = parseComponent(raw) else { return .failure(Reason(text: "component \"\(key)\" (\(raw)) is not a 0–1 float, a 0–255 integer or a 0xNN hex byte")) }
            return .success(value)
        }
        let alpha: Double
        switch component("alpha") {
        case let .success(value): alpha = value
        case let .failure(reason): return .failure(reason)
        }
        var rgb: [Double]
        switch space {
        case "gray-gamma-22", "extended-gray":
            switch component("white") {
            case let .success(white):
                // Gamma 2.2 gray → linear light → the sRGB curve, the same for all three channels.
                let encoded = encodeSRGB(signedPow(white, 2.2))
                rgb = [encoded, encoded, encoded]
            case let .failure(reason): return .failure(reason)
            }
        case "srgb", "extended-srgb", "display-p3", "extended-linear-srgb":
            rgb = []
            for key in ["red", "green", "blue"] {
                switch component(key) {
                case let .success(value): rgb.append(value)
                case let .failure(reason): return .failure(reason)
                }
            }
            if space == "display-p3" {
                // Display P3 shares sRGB's transfer curve; the primaries differ: decode, map P3 → sRGB
                // linear (D65 both, the CSS Color 4 matrices), encode.
                let linear = rgb.map(decodeSRGB)
                rgb = p3ToSRGB.map { row in encodeSRGB(zip(row, linear).reduce(0) { $0 + $1.0 * $1.1 }) }
            } else if space == "extended-linear-srgb" {
                rgb = rgb.map(encodeSRGB)
            }
        default:
            return .failure(Reason(text: "color space \"\(space)\" is not one Xcode writes (srgb, extended-srgb, display-p3, extended-linear-srgb, gray-gamma-22, extended-gray)"))
        }
        // Rounding noise of the conversions is not out of gamut.
        let tolerance = 0.5 / 255
        for (name, value) in zip(["red", "green", "blue", "alpha"], rgb + [alpha]) where value < -tolerance || value > 1 + tolerance {
            return .failure(Reason(text: "\(name) is \(String(format: "%.4f", value)) in sRGB (\(space)): outside 0…1, which PROV carries; pick a color inside sRGB"))
        }
        let clamped = (rgb + [alpha]).map { min(1, max(0, $0)) }
        return .success(ResourceOverlay.RGBA(red: clamped[0], green: clamped[1], blue: clamped[2], alpha: clamped[3]))
    }

    /// Xcode writes components as `"0.502"` (0–1 float), `"128"` (0–255 integer) or `"0x80"` (hex byte).
    static func parseComponent(_ raw: Any) -> Double? {
        if let number = raw as? NSNumber, !(raw is String) { return number.doubleValue }
        guard let text = (raw as? String)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.lowercased().hasPrefix("0x") {
            guard let byte = UInt8(text.dropFirst(2), radix: 16) else { return nil }
            return Double(byte) / 255
        }
        if text.contains(".") || text.contains("e") || text.hasPrefix("-") { return Double(text) }
        guard let integer = Int(text), (0...255).contains(integer) else { return nil }
        return Double(integer) / 255
    }

    /// Linear-light sRGB from Display P3 (both D65).
    static let p3ToSRGB: [[Double]] = [
        [1.2249401762805598, -0.22494017628055996, 0],
        [-0.04205695470968816, 1.0420569547096881, 0],
        [-0.019637554590334432, -0.07863604555063188, 1.0982736001409663],
    ]

    /// The sRGB transfer function and its inverse, mirrored for extended (negative) values.
    static func decodeSRGB(_ value: Double) -> Double {
        let magnitude = abs(value)
        let linear = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return value < 0 ? -linear : linear
    }

    static func encodeSRGB(_ value: Double) -> Double {
        let magnitude = abs(value)
        let encoded = magnitude <= 0.0031308 ? magnitude * 12.92 : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        return value < 0 ? -encoded : encoded
    }

    static func signedPow(_ value: Double, _ exponent: Double) -> Double {
        value < 0 ? -pow(-value, exponent) : pow(value, exponent)
    }
}
