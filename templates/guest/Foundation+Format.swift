// Guest Foundation layer (see Foundation.swift): `String(format:)` with printf's conversions for the
// values Swift passes as CVarArg (integers, floating point, String for %@). Embedded Swift has no
// CVarArg or existentials, so the arguments are generic `_PatchFormatArgument`s.
// What printf does that real code relies on is kept: `%d`/`%x` without a length modifier read 32
// bits (so `String(format: "%d", Int.max)` is "-1" as on the device), `%f` rounds the double's exact
// binary value half to even. Conversions it does not have (%e, %g, %a, %p, %n, %s of a C string)
// trap with the specifier named, and the thunk falls back to the native function.

/// A value `String(format:)` can print.
protocol _PatchFormatArgument {
    var _patchFormatValue: _PatchFormatValue { get }
}

enum _PatchFormatValue {
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
}

extension Int: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .signed(Int64(self)) } }
extension Int8: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .signed(Int64(self)) } }
extension Int16: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .signed(Int64(self)) } }
extension Int32: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .signed(Int64(self)) } }
extension Int64: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .signed(self) } }
extension UInt: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .unsigned(UInt64(self)) } }
extension UInt8: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .unsigned(UInt64(self)) } }
extension UInt16: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .unsigned(UInt64(self)) } }
extension UInt32: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .unsigned(UInt64(self)) } }
extension UInt64: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .unsigned(self) } }
extension Double: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .double(self) } }
extension Float: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .double(Double(self)) } }
extension String: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .string(self) } }
extension Substring: _PatchFormatArgument { var _patchFormatValue: _PatchFormatValue { .string(String(self)) } }

extension String {
    // One overload per argument count, up to ten: Embedded Swift cannot specialize a parameter
    // pack of protocol-constrained arguments ("a protocol type cannot contain a generic method").
    init(format: String) {
        var formatter = _PatchFormatter([])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument>(format: String, _ a: A) {
        var formatter = _PatchFormatter([a._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument>(format: String, _ a: A, _ b: B) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument, E: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue, e._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument, E: _PatchFormatArgument, F: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue, e._patchFormatValue, f._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument, E: _PatchFormatArgument, F: _PatchFormatArgument, G: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue, e._patchFormatValue, f._patchFormatValue, g._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument, E: _PatchFormatArgument, F: _PatchFormatArgument, G: _PatchFormatArgument, H: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue, e._patchFormatValue, f._patchFormatValue, g._patchFormatValue, h._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument, E: _PatchFormatArgument, F: _PatchFormatArgument, G: _PatchFormatArgument, H: _PatchFormatArgument, I: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue, e._patchFormatValue, f._patchFormatValue, g._patchFormatValue, h._patchFormatValue, i._patchFormatValue])
        self = formatter.format(format)
    }
    init<A: _PatchFormatArgument, B: _PatchFormatArgument, C: _PatchFormatArgument, D: _PatchFormatArgument, E: _PatchFormatArgument, F: _PatchFormatArgument, G: _PatchFormatArgument, H: _PatchFormatArgument, I: _PatchFormatArgument, J: _PatchFormatArgument>(format: String, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I, _ j: J) {
        var formatter = _PatchFormatter([a._patchFormatValue, b._patchFormatValue, c._patchFormatValue, d._patchFormatValue, e._patchFormatValue, f._patchFormatValue, g._patchFormatValue, h._patchFormatValue, i._patchFormatValue, j._patchFormatValue])
        self = formatter.format(format)
    }
}

struct _PatchFormatter {
    private let values: [_PatchFormatValue]
    private var next = 0

    init(_ values: [_PatchFormatValue]) { self.values = values }

    private struct Specification {
        var leftAligned = false, zeroPadded = false, plusSign = false, spaceSign = false, alternate = false
        var width = 0
        var precision: Int?
        /// `l`, `ll`, `q`, `z`, `j`, `t`: the integer is read as 64 bits, else as 32.
        var wide = false
    }

    mutating func format(_ format: String) -> String {
        var output = ""
        var scalars = format.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else { output.unicodeScalars.append(scalar); continue }
            var spec = Specification()
            var current = scalars.next()
            flags: while let flag = current {
                switch flag {
                case "-": spec.leftAligned = true
                case "0": spec.zeroPadded = true
                case "+": spec.plusSign = true
                case " ": spec.spaceSign = true
                case "#": spec.alternate = true
                default: break flags
                }
                current = scalars.next()
            }
            while let digit = current, let value = Self.digit(digit) { spec.width = spec.width * 10 + value; current = scalars.next() }
            if current == "." {
                var precision = 0
                current = scalars.next()
                while let digit = current, let value = Self.digit(digit) { precision = precision * 10 + value; current = scalars.next() }
                spec.precision = precision
            }
            while let modifier = current, modifier == "l" || modifier == "h" || modifier == "q" || modifier == "z" || modifier == "j" || modifier == "t" {
                if modifier != "h" { spec.wide = true }
                current = scalars.next()
            }
            guard let conversion = current else { break }
            output += pad(convert(conversion, spec), spec, numeric: conversion != "@" && conversion != "c")
        }
        return output
    }

    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        scalar.value >= 0x30 && scalar.value <= 0x39 ? Int(scalar.value - 0x30) : nil
    }

    private mutating func argument() -> _PatchFormatValue {
        guard next < values.count else { fatalError("String(format:) has more conversions than arguments") }
        defer { next += 1 }
        return values[next]
    }

    private mutating func convert(_ conversion: Unicode.Scalar, _ spec: Specification) -> String {
        switch conversion {
        case "%":
            return "%"
        case "d", "i", "D":
            let value = integer(argument(), spec, signed: true)
            return sign(value < 0, spec) + digits(value.magnitude, radix: 10, uppercase: false, spec)
        case "u", "U", "x", "X", "o", "O":
            let value = UInt64(bitPattern: integer(argument(), spec, signed: false))
            let radix: UInt64 = conversion == "o" || conversion == "O" ? 8 : conversion == "u" || conversion == "U" ? 10 : 16
            var text = digits(value, radix: radix, uppercase: conversion == "X", spec)
            if spec.alternate, value != 0 { text = (radix == 16 ? (conversion == "X" ? "0X" : "0x") : radix == 8 ? "0" : "") + text }
            return text
        case "f", "F":
            guard case .double(let value) = argument() else { fatalError("String(format:) %f needs a floating-point argument") }
            guard value.isFinite else {
                let text = value.isNaN ? "nan" : "inf"
                return sign(value < 0, spec) + (conversion == "F" ? text.uppercased() : text)
            }
            var text = _PatchExactDecimal(value.magnitude).fixed(fractionDigits: spec.precision ?? 6)
            if spec.alternate, spec.precision == 0 { text += "." }
            return sign(value.sign == .minus, spec) + text
        case "@":
            guard case .string(let text) = argument() else { fatalError("String(format:) %@ needs a String argument") }
            return text
        case "c", "C":
            guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: integer(argument(), spec, signed: false))) else { return "" }
            return String(Character(scalar))
        default:
            var name = "String(format:) conversion %"
            name.unicodeScalars.append(conversion)
            name += " is not in the guest; the function stays native"
            fatalError(name)
        }
    }

    /// The argument as printf reads it: 32 bits without a length modifier, sign- or zero-extended.
    private func integer(_ value: _PatchFormatValue, _ spec: Specification, signed: Bool) -> Int64 {
        let bits: Int64
        switch value {
        case .signed(let value): bits = value
        case .unsigned(let value): bits = Int64(bitPattern: value)
        case .double: fatalError("String(format:) integer conversion given a floating-point argument")
        case .string: fatalError("String(format:) integer conversion given a String argument")
        }
        guard !spec.wide else { return bits }
        return signed ? Int64(Int32(truncatingIfNeeded: bits)) : Int64(UInt32(truncatingIfNeeded: bits))
    }

    private func digits(_ magnitude: UInt64, radix: UInt64, uppercase: Bool, _ spec: Specification) -> String {
        var text = magnitude == 0 && spec.precision == 0 ? "" : String(magnitude, radix: Int(radix), uppercase: uppercase)
        if let precision = spec.precision, text.utf8.count < precision {
            text = String(repeating: "0", count: precision - text.utf8.count) + text
        }
        return text
    }

    private func sign(_ negative: Bool, _ spec: Specification) -> String {
        negative ? "-" : spec.plusSign ? "+" : spec.spaceSign ? " " : ""
    }

    /// Pads to the width: spaces, or zeros after the sign for a right-aligned `0` number (an
    /// integer with a precision pads with spaces, as printf does).
    private func pad(_ text: String, _ spec: Specification, numeric: Bool) -> String {
        let count = text.count
        guard count < spec.width else { return text }
        let fill = spec.width - count
        if spec.leftAligned { return text + String(repeating: " ", count: fill) }
        guard spec.zeroPadded, numeric else { return String(repeating: " ", count: fill) + text }
        var body = text[...]
        var prefix = ""
        if let first = body.first, first == "-" || first == "+" || first == " " { prefix.append(first); body = body.dropFirst() }
        if body.hasPrefix("0x") || body.hasPrefix("0X") { prefix += body.prefix(2); body = body.dropFirst(2) }
        return prefix + String(repeating: "0", count: fill) + body
    }
}

/// A finite non-negative Double's exact decimal expansion: every binary fraction has a finite one
/// (m × 2^-k = m × 5^k / 10^k), computed with a little base-10^9 big integer.
struct _PatchExactDecimal {
    /// Decimal digits, most significant first, without leading zeros ("0" for zero).
    private var digits: [UInt8]
    /// How many of `digits` are after the decimal point.
    private var fractionCount: Int

    init(_ value: Double) {
        let exponent = Int(value.exponent)
        var significand = value.significandBitPattern
        var shift: Int
        if value.isZero {
            digits = [0]; fractionCount = 0; return
        } else if value.isSubnormal {
            shift = Int(Double.leastNormalMagnitude.exponent) - Double.significandBitCount
        } else {
            significand |= 1 << UInt64(Double.significandBitCount)
            shift = exponent - Double.significandBitCount
        }
        // value = significand × 2^shift.
        var limbs: [UInt32] = [UInt32(significand % 1_000_000_000), UInt32(significand / 1_000_000_000 % 1_000_000_000), UInt32(significand / 1_000_000_000_000_000_000)]
        fractionCount = 0
        while shift > 0 { Self.multiply(&limbs, by: 2); shift -= 1 }
        while shift < 0 { Self.multiply(&limbs, by: 5); shift += 1; fractionCount += 1 }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var text: [UInt8] = []
        for (position, limb) in limbs.reversed().enumerated() {
            var chunk = [UInt8](repeating: 0, count: 9)
            var rest = limb
            for slot in stride(from: 8, through: 0, by: -1) { chunk[slot] = UInt8(rest % 10); rest /= 10 }
            text += position == 0 ? Array(chunk.drop(while: { $0 == 0 })) : chunk
        }
        digits = text.isEmpty ? [0] : text
    }

    private static func multiply(_ limbs: inout [UInt32], by factor: UInt64) {
        var carry: UInt64 = 0
        for index in limbs.indices {
            let product = UInt64(limbs[index]) * factor + carry
            limbs[index] = UInt32(product % 1_000_000_000)
            carry = product / 1_000_000_000
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
    }

    /// `fractionDigits` digits after the point, rounded half to even on the exact value.
    func fixed(fractionDigits: Int) -> String {
        // Integer and fraction digits, the integer part at least "0", the fraction padded with zeros.
        var integer = digits.count > fractionCount ? Array(digits[..<(digits.count - fractionCount)]) : [0]
        var fraction = digits.count >= fractionCount ? Array(digits[(digits.count - fractionCount)...])
            : [UInt8](repeating: 0, count: fractionCount - digits.count) + digits
        if fraction.count <= fractionDigits {
            fraction += [UInt8](repeating: 0, count: fractionDigits - fraction.count)
        } else {
            let dropped = fraction[fractionDigits...]
            fraction = Array(fraction[..<fractionDigits])
            let first = dropped.first!
            let restIsZero = dropped.dropFirst().allSatisfy { $0 == 0 }
            let last = fraction.last ?? integer.last!
            if first > 5 || (first == 5 && (!restIsZero || last % 2 == 1)) {
                var carry = true
                for index in fraction.indices.reversed() where carry {
                    fraction[index] += 1
                    carry = fraction[index] == 10
                    if carry { fraction[index] = 0 }
                }
                for index in integer.indices.reversed() where carry {
                    integer[index] += 1
                    carry = integer[index] == 10
                    if carry { integer[index] = 0 }
                }
                if carry { integer.insert(1, at: 0) }
            }
        }
        var text = String(decoding: integer.map { $0 + 0x30 }, as: UTF8.self)
        if fractionDigits > 0 { text += "." + String(decoding: fraction.map { $0 + 0x30 }, as: UTF8.self) }
        return text
    }
}
