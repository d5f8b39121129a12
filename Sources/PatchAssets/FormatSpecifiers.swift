/// The printf-style arguments a localized string consumes (`%@`, `%1$@`, `%.2f`, `%lld`), by argument
/// position: `String(format:)` reads a translation with the source's arguments, so a translation that
/// consumes different ones crashes or prints garbage on device. `"%@ in %@"` and `"%2$@ — %1$@"` agree.
enum FormatSpecifiers {
    /// Position (1-based) → length modifier and conversion (`@`, `d`, `lld`, `f`); `%%` is no argument.
    static func arguments(of text: String) -> [Int: String] {
        let characters = Array(text.unicodeScalars)
        var arguments: [Int: String] = [:]
        var next = 1
        var index = 0
        while index < characters.count {
            guard characters[index] == "%" else { index += 1; continue }
            index += 1
            var digits = ""
            var cursor = index
            while cursor < characters.count, ("0"..."9").contains(characters[cursor]) { digits.unicodeScalars.append(characters[cursor]); cursor += 1 }
            var position: Int?
            if !digits.isEmpty, cursor < characters.count, characters[cursor] == "$" {
                position = Int(digits)
                index = cursor + 1
            }
            while index < characters.count, "-+ #0'".unicodeScalars.contains(characters[index]) { index += 1 }
            while index < characters.count, ("0"..."9").contains(characters[index]) || characters[index] == "*" || characters[index] == "." { index += 1 }
            var length = ""
            while index < characters.count, "hlLqjzt".unicodeScalars.contains(characters[index]) { length.unicodeScalars.append(characters[index]); index += 1 }
            guard index < characters.count else { break }
            let conversion = characters[index]
            index += 1
            if conversion == "%" { continue }
            guard "@dDuUxXoOfFeEgGcCsSpaAi".unicodeScalars.contains(conversion) else { continue }
            let slot = position ?? next
            next = slot + 1
            // %i and %d read the same argument type.
            arguments[slot] = length + (conversion == "i" ? "d" : String(conversion))
        }
        return arguments
    }

    static func describe(_ arguments: [Int: String]) -> String {
        arguments.isEmpty ? "none" : arguments.sorted { $0.key < $1.key }.map { "%\($0.key)$\($0.value)" }.joined(separator: " ")
    }
}
