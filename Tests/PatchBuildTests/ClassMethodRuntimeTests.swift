import Foundation
@testable import PatchBuild
import Testing

/// Methods of a plain final class and of an ObservableObject-shaped one, prepared, compiled against
/// the SDK stand-in and run: the thunks send a mirror of the properties that can travel and write
/// back only those the module changed, so observers see exactly the method's changes.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ClassMethodRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeClasses")

    @Test func classMethodsWriteBackOnlyWhatTheModuleChanged() throws {
        let sources = try ["Store.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Basket_add___", "_pf_Basket_total__get", "_pf_Counter_increment__by"])
        let files = SDKStandIn.prepared(sources, by: plan)
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        // Native: every write is seen. Module: `add` writes `items` only (its `discount` came back
        // unchanged), the getter writes `discount` only (its `items` are what `add` left), and the
        // `let currency` keeps its value although the module sent another. The mirror leaves out the
        // closure, the weak reference, the other class and the struct that is not Codable.
        // calls.txt is what ClassMethodBuildCLITests runs the built module on.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: 2 750 ["tea", "cake"] -0 EUR | 2 counter | writes: items, published 2
            module: 9 77 ["jam"] -5 EUR | 40 counter | writes: items, discount, published 40
            calls:

            """ + calls)
    }
}
