// Embedded Swift guest with the SDK pricing fixture's export shape: a String in as (ptr, len), an
// Int32 out as one i32 (sdk-contract §2.1's typed call). Built at test time, linked with support.c.
// lineSubtotalCents('{"qty":3,"priceCents":1250}') = 3750.

@_cdecl("lineSubtotalCents")
public func lineSubtotalCents(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) -> Int32 {
    guard let pointer else { return -1 }
    let json = UnsafeBufferPointer(start: pointer, count: Int(length))
    guard let quantity = integer(after: "\"qty\":", in: json), let price = integer(after: "\"priceCents\":", in: json) else {
        return -1
    }
    return quantity &* price
}

/// The unsigned integer right after `key` in `json` (a flat object of integer fields is all this reads).
func integer(after key: StaticString, in json: UnsafeBufferPointer<UInt8>) -> Int32? {
    let pattern = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    guard json.count >= pattern.count else { return nil }
    for start in 0...(json.count - pattern.count) where json[start] == pattern[0] {
        var matches = true
        for offset in 0..<pattern.count where json[start + offset] != pattern[offset] { matches = false; break }
        guard matches else { continue }
        var index = start + pattern.count
        var value: Int32 = 0
        var digits = 0
        while index < json.count, json[index] >= 48, json[index] <= 57 {
            value = value &* 10 &+ Int32(json[index] - 48)
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }
    return nil
}
