import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Async functions of issue 21's first slice (docs/async.md): AsyncBuildCLITests changes them, builds
// the module, drives it with `run --fixtures` and compares each outcome with Native.swift running
// the same changed code natively on the same fixture answers.

struct Quote: Codable, Equatable {
    var id: Int
    var text: String
}

enum QuoteError: Error, Codable, Equatable {
    case badStatus(code: Int)
    case empty
}

struct Shelf: Codable {
    var prefix: String

    // @patchable
    func label(id: Int) async throws -> String {
        let quote = try await Quotes.fetch(id: id)
        return prefix + quote.text
    }
}

enum Quotes {
    static let base = "https://api.example.com/quotes/"

    // @patchable
    static func fetch(id: Int) async throws -> Quote {
        let url = URL(string: base + String(id))!
        let (data, response) = try await URLSession.shared.data(from: url)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw QuoteError.badStatus(code: (response as? HTTPURLResponse)?.statusCode ?? 0)
        }
        let text = String(decoding: data, as: UTF8.self)
        if text.isEmpty { throw QuoteError.empty }
        return Quote(id: id, text: text)
    }

    // @patchable
    static func post(text: String) async throws -> Int {
        var request = URLRequest(url: URL(string: base + "new")!)
        request.httpMethod = "POST"
        request.httpBody = Data(text.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    // @patchable
    static func pair(first: Int, second: Int) async throws -> [Quote] {
        let a = try await fetch(id: first)
        try await Task.sleep(nanoseconds: 1_000_000)
        let b = try await fetch(id: second)
        return [a, b]
    }

    // @patchable
    static func countdown(from start: Int) async -> Int {
        await Task.yield()
        if start <= 0 { return 0 }
        return start - 1
    }

    // @patchable
    static func spin(rounds: Int) async -> Int {
        await Task.yield()
        return await spin(rounds: rounds + 1)
    }

    // @patchable
    static func total(ids: [Int]) async throws -> Int {
        var sum = 0
        for id in ids {
            sum += try await fetch(id: id).text.count
        }
        return sum
    }

    // @patchable
    static func both(first: Int, second: Int) async throws -> Int {
        async let a = fetch(id: first)
        async let b = fetch(id: second)
        return try await a.text.count + b.text.count
    }
}
