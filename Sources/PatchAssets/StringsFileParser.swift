import Foundation

/// An old-style `.strings` file (`"key" = "value";`, the format `Bundle.localizedString` reads): UTF-8
/// (with or without a BOM) or UTF-16 with a BOM, `/* */` and `//` comments, unquoted keys, the escapes
/// `\n \t \r \" \\ \'`, `\a \b \f \v`, `\Uxxxx` and octal `\NNN`, and the `"key";` shorthand (value =
/// key). A key given twice is an error: which one the app reads is not something to guess.
enum StringsFileParser {
    struct Entry: Equatable {
        var key: String
        var value: String
        var line: Int
    }

    struct Failure: Error, Equatable {
        var line: Int
        var key: String?
        var reason: String
    }

    static func decodeText(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: Data(bytes.dropFirst(2)), encoding: .utf16LittleEndian) }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: Data(bytes.dropFirst(2)), encoding: .utf16BigEndian) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(validating: body, as: UTF8.self)
    }

    static func parse(_ bytes: [UInt8]) -> Result<[Entry], Failure> {
        guard let text = decodeText(bytes) else {
            return .failure(Failure(line: 1, reason: "neither UTF-8 nor UTF-16 with a byte-order mark"))
        }
        var scanner = Scanner(characters: Array(text.unicodeScalars))
        var entries: [Entry] = []
        var firstLine: [String: Int] = [:]
        do {
            while true {
                try scanner.skipTrivia()
                guard !scanner.atEnd else { break }
                let line = scanner.line
                let key = try scanner.token(what: "a key")
                try scanner.skipTrivia()
                let value: String
                if scanner.peek == ";" {
                    value = key
                } else {
                    try scanner.expect("=", after: "key \"\(key)\"")
                    try scanner.skipTrivia()
                    value = try scanner.token(what: "the value of \"\(key)\"")
                    try scanner.skipTrivia()
                }
                try scanner.expect(";", after: "the value of \"\(key)\"")
                if let first = firstLine[key] {
                    return .failure(Failure(line: line, key: key, reason: "duplicate key (first at line \(first))"))
                }
                firstLine[key] = line
                entries.append(Entry(key: key, value: value, line: line))
            }
        } catch {
            return .failure(error)
        }
        return .success(entries)
    }

    private struct Scanner {
        let characters: [Unicode.Scalar]
        var index = 0
        var line = 1

        var atEnd: Bool { index >= characters.count }
        var peek: Unicode.Scalar? { atEnd ? nil : characters[index] }

        mutating func advance() -> Unicode.Scalar {
            let character = characters[index]
            index += 1
            if character == "\n" { line += 1 }
            return character
        }

        mutating func skipTrivia() throws(Failure) {
            while let character = peek {
                if character.properties.isWhitespace {
                    _ = advance()
                } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                    let start = line
                    index += 2
                    while !atEnd, !(characters[index] == "*" && index + 1 < characters.count && characters[index + 1] == "/") { _ = advance() }
                    guard !atEnd else { throw Failure(line: start, reason: "a /* comment is never closed") }
                    index += 2
                } else if character == "/", index + 1 < characters.count, characters[index + 1] == "/" {
                    while let next = peek, next != "\n" { _ = advance() }
                } else {
                    return
                }
            }
        }

        mutating func expect(_ character: Unicode.Scalar, after what: String) throws(Failure) {
            guard peek == character else {
                throw Failure(line: line, reason: "expected \"\(character)\" after \(what), found \(peek.map { "\"\($0)\"" } ?? "the end of the file")")
            }
            _ = advance()
        }

        /// A quoted string or an unquoted word (letters, digits and `_$+/:.-`).
        mutating func token(what: String) throws(Failure) -> String {
            guard let first = peek else { throw Failure(line: line, reason: "expected \(what), found the end of the file") }
            if first == "\"" { return try quoted() }
            var word = String.UnicodeScalarView()
            while let character = peek, character.properties.isAlphabetic || ("0"..."9").contains(character) || "_$+/:.-".unicodeScalars.contains(character) {
                word.append(advance())
            }
            guard !word.isEmpty else { throw Failure(line: line, reason: "expected \(what), found \"\(first)\"") }
            return String(word)
        }

        private mutating func quoted() throws(Failure) -> String {
            let start = line
            _ = advance()
            var text = String.UnicodeScalarView()
            while true {
                guard !atEnd else { throw Failure(line: start, reason: "a string is never closed") }
                let character = advance()
                if character == "\"" { return String(text) }
                guard character == "\\" else { text.append(character); continue }
                guard !atEnd else { throw Failure(line: start, reason: "a string ends in a lone backslash") }
                let escaped = advance()
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "a": text.append("\u{07}")
                case "b": text.append("\u{08}")
                case "f": text.append("\u{0C}")
                case "v": text.append("\u{0B}")
                case "U", "u":
                    var hex = ""
                    while hex.count < 4, let digit = peek, digit.properties.isASCIIHexDigit { hex.unicodeScalars.append(advance()) }
                    guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        throw Failure(line: line, reason: "\\U needs four hex digits naming a character")
                    }
                    text.append(scalar)
                case "0"..."7":
                    var octal = String(escaped)
                    while octal.count < 3, let digit = peek, ("0"..."7").contains(digit) { octal.unicodeScalars.append(advance()) }
                    text.append(Unicode.Scalar(UInt8(octal, radix: 8) ?? 0))
                default: text.append(escaped)
                }
            }
        }
    }
}
