import Foundation

/// Checks that image bytes are what the device will decode (`UIImage(data:)`) and reads their pixel
/// size: PNG (signature, IHDR first with a non-zero size, every chunk's CRC-32, IEND last) and JPEG
/// (SOI, then the segments up to a start-of-frame SOFn with the size).
public enum ImageValidator {
    public struct Decoded: Equatable, Sendable {
        public var mime: String
        public var width: Int
        public var height: Int
    }

    public static func validate(_ bytes: [UInt8]) -> Result<Decoded, ImageFailure> {
        if bytes.starts(with: pngSignature) { return png(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(bytes) }
        return .failure(ImageFailure(reason: "neither a PNG nor a JPEG (first bytes \(bytes.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")))"))
    }

    public struct ImageFailure: Error, Equatable, Sendable { public var reason: String }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }

    private static func png(_ bytes: [UInt8]) -> Result<Decoded, ImageFailure> {
        var offset = pngSignature.count
        var size: (Int, Int)?
        var sawEnd = false
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { return .failure(.init(reason: "PNG chunk header at offset \(offset) is truncated")) }
            let length = u32(bytes, offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= bytes.count - offset - 12 else { return .failure(.init(reason: "PNG chunk \(type) at offset \(offset) runs past the end of the file")) }
            let stored = UInt32(u32(bytes, offset + 8 + length))
            let computed = CRC32.checksum(bytes[offset + 4..<offset + 8 + length])
            guard stored == computed else {
                return .failure(.init(reason: "PNG chunk \(type) at offset \(offset) has CRC \(hex32(stored)), its bytes give \(hex32(computed)) (corrupt file)"))
            }
            if size == nil {
                guard type == "IHDR", length == 13 else { return .failure(.init(reason: "PNG does not start with a 13-byte IHDR chunk")) }
                size = (u32(bytes, offset + 8), u32(bytes, offset + 12))
                guard size!.0 > 0, size!.1 > 0 else { return .failure(.init(reason: "PNG IHDR gives a zero width or height")) }
            }
            offset += 12 + length
            if type == "IEND" { sawEnd = true; break }
        }
        guard let size else { return .failure(.init(reason: "PNG has no IHDR chunk")) }
        guard sawEnd else { return .failure(.init(reason: "PNG has no IEND chunk (truncated file)")) }
        return .success(Decoded(mime: "image/png", width: size.0, height: size.1))
    }

    private static func jpeg(_ bytes: [UInt8]) -> Result<Decoded, ImageFailure> {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return .failure(.init(reason: "JPEG segment at offset \(offset) does not start with 0xFF")) }
            let marker = bytes[offset + 1]
            // Fill bytes and markers without a length.
            if marker == 0xFF { offset += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xD9 || marker == 0xDA { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else {
                return .failure(.init(reason: "JPEG segment 0x\(String(format: "%02X", marker)) at offset \(offset) runs past the end of the file"))
            }
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7 else { return .failure(.init(reason: "JPEG frame header at offset \(offset) is too short")) }
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                guard width > 0, height > 0 else { return .failure(.init(reason: "JPEG frame gives a zero width or height")) }
                return .success(Decoded(mime: "image/jpeg", width: width, height: height))
            }
            offset += 2 + length
        }
        return .failure(.init(reason: "JPEG has no start-of-frame segment before its scan data (truncated or not a baseline/progressive JPEG)"))
    }

    private static func hex32(_ value: UInt32) -> String { String(format: "%08X", value) }
}

/// CRC-32 (ISO-HDLC, PNG's chunk checksum).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
