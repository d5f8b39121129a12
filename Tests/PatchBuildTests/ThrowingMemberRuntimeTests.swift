import Foundation
@testable import PatchBuild
import Testing

/// Throwing functions, prepared, compiled against the SDK stand-in and run: the thunk rethrows what
/// the module threw (`{"thrown": …}`) and still takes a mutating method's new `self`; a throwing
/// initializer runs the original, then throws what the module's threw.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ThrowingMemberRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeThrows")

    @Test func theModulesThrowReachesTheCallerAsAnErrorNamingItsTypeAndJSON() throws {
        let sources = try ["Parser.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Counter_advance__by", "_pf_Limit_init__text", "_pf_Parser_length__of"])
        let files = SDKStandIn.prepared(sources, by: plan)
        let routing = try #require(plan.updates.first { $0.path.contains("PatchThunks") })
        #expect(String(decoding: routing.after ?? [], as: UTF8.self).contains("        return try __result.value.get()"))
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        // The native error is caught as itself; the module's as the thunk's error, whose description
        // names the type and carries its JSON. The mutating method's receiver is written back
        // before the throw, as a native mutating method's writes are.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: 3 | ParseError.empty | 3 count 3 | 7
            module: other: ParseError thrown by the patch: {"tooLong":{"count":9}} | other: ParseError thrown by the patch: {"tooLong":{"count":9}} | other: ParseError thrown by the patch: {"empty":{}} count 5 | other: ParseError thrown by the patch: {"tooLong":{"count":7}}
            calls:

            """ + calls)
    }
}
