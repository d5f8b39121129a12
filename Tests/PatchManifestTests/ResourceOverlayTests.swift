import PatchManifest
import XCTest

/// PROV bytes as sdk-contract §1.3 lays them out, checked three ways: golden bytes written by hand
/// from the layout, a second reader (`ContractPROVReader`, below) written straight from the contract
/// and sharing nothing with `ResourceOverlay.decode`, and the decoder's own round trip.
final class ResourceOverlayTests: XCTestCase {
    // MARK: golden bytes, one per kind

    func testColorGoldenBytes() throws {
        let overlay = ResourceOverlay(colors: [
            .init(name: "Brand", light: .init(red: 1, green: 0.5, blue: 0, alpha: 1), dark: .init(red: 0, green: 0, blue: 0.25, alpha: 0.5)),
            .init(name: "Accent", light: .init(red: 0, green: 0, blue: 0, alpha: 1)),
        ])
        // Sorted by name: Accent (no dark) before Brand (dark).
        let expected = header + u32(2)
            + str("Accent") + [0] + f64(0) + f64(0) + f64(0) + f64(1)
            + str("Brand") + [1] + f64(1) + f64(0.5) + f64(0) + f64(1) + f64(0) + f64(0) + f64(0.25) + f64(0.5)
            + u32(0) + u32(0)
        XCTAssertEqual(try overlay.encode(), expected)
        // 0.5 is 0x3FE0000000000000: the f64 is little-endian.
        XCTAssertEqual(f64(0.5), [0, 0, 0, 0, 0, 0, 0xE0, 0x3F])
        try assertIndependentlyReadable(overlay)
    }

    func testStringsGoldenBytes() throws {
        let overlay = ResourceOverlay(locales: [
            .init(identifier: "pt-BR", entries: [.init(key: "title", value: "Olá", table: ""), .init(key: "cta", value: "Comprar", table: "Shop")]),
            .init(identifier: "", entries: [.init(key: "title", value: "Hello", table: "Localizable")]),
        ])
        // Locales sorted ("" first), keys sorted within a locale (cta before title); "Olá" is 4 UTF-8 bytes.
        let expected = header + u32(0) + u32(2)
            + str("") + u32(1) + str("title") + str("Hello") + str("Localizable")
            + str("pt-BR") + u32(2) + str("cta") + str("Comprar") + str("Shop") + str("title") + [4, 0, 0, 0] + Array("Olá".utf8) + str("")
            + u32(0)
        XCTAssertEqual(try overlay.encode(), expected)
        try assertIndependentlyReadable(overlay)
    }

    func testImagesGoldenBytes() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        let config = Array(#"{"beta":true}"#.utf8)
        let overlay = ResourceOverlay(images: [
            .init(name: "hero", scale: 3, mime: "image/png", payload: png),
            .init(name: "features.json", scale: 1, mime: "application/json", payload: config),
        ])
        let expected = header + u32(0) + u32(0) + u32(2)
            + str("features.json") + [0, 1] + str("application/json") + u32(config.count) + config
            + str("hero") + [0, 3] + str("image/png") + u32(4) + png
        XCTAssertEqual(try overlay.encode(), expected)
        try assertIndependentlyReadable(overlay)
    }

    func testEmptyOverlayIsHeaderAndThreeZeroCounts() throws {
        XCTAssertEqual(try ResourceOverlay().encode(), header + u32(0) + u32(0) + u32(0))
    }

    func testEncodingIsIndependentOfInputOrder() throws {
        let entries: [ResourceOverlay.StringEntry] = [.init(key: "b", value: "2", table: ""), .init(key: "a", value: "1", table: "T"), .init(key: "a", value: "0", table: "")]
        let one = ResourceOverlay(colors: [.init(name: "y", light: .init(red: 0, green: 0, blue: 0, alpha: 1)), .init(name: "x", light: .init(red: 1, green: 1, blue: 1, alpha: 1))],
                                  locales: [.init(identifier: "fr", entries: entries), .init(identifier: "de", entries: [])])
        let two = ResourceOverlay(colors: one.colors.reversed(), locales: [.init(identifier: "de", entries: []), .init(identifier: "fr", entries: entries.reversed())])
        XCTAssertEqual(try one.encode(), try two.encode())
        XCTAssertEqual(try ResourceOverlay.decode(try one.encode()), one.sorted)
    }

    func testEnvelopeAroundTheChunk() throws {
        let chunk = try ResourceOverlay(colors: [.init(name: "c", light: .init(red: 0, green: 0, blue: 0, alpha: 1))]).encode()
        let inner: [UInt8] = [0, 0x61, 0x73, 0x6D, 1, 0, 0, 0]
        let envelope = try OverlayEnvelope(overlay: chunk, inner: inner).encode()
        XCTAssertEqual(envelope, Array("POVR".utf8) + [1, 0, 0, 0] + u32(chunk.count) + chunk + u32(inner.count) + inner)
    }

    // MARK: malformed input names the field and offset

    func testMalformedChunksAreRejectedWithFieldAndOffset() throws {
        let good = try ResourceOverlay(colors: [.init(name: "c", light: .init(red: 0, green: 0, blue: 0, alpha: 1))],
                                       images: [.init(name: "i", scale: 1, mime: "image/png", payload: [1])]).encode()
        XCTAssertThrowsError(try ResourceOverlay.decode(Array("PROX".utf8) + good.dropFirst(4))) { XCTAssertEqual($0 as? ContainerFormatError, .badMagic(format: "PROV")) }
        var version = good
        version[4] = 2
        XCTAssertThrowsError(try ResourceOverlay.decode(version)) {
            XCTAssertEqual($0 as? ContainerFormatError, .unsupportedVersion(format: "PROV", found: 2, supported: 1))
        }
        // hasDark sits after the header (8), the count (4) and the name (4 + 1).
        var hasDark = good
        hasDark[17] = 7
        XCTAssertThrowsError(try ResourceOverlay.decode(hasDark)) {
            XCTAssertEqual($0 as? ContainerFormatError, .invalidField(format: "PROV", field: "colors[0].hasDark", offset: 17, detail: "7 is neither 0 nor 1"))
        }
        XCTAssertThrowsError(try ResourceOverlay.decode(Array(good.dropLast(1)))) {
            XCTAssertEqual($0 as? ContainerFormatError, .truncated(format: "PROV", field: "images[0].payload", offset: good.count - 1, needed: 1, available: 0))
        }
        var kind = good
        let kindOffset = 8 + 4 + 5 + 1 + 32 + 4 + 4 + 4 + 1
        XCTAssertEqual(kind[kindOffset], 0)
        kind[kindOffset] = 9
        XCTAssertThrowsError(try ResourceOverlay.decode(kind)) {
            XCTAssertEqual($0 as? ContainerFormatError, .invalidField(format: "PROV", field: "images[0].kind", offset: kindOffset, detail: "9 is neither 0 (inline) nor 1 (external ref)"))
        }
        var utf8 = good
        utf8[16] = 0xFF
        XCTAssertThrowsError(try ResourceOverlay.decode(utf8)) {
            XCTAssertEqual($0 as? ContainerFormatError, .invalidField(format: "PROV", field: "colors[0].name", offset: 16, detail: "1 bytes are not valid UTF-8"))
        }
        // A count larger than what follows fails on the first missing entry, without allocating for it.
        XCTAssertThrowsError(try ResourceOverlay.decode(header + u32(UInt32.max))) {
            XCTAssertEqual($0 as? ContainerFormatError, .truncated(format: "PROV", field: "colors[0].name length", offset: 12, needed: 4, available: 0))
        }
    }

    // MARK: lookups (sdk-contract §7.8)

    func testLocaleChainGoesPreferredThenLanguageThenBase() {
        XCTAssertEqual(ResourceOverlay.localeChain(preferred: "pt-BR"), ["pt-BR", "pt", ""])
        XCTAssertEqual(ResourceOverlay.localeChain(preferred: "zh_Hant_TW"), ["zh_Hant_TW", "zh", ""])
        XCTAssertEqual(ResourceOverlay.localeChain(preferred: "de"), ["de", ""])
        XCTAssertEqual(ResourceOverlay.localeChain(preferred: ""), [""])
    }

    func testStringLookupFollowsTheChainAndTheTableRule() {
        let overlay = ResourceOverlay(locales: [
            .init(identifier: "", entries: [.init(key: "title", value: "Base", table: ""), .init(key: "cta", value: "Buy (Shop)", table: "Shop")]),
            .init(identifier: "pt", entries: [.init(key: "title", value: "Título", table: "Localizable")]),
            .init(identifier: "pt-BR", entries: [.init(key: "cta", value: "Comprar", table: "")]),
        ])
        XCTAssertEqual(overlay.localizedString(forKey: "cta", table: nil, preferredLocale: "pt-BR")?.value, "Comprar")
        // Not in pt-BR: the language, then the base.
        XCTAssertEqual(overlay.localizedString(forKey: "title", table: nil, preferredLocale: "pt-BR")?.locale, "pt")
        XCTAssertEqual(overlay.localizedString(forKey: "title", table: nil, preferredLocale: "fr")?.value, "Base")
        // pt pins table Localizable: a caller asking for another table moves on to the base's "" entry.
        XCTAssertEqual(overlay.localizedString(forKey: "title", table: "Other", preferredLocale: "pt")?.value, "Base")
        XCTAssertEqual(overlay.localizedString(forKey: "title", table: "Localizable", preferredLocale: "pt")?.value, "Título")
        // The base's cta is pinned to Shop: asked for Menu there is no override at all.
        XCTAssertNil(overlay.localizedString(forKey: "cta", table: "Menu", preferredLocale: "fr"))
        XCTAssertEqual(overlay.localizedString(forKey: "cta", table: "Shop", preferredLocale: "fr")?.value, "Buy (Shop)")
        XCTAssertNil(overlay.localizedString(forKey: "missing", table: nil, preferredLocale: "pt-BR"))
    }

    func testColorLookupFallsBackToLightWithoutADarkVariant() {
        let light = ResourceOverlay.RGBA(red: 1, green: 1, blue: 1, alpha: 1)
        let dark = ResourceOverlay.RGBA(red: 0, green: 0, blue: 0, alpha: 1)
        let overlay = ResourceOverlay(colors: [.init(name: "Both", light: light, dark: dark), .init(name: "Flat", light: light)])
        XCTAssertEqual(overlay.color(named: "Both", dark: true), dark)
        XCTAssertEqual(overlay.color(named: "Flat", dark: true), light)
        XCTAssertNil(overlay.color(named: "Nope", dark: false))
    }

    // MARK: helpers

    private let header: [UInt8] = Array("PROV".utf8) + [1, 0, 0, 0]
    private func u32(_ value: Int) -> [UInt8] { u32(UInt32(value)) }
    private func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private func str(_ text: String) -> [UInt8] { u32(text.utf8.count) + Array(text.utf8) }
    private func f64(_ value: Double) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64($0))) } }

    /// The independent reader sees exactly what was put in, in sorted order.
    private func assertIndependentlyReadable(_ overlay: ResourceOverlay, file: StaticString = #filePath, line: UInt = #line) throws {
        let read = try ContractPROVReader.read(try overlay.encode())
        let sorted = overlay.sorted
        XCTAssertEqual(read.colors.map(\.name), sorted.colors.map(\.name), file: file, line: line)
        XCTAssertEqual(read.colors.map(\.components), sorted.colors.map { c in [c.light.red, c.light.green, c.light.blue, c.light.alpha] + (c.dark.map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? []) }, file: file, line: line)
        XCTAssertEqual(read.strings.map { "\($0.locale)|\($0.key)|\($0.value)|\($0.table)" },
                       sorted.locales.flatMap { locale in locale.entries.map { "\(locale.identifier)|\($0.key)|\($0.value)|\($0.table)" } }, file: file, line: line)
        XCTAssertEqual(read.images.map { "\($0.name)|\($0.kind)|\($0.scale)|\($0.mime)|\($0.payload)" },
                       sorted.images.map { "\($0.name)|\($0.kind.rawValue)|\($0.scale)|\($0.mime)|\($0.payload)" }, file: file, line: line)
        XCTAssertEqual(try ResourceOverlay.decode(try overlay.encode()), sorted, file: file, line: line)
    }
}

/// A PROV reader written from sdk-contract §1.3 alone (Foundation `Data` and a cursor), sharing no
/// code with `ResourceOverlay`, so an encoder/decoder pair that agree with each other but not with
/// the contract fails here.
private enum ContractPROVReader {
    struct Read {
        var colors: [(name: String, components: [Double])] = []
        var strings: [(locale: String, key: String, value: String, table: String)] = []
        var images: [(name: String, kind: UInt8, scale: UInt8, mime: String, payload: [UInt8])] = []
    }

    struct Malformed: Error {}

    static func read(_ bytes: [UInt8]) throws -> Read {
        let data = Data(bytes)
        var at = 0
        func take(_ n: Int) throws -> Data {
            guard at + n <= data.count else { throw Malformed() }
            defer { at += n }
            return data.subdata(in: at..<at + n)
        }
        func u8() throws -> UInt8 { try take(1).first! }
        func u32() throws -> Int { Int(try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) }
        func f64() throws -> Double { Double(bitPattern: try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        func str() throws -> String {
            guard let text = String(data: try take(try u32()), encoding: .utf8) else { throw Malformed() }
            return text
        }
        guard try take(4) == Data("PROV".utf8), try u8() == 1, try u8() == 0, try take(2) == Data([0, 0]) else { throw Malformed() }
        var result = Read()
        for _ in 0..<(try u32()) {
            let name = try str()
            let hasDark = try u8()
            result.colors.append((name, try (0..<(hasDark == 1 ? 8 : 4)).map { _ in try f64() }))
        }
        for _ in 0..<(try u32()) {
            let locale = try str()
            for _ in 0..<(try u32()) {
                result.strings.append((locale, try str(), try str(), try str()))
            }
        }
        for _ in 0..<(try u32()) {
            let name = try str(), kind = try u8(), scale = try u8(), mime = try str()
            result.images.append((name, kind, scale, mime, Array(try take(try u32()))))
        }
        guard at == data.count else { throw Malformed() }
        return result
    }
}

final class ResourceOverlaySizeTests: XCTestCase {
    func testEntrySizesAddUpToTheChunk() throws {
        let overlay = ResourceOverlay(
            colors: [.init(name: "A", light: .init(red: 0, green: 0, blue: 0, alpha: 1), dark: .init(red: 1, green: 1, blue: 1, alpha: 1)), .init(name: "B", light: .init(red: 0, green: 0, blue: 0, alpha: 1))],
            locales: [.init(identifier: "pt-BR", entries: [.init(key: "k", value: "valor", table: "T"), .init(key: "j", value: "", table: "")]), .init(identifier: "", entries: [.init(key: "x", value: "y", table: "")])],
            images: [.init(name: "hero", scale: 2, mime: "image/png", payload: Array(repeating: 7, count: 100))])
        let sizes = overlay.entrySizes
        // name (4 + 4), kind and scale (2), mime (4 + 9), payload (4 + 100).
        let heroBytes: Int = 127
        XCTAssertEqual(sizes.first, ResourceOverlay.EntrySize(id: "image:hero", bytes: heroBytes))
        // Header and counts (20), then per locale its identifier (4 + length) and entry count (4).
        let overhead: Int = 20 + (8 + 5) + (8 + 0)
        let total: Int = sizes.map(\.bytes).reduce(overhead, +)
        XCTAssertEqual(total, try overlay.encode().count)
    }
}
