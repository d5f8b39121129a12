/// The `POVR` overlay envelope (sdk-contract §1.3): a resource-overlay chunk (`PROV`, kept opaque
/// here) wrapped around the inner artifact (raw wasm or `PMOD`). Little-endian layout:
/// `"POVR" | u8 version=1 | u8 0 | u16 0 | u32 overlayLen | overlay | u32 innerLen | inner`.
public struct OverlayEnvelope: Equatable, Sendable {
    public static let magic: [UInt8] = Array("POVR".utf8)
    public static let version: UInt8 = 1

    /// The `PROV` chunk bytes, verbatim.
    public var overlay: [UInt8]
    /// The wrapped artifact: a raw module or a `PMOD` container.
    public var inner: [UInt8]

    public init(overlay: [UInt8], inner: [UInt8]) {
        self.overlay = overlay
        self.inner = inner
    }

    public static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: magic)
    }

    public static func decode(_ bytes: [UInt8]) throws(ContainerFormatError) -> OverlayEnvelope {
        var reader = LittleEndianReader(bytes: bytes, format: "POVR")
        try reader.readHeader(magic: magic, version: Self.version)
        _ = try reader.readU8(field: "flags")
        _ = try reader.readU16(field: "reserved")
        let overlayLength = Int(try reader.readU32(field: "overlayLen"))
        let overlay = try reader.readBytes(overlayLength, field: "overlay")
        let innerLength = Int(try reader.readU32(field: "innerLen"))
        let inner = try reader.readBytes(innerLength, field: "inner")
        // Trailing bytes are ignored, as the SDK's decoder does.
        return OverlayEnvelope(overlay: overlay, inner: inner)
    }

    public func encode() throws(ContainerFormatError) -> [UInt8] {
        guard let overlayLength = UInt32(exactly: overlay.count) else {
            throw .invalidField(format: "POVR", field: "overlayLen", offset: 8, detail: "\(overlay.count) bytes do not fit a u32")
        }
        guard let innerLength = UInt32(exactly: inner.count) else {
            throw .invalidField(format: "POVR", field: "innerLen", offset: 12 + overlay.count, detail: "\(inner.count) bytes do not fit a u32")
        }
        var bytes = Self.magic + [Self.version, 0, 0, 0]
        bytes.appendLittleEndian(overlayLength)
        bytes += overlay
        bytes.appendLittleEndian(innerLength)
        bytes += inner
        return bytes
    }
}

extension OverlayEnvelope {
    /// The inner module of an artifact that ships assets and no code: the smallest core-wasm module a
    /// device activates (sdk-contract §1.1: it parses, instantiates with no imports and exports
    /// `memory`; `patch_malloc` is needed only when the host passes bytes in, which nothing does, as
    /// the module exports no function). 25 bytes: the header, a memory section (one memory, 1 page
    /// minimum, no maximum) and an export section (`memory` → memory 0).
    public static let assetOnlyInnerModule: [UInt8] =
        [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]
        + [0x05, 0x03, 0x01, 0x00, 0x01]
        + [0x07, 0x0A, 0x01, 0x06] + Array("memory".utf8) + [0x02, 0x00]
}
