import SwiftParser
import SwiftSyntax
@testable import PatchBuild
import Testing

/// The continuation form `build` gives an async function (docs/async.md), as text, and the constructs
/// it refuses with their names. AsyncBuildCLITests compiles and runs the same forms in the guest.
@Suite struct GuestAsyncTransformTests {
    /// The function named `name` in `source`, transformed, with the edits applied.
    static func transformed(_ source: String, _ name: String, thrownTypes: GuestAsyncTransform.ThrownTypes = [:]) throws -> Result<String, GuestAsyncTransform.Refusal> {
        let file = Parser.parse(source: source)
        let function = try #require(file.tokens(viewMode: .sourceAccurate).lazy
            .compactMap { $0.parent?.as(FunctionDeclSyntax.self) }.first { $0.name.text == name })
        return GuestAsyncTransform.transform(function, thrownTypes: thrownTypes).map { transform in
            var bytes = Array(source.utf8)
            for (range, replacement) in transform.edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                bytes.replaceSubrange(range, with: Array(replacement.utf8))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test func awaitStatementsBecomeContinuationsOnTheirOwnLines() throws {
        let source = """
            func load(id: Int) async throws -> Int {
                var total = 0
                let (data, _) = try await URLSession.shared.data(from: URL(string: "https://x/\\(id)")!)
                if data.isEmpty { throw LoadError.empty }
                total = try await count(id: id)
                try await Task.sleep(nanoseconds: 10)
                return total + data.count
            }
            """
        let result = try Self.transformed(source, "load", thrownTypes: ["count": "LoadError"]).get()
        #expect(result == """
            func load(id: Int, _ _patchResume: @escaping (_PatchAsyncOutcome<Int, LoadError>) -> Void)    {do throws(LoadError) {
                var total = 0
                _patchHTTPGet( URL(string: "https://x/\\(id)")!) { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { _patchValue in do throws(LoadError) { let (data, _) = _patchValue
                if data.isEmpty { throw LoadError.empty }
                count(id: id) { _patchOutcome in _patchOutcome.then(_patchResume) { _patchValue in do throws(LoadError) { total = _patchValue
                _patchSleep(nanoseconds: 10) { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { _ in do throws(LoadError) {
                return _patchResume(.value( total + data.count))
             } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } }
            """)
    }

    @Test func aVoidFunctionResumesWhenItFallsOffItsEnd() throws {
        let result = try Self.transformed("func tick() async {\n    await Task.yield()\n}", "tick").get()
        #expect(result == """
            func tick(_ _patchResume: @escaping (_PatchAsyncOutcome<Void, Never>) -> Void)  {
                _patchYield() { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { _ in 
             _patchResume(.value(())) } } }
            """)
    }

    @Test(arguments: [
        // Awaits in branches, loops, expressions and `async let`: GuestAsyncFlowTests.
        ("for try await line in lines { total += line }", "`for await` over an AsyncSequence"),
        ("defer { total = 0 }\n    total = try await fetch(1)", "`defer` in an async function that awaits (it would run at the first suspension)"),
        ("Task { _ = try await fetch(1) }", "an async closure (`Task { … }`, a task group…)"),
        ("let (bytes, _) = try await URLSession.shared.bytes(from: url)", "`URLSession.shared.bytes(from:)`: of URLSession only `URLSession.shared.data(from:)` and `data(for:)` are bridged"),
        ("let value = try await withCheckedThrowingContinuation { $0.resume(returning: 1) }", "an awaited call with a trailing closure"),
    ])
    func constructsTheGuestCannotRunAreNamed(statement: String, construct: String) throws {
        let source = "func sum(ids: [Int], lines: Lines, url: URL) async throws -> Int {\n    var total = 0\n    \(statement)\n    return total\n}"
        guard case .failure(let refusal) = try Self.transformed(source, "sum") else {
            Issue.record("\(statement) was transformed")
            return
        }
        #expect(refusal.construct == construct)
    }

    @Test func aFunctionPassesOnTheErrorTypeOfWhatItAwaits() {
        let index = GuestSourceIndex(sources: [("Sources/App/Chain.swift", """
            enum ChainError: Error { case broken }
            func first() async throws -> Int { throw ChainError.broken }
            func second() async throws -> Int { let value = try await first(); return value }
            func third() async throws -> Int { return try await second() }
            func quiet() async throws -> Int { try await Task.sleep(nanoseconds: 1); return 1 }
            """)])
        #expect(GuestAsyncTransform.thrownTypes(in: index) == ["first": "ChainError", "second": "ChainError", "third": "ChainError"])
    }
}
