import Foundation

// Awaits inside expressions, branches and loops, and `async let` pairs (issue 21, docs/async.md
// "Covered, and what stays native"): AsyncFlowCLITests builds them with Quotes.swift, drives each with
// `run --fixtures` and compares the outcomes with NativeFlow.swift running the same code natively.

/// Read by `tally(id:)`: a private global, renamed in the guest where the hoisted await is inserted.
private var tallied = 0

enum Flow {
    // @patchable
    static func tally(id: Int) async throws -> Int {
        tallied += try await Quotes.fetch(id: id).text.count
        return tallied
    }

    // @patchable
    static func lengths(first: Int, second: Int) async throws -> Int {
        let total = try await Quotes.fetch(id: first).text.count + (try await Quotes.fetch(id: second)).text.count
        return total
    }

    // @patchable
    static func shout(id: Int) async throws -> String {
        return try await Quotes.fetch(id: id).text.uppercased() + "!"
    }

    // @patchable
    static func describe(id: Int) async throws -> String {
        let prefix = "#" + String(id)
        return label(prefix, try await Quotes.fetch(id: id))
    }

    static func label(_ prefix: String, _ quote: Quote) -> String {
        prefix + " " + quote.text
    }

    // @patchable
    static func joined(first: Int, second: Int) async throws -> String {
        let (a, b) = try await (Quotes.fetch(id: first), Quotes.fetch(id: second))
        let fallback = (try? await Quotes.fetch(id: 3))?.text ?? "missing"
        return a.text + "/" + b.text + "/" + fallback
    }

    // @patchable
    static func pick(id: Int, fallback: Bool) async throws -> String {
        var text = "none"
        if fallback {
            text = try await Quotes.fetch(id: 2).text
        } else if id > 0 {
            let quote = try await Quotes.fetch(id: id)
            if quote.text.count > 100 { return "long" }
            text = quote.text
        }
        return "[" + text + "]"
    }

    // @patchable
    static func kind(id: Int) async throws -> String {
        switch id {
        case 1:
            let quote = try await Quotes.fetch(id: 1)
            return "one: " + quote.text
        case 2, 3:
            try await Task.sleep(nanoseconds: 1_000)
            let quote = try await Quotes.fetch(id: id)
            return "some: " + quote.text
        default:
            break
        }
        return "other"
    }

    // @patchable
    static func checked(id: Int) async throws -> Int {
        guard try await Quotes.fetch(id: id).text.count > 3 else { return 0 }
        return id
    }

    // @patchable
    static func firstLong(ids: [Int]) async throws -> Int {
        var index = 0
        var found = -1
        while index < ids.count {
            let id = ids[index]
            index += 1
            if id < 0 { continue }
            let quote = try await Quotes.fetch(id: id)
            if quote.text.count > 8 {
                found = id
                break
            }
        }
        return found
    }

    // @patchable
    static func ticks(count: Int) async -> [Int] {
        var seen: [Int] = []
        for tick in 0..<count where tick != 2 {
            await Task.yield()
            seen.append(tick * 10)
        }
        return seen
    }

    // @patchable
    static func recover(id: Int) async -> String {
        do {
            try check(id)
        } catch {
            await Task.yield()
            return "recovered"
        }
        return "fine"
    }

    static func check(_ id: Int) throws(QuoteError) {
        if id < 0 { throw QuoteError.empty }
    }

    // Awaits on the line of the block's braces and before a `;` (no statement may follow a `{` or `in` with `;`).
    // @patchable
    static func spins(count: Int) async -> Int {
        var turns = 0
        for _ in 0..<count { await Task.yield() }
        while turns < count { await Task.yield(); turns += 1 }
        if count > 1 { await Task.yield() }; turns *= 10
        return turns
    }

    // repeat … while: the body first, then the condition; `continue` goes to the condition.
    // @patchable
    static func retry(id: Int) async throws -> Int {
        var attempts = 0
        repeat {
            attempts += 1
            _ = try await Quotes.fetch(id: id)
        } while attempts < 3
        return attempts
    }

    // @patchable
    static func skipping(ids: [Int]) async throws -> Int {
        var index = 0, total = 0
        repeat {
            index += 1
            if ids[index - 1] < 0 { continue }
            total += try await Quotes.fetch(id: ids[index - 1]).text.count
        } while index < ids.count
        return total
    }

    // Awaits inside `do` with `catch` clauses: a transport failure (9) and a 404 (3) caught by the
    // catch-all.
    // @patchable
    static func caught(id: Int) async -> String {
        do {
            return try await Quotes.fetch(id: id).text
        } catch {
            return "failed"
        }
    }

    // An error thrown after the suspension (a plain `throw` for 2, the awaited call's 404 for 3)
    // caught by the second of the clauses; an `await` in a clause; the code after runs once either way.
    // @patchable
    static func classify(id: Int) async -> String {
        var note = "start"
        do {
            let quote = try await Quotes.fetch(id: id)
            note = "fetched"
            if quote.text.count < 8 { throw QuoteError.badStatus(code: 299) }
            note = quote.text
        } catch QuoteError.badStatus(let code) where code >= 500 {
            note += " server"
        } catch QuoteError.badStatus(let code) {
            await Task.yield()
            note += " status " + String(code)
        } catch {
            note += " other"
        }
        return note + "."
    }

    // Clauses that do not match everything: the error they miss (a 404, a transport failure)
    // reaches the function's caller.
    // @patchable
    static func strict(id: Int) async throws -> String {
        do {
            let quote = try await Quotes.fetch(id: id)
            return quote.text
        } catch QuoteError.empty {
            return "empty"
        }
    }

    // Nested: what the inner clauses miss goes to the outer ones.
    // @patchable
    static func nested(first: Int, second: Int) async -> String {
        var log: [String] = []
        do {
            let a = try await Quotes.fetch(id: first)
            log.append(a.text)
            do {
                let b = try await Quotes.fetch(id: second)
                log.append(b.text)
            } catch QuoteError.empty {
                log.append("inner empty")
            }
            log.append("after inner")
        } catch {
            log.append("outer caught")
        }
        log.append("end")
        return log.joined(separator: ",")
    }

    // In a loop: the catch-all `continue`s or `break`s.
    // @patchable
    static func tolerant(ids: [Int]) async -> Int {
        var total = 0
        for id in ids {
            do {
                total += try await Quotes.fetch(id: id).text.count
            } catch {
                if id > 8 { break }
                continue
            }
            total += 100
        }
        return total
    }

    // A `do` that fails only in transport: its catch-all catches it.
    // @patchable
    static func reachable(id: Int) async -> Bool {
        do {
            _ = try await URLSession.shared.data(from: URL(string: Quotes.base + String(id))!)
            return true
        } catch {
            return false
        }
    }

    // Still native: each names its construct.

    // @patchable
    static func either(id: Int, quick: Bool) async throws -> Bool {
        return quick ? true : (try await Quotes.fetch(id: id)).text.isEmpty
    }

    // @patchable
    static func logged(id: Int) async -> String {
        do {
            return try await Quotes.fetch(id: id).text
        } catch {
            return "failed: " + String(describing: error)
        }
    }
}
