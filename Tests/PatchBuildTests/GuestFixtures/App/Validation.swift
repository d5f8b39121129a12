enum Checkout {
    struct Form {
        var email: String
        var age: Int
        var country: String?
        var tags: [String] = []
    }

    enum Problem: Equatable {
        case missingEmail
        case tooYoung(minimum: Int)
        case unsupportedCountry(String)
    }

    struct Validator {
        var minimumAge: Int
        var allowedCountries: [String]

        func validate(_ form: Form) -> [Problem] {
            var problems: [Problem] = []
            if !form.email.contains("@") { problems.append(.missingEmail) }
            if form.age < minimumAge { problems.append(.tooYoung(minimum: minimumAge)) }
            if let country = form.country, !allowedCountries.contains(country) {
                problems.append(.unsupportedCountry(country))
            }
            return problems
        }

        static func isValid(_ form: Form) -> Bool {
            Validator(minimumAge: 18, allowedCountries: ["DE", "FR"]).validate(form).isEmpty
        }
    }
}

struct Summary {
    var count: Int
    var mean: Double
    var largest: Int64?
    var labels: [String: Int32]
    var flags: [Bool]
    var nested: [[Int]]
}

func summarize(_ values: [Int64], labels: [String: Int32], note: String?) -> Summary {
    var total: Int64 = 0
    for value in values { total += value }
    let mean = values.isEmpty ? 0 : Double(total) / Double(values.count)
    return Summary(count: values.count, mean: mean, largest: values.max(), labels: labels,
                   flags: values.map { $0 > 0 }, nested: [values.map { Int($0) }, note == nil ? [] : [1]])
}

func ratio(_ a: Double, _ b: Double) -> Double {
    a / b
}

func fetchLimit() async -> Int {
    async let limit = 42; return await limit
}

final class Counter {
    var value = 0
}

func bump(_ start: Int) -> Int {
    let counter = Counter()
    counter.value = start + 1
    return counter.value
}

func lookupMissing(_ key: String) -> Int {
    undefinedHelper(key)
}

func reset(_ state: inout Int) {
    state = 0
}
