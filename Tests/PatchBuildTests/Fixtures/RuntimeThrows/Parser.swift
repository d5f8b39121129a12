/// Not Codable, as the error enums of the corpus apps are: its JSON travels as text.
enum ParseError: Error {
    case empty
    case tooLong(count: Int)
}

enum Parser {
    // @patchable
    static func length(of text: String) throws -> Int {
        if text.isEmpty { throw ParseError.empty }
        return text.count
    }
}

struct Counter {
    var count: Int

    // @patchable
    mutating func advance(by step: Int) throws -> Int {
        if step < 0 { throw ParseError.tooLong(count: step) }
        count += step
        return count
    }
}

struct Limit {
    var maximum: Int

    // @patchable
    init(text: String) throws {
        guard let value = Int(text) else { throw ParseError.empty }
        maximum = value
    }
}
