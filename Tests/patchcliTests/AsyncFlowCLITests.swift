import Foundation
import Testing

/// Awaits inside expressions, branches and loops, and `async let` pairs end to end (issue 21,
/// docs/async.md): Flow.swift and Quotes.swift's loop and `async let` build with `build --export`,
/// `run` drives each kickoff on the fixtures' HTTP answers, and every outcome (values, an error thrown
/// from a branch, a failure in the middle of a loop, a transport failure) equals what the same code
/// returns natively (NativeFlow.swift). What stays native is refused with its construct named.
@Suite(.serialized) struct AsyncFlowCLITests {
    static let flowFile = "Sources/Shop/Flow.swift"

    /// (kickoff, input) in the order NativeFlow.swift prints its outcomes.
    static let cases = [
        // Awaits inside expressions, hoisted left to right; the second fetch of (1, 3) throws.
        ("patch_start__pf_Flow_lengths__first_second", #"{"first":1,"second":2}"#),
        ("patch_start__pf_Flow_lengths__first_second", #"{"first":1,"second":3}"#),
        ("patch_start__pf_Flow_shout__id", #"{"id":2}"#),
        ("patch_start__pf_Flow_describe__id", #"{"id":1}"#),
        // `await (f(), g())` and `try? await` (nil for the 404); the first fetch of (4, 2) throws.
        ("patch_start__pf_Flow_joined__first_second", #"{"first":1,"second":2}"#),
        ("patch_start__pf_Flow_joined__first_second", #"{"first":4,"second":2}"#),
        // A hoisted await where the statement starts with a private global (renamed in the guest).
        ("patch_start__pf_Flow_tally__id", #"{"id":1}"#),
        // if / else if without else; a throw from the `else if` branch (404).
        ("patch_start__pf_Flow_pick__id_fallback", #"{"id":1,"fallback":false}"#),
        ("patch_start__pf_Flow_pick__id_fallback", #"{"id":1,"fallback":true}"#),
        ("patch_start__pf_Flow_pick__id_fallback", #"{"id":0,"fallback":false}"#),
        ("patch_start__pf_Flow_pick__id_fallback", #"{"id":3,"fallback":false}"#),
        // switch cases returning, throwing (3), and `break`ing to the code after the switch.
        ("patch_start__pf_Flow_kind__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_kind__id", #"{"id":2}"#),
        ("patch_start__pf_Flow_kind__id", #"{"id":3}"#),
        ("patch_start__pf_Flow_kind__id", #"{"id":7}"#),
        // An await in a guard condition.
        ("patch_start__pf_Flow_checked__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_checked__id", #"{"id":4}"#),
        // while with continue and break; a throw and a transport failure in the middle of the loop.
        ("patch_start__pf_Flow_firstLong__ids", #"{"ids":[2,-1,1,2]}"#),
        ("patch_start__pf_Flow_firstLong__ids", #"{"ids":[2,3,1]}"#),
        ("patch_start__pf_Flow_firstLong__ids", #"{"ids":[2,9]}"#),
        // for … in … where …
        ("patch_start__pf_Flow_ticks__count", #"{"count":5}"#),
        // Loops, a branch and an await statement on one line with their braces or a `;`.
        ("patch_start__pf_Flow_spins__count", #"{"count":3}"#),
        // repeat … while, failing in the first pass (404); `continue` to the condition, then a 404.
        ("patch_start__pf_Flow_retry__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_retry__id", #"{"id":3}"#),
        ("patch_start__pf_Flow_skipping__ids", #"{"ids":[1,-1,2]}"#),
        ("patch_start__pf_Flow_skipping__ids", #"{"ids":[-1,3]}"#),
        // An await in a `catch` body.
        ("patch_start__pf_Flow_recover__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_recover__id", #"{"id":-1}"#),
        // Awaits inside `do` with `catch` clauses (indices 28-47): a 404 and a transport failure
        // caught by the catch-all; an error thrown after the suspension caught by the second clause
        // (2: a plain `throw`, 3: the awaited call's); clauses that miss (a 404, a transport failure
        // reach the caller); nested statements; a catch-all that `continue`s and `break`s a loop; one that catches the
        // only failure of a `do` awaiting a request, its transport failure.
        ("patch_start__pf_Flow_caught__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_caught__id", #"{"id":3}"#),
        ("patch_start__pf_Flow_caught__id", #"{"id":9}"#),
        ("patch_start__pf_Flow_classify__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_classify__id", #"{"id":2}"#),
        ("patch_start__pf_Flow_classify__id", #"{"id":3}"#),
        ("patch_start__pf_Flow_classify__id", #"{"id":9}"#),
        ("patch_start__pf_Flow_classify__id", #"{"id":4}"#),
        ("patch_start__pf_Flow_strict__id", #"{"id":4}"#),
        ("patch_start__pf_Flow_strict__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_strict__id", #"{"id":3}"#),
        ("patch_start__pf_Flow_strict__id", #"{"id":9}"#),
        ("patch_start__pf_Flow_nested__first_second", #"{"first":1,"second":2}"#),
        ("patch_start__pf_Flow_nested__first_second", #"{"first":1,"second":4}"#),
        ("patch_start__pf_Flow_nested__first_second", #"{"first":1,"second":3}"#),
        ("patch_start__pf_Flow_nested__first_second", #"{"first":9,"second":1}"#),
        ("patch_start__pf_Flow_nested__first_second", #"{"first":1,"second":9}"#),
        ("patch_start__pf_Flow_tolerant__ids", #"{"ids":[1,3,2,9,1]}"#),
        ("patch_start__pf_Flow_reachable__id", #"{"id":1}"#),
        ("patch_start__pf_Flow_reachable__id", #"{"id":9}"#),
        // for with `+=` of an awaited expression; failing at the second element.
        ("patch_start__pf_Quotes_total__ids", #"{"ids":[1,2,1]}"#),
        ("patch_start__pf_Quotes_total__ids", #"{"ids":[1,3,2]}"#),
        // async let pairs.
        ("patch_start__pf_Quotes_both__first_second", #"{"first":1,"second":2}"#),
        ("patch_start__pf_Quotes_both__first_second", #"{"first":4,"second":3}"#),
    ]

    @Test func awaitsInExpressionsBranchesAndLoopsRunAsTheyDoNatively() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(InstanceMethodBuildCLITests.app.replacingOccurrences(of: #"Cart(items: [], currency: "EUR").total()"#, with: "1"),
                                        to: "Sources/Shop/ShopApp.swift", in: project)
            for (file, name) in [(AsyncBuildCLITests.quotesFile, "Quotes.swift"), (Self.flowFile, "Flow.swift")] {
                try ViewBuildCLITests.write(String(contentsOf: AsyncBuildCLITests.fixtures.appendingPathComponent(name), encoding: .utf8), to: file, in: project)
            }

            let shipped = ["Flow.lengths(first:second:)", "Flow.shout(id:)", "Flow.describe(id:)", "Flow.joined(first:second:)", "Flow.tally(id:)", "Flow.pick(id:fallback:)", "Flow.kind(id:)",
                           "Flow.checked(id:)", "Flow.firstLong(ids:)", "Flow.ticks(count:)", "Flow.spins(count:)", "Flow.retry(id:)", "Flow.skipping(ids:)", "Flow.recover(id:)",
                           "Flow.caught(id:)", "Flow.classify(id:)", "Flow.strict(id:)", "Flow.nested(first:second:)", "Flow.tolerant(ids:)", "Flow.reachable(id:)",
                           "Quotes.total(ids:)", "Quotes.both(first:second:)"]
            let refused = ["Flow.either(id:quick:)", "Flow.logged(id:)"]
            let build = try CLI.run(["build", "--project", project.path, "--sources", project.appendingPathComponent("Sources/Shop").path, "--json"]
                                    + (shipped + refused).flatMap { ["--export", $0] })
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let exports = try #require(build.result?["exports"] as? [[String: Any]], "\(build.stdout)")
            let symbols = Set(exports.compactMap { $0["symbol"] as? String })
            #expect(Set(Self.cases.map(\.0)).isSubset(of: symbols), "\(symbols)")
            // What the guest cannot run is refused, the construct named at its line.
            let unpatchable = try #require(build.result?["unpatchable"] as? [[String: Any]], "\(build.stdout)")
            let reasons = Dictionary(uniqueKeysWithValues: unpatchable.map { ($0["declaration_id"] as? String ?? "", "\($0["reason"] ?? "") \($0["detail"] ?? "")") })
            #expect(reasons["Flow.either(id:quick:)"]?.hasPrefix("async_code an await right of `&&`, `||`, `??` or in a `? :` branch (evaluated only sometimes) stays native") == true, "\(reasons)")
            #expect(reasons["Flow.logged(id:)"]?.hasPrefix("async_code a catch-all `catch` reading `error` after an await in its `do` (a transport failure reaches it without an error value in the guest)") == true, "\(reasons)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let fixtures = AsyncBuildCLITests.fixturesFile("fixtures.json")
            var outcomes: [String] = []
            for (kickoff, input) in Self.cases {
                let run = try CLI.run(["run", module, kickoff, "--input", input, "--fixtures", fixtures, "--decode", "text", "--json"])
                #expect(run.status == 0, "\(kickoff) \(input): \(run.stdout)\(run.stderr)")
                outcomes.append(run.result?["output"] as? String ?? "")
            }
            let natively = try AsyncBuildCLITests.runNatively(
                [project.appendingPathComponent(AsyncBuildCLITests.quotesFile).path, project.appendingPathComponent(Self.flowFile).path,
                 AsyncBuildCLITests.fixturesFile("NativeFlow.swift")], fixtures: fixtures, in: directory)
            #expect(natively.count == outcomes.count, "\(natively)")
            for ((kickoff, input), (module, native)) in zip(Self.cases, zip(outcomes, natively)) {
                #expect(try AsyncBuildCLITests.json(module) == AsyncBuildCLITests.json(native), "\(kickoff) \(input): module \(module) ≠ native \(native)")
            }
            #expect(outcomes[0] == #"{"value":18}"#)
            #expect(outcomes[4] == #"{"value":"stay hungry/ship it/missing"}"#)
            #expect(outcomes[6] == #"{"value":11}"#)
            #expect(outcomes[17] == #"{"value":1}"#)
            #expect(Array(outcomes[28...32]) == [#"{"value":"stay hungry"}"#, #"{"value":"failed"}"#, #"{"value":"failed"}"#,
                                                 #"{"value":"stay hungry."}"#, #"{"value":"fetched status 299."}"#])
            #expect(Array(outcomes[38...39]) == [#"{"thrown":{"type":"QuoteError","value":"{\"badStatus\":{\"code\":404}}"}}"#, #"{"urlError":-1}"#])
            #expect(Array(outcomes[42...47]) == [#"{"value":"stay hungry,outer caught,end"}"#, #"{"value":"outer caught,end"}"#,
                                                 #"{"value":"stay hungry,outer caught,end"}"#, #"{"value":218}"#, #"{"value":true}"#, #"{"value":false}"#])

            // `async let`: both requests are in flight before the first is awaited, so the host
            // answers them in the same round.
            let traced = try CLI.run(["run", module, "patch_start__pf_Quotes_both__first_second", "--input", #"{"first":1,"second":2}"#,
                                      "--fixtures", fixtures, "--trace"])
            #expect(traced.status == 0, "\(traced.stdout)\(traced.stderr)")
            #expect(traced.stdout.split(separator: "\n").filter { $0.hasPrefix("round ") } == [
                "round 2: resume GET https://api.example.com/quotes/1 (token 1): status 200, 11 bytes",
                "round 2: resume GET https://api.example.com/quotes/2 (token 2): status 200, 7 bytes",
            ], "\(traced.stdout)")
        }
    }
}
