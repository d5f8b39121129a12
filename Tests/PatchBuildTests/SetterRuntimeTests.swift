import Foundation
@testable import PatchBuild
import Testing

/// Computed properties with a setter, prepared, compiled against the SDK stand-in and run: an
/// instance setter sends `self` and the new value and takes the module's new `self`; a static one
/// sets the original, while its getter is routed.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct SetterRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeSetters")

    @Test func anInstanceSetterTakesTheModulesNewSelfAndAStaticOneSetsTheOriginal() throws {
        let sources = try ["Thermostat.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Thermostat_degrees__get", "_pf_Thermostat_label__get"])
        let files = SDKStandIn.prepared(sources, by: plan)
        let routing = String(decoding: try #require(plan.updates.first { $0.path.contains("PatchThunks") }).after ?? [], as: UTF8.self)
        #expect(routing.contains("""
                    set {
                        struct __PatchSelf: Codable { let tenths: Int; let room: String }
                        struct __PatchArguments: Encodable { let __self: __PatchSelf; let newValue: Int; enum CodingKeys: String, CodingKey { case __self = "self", newValue } }
            """), "\(routing)")
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        // The module's `self` sets `tenths` and leaves the `let` `room`; the static setter ran natively.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: 21 300 30 °F F hall
            module: 21 301 30 module label F hall
            calls:

            """ + calls)
    }
}
