import Foundation
import PatchManifest
import XCTest

@testable import PatchAssets

/// Asset sources as Xcode writes them (shapes taken from the food-truck, backyard-birds and Swiftfin
/// catalogs), read into overlay entries; each validation failure names the file, the key and why.
final class AssetReaderTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "assets-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: colors

    func testColorComponentsInEveryNotationAndTheDarkAppearance() throws {
        try colorSet("App/Assets.xcassets/Brand.colorset", [
            variant(space: "srgb", ["red": "0xFF", "green": "128", "blue": "0.000", "alpha": "1.000"]),
            variant(space: "srgb", ["red": "0.200", "green": "0.400", "blue": "0.600", "alpha": "0.500"], dark: true),
        ])
        let inventory = read()
        XCTAssertEqual(inventory.errors, [])
        let color = try XCTUnwrap(color(inventory, "Brand"))
        XCTAssertEqual(color.light, .init(red: 1, green: 128.0 / 255, blue: 0, alpha: 1))
        XCTAssertEqual(color.dark, .init(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5))
        XCTAssertEqual(inventory.entries.first?.summary, "#FF8000 (dark #33669980)")
        XCTAssertEqual(inventory.entries.first?.file, "App/Assets.xcassets/Brand.colorset/Contents.json")
    }

    func testColorSpacesConvertToSRGB() throws {
        try colorSet("App/A.xcassets/P3Gray.colorset", [variant(space: "display-p3", ["red": "0.500", "green": "0.500", "blue": "0.500", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/P3Teal.colorset", [variant(space: "display-p3", ["red": "0.400", "green": "0.600", "blue": "0.600", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/Linear.colorset", [variant(space: "extended-linear-srgb", ["red": "0.214", "green": "0.000", "blue": "1.000", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/Gray.colorset", [variant(space: "gray-gamma-22", ["white": "0.500", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/XGray.colorset", [variant(space: "extended-gray", ["white": "1.000", "alpha": "0.250"])])
        try colorSet("App/A.xcassets/XSRGB.colorset", [variant(space: "extended-srgb", ["red": "0.250", "green": "0.500", "blue": "0.750", "alpha": "1.000"])])
        let inventory = read()
        XCTAssertEqual(inventory.errors, [])
        // Neutral grays are the same in P3 and sRGB (same white point and curve).
        try assertColor(inventory, "P3Gray", [0.5, 0.5, 0.5])
        // P3 (0.4, 0.6, 0.6) is sRGB (0.3338, 0.6066, 0.6031) (CSS Color 4's matrices, computed independently).
        try assertColor(inventory, "P3Teal", [0.3338, 0.6066, 0.6031])
        // Linear 0.214 is sRGB ≈ 0.5; linear 1 is 1.
        try assertColor(inventory, "Linear", [0.5, 0, 1], accuracy: 0.002)
        // Gray 0.5 at gamma 2.2 is 0.2176 linear, 0.5039 in sRGB.
        try assertColor(inventory, "Gray", [0.5039, 0.5039, 0.5039])
        try assertColor(inventory, "XGray", [1, 1, 1])
        XCTAssertEqual(color(inventory, "XGray")?.light.alpha, 0.25)
        try assertColor(inventory, "XSRGB", [0.25, 0.5, 0.75])
    }

    func testColorsPRovCannotCarryAreErrorsOrNotes() throws {
        try colorSet("App/A.xcassets/VividRed.colorset", [variant(space: "display-p3", ["red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/Odd.colorset", [variant(space: "cmyk", ["red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/Bad.colorset", [variant(space: "srgb", ["red": "0xZZ", "green": "0", "blue": "0", "alpha": "1.000"])])
        try write("App/A.xcassets/System.colorset/Contents.json", #"{"colors":[{"color":{"reference":"systemBlueColor"},"idiom":"universal"}]}"#)
        let inventory = read()
        XCTAssertEqual(inventory.entries, [])
        XCTAssertEqual(inventory.errors.map(\.issue.key), ["Bad", "Odd", "VividRed"])
        XCTAssertEqual(inventory.errors.first { $0.issue.key == "VividRed" }?.issue.reason,
                       "red is 1.0931 in sRGB (display-p3): outside 0…1, which PROV carries; pick a color inside sRGB")
        XCTAssertTrue(inventory.errors.first { $0.issue.key == "Bad" }!.issue.reason.contains(#"component "red" (0xZZ)"#))
        XCTAssertEqual(inventory.unshippable.map(\.issue.key), ["System"])
    }

    func testAnEmptyColorSetIsNothingToOverride() throws {
        // Xcode's AccentColor before anyone picks a color.
        try write("App/A.xcassets/AccentColor.colorset/Contents.json", #"{"colors":[{"idiom":"universal"}],"info":{"author":"xcode","version":1}}"#)
        let inventory = read()
        XCTAssertEqual(inventory.entries, [])
        XCTAssertEqual(inventory.errors, [])
    }

    func testFindingsHaveStableIDsAndSourceHashes() throws {
        try write("App/en.lproj/Dup.strings", "\"a\" = \"1\";\n\"a\" = \"2\";\n")
        try write("App/en.lproj/Localizable.strings", "\"n\" = \"%d items\";")
        try write("App/de.lproj/Localizable.strings", "\"n\" = \"%@ Artikel\";")
        let first = read().errors
        XCTAssertEqual(first.map(\.id), ["file:App/en.lproj/Dup.strings", "format:Localizable:n"])
        XCTAssertEqual(read().errors, first)
        // Another translation of the key is another finding: build treats it as changed.
        try write("App/de.lproj/Localizable.strings", "\"n\" = \"%@ Stück\";")
        XCTAssertNotEqual(read().errors.last?.contentHash, first.last?.contentHash)
    }

    func testNamespaceFoldersPrefixNames() throws {
        try write("App/A.xcassets/Colors/Contents.json", #"{"properties":{"provides-namespace":true}}"#)
        try colorSet("App/A.xcassets/Colors/Primary.colorset", [variant(space: "srgb", ["red": "0", "green": "0", "blue": "0", "alpha": "1.000"])])
        try colorSet("App/A.xcassets/Plain/Secondary.colorset", [variant(space: "srgb", ["red": "0", "green": "0", "blue": "0", "alpha": "1.000"])])
        XCTAssertEqual(read().entries.map(\.id), ["color:Colors/Primary", "color:Secondary"])
    }

    // MARK: strings

    func testStringsFilesInUTF16AndUTF8WithCommentsAndEscapes() throws {
        let text = """
            /* The title */
            "title" = "Ol\\u00E1\\n\\"mundo\\"";
            // a line comment
            unquoted_key = "ok";
            "same";
            """
        try write("App/pt-BR.lproj/Localizable.strings", bytes: [0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try write("App/Base.lproj/Settings.strings", "\u{FEFF}\"title\" = \"Settings\";")
        let inventory = read()
        XCTAssertEqual(inventory.errors, [])
        XCTAssertEqual(inventory.entries.map(\.id), ["string::Settings:title", "string:pt-BR:Localizable:same", "string:pt-BR:Localizable:title",
                                                     "string:pt-BR:Localizable:unquoted_key"])
        let overlay = ResourceOverlay(entries: inventory.entries)
        XCTAssertEqual(overlay.localizedString(forKey: "title", table: nil, preferredLocale: "pt-BR")?.value, "Olá\n\"mundo\"")
        XCTAssertEqual(overlay.localizedString(forKey: "same", table: nil, preferredLocale: "pt-BR")?.value, "same")
        // Base.lproj is the base localization ""; its table is the file name.
        XCTAssertEqual(overlay.localizedString(forKey: "title", table: "Settings", preferredLocale: "fr")?.value, "Settings")
        XCTAssertNil(overlay.localizedString(forKey: "title", table: "Other", preferredLocale: "fr"))
    }

    func testStringsFileFailuresNameTheLine() throws {
        try write("App/en.lproj/Dup.strings", "\"a\" = \"1\";\n\n\"a\" = \"2\";\n")
        try write("App/en.lproj/Semi.strings", "\"a\" = \"1\"\n\"b\" = \"2\";\n")
        try write("App/en.lproj/Open.strings", "\"a\" = \"1\n")
        let errors = read().errors.map(\.issue)
        XCTAssertEqual(errors.map(\.description), [
            "App/en.lproj/Dup.strings:3: a: duplicate key (first at line 1)",
            "App/en.lproj/Open.strings:1: a string is never closed",
            "App/en.lproj/Semi.strings:2: expected \";\" after the value of \"a\", found \"\"\"",
        ])
    }

    func testStringCatalogEntriesVariationsAndFormatSpecifiers() throws {
        try write("App/Localizable.xcstrings", """
            {"sourceLanguage":"en","version":"1.0","strings":{
              "%@ is in %@":{"localizations":{
                "en":{"stringUnit":{"state":"translated","value":"%@ is in %@"}},
                "pt-BR":{"stringUnit":{"state":"translated","value":"%2$@ tem %1$@"}}}},
              "%lld birds":{"localizations":{
                "en":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld bird"}},"other":{"stringUnit":{"state":"translated","value":"%lld birds"}}}}}}},
              "Score: %d":{"localizations":{
                "en":{"stringUnit":{"state":"translated","value":"Score: %d"}},
                "de":{"stringUnit":{"state":"translated","value":"Punkte: %@"}}}},
              "Untranslated":{}
            }}
            """)
        let inventory = read()
        XCTAssertEqual(inventory.entries.map(\.id), ["string:de:Localizable:Score: %d", "string:en:Localizable:%@ is in %@",
                                                     "string:en:Localizable:Score: %d", "string:pt-BR:Localizable:%@ is in %@"])
        XCTAssertEqual(inventory.unshippable.map(\.issue.description),
                       ["App/Localizable.xcstrings: en:%lld birds: plural/device variations cannot ride a PROV overlay (it holds one value per key); needs an app release"])
        XCTAssertEqual(inventory.errors.map(\.issue.description),
                       ["App/Localizable.xcstrings: Score: %d: format specifiers differ between locales: de has %1$@, en has %1$d"])
    }

    func testFormatSpecifierArguments() {
        XCTAssertEqual(FormatSpecifiers.arguments(of: "%@ and %@"), FormatSpecifiers.arguments(of: "%2$@ und %1$@"))
        XCTAssertEqual(FormatSpecifiers.arguments(of: "100%% of %.2f %lld %i"), [1: "f", 2: "lld", 3: "d"])
        XCTAssertNotEqual(FormatSpecifiers.arguments(of: "%d"), FormatSpecifiers.arguments(of: "%lld"))
    }

    // MARK: images

    func testImagesShipTheirLargestScaleWithPixelSize() throws {
        try imageSet("App/A.xcassets/Logo.imageset", ["1x": "logo.png", "3x": "logo@3x.png"])
        try write("App/A.xcassets/Logo.imageset/logo.png", bytes: Self.png)
        try write("App/A.xcassets/Logo.imageset/logo@3x.png", bytes: Self.png)
        try imageSet("App/A.xcassets/Photo.imageset", ["2x": "photo.jpg"])
        try write("App/A.xcassets/Photo.imageset/photo.jpg", bytes: Self.jpeg(width: 32, height: 16))
        try imageSet("App/A.xcassets/Icon.imageset", ["1x": "icon.pdf"])
        try write("App/A.xcassets/Icon.imageset/icon.pdf", "%PDF-1.4")
        let inventory = read()
        XCTAssertEqual(inventory.errors, [])
        XCTAssertEqual(inventory.entries.map(\.summary), ["1×1 px @3x image/png, \(Self.png.count) bytes", "32×16 px @2x image/jpeg, \(Self.jpeg(width: 32, height: 16).count) bytes"])
        XCTAssertEqual(inventory.entries.map(\.file), ["App/A.xcassets/Logo.imageset/logo@3x.png", "App/A.xcassets/Photo.imageset/photo.jpg"])
        XCTAssertEqual(inventory.unshippable.map(\.id), ["image:Icon"])
    }

    func testBrokenImagesAreErrors() throws {
        var corrupt = Self.png
        corrupt[20] ^= 0x01
        try imageSet("App/A.xcassets/Corrupt.imageset", ["1x": "c.png"])
        try write("App/A.xcassets/Corrupt.imageset/c.png", bytes: corrupt)
        try imageSet("App/A.xcassets/Truncated.imageset", ["1x": "t.png"])
        try write("App/A.xcassets/Truncated.imageset/t.png", bytes: Array(Self.png.prefix(40)))
        try imageSet("App/A.xcassets/Missing.imageset", ["1x": "m.png"])
        try imageSet("App/A.xcassets/NoFrame.imageset", ["1x": "n.jpg"])
        try write("App/A.xcassets/NoFrame.imageset/n.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xD9])
        let errors = read().errors.map(\.issue)
        XCTAssertEqual(errors.map(\.key), ["Corrupt", "Missing", "NoFrame", "Truncated"])
        XCTAssertTrue(errors[0].reason.hasPrefix("PNG chunk IHDR at offset 8 has CRC 1F15C489"), errors[0].reason)
        XCTAssertEqual(errors[1].reason, "Contents.json names m.png, which does not exist")
        XCTAssertEqual(errors[3].reason, "PNG chunk header at offset 33 is truncated")
    }

    // MARK: JSON config

    func testConfigFilesShipAsJSONAndAreCheckedAgainstTheirSchema() throws {
        try write("Config/features.json", #"{"checkout": {"enabled": true, "variant": "b"}}"#)
        try write("Config/features.schema.json", #"{"type": "object", "properties": {"checkout": {"type": "object", "required": ["enabled"], "properties": {"enabled": {"type": "boolean"}}}}}"#)
        try write("Config/bad.json", #"{"checkout": {"enabled": "yes"}}"#)
        try write("Config/broken.json", #"{"checkout": "#)
        let inventory = AssetReader.read(root: root, roots: [], configFiles: [
            .init(path: "Config/features.json", schema: "Config/features.schema.json"),
            .init(path: "Config/bad.json", schema: "Config/features.schema.json"),
            .init(path: "Config/broken.json"),
        ])
        XCTAssertEqual(inventory.entries.map(\.id), ["config:features.json"])
        guard case let .bytes(image) = inventory.entries[0].value else { return XCTFail("config is not a byte entry") }
        XCTAssertEqual(image.mime, "application/json")
        XCTAssertEqual(image.payload, Array(#"{"checkout": {"enabled": true, "variant": "b"}}"#.utf8))
        XCTAssertEqual(inventory.errors.map(\.issue.key), ["bad.json", "broken.json"])
        XCTAssertEqual(inventory.errors[0].issue.reason, "does not satisfy Config/features.schema.json: $.checkout.enabled: expected boolean, got \"yes\"")
    }

    func testTheSameAssetTwiceMustAgree() throws {
        let black = variant(space: "srgb", ["red": "0", "green": "0", "blue": "0", "alpha": "1.000"])
        try colorSet("App/A.xcassets/Accent.colorset", [black])
        try colorSet("Widgets/A.xcassets/Accent.colorset", [black])
        try colorSet("Widgets/A.xcassets/Tint.colorset", [black])
        try colorSet("App/A.xcassets/Tint.colorset", [variant(space: "srgb", ["red": "1.000", "green": "0", "blue": "0", "alpha": "1.000"])])
        let inventory = AssetReader.read(root: root, roots: ["App", "Widgets"])
        XCTAssertEqual(inventory.entries.map(\.id), ["color:Accent", "color:Tint"])
        XCTAssertEqual(inventory.errors.map(\.issue.description), ["Widgets/A.xcassets/Tint.colorset/Contents.json: color:Tint: also defined, differently, in App/A.xcassets/Tint.colorset/Contents.json"])
    }

    func testEntriesEncodeToTheOverlayTheyDescribe() throws {
        try colorSet("App/A.xcassets/C.colorset", [variant(space: "srgb", ["red": "0", "green": "0", "blue": "0", "alpha": "1.000"])])
        try write("App/en.lproj/Localizable.strings", "\"k\" = \"v\";")
        let inventory = read()
        let bytes = try ResourceOverlay(entries: inventory.entries).encode()
        let decoded = try ResourceOverlay.decode(bytes)
        XCTAssertEqual(decoded.colors.map(\.name), ["C"])
        XCTAssertEqual(decoded.locales, [.init(identifier: "en", entries: [.init(key: "k", value: "v", table: "Localizable")])])
        // Each entry's share; the chunk adds its 20-byte header and counts and the locale header "en".
        XCTAssertEqual(inventory.entries.map(\.encodedBytes).reduce(20 + 8 + 2, +), bytes.count)
    }

    // MARK: fixtures

    /// A 1×1 RGBA PNG.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)

    /// SOI, a JFIF APP0 and a baseline SOF0 frame header (3 components), then EOI.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03,
               1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
    }

    private func read() -> AssetInventory { AssetReader.read(root: root, roots: ["App"]) }

    private func write(_ path: String, _ text: String) throws { try write(path, bytes: Array(text.utf8)) }

    private func write(_ path: String, bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    private func variant(space: String, _ components: [String: String], dark: Bool = false) -> [String: Any] {
        var variant: [String: Any] = ["idiom": "universal", "color": ["color-space": space, "components": components]]
        if dark { variant["appearances"] = [["appearance": "luminosity", "value": "dark"]] }
        return variant
    }

    private func colorSet(_ folder: String, _ variants: [[String: Any]]) throws {
        let json = try JSONSerialization.data(withJSONObject: ["colors": variants, "info": ["author": "xcode", "version": 1]], options: [.prettyPrinted, .sortedKeys])
        try write(folder + "/Contents.json", bytes: Array(json))
    }

    private func imageSet(_ folder: String, _ files: [String: String]) throws {
        let images = files.map { ["filename": $0.value, "idiom": "universal", "scale": $0.key] }
        try write(folder + "/Contents.json", bytes: Array(try JSONSerialization.data(withJSONObject: ["images": images])))
    }

    private func color(_ inventory: AssetInventory, _ name: String) -> ResourceOverlay.Color? {
        inventory.entries.lazy.compactMap { if case let .color(color) = $0.value, color.name == name { color } else { nil } }.first
    }

    private func assertColor(_ inventory: AssetInventory, _ name: String, _ rgb: [Double], accuracy: Double = 0.0005, line: UInt = #line) throws {
        let light = try XCTUnwrap(color(inventory, name)?.light, line: line)
        for (actual, expected) in zip([light.red, light.green, light.blue], rgb) {
            XCTAssertEqual(actual, expected, accuracy: accuracy, "\(name)", line: line)
        }
    }
}
