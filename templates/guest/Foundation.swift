// Guest Foundation layer: the part of Foundation real app code calls, for Embedded Swift, which has
// no Foundation. What the standard library can compute is implemented here in the guest; what needs
// the device (clock, locale, calendar, formatters, defaults, bundle, log) calls the SDK's host
// bridges (sdk-contract §3), declared in PatchGuestSupport.h. docs/guest-foundation.md lists what
// exists, the bridge behind each piece and what stays native.
//
// This file is the layer's shared core; each area is a `Foundation+<Part>.swift` file, picked up by
// name (`GuestTemplates.foundationFiles`) and compiled into every function module (with
// Prelude.swift) and into the view DSL's library. Code no export reaches is dropped at link time,
// and with it the bridge imports only that code made.

typealias TimeInterval = Double

/// `text`'s UTF-8 bytes as a bridge's (pointer, length) string parameter.
func _patchWithUTF8<Result>(_ text: String, _ body: (UnsafePointer<UInt8>?, Int32) -> Result) -> Result {
    var text = text
    return text.withUTF8 { body($0.baseAddress, Int32($0.count)) }
}

/// A bridge's packed result as text, its bytes freed; nil for 0 (the host packs nil and "" alike).
func _patchHostString(_ packed: Int64) -> String? {
    guard packed != 0 else { return nil }
    let bits = UInt64(bitPattern: packed)
    guard let start = UnsafeMutablePointer<UInt8>(bitPattern: UInt(truncatingIfNeeded: bits >> 32)) else { return nil }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: Int(truncatingIfNeeded: bits & 0xFFFF_FFFF)), as: UTF8.self)
    patch_free(start)
    return text
}
