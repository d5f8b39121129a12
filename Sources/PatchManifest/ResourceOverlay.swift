/// The `PROV` resource-overlay chunk (sdk-contract §1.3, semantics §7.8) as a value: colors that
/// replace `UIColor(named:)`, localized strings that replace `Bundle.localizedString`, and inline byte
/// entries that replace `UIImage(named:)` (patchcli also carries JSON config files this way, read with
/// `Patch.overlayImageBytes(named:)`: docs/assets.md). Little-endian layout:
///
///     "PROV" | u8 version=1 | u8 flags=0 | u16 reserved=0
///     u32 colorCount  × (str name | u8 hasDark | f64 r,g,b,a | [f64 r,g,b,a dark])
///     u32 localeCount × (str locale | u32 entryCount × (str key | str value | str table))
///     u32 imageCount  × (str name | u8 kind | u8 scale | str mime | u32 payloadLen | payload)
///     str = u32 byteLength + UTF-8,  f64 = IEEE-754
///
/// `encode` writes colors, locales, keys within a locale and images sorted by name, as the SDK's
/// reference encoder does, so the same overlay always gives the same bytes (and the same artifact
/// SHA-256). Ties (one key in two tables, one image name at two scales) are broken by table and scale.
public struct ResourceOverlay: Equatable, Sendable {
    public static let magic: [UInt8] = Array("PROV".utf8)
    public static let version: UInt8 = 1

    /// sRGB components, 0…1 (the SDK builds `UIColor(red:green:blue:alpha:)` from them).
    public struct RGBA: Equatable, Sendable, Codable {
        public var red: Double
        public var green: Double
        public var blue: Double
        public var alpha: Double

        public init(red: Double, green: Double, blue: Double, alpha: Double) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        var components: [Double] { [red, green, blue, alpha] }

        /// `#RRGGBB`, with `AA` appended when not opaque: how reports show a color.
        public var hex: String {
            let digits = Array("0123456789ABCDEF")
            return "#" + ([red, green, blue] + (alpha < 1 ? [alpha] : [])).map { component in
                let byte = Int((min(1, max(0, component)) * 255).rounded())
                return String([digits[byte >> 4], digits[byte & 15]])
            }.joined()
        }
    }

    public struct Color: Equatable, Sendable {
        /// The asset-catalog lookup name (`UIColor(named:)`, SwiftUI `Color("name")`).
        public var name: String
        public var light: RGBA
        /// The dark-appearance variant; nil ⇒ the color is the same in both appearances.
        public var dark: RGBA?

        public init(name: String, light: RGBA, dark: RGBA? = nil) {
            self.name = name
            self.light = light
            self.dark = dark
        }
    }

    public struct StringEntry: Equatable, Sendable {
        public var key: String
        public var value: String
        /// The strings table the override belongs to; "" matches any table (§7.8).
        public var table: String

        public init(key: String, value: String, table: String) {
            self.key = key
            self.value = value
            self.table = table
        }
    }

    public struct Locale: Equatable, Sendable {
        /// A locale identifier as devices prefer it (`pt-BR`, `en`); "" is the base localization.
        public var identifier: String
        public var entries: [StringEntry]

        public init(identifier: String, entries: [StringEntry]) {
            self.identifier = identifier
            self.entries = entries
        }
    }

    public struct Image: Equatable, Sendable {
        public enum Kind: UInt8, Sendable, Codable {
            /// The payload is the image (any `UIImage(data:)` format) or other bytes.
            case inline = 0
            /// The payload names an external resource; carried, not resolved by the SDK (§7.8).
            case externalReference = 1
        }

        public var name: String
        public var kind: Kind
        /// 1, 2 or 3; 0 is read as 1 by the SDK.
        public var scale: UInt8
        /// Informational for the SDK (`image/png`, `image/jpeg`, `application/json`).
        public var mime: String
        public var payload: [UInt8]

        public init(name: String, kind: Kind = .inline, scale: UInt8, mime: String, payload: [UInt8]) {
            self.name = name
            self.kind = kind
            self.scale = scale
            self.mime = mime
            self.payload = payload
        }
    }

    public var colors: [Color]
    public var locales: [Locale]
    public var images: [Image]

    public init(colors: [Color] = [], locales: [Locale] = [], images: [Image] = []) {
        self.colors = colors
        self.locales = locales
        self.images = images
    }

    public var isEmpty: Bool { colors.isEmpty && locales.allSatisfy(\.entries.isEmpty) && images.isEmpty }

    /// The same overlay in the encoder's order: what `decode(encode())` returns.
    public var sorted: ResourceOverlay {
        ResourceOverlay(
            colors: colors.sorted { $0.name < $1.name },
            locales: locales.sorted { $0.identifier < $1.identifier }.map { locale in
                Locale(identifier: locale.identifier, entries: locale.entries.sorted { ($0.key, $0.table) < ($1.key, $1.table) })
            },
            images: images.sorted { ($0.name, $0.scale) < ($1.name, $1.scale) })
    }

    public func encode() throws(ContainerFormatError) -> [UInt8] {
        let overlay = sorted
        var writer = Writer()
        writer.bytes = Self.magic + [Self.version, 0, 0, 0]
        try writer.count(overlay.colors.count, field: "colorCount")
        for color in overlay.colors {
            try writer.string(color.name, field: "color.name")
            writer.bytes.append(color.dark == nil ? 0 : 1)
            for component in color.light.components + (color.dark?.components ?? []) {
                writer.bytes.appendLittleEndian(component.bitPattern)
            }
        }
        try writer.count(overlay.locales.count, field: "localeCount")
        for locale in overlay.locales {
            try writer.string(locale.identifier, field: "locale")
            try writer.count(locale.entries.count, field: "entryCount")
            for entry in locale.entries {
                try writer.string(entry.key, field: "key")
                try writer.string(entry.value, field: "value")
                try writer.string(entry.table, field: "table")
            }
        }
        try writer.count(overlay.images.count, field: "imageCount")
        for image in overlay.images {
            try writer.string(image.name, field: "image.name")
            writer.bytes += [image.kind.rawValue, image.scale]
            try writer.string(image.mime, field: "mime")
            try writer.count(image.payload.count, field: "payloadLen")
            writer.bytes += image.payload
        }
        return writer.bytes
    }

    /// Reads a chunk strictly: a device treats any malformed chunk as "no overlay", so this says which
    /// field at which offset is wrong instead. Order is not required (the SDK does not require it);
    /// trailing bytes are ignored, as the SDK's decoder does.
    public static func decode(_ bytes: [UInt8]) throws(ContainerFormatError) -> ResourceOverlay {
        var reader = LittleEndianReader(bytes: bytes, format: "PROV")
        try reader.readHeader(magic: magic, version: Self.version)
        _ = try reader.readU8(field: "flags")
        _ = try reader.readU16(field: "reserved")
        var overlay = ResourceOverlay()
        for index in 0..<Int(try reader.readU32(field: "colorCount")) {
            let name = try reader.readString(field: "colors[\(index)].name")
            let darkOffset = reader.offset
            let hasDark = try reader.readU8(field: "colors[\(index)].hasDark")
            guard hasDark <= 1 else {
                throw .invalidField(format: "PROV", field: "colors[\(index)].hasDark", offset: darkOffset, detail: "\(hasDark) is neither 0 nor 1")
            }
            let light = try reader.readRGBA(field: "colors[\(index)].light")
            let dark = hasDark == 1 ? try reader.readRGBA(field: "colors[\(index)].dark") : nil
            overlay.colors.append(Color(name: name, light: light, dark: dark))
        }
        for index in 0..<Int(try reader.readU32(field: "localeCount")) {
            let identifier = try reader.readString(field: "locales[\(index)].locale")
            var entries: [StringEntry] = []
            for entry in 0..<Int(try reader.readU32(field: "locales[\(index)].entryCount")) {
                let field = "locales[\(index)].entries[\(entry)]"
                entries.append(StringEntry(key: try reader.readString(field: "\(field).key"), value: try reader.readString(field: "\(field).value"),
                                           table: try reader.readString(field: "\(field).table")))
            }
            overlay.locales.append(Locale(identifier: identifier, entries: entries))
        }
        for index in 0..<Int(try reader.readU32(field: "imageCount")) {
            let name = try reader.readString(field: "images[\(index)].name")
            let kindOffset = reader.offset
            let rawKind = try reader.readU8(field: "images[\(index)].kind")
            guard let kind = Image.Kind(rawValue: rawKind) else {
                throw .invalidField(format: "PROV", field: "images[\(index)].kind", offset: kindOffset, detail: "\(rawKind) is neither 0 (inline) nor 1 (external ref)")
            }
            let scale = try reader.readU8(field: "images[\(index)].scale")
            let mime = try reader.readString(field: "images[\(index)].mime")
            let payload = try reader.readBytes(Int(try reader.readU32(field: "images[\(index)].payloadLen")), field: "images[\(index)].payload")
            overlay.images.append(Image(name: name, kind: kind, scale: scale, mime: mime, payload: payload))
        }
        return overlay
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func count(_ value: Int, field: String) throws(ContainerFormatError) {
            guard let length = UInt32(exactly: value) else {
                throw .invalidField(format: "PROV", field: field, offset: bytes.count, detail: "\(value) does not fit a u32")
            }
            bytes.appendLittleEndian(length)
        }

        mutating func string(_ text: String, field: String) throws(ContainerFormatError) {
            let utf8 = Array(text.utf8)
            try count(utf8.count, field: "\(field) length")
            bytes += utf8
        }
    }
}

extension LittleEndianReader {
    mutating func readString(field: String) throws(ContainerFormatError) -> String {
        let length = Int(try readU32(field: "\(field) length"))
        let start = offset
        let raw = try readBytes(length, field: field)
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw .invalidField(format: format, field: field, offset: start, detail: "\(length) bytes are not valid UTF-8")
        }
        return text
    }

    mutating func readRGBA(field: String) throws(ContainerFormatError) -> ResourceOverlay.RGBA {
        var components: [Double] = []
        for name in ["r", "g", "b", "a"] {
            components.append(Double(bitPattern: try readInteger(field: "\(field).\(name)")))
        }
        return ResourceOverlay.RGBA(red: components[0], green: components[1], blue: components[2], alpha: components[3])
    }
}

// MARK: - Lookups as the SDK resolves them (sdk-contract §7.8)

extension ResourceOverlay {
    /// The locales a lookup tries, in order: the preferred locale (`pt-BR`), its language (the part
    /// before the first `-` or `_`: `pt`), then the base localization "".
    public static func localeChain(preferred: String) -> [String] {
        var chain: [String] = []
        for candidate in [preferred, String(preferred.prefix { $0 != "-" && $0 != "_" }), ""] where !chain.contains(candidate) {
            chain.append(candidate)
        }
        return chain
    }

    /// The override `Patch.overlayLocalizedString(forKey:table:locale:)` returns, and the locale of the
    /// chain it came from. An override pinned to a non-empty table is skipped when the caller asks for
    /// another non-empty table (the chain moves on); an override with table "" matches any table. When
    /// a locale holds the key for several tables, the one for the asked table wins, then the "" one.
    public func localizedString(forKey key: String, table: String?, preferredLocale: String) -> (value: String, locale: String)? {
        let asked = table ?? ""
        for identifier in Self.localeChain(preferred: preferredLocale) {
            let candidates = locales.filter { $0.identifier == identifier }.flatMap(\.entries).filter { $0.key == key }
            let match = candidates.first { !asked.isEmpty && $0.table == asked }
                ?? candidates.first { $0.table.isEmpty }
                ?? (asked.isEmpty ? candidates.first : nil)
            if let match { return (match.value, identifier) }
        }
        return nil
    }

    /// `Patch.overlayColor(named:dark:)`: the dark variant in dark mode when there is one, else the light.
    public func color(named name: String, dark: Bool) -> RGBA? {
        guard let color = colors.first(where: { $0.name == name }) else { return nil }
        return dark ? (color.dark ?? color.light) : color.light
    }
}

// MARK: - Sizes

extension ResourceOverlay {
    /// One entry of the chunk and the bytes it takes in it.
    public struct EntrySize: Sendable, Equatable, Codable {
        /// `color:<name>`, `string:<locale>:<table>:<key>`, `image:<name>` (the ids of docs/assets.md;
        /// a JSON config file is an `image:` entry here, as on the wire).
        public var id: String
        public var bytes: Int

        public init(id: String, bytes: Int) {
            self.id = id
            self.bytes = bytes
        }
    }

    /// What each entry adds to the chunk, largest first: the chunk's size is these plus 20 bytes of
    /// header and counts, plus 8 bytes per locale (its identifier's length and entry count) and the
    /// locale identifiers.
    public var entrySizes: [EntrySize] {
        let colorSizes = colors.map { EntrySize(id: "color:\($0.name)", bytes: 4 + $0.name.utf8.count + 1 + ($0.dark == nil ? 32 : 64)) }
        let stringSizes = locales.flatMap { locale in
            locale.entries.map { EntrySize(id: "string:\(locale.identifier):\($0.table):\($0.key)", bytes: 12 + $0.key.utf8.count + $0.value.utf8.count + $0.table.utf8.count) }
        }
        let imageSizes = images.map { EntrySize(id: "image:\($0.name)", bytes: 4 + $0.name.utf8.count + 2 + 4 + $0.mime.utf8.count + 4 + $0.payload.count) }
        return (colorSizes + stringSizes + imageSizes).sorted { ($0.bytes, $1.id) > ($1.bytes, $0.id) }
    }
}
