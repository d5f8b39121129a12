import Foundation
@testable import PatchBuild
import Testing

/// A class receiver's optional reference to another object (Backyard Birds' `Bird.species`), prepared,
/// compiled against the SDK stand-in and run: the thunk's mirror carries a copy of the referenced
/// object's stored properties, one level deep (not its own references, so the species → birds → species
/// cycle never reaches the JSON), and the write-back never replaces the app's object.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ObjectReferenceRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeObjects")

    static func prepared() throws -> (plan: PreparePlan, sources: [SourceFile]) {
        let sources = try ["Aviary.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        return (plan, sources)
    }

    @Test func theReceiversMirrorCarriesACopyOfTheObjectItReferences() throws {
        let (plan, sources) = try Self.prepared()
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Bird_speciesName__get", "_pf_Bird_visit__times"])
        let files = SDKStandIn.prepared(sources, by: plan)
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0, "\(result.output)")
        // Native: the species' name, the visit. Module: its answers, `visits` written back, and the
        // bird still referencing the app's species, unchanged (`species` is never written back). The
        // calls send the species' `id`, `naturalScale` and `parts`, not its `birds` or `mascot`;
        // calls.txt is what ObjectReferenceBuildCLITests runs the built module on.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: robin | - Species name is missing. - | r1 saw robin with 2 parts | 2 | true robin 2 | writes: visits
            module: Robin | Robin | module visit | 7 | true robin 2 | writes: visits
            calls:

            """ + calls)
    }
}
