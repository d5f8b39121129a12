// AsyncRuntimeTests: the thunk shape prepare would give an async function (docs/async.md "The app
// side"). Synchronously, a replacement's call of the original runs the original; for the async
// function it re-enters the replacement, which a depth counter stops here (an app would recurse
// forever whenever no module has the function).
nonisolated(unsafe) var entered = 0

enum Quotes {
    dynamic static func countdown(from start: Int) async -> Int { start - 1 }
    dynamic static func syncCountdown(from start: Int) -> Int { start - 1 }
}

extension Quotes {
    @_dynamicReplacement(for: countdown(from:))
    static func __patch_countdown(from start: Int) async -> Int {
        entered += 1
        if entered > 3 { return -1 }
        return await countdown(from: start)
    }

    @_dynamicReplacement(for: syncCountdown(from:))
    static func __patch_syncCountdown(from start: Int) -> Int {
        entered += 1
        if entered > 3 { return -1 }
        return syncCountdown(from: start)
    }
}

@main
struct Main {
    static func main() async {
        let value = await Quotes.countdown(from: 5)
        print("async: \(value) after \(entered) entries")
        entered = 0
        print("sync: \(Quotes.syncCountdown(from: 5)) after \(entered) entries")
    }
}
