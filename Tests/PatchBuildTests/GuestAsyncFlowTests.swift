@testable import PatchBuild
import Testing

/// Awaits inside expressions, branches and loops, and `async let` (GuestAsyncRewriter, docs/async.md):
/// the continuation form as text, lines kept, and the constructs still refused with their names.
/// AsyncFlowCLITests compiles and runs the same forms in the guest against the native run.
@Suite struct GuestAsyncFlowTests {
    @Test(arguments: [
        ("repeat { total += try await fetch(total) } while try await fetch(total) < 3", "an await in a `repeat` loop's condition"),
        ("if total > 0 && (try await fetch(1)) > 0 { total = 1 }", "an await right of `&&`, `||`, `??` or in a `? :` branch (evaluated only sometimes)"),
        ("total = total > 0 ? try await fetch(1) : 0", "an await in a `? :` branch (evaluated only sometimes)"),
        ("let value = try! await fetch(1)", "`try!`, or `try?` around more than one awaited call, with an await"),
        ("let value = try? await (fetch(1), fetch(2))", "`try!`, or `try?` around more than one awaited call, with an await"),
        ("do { total = try await fetch(1) } catch { total = error.code }", "a catch-all `catch` reading `error` after an await in its `do` (a transport failure reaches it without an error value in the guest)"),
        ("do { try await Task.sleep(nanoseconds: 1) } catch E.x { total = 1 }", "a `catch` pattern after an await in a `do` whose error type the guest cannot tell (write `do throws(E)`)"),
        ("do { total = try await fetch(1) } catch let failure { print(failure) }", "a catch-all `catch` reading `failure` after an await in its `do` (a transport failure reaches it without an error value in the guest)"),
        ("if total == 0 { total = 1 } else if try await fetch(1) > 0 { total = 2 }", "an await in an `else if` condition"),
        ("guard total == 0, try await fetch(1) > 0 else { return 0 }", "an await in a later condition of `guard` (it runs only when the earlier ones hold)"),
        ("outer: for id in ids { total += try await fetch(id) }", "an await inside a labelled statement"),
        ("func more() async throws -> Int { try await fetch(2) }", "an await inside a nested declaration (a local async function or type)"),
        ("while try await fetch(total) > 0 { total += 1 }", "an await in a `while` condition"),
        ("async let (a, b) = (fetch(1), fetch(2))", "an `async let` of other than one name"),
        ("total = try await fetch(try await fetch(1))", "an await inside another await's operand"),
        ("for id in ids { for other in ids { if other == id { break outer } }; total += try await fetch(id) }", "a labelled `break`/`continue` out of a loop with awaits"),
    ])
    func constructsThatStayNativeAreNamed(statement: String, construct: String) throws {
        let source = "func sum(ids: [Int]) async throws -> Int {\n    var total = 0\n    \(statement)\n    return total\n}"
        guard case .failure(let refusal) = try GuestAsyncTransformTests.transformed(source, "sum", thrownTypes: ["fetch": "E"]) else {
            Issue.record("\(statement) was transformed")
            return
        }
        #expect(refusal.construct == construct)
    }

    /// A `;` may not follow a continuation's `{ _ in` or a local function's `{`: an await statement,
    /// branch or loop that ends a one-line block, or is followed by `;`, opens its continuation with
    /// a space, its `;` dropped.
    @Test func oneLineBlocksAndSemicolonsOpenContinuationsWithoutASemicolon() throws {
        let source = """
            func spins(count: Int) async -> Int {
                var turns = 0
                for _ in 0..<count { await Task.yield() }
                while turns < count { await Task.yield(); turns += 1 }
                if count > 1 { await Task.yield() }; turns *= 10
                return turns
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "spins").get()
        #expect(result == """
            func spins(count: Int, _ _patchResume: @escaping (_PatchAsyncOutcome<Int, Never>) -> Void)   {
                var turns = 0
                func __patchLoop0(_ __patchAfter0: @escaping () -> Void) { var __patchIterator0 = (0..<count).makeIterator(); func __patchNext0() { guard let _ = __patchIterator0.next() else { return __patchAfter0() }; _patchYield() { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { _ in   __patchNext0() } } }; __patchNext0() }; __patchLoop0 { 
                func __patchLoop1(_ __patchAfter1: @escaping () -> Void) { func __patchNext1() { guard turns < count else { return __patchAfter1() }; _patchYield() { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { _ in  turns += 1 ; __patchNext1() } } }; __patchNext1() }; __patchLoop1 { 
                func __patchBranch2(_ __patchAfter2: @escaping () -> Void) { if count > 1 { _patchYield() { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { _ in   __patchAfter2() } }} else { __patchAfter2() } }; __patchBranch2 {  turns *= 10
                return _patchResume(.value( turns))
             } } } }
            """)
    }

    /// `repeat … while`: the condition moves to the loop's first line, tested after each pass and by
    /// `continue`; `while C` after the `}` goes, so every line stays where it was.
    @Test func repeatLoopsTestTheirConditionAfterTheBody() throws {
        let source = """
            func skipping(ids: [Int]) async throws -> Int {
                var index = 0, total = 0
                repeat {
                    index += 1
                    if ids[index - 1] < 0 { continue }
                    total += try await fetch(ids[index - 1])
                } while index < ids.count
                return total
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "skipping", thrownTypes: ["fetch": "E", "skipping": "E"]).get()
        #expect(result == """
            func skipping(ids: [Int], _ _patchResume: @escaping (_PatchAsyncOutcome<Int, E>) -> Void)    {do throws(E) {
                var index = 0, total = 0
                func __patchLoop0(_ __patchAfter0: @escaping () -> Void) {do throws(E) { func __patchTest0() {do throws(E) { guard index < ids.count else { return __patchAfter0() }; __patchNext0() } catch { _patchResume(.thrown(error)) } }; func __patchNext0() {do throws(E) {
                    index += 1
                    if ids[index - 1] < 0 { return __patchTest0() }
                    fetch(ids[index - 1]) { _patchOutcome in _patchOutcome.then(_patchResume) { __patchAwait1 in do throws(E) { total += try __patchAwait1
                 __patchTest0() } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } }; __patchNext0() } catch { _patchResume(.thrown(error)) } }; __patchLoop0 {do throws(E) { 
                return _patchResume(.value( total))
             } catch { _patchResume(.thrown(error)) } } } catch { _patchResume(.thrown(error)) } }
            """)
    }

    @Test func branchesAndLoopsBecomeLocalFunctionsOnTheirOwnLines() throws {
        let source = """
            func load(ids: [Int], retry: Bool) async throws -> Int {
                var total = 0
                if retry {
                    total = try await count(id: 0)
                } else {
                    total = 1
                }
                for id in ids where id > 0 {
                    if id == 9 { break }
                    total += try await count(id: id) * 2
                }
                return total
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "load", thrownTypes: ["count": "LoadError", "load": "LoadError"]).get()
        #expect(result == """
            func load(ids: [Int], retry: Bool, _ _patchResume: @escaping (_PatchAsyncOutcome<Int, LoadError>) -> Void)    {do throws(LoadError) {
                var total = 0
                func __patchBranch0(_ __patchAfter0: @escaping () -> Void) {do throws(LoadError) { if retry {
                    count(id: 0) { _patchOutcome in _patchOutcome.then(_patchResume) { _patchValue in do throws(LoadError) { total = _patchValue
                 __patchAfter0() } catch { _patchResume(.thrown(error)) } } }} else {
                    total = 1
                 __patchAfter0()} } catch { _patchResume(.thrown(error)) } }; __patchBranch0 {do throws(LoadError) { 
                func __patchLoop1(_ __patchAfter1: @escaping () -> Void) {do throws(LoadError) { var __patchIterator1 = (ids).makeIterator(); func __patchNext1() {do throws(LoadError) { guard let id = __patchIterator1.next() else { return __patchAfter1() }; guard id > 0 else { return __patchNext1() };
                    if id == 9 { return __patchAfter1() }
                    count(id: id) { _patchOutcome in _patchOutcome.then(_patchResume) { __patchAwait2 in do throws(LoadError) { total += try __patchAwait2 * 2
                 __patchNext1() } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } }; __patchNext1() } catch { _patchResume(.thrown(error)) } }; __patchLoop1 {do throws(LoadError) { 
                return _patchResume(.value( total))
             } catch { _patchResume(.thrown(error)) } } } catch { _patchResume(.thrown(error)) } } } catch { _patchResume(.thrown(error)) } }
            """)
    }

    @Test func asyncLetStartsAtOnceAndEachReadWaits() throws {
        let source = """
            func pair() async throws -> Int {
                async let a = count(id: 1)
                async let b = count(id: 2)
                return try await a + b
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "pair", thrownTypes: ["count": "LoadError", "pair": "LoadError"]).get()
        #expect(result == """
            func pair(_ _patchResume: @escaping (_PatchAsyncOutcome<Int, LoadError>) -> Void)    {do throws(LoadError) {
                let __patchLet0 = _patchAsyncLet { count(id: 1, $0) }
                let __patchLet1 = _patchAsyncLet { count(id: 2, $0) }
                __patchLet0.wait { _patchOutcome in _patchOutcome.then(_patchResume) { __patchAwait2 in do throws(LoadError) { __patchLet1.wait { _patchOutcome in _patchOutcome.then(_patchResume) { __patchAwait3 in do throws(LoadError) { return _patchResume(.value( try __patchAwait2 + __patchAwait3))
             } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } } } } catch { _patchResume(.thrown(error)) } }
            """)
    }

    /// A `do` with `catch` clauses whose body awaits: the body's failures, before or after a
    /// suspension, go to `__patchCatchN`, which throws them again into the clauses as written; a
    /// transport failure goes to the catch-all, whose body is a function of its own.
    @Test func aDoWithCatchClausesDispatchesItsBodysFailuresIntoThem() throws {
        let source = """
            func label(id: Int) async -> String {
                var note = "start"
                do {
                    note = try await fetch(id).text
                } catch LoadError.missing(let code) where code > 500 {
                    note = "server"
                } catch {
                    note = "other"
                }
                return note
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "label", thrownTypes: ["fetch": "LoadError"]).get()
        #expect(result == """
            func label(id: Int, _ _patchResume: @escaping (_PatchAsyncOutcome<String, Never>) -> Void)   {
                var note = "start"
                func __patchBranch0(_ __patchAfter0: @escaping () -> Void) { func __patchTry0() {do throws(LoadError) {
                    fetch(id) { _patchOutcome in _patchOutcome.then(__patchCatch0) { __patchAwait1 in do throws(LoadError) { note = try __patchAwait1.text
                 __patchAfter0() } catch { __patchCatch0(.thrown(error)) } } } } catch { __patchCatch0(.thrown(error)) } }; func __patchCatch0(_ __patchFailure0: _PatchAsyncOutcome<Void, LoadError>) { guard case .thrown(let __patchError0) = __patchFailure0 else { if case .urlError = __patchFailure0 { __patchCatchAll0() }; return }; do throws(LoadError) { throw __patchError0 } catch LoadError.missing(let code) where code > 500 {
                    note = "server"
                 __patchAfter0()} catch { __patchCatchAll0() } }; func __patchCatchAll0() {
                    note = "other"
                 __patchAfter0() }; __patchTry0() }; __patchBranch0 { 
                return _patchResume(.value( note))
             } }
            """)
    }

    /// Clauses that do not catch everything pass what they miss on: a thrown error to the enclosing
    /// route (here the function), a transport failure too.
    @Test func clausesWithoutACatchAllPassTransportFailuresOn() throws {
        let source = """
            func strict(id: Int) async throws -> Int {
                do {
                    return try await fetch(id)
                } catch LoadError.empty {
                    return 0
                }
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "strict", thrownTypes: ["fetch": "LoadError", "strict": "LoadError"]).get()
        #expect(result == """
            func strict(id: Int, _ _patchResume: @escaping (_PatchAsyncOutcome<Int, LoadError>) -> Void)    {do throws(LoadError) {
                func __patchBranch0(_ __patchAfter0: @escaping () -> Void) {do throws(LoadError) { func __patchTry0() {do throws(LoadError) {
                    fetch(id) { _patchOutcome in _patchOutcome.then(__patchCatch0) { _patchValue in _patchResume(.value(_patchValue)) } }
                 } catch { __patchCatch0(.thrown(error)) } }; func __patchCatch0(_ __patchFailure0: _PatchAsyncOutcome<Void, LoadError>) {do throws(LoadError) { guard case .thrown(let __patchError0) = __patchFailure0 else { if case .urlError(let __patchCode0) = __patchFailure0 { _patchResume(.urlError(__patchCode0)) }; return }; do throws(LoadError) { throw __patchError0 } catch LoadError.empty {
                    return _patchResume(.value( 0))
                } } catch { _patchResume(.thrown(error)) } }; __patchTry0() } catch { _patchResume(.thrown(error)) } }; __patchBranch0 {do throws(LoadError) { 
             } catch { _patchResume(.thrown(error)) } } } catch { _patchResume(.thrown(error)) } }
            """)
    }

    /// The `do`'s own `throws(E)` is the type its failures are thrown again as; in a class's method
    /// the continuations capture the object, the local functions name it as the method does.
    @Test func aTypedDoInAClassMethodDispatchesItsOwnType() throws {
        let source = """
            final class Store {
                var note = ""
                func load(id: Int) async {
                    do throws(Other) {
                        note = try await fetch(id).text
                    } catch let failure {
                        note = "failed"
                    }
                }
            }
            """
        let result = try GuestAsyncTransformTests.transformed(source, "load", thrownTypes: ["fetch": "LoadError"]).get()
        #expect(result.contains("func __patchBranch0(_ __patchAfter0: @escaping () -> Void) { func __patchTry0() {do throws(Other) {"), "\(result)")
        #expect(result.contains("fetch(id) { [self] _patchOutcome in _patchOutcome.then(__patchCatch0) { __patchAwait1 in do throws(Other) { note = try __patchAwait1.text"), "\(result)")
        #expect(result.contains("func __patchCatch0(_ __patchFailure0: _PatchAsyncOutcome<Void, Other>) { guard case .thrown(let __patchError0) = __patchFailure0 else { if case .urlError = __patchFailure0 { __patchCatchAll0() }; return }; do throws(Other) { throw __patchError0 } catch { __patchCatchAll0() } }; func __patchCatchAll0() {"), "\(result)")
        #expect(result.split(separator: "\n").count == source.split(separator: "\n").count)
    }

    /// A body of one expression is the result; before, its value was dropped and the task never finished.
    @Test func aSingleExpressionBodyIsTheResult() throws {
        let result = try GuestAsyncTransformTests.transformed("func items() async -> Int {\n    await count(id: 1).bitWidth\n}", "items").get()
        #expect(result == """
            func items(_ _patchResume: @escaping (_PatchAsyncOutcome<Int, Never>) -> Void)   {
                count(id: 1) { _patchOutcome in _patchOutcome.thenInfallible(_patchResume) { __patchAwait0 in  _patchResume(.value(__patchAwait0.bitWidth))
             } } }
            """)
    }
}
