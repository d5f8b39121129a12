/// A compact, positional binary form of `Codable` values, for `prepare`'s scan cache: JSONEncoder and
/// JSONDecoder spent a quarter of a first run's CPU time on that cache.
///
/// Values are written in the order their type encodes them, without keys: integers as LEB128 (signed
/// ones zigzagged), `Double` and `Float` as their bit patterns, strings and arrays prefixed with their
/// length, optional properties with a presence byte. The bytes carry no schema, so only the same type
/// definitions read them back (the scan cache's `formatVersion` guarantees that). Reading checks every
/// length against the bytes left and throws `CompactCoder.Malformed` on anything it cannot read.
///
/// Optionals are supported as properties (`encodeIfPresent`/`decodeIfPresent`); a nil anywhere else (an
/// element of `[T?]`, a top-level optional) has no representation and fails to encode. Dictionaries
/// are refused too: their keys are the coding keys, which a positional form drops.
enum CompactCoder {
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "compact data is malformed at byte \(offset): \(reason)" }
    }

    enum Unsupported: Error, CustomStringConvertible {
        case nilOutsideProperty
        case dictionary

        var description: String {
            switch self {
            case .nilOutsideProperty: "the compact form represents nil only as an optional property"
            case .dictionary: "the compact form has no dictionaries (their keys would be lost)"
            }
        }
    }

    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let sink = Sink()
        try sink.write(value)
        return sink.bytes
    }

    /// Decodes one value that must span all of `bytes`.
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: ArraySlice<UInt8>) throws -> Value {
        let source = Source(bytes)
        let value = try source.read(Value.self)
        guard source.position == bytes.endIndex else { throw source.malformed("\(bytes.endIndex - source.position) byte(s) after the value") }
        return value
    }

    // MARK: - Writing

    final class Sink {
        /// Unchecked: the sink is used by one thread, and the dynamic exclusivity check on every
        /// append cost a tenth of the encoding time.
        @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
        private var dictionaryCheck = DictionaryCheck()

        func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }
        func append(_ byte: UInt8) { bytes.append(byte) }
        func append(contentsOf other: ArraySlice<UInt8>) { bytes += other }

        func writeUnsigned(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        func writeSigned(_ value: Int64) {
            writeUnsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        func writeString(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                writeUnsigned(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        func writeFixed(_ value: UInt64, byteCount: Int) {
            for shift in stride(from: 0, to: byteCount * 8, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }

        /// An array's element count is not known when its container opens: a 4-byte count is reserved
        /// and raised by each element.
        func reserveCount() -> Int {
            bytes += [0, 0, 0, 0]
            return bytes.count - 4
        }

        func incrementCount(at offset: Int) throws {
            let count = readFixed32(at: offset) + 1
            guard count != 0 else { throw EncodingError.invalidValue(count, .init(codingPath: [], debugDescription: "more than 2^32 elements")) }
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: count >> UInt32(index * 8)) }
        }

        private func readFixed32(at offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << UInt32($1 * 8) }
        }

        /// The common scalar types are written directly; anything else encodes itself onto this sink.
        /// Types are told apart by metatype identity: a failed `as` cast or a conformance check costs
        /// more than writing a small value, and most values are strings, integers and flags.
        func write<Value: Encodable>(_ value: Value) throws {
            switch ObjectIdentifier(Value.self) {
            case ObjectIdentifier(String.self): writeString(unsafeBitCast(value, to: String.self))
            case ObjectIdentifier(Int.self): writeSigned(Int64(unsafeBitCast(value, to: Int.self)))
            case ObjectIdentifier(Bool.self): append(unsafeBitCast(value, to: Bool.self) ? 1 : 0)
            case ObjectIdentifier(Int64.self): writeSigned(unsafeBitCast(value, to: Int64.self))
            case ObjectIdentifier(Int32.self): writeSigned(Int64(unsafeBitCast(value, to: Int32.self)))
            case ObjectIdentifier(Int16.self): writeSigned(Int64(unsafeBitCast(value, to: Int16.self)))
            case ObjectIdentifier(Int8.self): writeSigned(Int64(unsafeBitCast(value, to: Int8.self)))
            case ObjectIdentifier(UInt.self): writeUnsigned(UInt64(unsafeBitCast(value, to: UInt.self)))
            case ObjectIdentifier(UInt64.self): writeUnsigned(unsafeBitCast(value, to: UInt64.self))
            case ObjectIdentifier(UInt32.self): writeUnsigned(UInt64(unsafeBitCast(value, to: UInt32.self)))
            case ObjectIdentifier(UInt16.self): writeUnsigned(UInt64(unsafeBitCast(value, to: UInt16.self)))
            case ObjectIdentifier(UInt8.self): writeUnsigned(UInt64(unsafeBitCast(value, to: UInt8.self)))
            case ObjectIdentifier(Double.self): writeFixed(unsafeBitCast(value, to: Double.self).bitPattern, byteCount: 8)
            case ObjectIdentifier(Float.self): writeFixed(UInt64(unsafeBitCast(value, to: Float.self).bitPattern), byteCount: 4)
            case ObjectIdentifier([String].self):
                // The most common array, written as its unkeyed container would write it.
                let strings = unsafeBitCast(value, to: [String].self)
                guard let count = UInt32(exactly: strings.count) else {
                    throw EncodingError.invalidValue(strings.count, .init(codingPath: [], debugDescription: "more than 2^32 elements"))
                }
                writeFixed(UInt64(count), byteCount: 4)
                for string in strings { writeString(string) }
            default:
                try dictionaryCheck.refuseDictionary(Value.self)
                try value.encode(to: Writer(sink: self))
            }
        }

        func writeIfPresent<Value: Encodable>(_ value: Value?) throws {
            guard let value else { return append(0) }
            append(1)
            try write(value)
        }
    }

    private struct Writer: Encoder {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedWriter(sink: sink))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(sink: sink) }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueWriter(sink: sink) }
    }

    private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { sink.append(0) }
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { try sink.write(value) }
        // The types of most properties, written without the generic dispatch (same bytes as `write`).
        mutating func encode(_ value: String, forKey key: Key) throws { sink.writeString(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { sink.writeSigned(Int64(value)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { sink.append(value ? 1 : 0) }

        // The protocol's default `encodeIfPresent` skips nil, which a positional form cannot; its
        // per-type overloads are chosen over a generic one, so each is spelled out.
        mutating func encodeIfPresent<Value: Encodable>(_ value: Value?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try sink.writeIfPresent(value) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try sink.writeIfPresent(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(KeyedWriter<NestedKey>(sink: sink))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { UnkeyedWriter(sink: sink) }
        mutating func superEncoder() -> any Encoder { Writer(sink: sink) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Writer(sink: sink) }
    }

    private struct UnkeyedWriter: UnkeyedEncodingContainer {
        let sink: Sink
        private let countOffset: Int
        private(set) var count = 0
        var codingPath: [any CodingKey] { [] }

        init(sink: Sink) {
            self.sink = sink
            countOffset = sink.reserveCount()
        }

        mutating func encodeNil() throws { throw Unsupported.nilOutsideProperty }

        mutating func encode<Value: Encodable>(_ value: Value) throws {
            try sink.incrementCount(at: countOffset)
            count += 1
            try sink.write(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            countElement()
            return KeyedEncodingContainer(KeyedWriter<NestedKey>(sink: sink))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            countElement()
            return UnkeyedWriter(sink: sink)
        }

        mutating func superEncoder() -> any Encoder {
            countElement()
            return Writer(sink: sink)
        }

        /// Nested containers cannot throw; 2^32 nested elements is not a case worth a trap.
        private mutating func countElement() {
            try? sink.incrementCount(at: countOffset)
            count += 1
        }
    }

    private struct SingleValueWriter: SingleValueEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { throw Unsupported.nilOutsideProperty }
        mutating func encode<Value: Encodable>(_ value: Value) throws { try sink.write(value) }
    }

    // MARK: - Reading

    final class Source {
        private let bytes: ArraySlice<UInt8>
        @exclusivity(unchecked) private(set) var position: Int
        private var dictionaryCheck = DictionaryCheck()

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        var isAtEnd: Bool { position == bytes.endIndex }

        func malformed(_ reason: String) -> Malformed {
            Malformed(offset: position - bytes.startIndex, reason: reason)
        }

        func readByte() throws -> UInt8 {
            guard position < bytes.endIndex else { throw malformed("unexpected end of data") }
            defer { position += 1 }
            return bytes[position]
        }

        func readUnsigned() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: UInt64(0), to: 64, by: 7) {
                let byte = try readByte()
                let bits = UInt64(byte & 0x7f)
                guard shift < 63 || bits <= 1 else { throw malformed("integer overflows 64 bits") }
                value |= bits << shift
                if byte & 0x80 == 0 { return value }
            }
            throw malformed("integer longer than 10 bytes")
        }

        func readSigned() throws -> Int64 {
            let zigzag = try readUnsigned()
            return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        }

        func readInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
            let start = position
            let value = Integer.isSigned ? Integer(exactly: try readSigned()) : Integer(exactly: try readUnsigned())
            guard let value else {
                position = start
                throw malformed("integer out of range for \(Integer.self)")
            }
            return value
        }

        /// A length that the remaining bytes can hold (each element or byte takes at least one).
        func readLength() throws -> Int {
            let length = try readUnsigned()
            guard length <= UInt64(bytes.endIndex - position) else { throw malformed("length \(length) exceeds the \(bytes.endIndex - position) byte(s) left") }
            return Int(length)
        }

        func skip(_ count: Int) throws {
            guard count <= bytes.endIndex - position else { throw malformed("unexpected end of data") }
            position += count
        }

        func readString() throws -> String {
            let length = try readLength()
            guard let string = String(validating: bytes[position..<position + length], as: UTF8.self) else {
                throw malformed("string is not valid UTF-8")
            }
            position += length
            return string
        }

        func readFixed(byteCount: Int) throws -> UInt64 {
            guard bytes.endIndex - position >= byteCount else { throw malformed("unexpected end of data") }
            defer { position += byteCount }
            return (0..<byteCount).reduce(0) { $0 | UInt64(bytes[position + $1]) << UInt64($1 * 8) }
        }

        func readCount() throws -> Int {
            let count = Int(try readFixed(byteCount: 4))
            guard count <= bytes.endIndex - position else { throw malformed("\(count) elements cannot fit in the \(bytes.endIndex - position) byte(s) left") }
            return count
        }

        func readBool() throws -> Bool {
            switch try readByte() {
            case 0: return false
            case 1: return true
            case let byte:
                position -= 1
                throw malformed("\(byte) is not a Bool (0 or 1)")
            }
        }

        /// The scalar types `Sink.write` writes directly, told apart the same way.
        func read<Value: Decodable>(_ type: Value.Type) throws -> Value {
            switch ObjectIdentifier(type) {
            case ObjectIdentifier(String.self): return unsafeBitCast(try readString(), to: Value.self)
            case ObjectIdentifier(Int.self): return unsafeBitCast(try readInteger(Int.self), to: Value.self)
            case ObjectIdentifier(Bool.self): return unsafeBitCast(try readBool(), to: Value.self)
            case ObjectIdentifier(Int64.self): return unsafeBitCast(try readInteger(Int64.self), to: Value.self)
            case ObjectIdentifier(Int32.self): return unsafeBitCast(try readInteger(Int32.self), to: Value.self)
            case ObjectIdentifier(Int16.self): return unsafeBitCast(try readInteger(Int16.self), to: Value.self)
            case ObjectIdentifier(Int8.self): return unsafeBitCast(try readInteger(Int8.self), to: Value.self)
            case ObjectIdentifier(UInt.self): return unsafeBitCast(try readInteger(UInt.self), to: Value.self)
            case ObjectIdentifier(UInt64.self): return unsafeBitCast(try readInteger(UInt64.self), to: Value.self)
            case ObjectIdentifier(UInt32.self): return unsafeBitCast(try readInteger(UInt32.self), to: Value.self)
            case ObjectIdentifier(UInt16.self): return unsafeBitCast(try readInteger(UInt16.self), to: Value.self)
            case ObjectIdentifier(UInt8.self): return unsafeBitCast(try readInteger(UInt8.self), to: Value.self)
            case ObjectIdentifier(Double.self): return unsafeBitCast(Double(bitPattern: try readFixed(byteCount: 8)), to: Value.self)
            case ObjectIdentifier(Float.self): return unsafeBitCast(Float(bitPattern: UInt32(try readFixed(byteCount: 4))), to: Value.self)
            case ObjectIdentifier([String].self):
                let count = try readCount()
                var strings: [String] = []
                strings.reserveCapacity(count)
                for _ in 0..<count { strings.append(try readString()) }
                return unsafeBitCast(strings, to: Value.self)
            default:
                try dictionaryCheck.refuseDictionary(type)
                return try Value(from: Reader(source: self))
            }
        }
    }

    private struct Reader: Decoder {
        let source: Source
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(KeyedReader(source: source))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try UnkeyedReader(source: source) }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueReader(source: source) }
    }

    private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let source: Source
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        /// Every key is present: an absent optional is a presence byte, read by `decodeNil`.
        func contains(_ key: Key) -> Bool { true }

        func decodeNil(forKey key: Key) throws -> Bool { try !source.readBool() }

        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try source.read(type) }
        // The types of most properties, read without the generic dispatch.
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try source.readString() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try source.readInteger(Int.self) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try source.readBool() }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(KeyedReader<NestedKey>(source: source))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try UnkeyedReader(source: source) }
        func superDecoder() throws -> any Decoder { Reader(source: source) }
        func superDecoder(forKey key: Key) throws -> any Decoder { Reader(source: source) }
    }

    private struct UnkeyedReader: UnkeyedDecodingContainer {
        let source: Source
        let count: Int?
        private(set) var currentIndex = 0
        var codingPath: [any CodingKey] { [] }
        var isAtEnd: Bool { currentIndex == count }

        init(source: Source) throws {
            self.source = source
            count = try source.readCount()
        }

        /// Elements are never nil: nil has no representation outside optional properties.
        func decodeNil() throws -> Bool { false }

        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try advance()
            return try source.read(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try advance()
            return KeyedDecodingContainer(KeyedReader<NestedKey>(source: source))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try advance()
            return try UnkeyedReader(source: source)
        }

        mutating func superDecoder() throws -> any Decoder {
            try advance()
            return Reader(source: source)
        }

        private mutating func advance() throws {
            guard !isAtEnd else { throw source.malformed("read past the last of \(count ?? 0) element(s)") }
            currentIndex += 1
        }
    }

    private struct SingleValueReader: SingleValueDecodingContainer {
        let source: Source
        var codingPath: [any CodingKey] { [] }

        /// A single value is never nil here (see `Unsupported.nilOutsideProperty`).
        func decodeNil() -> Bool { false }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try source.read(type) }
    }
}

/// Lets `CompactCoder` recognise dictionaries of any type.
private protocol DictionaryMarker {}
extension Dictionary: DictionaryMarker {}

/// Remembers the types already found not to be dictionaries: the runtime's conformance check is
/// slow for a negative answer, and a scan asks it about the same few types thousands of times.
private struct DictionaryCheck {
    private var checked = Set<ObjectIdentifier>()

    mutating func refuseDictionary(_ type: Any.Type) throws {
        guard !checked.contains(ObjectIdentifier(type)) else { return }
        if type is any DictionaryMarker.Type { throw CompactCoder.Unsupported.dictionary }
        checked.insert(ObjectIdentifier(type))
    }
}
