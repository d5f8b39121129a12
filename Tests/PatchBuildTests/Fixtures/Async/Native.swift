// Runs the changed Quotes.swift natively (Swift concurrency, URLSession answered from fixtures.json by
// NativeSupport.swift) and prints each outcome as the module's envelope would be:
// AsyncBuildCLITests compares the two.

@main
struct Native {
    static func main() async {
        answerFromFixtures()
        // The cases of AsyncBuildCLITests.cases, in order.
        print(await envelope { try await Quotes.fetch(id: 1) })
        print(await envelope { try await Quotes.fetch(id: 3) })
        print(await envelope { try await Quotes.fetch(id: 4) })
        print(await envelope { try await Quotes.fetch(id: 9) })
        print(await envelope { try await Quotes.pair(first: 1, second: 2) })
        print(await envelope { try await Quotes.pair(first: 1, second: 3) })
        print(await envelope { try await Shelf(prefix: "Q").label(id: 2) })
        print(await envelope { await Quotes.countdown(from: 5) })
        print(await envelope { try await Quotes.post(text: "new quote") })
    }
}
