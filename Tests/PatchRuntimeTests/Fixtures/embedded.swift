// Embedded Swift guest (T0 tier): a scalar export and a packed-ABI export. Built at test time with
// swiftc -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded, linked with support.c.

@_cdecl("double_it")
public func doubleIt(_ value: Int64) -> Int64 {
    value &* 2
}

/// Packed ABI: upper-cases ASCII input; the output buffer comes from the same heap as patch_malloc.
@_cdecl("shout")
public func shout(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {
    let count = Int(length)
    guard count > 0, let pointer else { return 0 }
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    for index in 0..<count {
        let byte = pointer[index]
        output[index] = (97...122).contains(byte) ? byte - 32 : byte
    }
    let address = UInt64(UInt(bitPattern: output))
    return Int64(bitPattern: (address << 32) | UInt64(count))
}
