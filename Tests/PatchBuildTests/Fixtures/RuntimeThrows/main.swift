import PatchSDK

func describe(_ body: () throws -> String) -> String {
    do {
        return try body()
    } catch let error as ParseError {
        return "ParseError.\(error)"
    } catch {
        return "other: \(error)"
    }
}

func exercise() -> String {
    var counter = Counter(count: 1)
    let short = describe { "\(try Parser.length(of: "abc"))" }
    let empty = describe { "\(try Parser.length(of: ""))" }
    let advanced = describe { "\(try counter.advance(by: 2))" }
    let limit = describe { "\(try Limit(text: "7").maximum)" }
    return "\(short) | \(empty) | \(advanced) count \(counter.count) | \(limit)"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    "_pf_Parser_length__of": #"{"thrown":{"type":"ParseError","value":"{\"tooLong\":{\"count\":9}}"}}"#,
    "_pf_Counter_advance__by": #"{"thrown":{"type":"ParseError","value":"{\"empty\":{}}"},"self":{"count":5}}"#,
    "_pf_Limit_init__text": #"{"thrown":{"type":"ParseError","value":"{\"tooLong\":{\"count\":7}}"}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
