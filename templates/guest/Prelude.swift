// Guest prelude: compiled into every patch module next to the generated glue and the project code.
//
// Embedded Swift has no Foundation and no Codable, so the JSON the SDK's thunks send through
// `Patch.shared.callJSON` (JSONEncoder defaults, see docs of the function-patching convention) is
// read and written here. The reader validates the whole input, then the generated codecs decode
// the exported signature's types straight from its bytes. It keeps strings as UTF-8 bytes and
// compares keys bytewise, so a module whose functions only take numbers never links String's
// Unicode machinery; the writer formats numbers the way JSONEncoder does (integers without a
// fraction, Double through its shortest round-trip `description` with a trailing ".0" removed).
//
// A module with views is compiled with `-D PATCH_VIEWS` (GuestCommands): a body reads its inputs
// on every render and dispatch, so the reader takes faster paths there for a little more code;
// function modules, whose size is measured, keep the smaller ones.
//
// Every name starts with `_Patch` so it cannot clash with the project's own declarations.

/// Why an input could not be decoded; travels back as `{"error": "..."}` so the thunk falls back to
/// the native implementation.
struct _PatchDecodeError: Error {
    // Each text is packed into one word, address << 32 | length: typed throws copy the error at
    // every `try` that passes it on, and copying two StaticStrings (six fields) instead cost
    // 0.7 KiB of a string-handling module.
    private let packedReason: UInt64
    /// The JSON key (or case name) the failure concerns, empty when it is the whole input.
    private var packedKey: UInt64

    init(_ reason: StaticString, key: StaticString = "") {
        packedReason = _PatchDecodeError.pack(reason)
        packedKey = _PatchDecodeError.pack(key)
    }

    private static func pack(_ text: StaticString) -> UInt64 {
        UInt64(UInt(bitPattern: text.utf8Start)) << 32 | UInt64(UInt(bitPattern: text.utf8CodeUnitCount))
    }

    private static func unpack(_ packed: UInt64) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafePointer(bitPattern: UInt(truncatingIfNeeded: packed >> 32)),
                            count: Int(truncatingIfNeeded: packed & 0xFFFF_FFFF))
    }

    var reason: UnsafeBufferPointer<UInt8> { _PatchDecodeError.unpack(packedReason) }

    var key: UnsafeBufferPointer<UInt8> { _PatchDecodeError.unpack(packedKey) }

    /// This error, naming `key` unless an inner value already named its own.
    func naming(_ key: StaticString) -> _PatchDecodeError {
        guard packedKey & 0xFFFF_FFFF == 0 else { return self }
        var named = self
        named.packedKey = _PatchDecodeError.pack(key)
        return named
    }
}

/// A JSON value inside the validated input: where it starts, nothing decoded yet. Decoding reads
/// straight from the input bytes into the exported signature's types; building a tree of values
/// first (arrays of members and elements, enum payload copies, their growth paths) cost 1.2 KiB of
/// a string-handling module.
struct _PatchJSONValue {
    let input: UnsafeBufferPointer<UInt8>
    /// Offset of the value's first byte; nil for an absent member, which reads as null (what
    /// JSONEncoder means when it omits a nil Optional).
    let offset: Int?

    /// The value's first byte, which names its kind in validated JSON (`n` for an absent member).
    private var lead: UInt8 {
        guard let offset else { return UInt8(ascii: "n") }
        return input[offset]
    }

    var isNull: Bool { lead == UInt8(ascii: "n") }

    var isObject: Bool { lead == UInt8(ascii: "{") }

    var isArray: Bool { lead == UInt8(ascii: "[") }

    var bool: Bool? {
        switch lead {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    /// The number, or nil when the value is something else.
    func number() throws(_PatchDecodeError) -> _PatchJSONNumber? {
        guard let offset, lead == UInt8(ascii: "-") || (lead >= UInt8(ascii: "0") && lead <= UInt8(ascii: "9")) else { return nil }
        var reader = _PatchJSONReader(input, position: offset)
        return try reader.readNumber()
    }

    /// The string's bytes as they are in the input, when it is a string without escapes.
    var unescapedString: UnsafeBufferPointer<UInt8>? {
        guard let offset, lead == UInt8(ascii: "\"") else { return nil }
        var reader = _PatchJSONReader(input, position: offset)
        return reader.unescapedString()
    }

    /// The string's UTF-8 bytes with escapes decoded, or nil when the value is something else.
    func string() throws(_PatchDecodeError) -> _PatchBytes? {
        guard let offset, lead == UInt8(ascii: "\"") else { return nil }
        var reader = _PatchJSONReader(input, position: offset)
        var bytes = _PatchBytes()
        try reader.readString(into: &bytes)
        return bytes
    }

    /// Calls `body` with each entry of an array or object (the key is empty for array elements)
    /// until it returns false.
    func forEachEntry(_ body: (_ key: borrowing _PatchBytes, _ value: _PatchJSONValue) throws(_PatchDecodeError) -> Bool) throws(_PatchDecodeError) {
        guard let offset, isObject || isArray else { return }
        var reader = _PatchJSONReader(input, position: offset)
        var key = _PatchBytes()
        var close: UInt8 = 0
        while try reader.nextEntry(key: &key, close: &close) {
            guard try body(key, _PatchJSONValue(input: input, offset: reader.position)) else { return }
            try reader.skipDecodedValue()
        }
    }

    /// The member named `key` of an object (the first one, if the key repeats); absent when missing.
    func member(_ key: StaticString) throws(_PatchDecodeError) -> _PatchJSONValue {
        guard isObject else { throw _PatchDecodeError("expected a JSON object", key: key) }
        #if PATCH_VIEWS
        let object = input.baseAddress.unsafelyUnwrapped + offset.unsafelyUnwrapped
        if let last = _patchLastMember, last.object == object, last.key == key.utf8Start, last.keyCount == key.utf8CodeUnitCount {
            return _PatchJSONValue(input: input, offset: last.value)
        }
        #endif
        var found = _PatchJSONValue(input: input, offset: nil)
        try forEachEntry { name, value throws(_PatchDecodeError) in
            guard _patchBytesEqual(name, key) else { return true }
            found = value
            return false
        }
        #if PATCH_VIEWS
        _patchLastMember = (object, key.utf8Start, key.utf8CodeUnitCount, found.offset)
        #endif
        return found
    }

    /// The only member of an object, as an enum without raw values is encoded (`{"case":{…}}`).
    func singleMember(_ failure: StaticString) throws(_PatchDecodeError) -> _PatchJSONEntry {
        guard let offset, isObject else { throw _PatchDecodeError(failure) }
        var reader = _PatchJSONReader(input, position: offset)
        var key = _PatchBytes()
        var close: UInt8 = 0
        guard try reader.nextEntry(key: &key, close: &close) else { throw _PatchDecodeError(failure) }
        let value = _PatchJSONValue(input: input, offset: reader.position)
        try reader.skipDecodedValue()
        var next = _PatchBytes(keeping: false)
        guard try !reader.nextEntry(key: &next, close: &close) else { throw _PatchDecodeError(failure) }
        return _PatchJSONEntry(key: key, value: value)
    }

    /// The case name of an enum as a view's inputs carry it (sdk-contract §5.4: `{"case":"name",…}`,
    /// the payload beside it); nil for an enum in JSONEncoder's shape (`{"name":{…}}`) or a raw value.
    func viewCaseName() throws(_PatchDecodeError) -> _PatchBytes? {
        guard isObject else { return nil }
        return try member("case").string()
    }

    /// Decodes member `key` as `Value`, naming the key in the error when the member is malformed.
    func decode<Value: _PatchJSONCodable>(_ key: StaticString, as type: Value.Type = Value.self) throws(_PatchDecodeError) -> Value {
        do throws(_PatchDecodeError) {
            return try Value(_patchJSON: member(key))
        } catch {
            throw error.naming(key)
        }
    }

    func hasMember(_ key: StaticString) -> Bool {
        guard let value = try? member(key) else { return false }
        return !value.isNull
    }
}

#if PATCH_VIEWS
/// The last member `member(_:)` looked up in a view module: the object (its first byte), the key,
/// and where the value starts (nil when absent). The view glue reads each input with a default as
/// `hasMember(key)` then `decode(key)`, and the second lookup stepped over every member before it
/// again. Cleared by each parse, so it never points into an input of an earlier call.
nonisolated(unsafe) var _patchLastMember: (object: UnsafePointer<UInt8>, key: UnsafePointer<UInt8>, keyCount: Int, value: Int?)? = nil
#endif

/// An object member: its decoded key and where its value starts.
struct _PatchJSONEntry: ~Copyable {
    let key: _PatchBytes
    let value: _PatchJSONValue
}

/// A JSON number: integers that fit Int64 stay exact, everything else is a Double.
enum _PatchJSONNumber {
    case integer(Int64)
    case double(Double)
}

func _patchBytesEqual(_ bytes: borrowing _PatchBytes, _ text: StaticString) -> Bool {
    let bytes = bytes.buffer
    guard bytes.count == text.utf8CodeUnitCount else { return false }
    let start = text.utf8Start
    for index in 0..<bytes.count where bytes[index] != start[index] {
        return false
    }
    return true
}

// MARK: - Bytes

/// A growable byte buffer in memory from `patch_malloc`: the reader's decoded strings and keys, and
/// the writer's output, which becomes the result as it is (the host frees it, sdk-contract §2.3)
/// instead of being copied out of an Array. Array<UInt8> also linked its own growth and copy paths.
struct _PatchBytes: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>? = nil
    private var count = 0
    private var capacity = 0
    /// False for a sink that drops what is appended: skipping a value reads its keys and strings
    /// only to validate them, and copying them cost an allocation per string.
    private let keeps: Bool

    init(keeping keeps: Bool = true) {
        self.keeps = keeps
    }

    deinit {
        if let start { patch_free(start) }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// Out of line on purpose: inlined at each call site of the reader, the writer and the
    /// generated codecs, an append (capacity check and growth) came to over 1 KiB of a
    /// string-handling module.
    @inline(never)
    mutating func append(_ byte: UInt8) {
        guard keeps else { return }
        if count == capacity { grow(toHold: count &+ 1) }
        start.unsafelyUnwrapped[count] = byte
        count &+= 1
    }

    /// Appends a run of bytes with one copy.
    @inline(never)
    mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        // An empty run may come with no storage behind either buffer yet: nothing to copy.
        guard keeps, run.count > 0, let source = run.baseAddress else { return }
        if capacity &- count < run.count { grow(toHold: count + run.count) }
        // Raw copies are one memmove each; typed ones are element loops.
        UnsafeMutableRawPointer(start.unsafelyUnwrapped + count).copyMemory(from: source, byteCount: run.count)
        count &+= run.count
    }

    /// Lets `write` put up to `maximum` bytes at the end and returns how many it wrote: one
    /// capacity check for a run built in place.
    mutating func append(upTo maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        guard keeps else { return }
        if capacity &- count < maximum { grow(toHold: count + maximum) }
        count &+= write(start.unsafelyUnwrapped + count)
    }

    /// Doubling keeps appending linear; running out of guest memory traps, as Array does.
    private mutating func grow(toHold needed: Int) {
        var grownCapacity = capacity == 0 ? 64 : capacity
        while grownCapacity < needed { grownCapacity *= 2 }
        let grown = patch_malloc(Int32(grownCapacity))!
        if let start {
            grown.copyMemory(from: start, byteCount: count)
            patch_free(start)
        }
        start = grown.assumingMemoryBound(to: UInt8.self)
        capacity = grownCapacity
    }

    mutating func removeAll() { count = 0 }

    /// Gives up the memory, leaving the buffer empty: the caller frees it (with `patch_free`).
    mutating func handOff() -> UnsafeBufferPointer<UInt8> {
        let result = buffer
        // Fields, not `self = _PatchBytes()`: replacing self would run deinit on the old value.
        start = nil
        count = 0
        capacity = 0
        return result
    }
}

// MARK: - Reader

/// A recursive-descent JSON reader over the input buffer. `skipValue` validates a whole value: the
/// parse of the input, once, before anything is decoded, and, in a function module, how decoding
/// steps over entries it does not need, so there is one grammar; a view module steps over them
/// with `skipValidatedValue`, which only matches brackets and quotes (`skipDecodedValue`).
/// Nesting is capped so hostile input cannot exhaust the guest's stack.
struct _PatchJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    private var depth = 0
    private static let maximumDepth = 256

    init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// Validates the whole input and returns its top-level value.
    static func parse(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) throws(_PatchDecodeError) -> _PatchJSONValue {
        #if PATCH_VIEWS
        _patchLastMember = nil
        #endif
        guard let pointer, length > 0 else { throw _PatchDecodeError("empty input, expected a JSON object") }
        let input = UnsafeBufferPointer(start: pointer, count: Int(length))
        var reader = _PatchJSONReader(input, position: 0)
        reader.skipWhitespace()
        let start = reader.position
        try reader.skipValue()
        reader.skipWhitespace()
        guard reader.position == input.count else { throw _PatchDecodeError("trailing characters after the JSON value") }
        return _PatchJSONValue(input: input, offset: start)
    }

    private var next: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position &+= 1
        }
    }

    private mutating func expect(_ literal: StaticString) throws(_PatchDecodeError) {
        let start = literal.utf8Start
        for index in 0..<literal.utf8CodeUnitCount {
            guard next == start[index] else { throw _PatchDecodeError("invalid JSON literal") }
            position &+= 1
        }
    }

    /// Reads (and so validates) one value with its leading whitespace.
    mutating func skipValue() throws(_PatchDecodeError) {
        skipWhitespace()
        guard let byte = next else { throw _PatchDecodeError("unexpected end of JSON input") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth &+= 1
            guard depth <= _PatchJSONReader.maximumDepth else { throw _PatchDecodeError("JSON nested too deeply") }
            var key = _PatchBytes(keeping: false)
            var close: UInt8 = 0
            while try nextEntry(key: &key, close: &close) { try skipValue() }
            depth &-= 1
        case UInt8(ascii: "\""):
            var sink = _PatchBytes(keeping: false)
            try readString(into: &sink)
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        default: _ = try readNumber()
        }
    }

    /// Steps over a value of input `parse` validated that decoding does not need.
    mutating func skipDecodedValue() throws(_PatchDecodeError) {
        #if PATCH_VIEWS
        skipValidatedValue()
        #else
        try skipValue()
        #endif
    }

    /// Steps over one value of input `parse` validated: strings and brackets are matched, nothing
    /// is checked or decoded. Reading it again through `skipValue` cost most of a view's input
    /// decoding (each member lookup steps over the members before it).
    mutating func skipValidatedValue() {
        skipWhitespace()
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            position &+= 1
            switch byte {
            case UInt8(ascii: "\""):
                // Runs up to each backslash, which is stepped over with the byte it escapes.
                position = runEnd(from: position)
                while bytes[position] != UInt8(ascii: "\"") {
                    position = runEnd(from: position &+ (bytes[position] == UInt8(ascii: "\\") ? 2 : 1))
                }
                position &+= 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth &+= 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth &-= 1
            default:
                // A number or literal ends at the first delimiter; one inside a container is
                // stepped over byte by byte like its commas and colons.
                guard depth == 0 else { continue }
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return
                    default: position &+= 1
                    }
                }
                return
            }
            if depth == 0 { return }
        }
    }

    /// Steps to the next entry of an array or object: past its opening bracket on the first call
    /// (`close` is 0 then and afterwards holds the closing bracket), past the separator after the
    /// previous entry's value on later ones, then, in an object, past the entry's key (decoded
    /// into `key`) and colon, to the value's first byte. Returns false after the closing bracket.
    mutating func nextEntry(key: inout _PatchBytes, close: inout UInt8) throws(_PatchDecodeError) -> Bool {
        if close == 0 {
            close = bytes[position] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            position &+= 1
            skipWhitespace()
            if next == close {
                position &+= 1
                return false
            }
        } else {
            skipWhitespace()
            guard let byte = next else {
                throw _PatchDecodeError(close == UInt8(ascii: "}") ? "unterminated JSON object" : "unterminated JSON array")
            }
            position &+= 1
            if byte == close { return false }
            guard byte == UInt8(ascii: ",") else {
                throw _PatchDecodeError(close == UInt8(ascii: "}") ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
            }
            skipWhitespace()
        }
        guard close == UInt8(ascii: "}") else { return true }
        guard next == UInt8(ascii: "\"") else { throw _PatchDecodeError("expected an object key") }
        key.removeAll()
        try readString(into: &key)
        skipWhitespace()
        guard next == UInt8(ascii: ":") else { throw _PatchDecodeError("expected ':' after an object key") }
        position &+= 1
        skipWhitespace()
        return true
    }

    private mutating func readHexQuad() throws(_PatchDecodeError) -> UInt32 {
        guard bytes.count &- position >= 4 else { throw _PatchDecodeError("truncated \\u escape") }
        // The leading 1 marks when four digits are in; a loop with a constant trip count would be
        // unrolled, four copies of the digit test.
        var value: UInt32 = 1
        while value < 0x10000 {
            let byte = bytes[position]
            position &+= 1
            // Wrapping subtraction turns each range test into one comparison; `| 0x20` folds
            // A-F onto a-f (and maps nothing else into a-f).
            var digit = byte &- UInt8(ascii: "0")
            if digit >= 10 {
                digit = (byte | 0x20) &- UInt8(ascii: "a")
                guard digit < 6 else { throw _PatchDecodeError("invalid \\u escape") }
                digit &+= 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value & 0xFFFF
    }

    /// Appends `scalar` as UTF-8: a lead byte whose high bits give the length, then six bits per
    /// continuation byte.
    private static func appendUTF8(_ scalar: UInt32, to output: inout _PatchBytes) {
        guard scalar >= 0x80 else {
            output.append(UInt8(truncatingIfNeeded: scalar))
            return
        }
        var shift: UInt32 = scalar < 0x800 ? 6 : scalar < 0x10000 ? 12 : 18
        // 0xC0, 0xE0 or 0xF0 in the low byte for one, two or three continuation bytes.
        output.append(UInt8(truncatingIfNeeded: 0xFF00 >> (shift / 6 &+ 1) | scalar >> shift))
        while shift > 0 {
            shift &-= 6
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> shift & 0x3F))
        }
    }

    /// Where the run of string bytes from `start` that stand for themselves ends: at a quote, a
    /// backslash, a control character or the end of the input.
    private func runEnd(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        return _patchPlainRunEnd(base, from: start, to: bytes.count)
    }

    /// The bytes of the string at `position` (its opening quote) when it has no escapes, with
    /// `position` past its closing quote; nil, and `position` unchanged, when it has one.
    /// Validated input only: then a run that does not end at a backslash ends at the closing quote.
    mutating func unescapedString() -> UnsafeBufferPointer<UInt8>? {
        let end = runEnd(from: position &+ 1)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        defer { position = end &+ 1 }
        return UnsafeBufferPointer(rebasing: bytes[(position &+ 1)..<end])
    }

    /// Reads the string at `position` (its opening quote) into `output`, escapes decoded. Out of
    /// line: LLVM otherwise copies it into callers that decode a String.
    @inline(never)
    mutating func readString(into output: inout _PatchBytes) throws(_PatchDecodeError) {
        position &+= 1
        while position < bytes.count {
            // A run of bytes that need no decoding is appended with one copy.
            let run = position
            position = runEnd(from: run)
            output.append(UnsafeBufferPointer(rebasing: bytes[run..<position]))
            guard position < bytes.count else { break }
            var byte = bytes[position]
            position &+= 1
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") {
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position &+= 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte = escape
                case UInt8(ascii: "b"): byte = 0x08
                case UInt8(ascii: "f"): byte = 0x0C
                case UInt8(ascii: "n"): byte = 0x0A
                case UInt8(ascii: "r"): byte = 0x0D
                case UInt8(ascii: "t"): byte = 0x09
                case UInt8(ascii: "u"):
                    var scalar = try readHexQuad()
                    if scalar >= 0xD800, scalar < 0xDC00 {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard bytes.count &- position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position &+ 1] == UInt8(ascii: "u")
                        else { throw _PatchDecodeError("unpaired UTF-16 surrogate in a \\u escape") }
                        position &+= 2
                        let low = try readHexQuad()
                        guard low >= 0xDC00, low < 0xE000 else { throw _PatchDecodeError("unpaired UTF-16 surrogate in a \\u escape") }
                        scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
                    } else if scalar >= 0xDC00, scalar < 0xE000 {
                        throw _PatchDecodeError("unpaired UTF-16 surrogate in a \\u escape")
                    }
                    _PatchJSONReader.appendUTF8(scalar, to: &output)
                    continue
                default:
                    throw _PatchDecodeError("invalid escape in a JSON string")
                }
            } else if byte < 0x20 {
                throw _PatchDecodeError("control character in a JSON string")
            }
            output.append(byte)
        }
        throw _PatchDecodeError("unterminated JSON string")
    }

    /// Reads a run of decimal digits into `mantissa`, keeping the first 19 significant ones (which
    /// always fit in UInt64, so the arithmetic cannot wrap) and counting the rest in `dropped`.
    /// Returns how many digits there were. Out of line: a number reads up to three runs.
    @inline(never)
    private mutating func readDigits(into mantissa: inout UInt64, significant: inout Int, dropped: inout Int) -> Int {
        let start = position
        while position < bytes.count {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significant < 19 {
                if significant > 0 || digit != 0 { significant &+= 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
            } else {
                dropped &+= 1
            }
            position &+= 1
        }
        return position &- start
    }

    /// Numbers: integers that fit Int64 stay exact; everything else becomes a Double. Conversion is
    /// exact (correctly rounded) whenever the decimal mantissa fits in 53 bits and the power of ten
    /// is at most 22, which covers money, percentages and measurements; beyond that it may be off
    /// by an ulp.
    mutating func readNumber() throws(_PatchDecodeError) -> _PatchJSONNumber {
        let negative = next == UInt8(ascii: "-")
        if negative { position &+= 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var dropped = 0
        guard readDigits(into: &mantissa, significant: &significant, dropped: &dropped) > 0 else {
            throw _PatchDecodeError("invalid JSON value")
        }
        var exponent = dropped
        var isInteger = true
        if next == UInt8(ascii: ".") {
            position &+= 1
            isInteger = false
            var fractionDropped = 0
            let fractionDigits = readDigits(into: &mantissa, significant: &significant, dropped: &fractionDropped)
            guard fractionDigits > 0 else { throw _PatchDecodeError("invalid JSON number") }
            // Digits kept after the point scale the mantissa down; leading fraction zeros count too.
            exponent &-= fractionDigits &- fractionDropped
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            position &+= 1
            isInteger = false
            let exponentNegative = next == UInt8(ascii: "-")
            if exponentNegative || next == UInt8(ascii: "+") { position &+= 1 }
            var written: UInt64 = 0
            var writtenSignificant = 0
            var writtenDropped = 0
            guard readDigits(into: &written, significant: &writtenSignificant, dropped: &writtenDropped) > 0 else {
                throw _PatchDecodeError("invalid JSON number exponent")
            }
            // Any exponent past 100,000 is already out of Double's range (the scaling below stops
            // at 400), so capping it keeps the sum within Int.
            let capped = writtenDropped > 0 ? 100_000 : Int(min(written, 100_000))
            exponent += exponentNegative ? -capped : capped
        }
        if isInteger, dropped == 0 {
            if negative, mantissa <= UInt64(Int64.max) + 1 {
                return .integer(mantissa == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mantissa))
            }
            if !negative, mantissa <= UInt64(Int64.max) { return .integer(Int64(mantissa)) }
        }
        var value = Double(mantissa)
        // Powers up to 1e22 are exact in a Double: scale by chunks of at most 22, so a value whose
        // mantissa and power both fit is correctly rounded.
        var remaining = mantissa == 0 ? 0 : min(exponent.magnitude, 400)
        while remaining > 0 {
            let step = min(remaining, 22)
            let power = _PatchJSONReader.powerOfTen(step)
            value = exponent > 0 ? value * power : value / power
            remaining &-= step
        }
        return .double(negative ? -value : value)
    }

    private static func powerOfTen(_ exponent: UInt) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

// MARK: - Writer

/// Builds the output JSON in a byte buffer and hands it to the host as a packed `(ptr << 32) | len`
/// allocated with `patch_malloc` (the host frees it, sdk-contract §2.3).
struct _PatchJSONWriter: ~Copyable {
    var bytes = _PatchBytes()
    /// Set when a value has no JSON form (a non-finite Double, which JSONEncoder also refuses).
    var failure: StaticString? = nil

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) { bytes.append(text) }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeNull() { append("null") }

    mutating func writeBool(_ value: Bool) { append(value ? "true" : "false") }

    /// Most significant digit first, so nothing needs reversing afterwards.
    mutating func writeInteger(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor &*= 10 }
        repeat {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / divisor % 10))
            divisor /= 10
        } while divisor != 0
    }

    mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            failure = "a Double result is not finite; JSON cannot represent it"
            writeNull()
            return
        }
        var text = value.description
        text.withUTF8 { utf8 in
            let integral = utf8.count >= 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            append(UnsafeBufferPointer(rebasing: utf8[..<(integral ? utf8.count - 2 : utf8.count)]))
        }
    }

    /// Out of line and over a buffer: a String's UTF8View iterated inline at each String-writing
    /// site (its representations, retains and releases) outweighs the contiguous copy withUTF8
    /// may make as soon as a module writes a few Strings (0.6 KiB on the test fixture's exports).
    @inline(never)
    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(upTo: _patchEscapedCapacity(utf8.count)) { target in _patchWriteJSONString(utf8, to: target) }
    }

    mutating func writeKey(_ key: StaticString) {
        append(UInt8(ascii: "\""))
        append(key)
        append("\":")
    }

    mutating func writeError(_ error: _PatchDecodeError) {
        bytes.removeAll()
        append("{\"error\":\"")
        append(error.reason)
        if error.key.count > 0 {
            append(" (key '")
            append(error.key)
            append("')")
        }
        append("\"}")
    }

    /// Hands the bytes to the host, which frees them.
    mutating func packedResult() -> Int64 {
        if let failure {
            bytes.removeAll()
            append("{\"error\":\"")
            append(failure)
            append("\"}")
        }
        let result = bytes.handOff()
        let address = UInt64(UInt(bitPattern: result.baseAddress))
        return Int64(bitPattern: address << 32 | UInt64(result.count))
    }
}

/// The index of the first byte from `start` on (before `end`) that a JSON string does not hold as
/// it is: a quote, a backslash or a control character; `end` when there is none. A view module
/// tests eight bytes a step (a zero-byte test on the word XORed with each of them) and finds the
/// byte that stopped a word from its marks' trailing zeros: a byte at a time through the
/// interpreter cost about 18 operators, most of reading or writing a short string.
func _patchPlainRunEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    var index = start
    #if PATCH_VIEWS
    while end &- index >= 8 {
        let marks = _patchStringMarks(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        if marks != 0 { return index &+ marks.trailingZeroBitCount &>> 3 }
        index &+= 8
    }
    // Fewer than eight bytes left: the word that ends at `end` overlaps bytes already found plain,
    // so its first mark is among the rest.
    if index < end, end &- start >= 8 {
        let marks = _patchStringMarks(UnsafeRawPointer(base + (end &- 8)).loadUnaligned(as: UInt64.self))
        return marks == 0 ? end : end &- 8 &+ marks.trailingZeroBitCount &>> 3
    }
    #endif
    while index < end {
        let byte = base[index]
        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
        index &+= 1
    }
    return end
}

#if PATCH_VIEWS
/// The high bit of each byte of `word` (in memory order from the lowest bit) that is a quote, a
/// backslash or a control character, and possibly of bytes after the first such byte (a borrow
/// carries upwards, never downwards): the lowest set bit marks the first one exactly.
@inline(__always)
func _patchStringMarks(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    // A byte below 0x20, or one that XORs to zero, borrows into its high bit; bytes with the
    // high bit set are masked out (none is a quote, backslash or control character).
    return (((word &- ones &* 0x20) & ~word) | ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)) & highs
}
#endif

/// The most bytes `_patchWriteJSONString` writes for `count` bytes: each escaped as `\u00XX`,
/// and the quotes.
func _patchEscapedCapacity(_ count: Int) -> Int { count &* 6 &+ 2 }

/// Writes `utf8` as a quoted JSON string to `target`, which has room for
/// `_patchEscapedCapacity(utf8.count)` bytes, and returns how many it wrote. Quotes, backslashes
/// and control characters are escaped (the short forms where JSON has them); the runs between
/// them are copied whole, one `memory.copy` each instead of a store per byte.
func _patchWriteJSONString(_ utf8: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> Int {
    let hex: StaticString = "0123456789abcdef"
    target[0] = UInt8(ascii: "\"")
    var written = 1
    if let source = utf8.baseAddress {
        var runStart = 0
        while true {
            let index = _patchPlainRunEnd(source, from: runStart, to: utf8.count)
            UnsafeMutableRawPointer(target + written).copyMemory(from: source + runStart, byteCount: index &- runStart)
            written &+= index &- runStart
            guard index < utf8.count else { break }
            runStart = index &+ 1
            let byte = source[index]
            target[written] = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): target[written &+ 1] = byte
            case 0x0A: target[written &+ 1] = UInt8(ascii: "n")
            case 0x0D: target[written &+ 1] = UInt8(ascii: "r")
            case 0x09: target[written &+ 1] = UInt8(ascii: "t")
            case 0x08: target[written &+ 1] = UInt8(ascii: "b")
            case 0x0C: target[written &+ 1] = UInt8(ascii: "f")
            default:
                target[written &+ 1] = UInt8(ascii: "u")
                target[written &+ 2] = UInt8(ascii: "0")
                target[written &+ 3] = UInt8(ascii: "0")
                target[written &+ 4] = hex.utf8Start[Int(byte >> 4)]
                target[written &+ 5] = hex.utf8Start[Int(byte & 0xF)]
                written &+= 4
            }
            written &+= 2
        }
    }
    target[written] = UInt8(ascii: "\"")
    return written &+ 1
}

// MARK: - Type mapping

/// A value the generated glue can read from and write to JSON, in JSONEncoder's shapes. Generated
/// extensions make the project's structs and enums conform.
protocol _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError)
    func _patchEncode(into writer: inout _PatchJSONWriter)

    /// Whether a dictionary keyed by this type is a JSON object (String and Int keys, the member
    /// names holding the key's text) rather than an array: JSONEncoder and the host's encoding of
    /// a view's inputs (sdk-contract §5.4) both decide so.
    static var _patchKeysObject: Bool { get }
    /// The key read back from an object member's name (only called when `_patchKeysObject`).
    init(_patchKey key: UnsafeBufferPointer<UInt8>) throws(_PatchDecodeError)
    /// The key's text as an object member's name (only called when `_patchKeysObject`).
    var _patchKeyText: [UInt8] { get }
}

extension _PatchJSONCodable {
    static var _patchKeysObject: Bool { false }
    init(_patchKey key: UnsafeBufferPointer<UInt8>) throws(_PatchDecodeError) {
        throw _PatchDecodeError("this dictionary key type travels in an array, not as an object member")
    }
    var _patchKeyText: [UInt8] { [] }
}

extension Int64: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        switch try value.number() {
        case .integer(let integer): self = integer
        case .double(let double):
            // JSON has one number type: an exactly integral value written as 12.0 or 1e3 is still
            // an integer, as JSONDecoder treats it.
            guard double.isFinite, double == double.rounded(.towardZero), double >= -9.223372036854775808e18, double < 9.223372036854775808e18
            else { throw _PatchDecodeError("expected an integer") }
            self = Int64(double)
        case nil: throw _PatchDecodeError("expected an integer")
        }
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeInteger(self) }
}

extension Int: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let wide = try Int64(_patchJSON: value)
        // Int is 32-bit inside the wasm32 guest but 64-bit on the device: values outside Int32's
        // range cannot be represented here, so they fail decoding and the native code runs instead.
        guard let narrowed = Int(exactly: wide) else { throw _PatchDecodeError("integer out of range for the wasm32 guest") }
        self = narrowed
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeInteger(Int64(self)) }

    /// `[Int: V]` is an object whose member names are the keys in decimal (`{"1":…}`), as
    /// JSONEncoder writes it and the host encodes a view's inputs.
    static var _patchKeysObject: Bool { true }

    init(_patchKey key: UnsafeBufferPointer<UInt8>) throws(_PatchDecodeError) {
        let negative = key.first == UInt8(ascii: "-")
        var magnitude = 0
        var digits = 0
        for byte in key.dropFirst(negative ? 1 : 0) {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { throw _PatchDecodeError("expected an integer dictionary key") }
            // Int is 32-bit in the guest, as for integer values (see `Int`'s decoding).
            let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow, scaled <= Int.max - Int(digit) else { throw _PatchDecodeError("integer dictionary key out of range for the wasm32 guest") }
            magnitude = scaled + Int(digit)
            digits += 1
        }
        guard digits > 0 else { throw _PatchDecodeError("expected an integer dictionary key") }
        self = negative ? -magnitude : magnitude
    }

    var _patchKeyText: [UInt8] {
        var writer = _PatchJSONWriter()
        writer.writeInteger(Int64(self))
        return Array(writer.bytes.buffer)
    }
}

extension Int32: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let narrowed = Int32(exactly: try Int64(_patchJSON: value)) else { throw _PatchDecodeError("integer out of range for Int32") }
        self = narrowed
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeInteger(Int64(self)) }
}

extension Double: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        switch try value.number() {
        case .double(let double): self = double
        // JSONEncoder writes -0.0 as "-0", which reads as the integer 0: the sign is the input's.
        case .integer(let integer): self = integer == 0 && value.offset.map({ value.input[$0] == UInt8(ascii: "-") }) == true ? -0.0 : Double(integer)
        case nil: throw _PatchDecodeError("expected a number")
        }
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeDouble(self) }
}

extension Bool: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard let bool = value.bool else { throw _PatchDecodeError("expected a Bool") }
        self = bool
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { writer.writeBool(self) }
}

extension String: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        #if PATCH_VIEWS
        // Most strings have no escapes: decoded straight from the input, no buffer in between.
        if let utf8 = value.unescapedString {
            self = String(decoding: utf8, as: UTF8.self)
            return
        }
        #endif
        guard let utf8 = try value.string() else { throw _PatchDecodeError("expected a String") }
        self = String(decoding: utf8.buffer, as: UTF8.self)
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        // withUTF8 is mutating (it makes a non-contiguous String contiguous first), hence the copy.
        var copy = self
        copy.withUTF8 { writer.writeString($0) }
    }

    static var _patchKeysObject: Bool { true }
    init(_patchKey key: UnsafeBufferPointer<UInt8>) throws(_PatchDecodeError) { self = String(decoding: key, as: UTF8.self) }
    var _patchKeyText: [UInt8] { Array(utf8) }
}

extension Character: _PatchJSONCodable {
    /// A one-character String, as the host encodes it; the state comes back the same way.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let text = try String(_patchJSON: value)
        guard let first = text.first, text.index(after: text.startIndex) == text.endIndex else {
            throw _PatchDecodeError("expected a one-character String")
        }
        self = first
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { String(self)._patchEncode(into: &writer) }
}

extension Optional: _PatchJSONCodable where Wrapped: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        if value.isNull {
            self = .none
        } else {
            self = .some(try Wrapped(_patchJSON: value))
        }
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        switch self {
        case .none: writer.writeNull()
        case .some(let wrapped): wrapped._patchEncode(into: &writer)
        }
    }
}

extension Array: _PatchJSONCodable where Element: _PatchJSONCodable {
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        guard value.isArray else { throw _PatchDecodeError("expected an array") }
        var result: [Element] = []
        try value.forEachEntry { _, element throws(_PatchDecodeError) in
            result.append(try Element(_patchJSON: element))
            return true
        }
        self = result
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        writer.append(UInt8(ascii: "["))
        var first = true
        for element in self {
            if !first { writer.append(UInt8(ascii: ",")) }
            first = false
            element._patchEncode(into: &writer)
        }
        writer.append(UInt8(ascii: "]"))
    }
}

extension Set: _PatchJSONCodable where Element: _PatchJSONCodable {
    /// An array, from JSONEncoder and the host alike.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        self = Set(try [Element](_patchJSON: value))
    }
    /// Elements in the order of their JSON bytes: a set's own order changes with its storage, and the
    /// same set must always serialize the same way.
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        var encoded: [[UInt8]] = []
        for element in self { encoded.append(writer.encodedSeparately(element)) }
        encoded.sort { left, right in left.lexicographicallyPrecedes(right) }
        writer.append(UInt8(ascii: "["))
        for (position, element) in encoded.enumerated() {
            if position > 0 { writer.append(UInt8(ascii: ",")) }
            element.withUnsafeBufferPointer { writer.append($0) }
        }
        writer.append(UInt8(ascii: "]"))
    }
}

extension Dictionary: _PatchJSONCodable where Key: _PatchJSONCodable, Value: _PatchJSONCodable {
    /// String and Int keys: an object. Any other key: an array, which JSONEncoder writes flat
    /// (`[k1,v1,k2,v2]`) and the host's inputs as pairs (`[[k1,v1],[k2,v2]]`, §5.4); an array whose
    /// elements are all two-element arrays is read as pairs (the state the guest returns, flat,
    /// comes back merged into the next inputs, so both arrive).
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        var result: [Key: Value] = [:]
        if Key._patchKeysObject {
            guard value.isObject else { throw _PatchDecodeError("expected an object") }
            try value.forEachEntry { key, member throws(_PatchDecodeError) in
                result[try Key(_patchKey: key.buffer)] = try Value(_patchJSON: member)
                return true
            }
            self = result
            return
        }
        guard value.isArray else { throw _PatchDecodeError("expected an array of keys and values") }
        var pairs = true
        var count = 0
        try value.forEachEntry { _, element throws(_PatchDecodeError) in
            count += 1
            var length = 0
            if pairs, element.isArray { try element.forEachEntry { _, _ in length += 1; return true } }
            pairs = pairs && length == 2
            return true
        }
        if pairs {
            try value.forEachEntry { _, pair throws(_PatchDecodeError) in
                var key: Key?
                try pair.forEachEntry { _, element throws(_PatchDecodeError) in
                    if let found = key {
                        result[found] = try Value(_patchJSON: element)
                    } else {
                        key = try Key(_patchJSON: element)
                    }
                    return true
                }
                return true
            }
        } else {
            guard count % 2 == 0 else { throw _PatchDecodeError("expected keys and values in turn") }
            var key: Key?
            try value.forEachEntry { _, element throws(_PatchDecodeError) in
                if let found = key {
                    result[found] = try Value(_patchJSON: element)
                    key = nil
                } else {
                    key = try Key(_patchJSON: element)
                }
                return true
            }
        }
        self = result
    }

    /// In JSONEncoder's shapes (which the host's JSONDecoder reads back into a view's state), keys
    /// in the order of their text or JSON bytes, so the same dictionary always serializes the same way.
    func _patchEncode(into writer: inout _PatchJSONWriter) {
        var entries: [(text: [UInt8], key: Key)] = []
        for key in keys { entries.append((Key._patchKeysObject ? key._patchKeyText : writer.encodedSeparately(key), key)) }
        entries.sort { left, right in left.text.lexicographicallyPrecedes(right.text) }
        writer.append(Key._patchKeysObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        for (position, entry) in entries.enumerated() {
            if position > 0 { writer.append(UInt8(ascii: ",")) }
            entry.text.withUnsafeBufferPointer { text in
                if Key._patchKeysObject { writer.writeString(text) } else { writer.append(text) }
            }
            writer.append(Key._patchKeysObject ? UInt8(ascii: ":") : UInt8(ascii: ","))
            if let value = self[entry.key] { value._patchEncode(into: &writer) }
        }
        writer.append(Key._patchKeysObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
}

extension Range: _PatchJSONCodable where Bound: _PatchJSONCodable {
    /// `{"lowerBound":…,"upperBound":…}` in a view's inputs (the host encodes a struct as an object of
    /// its stored properties, sdk-contract §5.4), `[lower,upper]` from JSONEncoder; written as the latter.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let (lower, upper): (Bound, Bound) = try _patchPair(value, "lowerBound", "upperBound")
        guard lower <= upper else { throw _PatchDecodeError("a range's lowerBound exceeds its upperBound") }
        self = lower..<upper
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { _patchWritePair(lowerBound, upperBound, into: &writer) }
}

extension ClosedRange: _PatchJSONCodable where Bound: _PatchJSONCodable {
    /// As `Range`.
    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {
        let (lower, upper): (Bound, Bound) = try _patchPair(value, "lowerBound", "upperBound")
        guard lower <= upper else { throw _PatchDecodeError("a range's lowerBound exceeds its upperBound") }
        self = lower...upper
    }
    func _patchEncode(into writer: inout _PatchJSONWriter) { _patchWritePair(lowerBound, upperBound, into: &writer) }
}

/// The two stored values of a standard or CoreGraphics struct (a range's bounds, a point's
/// coordinates): the members `first` and `second` of the object the host's inputs carry, or the two
/// elements of the array their Codable conformance writes.
func _patchPair<First: _PatchJSONCodable, Second: _PatchJSONCodable>(
    _ value: _PatchJSONValue, _ first: StaticString, _ second: StaticString
) throws(_PatchDecodeError) -> (First, Second) {
    if value.isObject { return (try value.decode(first), try value.decode(second)) }
    guard value.isArray else { throw _PatchDecodeError("expected an object of two stored properties or a two-element array") }
    var firstValue: First?
    var secondValue: Second?
    var count = 0
    try value.forEachEntry { _, element throws(_PatchDecodeError) in
        if count == 0 { firstValue = try First(_patchJSON: element) } else if count == 1 { secondValue = try Second(_patchJSON: element) }
        count += 1
        return count <= 2
    }
    guard count == 2, let firstValue, let secondValue else { throw _PatchDecodeError("expected an object of two stored properties or a two-element array") }
    return (firstValue, secondValue)
}

/// `[first,second]`, the Codable shape of a pair.
func _patchWritePair<First: _PatchJSONCodable, Second: _PatchJSONCodable>(_ first: First, _ second: Second, into writer: inout _PatchJSONWriter) {
    writer.append(UInt8(ascii: "["))
    first._patchEncode(into: &writer)
    writer.append(UInt8(ascii: ","))
    second._patchEncode(into: &writer)
    writer.append(UInt8(ascii: "]"))
}

extension _PatchJSONWriter {
    /// `value`'s JSON on its own, to order it among others; a failure (a non-finite Double) carries over.
    mutating func encodedSeparately<Value: _PatchJSONCodable>(_ value: Value) -> [UInt8] {
        var separate = _PatchJSONWriter()
        value._patchEncode(into: &separate)
        if let failure = separate.failure { self.failure = failure }
        return Array(separate.bytes.buffer)
    }
}

// MARK: - Export plumbing

/// Whether a Date in the JSON being read or written counts seconds since 1970, as a view's inputs
/// and state do (sdk-contract §5.4), rather than since 2001, as JSONEncoder's defaults in
/// `callJSON` do (§2.4). Each entry point sets it before decoding anything (the guest runs one
/// call at a time); the Foundation layer's Date codec reads it.
nonisolated(unsafe) var _patchDatesSince1970 = false

/// Runs one export: parse the input object, let the generated body decode the arguments, call the
/// function and write `{"value": …}` (or `{}` for Void), or `{"error": …}` on a decode failure.
@inline(__always)
func _patchExport(
    _ input: UnsafePointer<UInt8>?, _ length: Int32,
    _ body: (_PatchJSONValue, inout _PatchJSONWriter) throws(_PatchDecodeError) -> Void
) -> Int64 {
    _patchDatesSince1970 = false
    var writer = _PatchJSONWriter()
    do throws(_PatchDecodeError) {
        let arguments = try _PatchJSONReader.parse(input, length)
        guard arguments.isObject else { throw _PatchDecodeError("expected a JSON object of arguments") }
        try body(arguments, &writer)
    } catch {
        writer.writeError(error)
    }
    return writer.packedResult()
}

extension _PatchJSONWriter {
    mutating func writeValueEnvelope<Value: _PatchJSONCodable>(_ value: Value) {
        append("{\"value\":")
        value._patchEncode(into: &self)
        append(UInt8(ascii: "}"))
    }

    mutating func writeVoidEnvelope() {
        append("{}")
    }

    /// A mutating method's envelope: its result and the receiver after the call, `{"value":…,"self":…}`.
    mutating func writeMutatingEnvelope<Value: _PatchJSONCodable, Receiver: _PatchJSONCodable>(_ value: Value, receiver: Receiver) {
        append("{\"value\":")
        value._patchEncode(into: &self)
        append(",\"self\":")
        receiver._patchEncode(into: &self)
        append(UInt8(ascii: "}"))
    }

    /// A mutating method returning nothing: `{"self":…}`.
    mutating func writeMutatingEnvelope<Receiver: _PatchJSONCodable>(receiver: Receiver) {
        append("{\"self\":")
        receiver._patchEncode(into: &self)
        append(UInt8(ascii: "}"))
    }

    /// What a throwing function threw: `{"thrown":{"type":"E","value":"<E's JSON, as a string>"}}`.
    /// The native thunk rethrows it as an error carrying both (Swift cannot rebuild an arbitrary
    /// error type from JSON; docs/prepare.md "Throwing functions").
    mutating func writeThrownEnvelope<Thrown: _PatchJSONCodable>(_ type: StaticString, _ error: Thrown) {
        writeThrown(type, error)
        append(UInt8(ascii: "}"))
    }

    /// A mutating method that threw: the receiver as the throw left it goes back too, `{"thrown":…,"self":…}`.
    mutating func writeThrownEnvelope<Thrown: _PatchJSONCodable, Receiver: _PatchJSONCodable>(_ type: StaticString, _ error: Thrown, receiver: Receiver) {
        writeThrown(type, error)
        append(",\"self\":")
        receiver._patchEncode(into: &self)
        append(UInt8(ascii: "}"))
    }

    private mutating func writeThrown<Thrown: _PatchJSONCodable>(_ type: StaticString, _ error: Thrown) {
        var encoded = _PatchJSONWriter()
        error._patchEncode(into: &encoded)
        append("{\"thrown\":{\"type\":\"")
        append(type)
        append("\",\"value\":")
        writeString(encoded.bytes.buffer)
        append(UInt8(ascii: "}"))
    }
}
