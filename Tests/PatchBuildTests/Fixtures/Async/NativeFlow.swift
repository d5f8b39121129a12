// Runs the changed Quotes.swift and Flow.swift natively (Swift concurrency, URLSession answered from
// fixtures.json: NativeSupport.swift) and prints each outcome as the module's envelope would be:
// AsyncFlowCLITests compares them with `run`'s.

@main
struct NativeFlow {
    static func main() async {
        answerFromFixtures()
        // The cases of AsyncFlowCLITests.cases, in order.
        print(await envelope { try await Flow.lengths(first: 1, second: 2) })
        print(await envelope { try await Flow.lengths(first: 1, second: 3) })
        print(await envelope { try await Flow.shout(id: 2) })
        print(await envelope { try await Flow.describe(id: 1) })
        print(await envelope { try await Flow.joined(first: 1, second: 2) })
        print(await envelope { try await Flow.joined(first: 4, second: 2) })
        print(await envelope { try await Flow.tally(id: 1) })
        print(await envelope { try await Flow.pick(id: 1, fallback: false) })
        print(await envelope { try await Flow.pick(id: 1, fallback: true) })
        print(await envelope { try await Flow.pick(id: 0, fallback: false) })
        print(await envelope { try await Flow.pick(id: 3, fallback: false) })
        print(await envelope { try await Flow.kind(id: 1) })
        print(await envelope { try await Flow.kind(id: 2) })
        print(await envelope { try await Flow.kind(id: 3) })
        print(await envelope { try await Flow.kind(id: 7) })
        print(await envelope { try await Flow.checked(id: 1) })
        print(await envelope { try await Flow.checked(id: 4) })
        print(await envelope { try await Flow.firstLong(ids: [2, -1, 1, 2]) })
        print(await envelope { try await Flow.firstLong(ids: [2, 3, 1]) })
        print(await envelope { try await Flow.firstLong(ids: [2, 9]) })
        print(await envelope { await Flow.ticks(count: 5) })
        print(await envelope { await Flow.spins(count: 3) })
        print(await envelope { try await Flow.retry(id: 1) })
        print(await envelope { try await Flow.retry(id: 3) })
        print(await envelope { try await Flow.skipping(ids: [1, -1, 2]) })
        print(await envelope { try await Flow.skipping(ids: [-1, 3]) })
        print(await envelope { await Flow.recover(id: 1) })
        print(await envelope { await Flow.recover(id: -1) })
        print(await envelope { await Flow.caught(id: 1) })
        print(await envelope { await Flow.caught(id: 3) })
        print(await envelope { await Flow.caught(id: 9) })
        for id in [1, 2, 3, 9, 4] { print(await envelope { await Flow.classify(id: id) }) }
        for id in [4, 1, 3, 9] { print(await envelope { try await Flow.strict(id: id) }) }
        for (first, second) in [(1, 2), (1, 4), (1, 3), (9, 1), (1, 9)] { print(await envelope { await Flow.nested(first: first, second: second) }) }
        print(await envelope { await Flow.tolerant(ids: [1, 3, 2, 9, 1]) })
        print(await envelope { await Flow.reachable(id: 1) })
        print(await envelope { await Flow.reachable(id: 9) })
        print(await envelope { try await Quotes.total(ids: [1, 2, 1]) })
        print(await envelope { try await Quotes.total(ids: [1, 3, 2]) })
        print(await envelope { try await Quotes.both(first: 1, second: 2) })
        print(await envelope { try await Quotes.both(first: 4, second: 3) })
    }
}
