import Foundation
@testable import PatchBuild
import Testing

/// Parameters, results and receivers whose types are project structs and enums without `Codable`,
/// prepared, compiled against the SDK stand-in and run: the thunks send the JSON the guest's codecs
/// read and build the values back from the JSON they write (docs/prepare.md "Values that are not Codable").
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ValueMirrorRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeValues")

    @Test func nonCodableStructsAndEnumsTravelThroughValueMirrors() throws {
        let sources = try ["Models.swift", "Planner.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Planner_period__get", "_pf_Timeframe_next__", "_pf_Trip_extend__to", "_pf_grown___", "_pf_label__for", "_pf_shifted____by", "_pf_status__after"])
        let files = SDKStandIn.prepared(sources, by: plan)
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0, "\(result.output)")
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        // Natively, then with the module's results: each value built back from the guest's JSON (a
        // struct's `let version = 1` keeps its own value); the calls show what the thunks sent
        // (calls.txt, which ValueMirrorBuildCLITests runs the built module on). Then random routes and
        // shapes: sent as their synthesized Codable would write them, and built back from that JSON.
        #expect(result.output == """
            native: native month | away | week | loop (11,2) week ["home"] v1 | 2 loop (1,2)(5,6) week ["home"] v1 | rect(2.0, height: 4.0) | week native set
            module: module label | present | month | moved (7,8) - ["work"] v1 | 9 patched  today [] v1 | circle(radius: 3.5) | today module set
            calls:

            """ + calls + "property: 200 routes and 200 shapes round-trip\n")
    }
}
