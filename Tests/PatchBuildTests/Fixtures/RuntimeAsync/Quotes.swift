import Foundation

enum QuoteError: Error { case offline }

/// How many times an original body ran: once per call when the module lacks the function.
nonisolated(unsafe) var entries = 0

enum Quotes {
    // @patchable
    static func fetch(id: Int) async throws -> String {
        entries += 1
        try await Task.sleep(nanoseconds: 1)
        return "native \(id)"
    }
}

struct Shelf {
    var base: Int

    // @patchable
    func total(of extra: Int) async -> Int {
        entries += 1
        return base + extra
    }
}

@MainActor
final class Store {
    var items: [Int] = []
    var loads = 0

    // @patchable
    func load(extra: Int) async -> Int {
        loads += 1
        items.append(extra)
        return items.count
    }
}
