/// The `PMOD` multi-module container (sdk-contract §1.2): several single-memory core-wasm modules in
/// one artifact, module 0 being the primary. Little-endian layout:
/// `"PMOD" | u8 version=1 | u8 count (1…255) | u16 reserved=0 | count × (u32 length, bytes)`.
///
/// `build`/`release` write it and `run` reads it, so both sides share this one implementation.
public struct ModuleContainer: Equatable, Sendable {
    public static let magic: [UInt8] = Array("PMOD".utf8)
    public static let version: UInt8 = 1
    public static let maximumModuleCount = 255

    /// The member modules in container order; index 0 is the primary module.
    public var modules: [[UInt8]]

    public init(modules: [[UInt8]]) {
        self.modules = modules
    }

    /// Whether `bytes` start with the container magic (whatever follows).
    public static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: magic)
    }

    /// Decodes a container the way devices do, but says why a container is malformed instead of
    /// silently treating it as a plain module (which would only fail later, less clearly).
    public static func decode(_ bytes: [UInt8]) throws(ContainerFormatError) -> ModuleContainer {
        var reader = LittleEndianReader(bytes: bytes, format: "PMOD")
        try reader.readHeader(magic: magic, version: Self.version)
        let count = Int(try reader.readU8(field: "count"))
        guard count >= 1 else { throw .invalidField(format: "PMOD", field: "count", offset: 5, detail: "a container holds at least one module") }
        _ = try reader.readU16(field: "reserved")
        var modules: [[UInt8]] = []
        modules.reserveCapacity(count)
        for index in 0..<count {
            let length = Int(try reader.readU32(field: "module[\(index)].length"))
            // readBytes checks the length against what is left before allocating anything.
            modules.append(try reader.readBytes(length, field: "module[\(index)].bytes"))
        }
        // Trailing bytes are ignored, as the SDK's decoder does.
        return ModuleContainer(modules: modules)
    }

    public func encode() throws(ContainerFormatError) -> [UInt8] {
        guard (1...Self.maximumModuleCount).contains(modules.count) else {
            throw .invalidField(format: "PMOD", field: "count", offset: 5,
                                detail: "\(modules.count) modules; a container holds 1…\(Self.maximumModuleCount)")
        }
        var bytes = Self.magic + [Self.version, UInt8(modules.count), 0, 0]
        for (index, module) in modules.enumerated() {
            guard let length = UInt32(exactly: module.count) else {
                throw .invalidField(format: "PMOD", field: "module[\(index)].length", offset: bytes.count,
                                    detail: "\(module.count) bytes do not fit the u32 length field")
            }
            bytes.appendLittleEndian(length)
            bytes += module
        }
        return bytes
    }
}

/// Why a `PMOD` container or `POVR` envelope could not be read or written: which format, which field,
/// at which byte offset.
public enum ContainerFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    case badMagic(format: String)
    case unsupportedVersion(format: String, found: Int, supported: Int)
    case truncated(format: String, field: String, offset: Int, needed: Int, available: Int)
    case invalidField(format: String, field: String, offset: Int, detail: String)

    public var description: String {
        switch self {
        case let .badMagic(format):
            return "not a \(format) artifact: the first 4 bytes are not \"\(format)\""
        case let .unsupportedVersion(format, found, supported):
            return "\(format) version \(found) at offset 4 is not supported (only version \(supported) is)"
        case let .truncated(format, field, offset, needed, available):
            return "\(format) is truncated: \(field) at offset \(offset) needs \(needed) byte(s) but only \(available) remain"
        case let .invalidField(format, field, offset, detail):
            return "\(format) \(field) at offset \(offset) is invalid: \(detail)"
        }
    }
}

/// Reads the fixed-width little-endian fields of the container formats, bounds-checked.
struct LittleEndianReader {
    let bytes: [UInt8]
    let format: String
    private(set) var offset = 0

    init(bytes: [UInt8], format: String) {
        self.bytes = bytes
        self.format = format
    }

    mutating func readBytes(_ count: Int, field: String) throws(ContainerFormatError) -> [UInt8] {
        let available = bytes.count - offset
        guard count <= available else {
            throw .truncated(format: format, field: field, offset: offset, needed: count, available: available)
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readU8(field: String) throws(ContainerFormatError) -> UInt8 {
        try readBytes(1, field: field)[0]
    }

    mutating func readU16(field: String) throws(ContainerFormatError) -> UInt16 {
        try readInteger(field: field)
    }

    mutating func readU32(field: String) throws(ContainerFormatError) -> UInt32 {
        try readInteger(field: field)
    }

    mutating func readInteger<Integer: FixedWidthInteger & UnsignedInteger>(field: String) throws(ContainerFormatError) -> Integer {
        let raw = try readBytes(Integer.bitWidth / 8, field: field)
        return raw.enumerated().reduce(Integer(0)) { $0 | Integer($1.element) << (8 * $1.offset) }
    }

    /// The 4-byte magic and the u8 version every container format starts with.
    mutating func readHeader(magic: [UInt8], version: UInt8) throws(ContainerFormatError) {
        guard try readBytes(4, field: "magic") == magic else { throw .badMagic(format: format) }
        let found = try readU8(field: "version")
        guard found == version else { throw .unsupportedVersion(format: format, found: Int(found), supported: Int(version)) }
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<Integer: FixedWidthInteger & UnsignedInteger>(_ value: Integer) {
        for shift in stride(from: 0, to: Integer.bitWidth, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
