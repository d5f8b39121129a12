// Guest Foundation layer (see Foundation.swift): the String API Foundation adds to the standard
// library, and CharacterSet, implemented on Embedded Swift's String, Unicode.Scalar and its Unicode
// data tables. Membership and case follow swift-corelibs/swift-foundation on Linux, which the tests
// compare against (Tests/PatchRuntimeTests/FoundationStringGuestTests.swift): Foundation works on
// Unicode scalars where these do (trimming, splitting at a CharacterSet, `capitalized`) and on
// Characters, which compare by canonical equivalence, where these do (searching for a string).
// The locale-dependent forms (`localizedCapitalized`, `localizedStandardCompare`, `String(format:locale:)`)
// are not here: the guest does not know the device's locale rules, so code calling them stays native.

// MARK: - CharacterSet

/// A set of Unicode scalars, as Foundation's: the built-in sets are predicates over the scalar's
/// general category (CFCharacterSet's definitions), combined sets keep their operands.
struct CharacterSet {
    fileprivate enum _BuiltIn {
        case whitespaces, newlines, whitespacesAndNewlines, decimalDigits, letters, lowercaseLetters, uppercaseLetters,
             capitalizedLetters, alphanumerics, punctuation, symbols, controls, nonBase,
             urlQueryAllowed, urlPathAllowed, urlHostAllowed, urlFragmentAllowed, urlUserAllowed, urlPasswordAllowed
    }

    fileprivate indirect enum _Members {
        case builtIn(_BuiltIn)
        case scalars(Set<UInt32>)
        case range(ClosedRange<UInt32>)
        case union(_Members, _Members)
        case intersection(_Members, _Members)
        case subtracting(_Members, _Members)
        case inverted(_Members)
    }

    private var members: _Members

    private init(_ members: _Members) { self.members = members }

    init() { members = .scalars([]) }

    init(charactersIn string: String) {
        members = .scalars(Set(string.unicodeScalars.map { $0.value }))
    }

    init(charactersIn range: ClosedRange<Unicode.Scalar>) {
        members = .range(range.lowerBound.value...range.upperBound.value)
    }

    init(charactersIn range: Range<Unicode.Scalar>) {
        members = range.isEmpty ? .scalars([]) : .range(range.lowerBound.value...(range.upperBound.value - 1))
    }

    static var whitespaces: CharacterSet { CharacterSet(.builtIn(.whitespaces)) }
    static var newlines: CharacterSet { CharacterSet(.builtIn(.newlines)) }
    static var whitespacesAndNewlines: CharacterSet { CharacterSet(.builtIn(.whitespacesAndNewlines)) }
    static var decimalDigits: CharacterSet { CharacterSet(.builtIn(.decimalDigits)) }
    static var letters: CharacterSet { CharacterSet(.builtIn(.letters)) }
    static var lowercaseLetters: CharacterSet { CharacterSet(.builtIn(.lowercaseLetters)) }
    static var uppercaseLetters: CharacterSet { CharacterSet(.builtIn(.uppercaseLetters)) }
    static var capitalizedLetters: CharacterSet { CharacterSet(.builtIn(.capitalizedLetters)) }
    static var alphanumerics: CharacterSet { CharacterSet(.builtIn(.alphanumerics)) }
    static var punctuationCharacters: CharacterSet { CharacterSet(.builtIn(.punctuation)) }
    static var symbols: CharacterSet { CharacterSet(.builtIn(.symbols)) }
    static var controlCharacters: CharacterSet { CharacterSet(.builtIn(.controls)) }
    static var nonBaseCharacters: CharacterSet { CharacterSet(.builtIn(.nonBase)) }
    static var urlQueryAllowed: CharacterSet { CharacterSet(.builtIn(.urlQueryAllowed)) }
    static var urlPathAllowed: CharacterSet { CharacterSet(.builtIn(.urlPathAllowed)) }
    static var urlHostAllowed: CharacterSet { CharacterSet(.builtIn(.urlHostAllowed)) }
    static var urlFragmentAllowed: CharacterSet { CharacterSet(.builtIn(.urlFragmentAllowed)) }
    static var urlUserAllowed: CharacterSet { CharacterSet(.builtIn(.urlUserAllowed)) }
    static var urlPasswordAllowed: CharacterSet { CharacterSet(.builtIn(.urlPasswordAllowed)) }

    func contains(_ member: Unicode.Scalar) -> Bool { members.contains(member) }

    var inverted: CharacterSet { CharacterSet(.inverted(members)) }

    func union(_ other: CharacterSet) -> CharacterSet { CharacterSet(.union(members, other.members)) }
    func intersection(_ other: CharacterSet) -> CharacterSet { CharacterSet(.intersection(members, other.members)) }
    func subtracting(_ other: CharacterSet) -> CharacterSet { CharacterSet(.subtracting(members, other.members)) }
    mutating func formUnion(_ other: CharacterSet) { self = union(other) }
    mutating func formIntersection(_ other: CharacterSet) { self = intersection(other) }
    mutating func subtract(_ other: CharacterSet) { self = subtracting(other) }
    mutating func invert() { self = inverted }
    mutating func insert(_ member: Unicode.Scalar) { formUnion(CharacterSet(.scalars([member.value]))) }
    mutating func remove(_ member: Unicode.Scalar) { subtract(CharacterSet(.scalars([member.value]))) }
    mutating func insert(charactersIn string: String) { formUnion(CharacterSet(charactersIn: string)) }
    mutating func remove(charactersIn string: String) { subtract(CharacterSet(charactersIn: string)) }
}

extension CharacterSet._Members {
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .builtIn(let set): return set.contains(scalar)
        case .scalars(let values): return values.contains(scalar.value)
        case .range(let range): return range.contains(scalar.value)
        case .union(let a, let b): return a.contains(scalar) || b.contains(scalar)
        case .intersection(let a, let b): return a.contains(scalar) && b.contains(scalar)
        case .subtracting(let a, let b): return a.contains(scalar) && !b.contains(scalar)
        case .inverted(let a): return !a.contains(scalar)
        }
    }
}

extension CharacterSet._BuiltIn {
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch self {
        case .whitespaces: return Self.isWhitespace(value)
        case .newlines: return Self.isNewline(value)
        case .whitespacesAndNewlines: return Self.isWhitespace(value) || Self.isNewline(value)
        case .urlQueryAllowed, .urlFragmentAllowed: return _patchURLAllows(scalar, ":@/?")
        case .urlPathAllowed: return _patchURLAllows(scalar, ":@/")
        case .urlHostAllowed: return _patchURLAllows(scalar, ":[]")
        case .urlUserAllowed, .urlPasswordAllowed: return _patchURLAllows(scalar, "")
        default: break
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter:
            return self == .letters || self == .uppercaseLetters || self == .alphanumerics
        case .titlecaseLetter:
            return self == .letters || self == .uppercaseLetters || self == .capitalizedLetters || self == .alphanumerics
        case .lowercaseLetter:
            return self == .letters || self == .lowercaseLetters || self == .alphanumerics
        case .modifierLetter, .otherLetter:
            return self == .letters || self == .alphanumerics
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return self == .letters || self == .alphanumerics || self == .nonBase
        case .decimalNumber:
            return self == .decimalDigits || self == .alphanumerics
        case .letterNumber, .otherNumber:
            return self == .alphanumerics
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation:
            return self == .punctuation
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return self == .symbols
        case .control, .format:
            return self == .controls
        default:
            return false
        }
    }

    /// CFCharacterSet's whitespace: tab, the space separators (Zs) and U+200B ZERO WIDTH SPACE.
    private static func isWhitespace(_ value: UInt32) -> Bool {
        value == 0x09 || value == 0x20 || value == 0xA0 || value == 0x1680 || (0x2000...0x200B).contains(value)
            || value == 0x202F || value == 0x205F || value == 0x3000
    }

    private static func isNewline(_ value: UInt32) -> Bool {
        (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}

/// Whether a URL component keeps `scalar` as it is: RFC 3986's unreserved characters (ALPHA DIGIT
/// - . _ ~), its sub-delimiters (! $ & ' ( ) * + , ; =) and the component's `extra` ones, as
/// Foundation's `url…Allowed` sets have them. The URL parser calls this directly rather than
/// through CharacterSet, whose category sets would link the Unicode property tables.
func _patchURLAllows(_ scalar: Unicode.Scalar, _ extra: StaticString) -> Bool {
    let value = scalar.value
    guard value < 0x80 else { return false }
    let byte = UInt8(truncatingIfNeeded: value)
    if (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
        return true
    }
    func among(_ set: StaticString) -> Bool {
        UnsafeBufferPointer(start: set.utf8Start, count: set.utf8CodeUnitCount).contains(byte)
    }
    return among("-._~") || among("!$&'()*+,;=") || among(extra)
}

// MARK: - Comparison

/// Foundation's ordering result (`compare`, `caseInsensitiveCompare`).
enum ComparisonResult: Int {
    case orderedAscending = -1
    case orderedSame = 0
    case orderedDescending = 1
}

// MARK: - String

// On String and Substring (the StringProtocol types whose slices are Substrings), so that a
// range found in either indexes it.
extension StringProtocol where SubSequence == Substring {
    /// Drops the scalars in `set` from both ends (Foundation trims scalars, not Characters: a
    /// combining mark in the set goes even when it belongs to the Character before it).
    func trimmingCharacters(in set: CharacterSet) -> String {
        let scalars = self[...].unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, set.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let last = scalars.index(before: end)
            guard set.contains(scalars[last]) else { break }
            end = last
        }
        return String(scalars[start..<end])
    }

    /// The pieces between occurrences of `separator` (compared as Characters); `[self]` when the
    /// separator is empty or absent.
    func components<Separator: StringProtocol>(separatedBy separator: Separator) -> [String] {
        var pieces: [String] = []
        var rest = self[...]
        while let found = rest._patchRange(of: separator) {
            pieces.append(String(rest[..<found.lowerBound]))
            rest = rest[found.upperBound...]
        }
        pieces.append(String(rest))
        return pieces
    }

    /// The pieces between single scalars of `separator`: "a\r\nb" split at `.newlines` gives three.
    func components(separatedBy separator: CharacterSet) -> [String] {
        var pieces: [String] = []
        var piece = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if separator.contains(scalar) {
                pieces.append(String(piece))
                piece = String.UnicodeScalarView()
            } else {
                piece.append(scalar)
            }
        }
        pieces.append(String(piece))
        return pieces
    }

    /// The first occurrence of `other`, compared as Characters; nil for an empty `other`, as in Foundation.
    func range<Target: StringProtocol>(of other: Target) -> Range<Index>? {
        self[...]._patchRange(of: other)
    }

    /// Whether `other` occurs, compared as Characters (the standard library's form of this needs
    /// _StringProcessing, which Embedded Swift does not have); an empty `other` never does.
    func contains<Target: StringProtocol>(_ other: Target) -> Bool {
        self[...]._patchRange(of: other) != nil
    }

    func replacingOccurrences<Target: StringProtocol, Replacement: StringProtocol>(of target: Target, with replacement: Replacement) -> String {
        var result = ""
        var rest = self[...]
        while let found = rest._patchRange(of: target) {
            result += rest[..<found.lowerBound]
            result += replacement
            rest = rest[found.upperBound...]
        }
        result += rest
        return result
    }

    /// Each word's first cased scalar in title case and the rest in lower case. A word starts after
    /// any scalar that is neither cased nor case-ignorable the way CFCharacterSet defines it (marks,
    /// format characters, modifier letters and symbols, the apostrophes U+0027 and U+2019), so
    /// "o'neil" stays one word and "3d" is "3D", as Foundation writes them.
    var capitalized: String {
        var result = ""
        var afterCased = false
        for scalar in unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .uppercaseLetter, .titlecaseLetter:
                if afterCased { result += properties.lowercaseMapping } else { result.unicodeScalars.append(scalar) }
                afterCased = true
            case .lowercaseLetter:
                if afterCased { result.unicodeScalars.append(scalar) } else { result += properties.titlecaseMapping }
                afterCased = true
            case .nonspacingMark, .enclosingMark, .format, .modifierLetter, .modifierSymbol:
                result.unicodeScalars.append(scalar)
            default:
                result.unicodeScalars.append(scalar)
                afterCased = scalar.value == 0x27 || scalar.value == 0x2019 ? afterCased : false
            }
        }
        return result
    }

    /// Compares the full case folds (upper- then lower-cased, so "Straße" equals "STRASSE").
    func caseInsensitiveCompare<Other: StringProtocol>(_ other: Other) -> ComparisonResult {
        let lhs = _patchCaseFolded, rhs = other._patchCaseFolded
        return lhs == rhs ? .orderedSame : lhs < rhs ? .orderedAscending : .orderedDescending
    }

    /// Case-insensitive containment, with the locale-independent case fold: identical to Foundation's
    /// in every locale but Turkish and Azeri, whose dotted and dotless i fold differently.
    func localizedCaseInsensitiveContains<Other: StringProtocol>(_ other: Other) -> Bool {
        _patchCaseFolded.contains(other._patchCaseFolded)
    }

    func compare<Other: StringProtocol>(_ other: Other) -> ComparisonResult {
        let lhs = String(self), rhs = String(other)
        return lhs == rhs ? .orderedSame : lhs < rhs ? .orderedAscending : .orderedDescending
    }

}

extension StringProtocol {
    var _patchCaseFolded: String { uppercased().lowercased() }
}

extension Substring {
    /// The first run of Characters equal to `target`'s.
    func _patchRange<Target: StringProtocol>(of target: Target) -> Range<Index>? {
        guard let first = target.first else { return nil }
        var start = startIndex
        while let candidate = self[start...].firstIndex(of: first) {
            var position = candidate
            var wanted = target.startIndex
            while wanted < target.endIndex, position < endIndex, self[position] == target[wanted] {
                position = index(after: position)
                wanted = target.index(after: wanted)
            }
            if wanted == target.endIndex { return candidate..<position }
            start = index(after: candidate)
        }
        return nil
    }
}

extension String {
    /// Embedded Swift marks the standard library's `String(describing:)` unavailable; it is
    /// `description` for what can describe itself.
    init<Subject: CustomStringConvertible>(describing instance: Subject) {
        self = instance.description
    }
}
