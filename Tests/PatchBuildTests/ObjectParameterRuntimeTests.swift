import Foundation
@testable import PatchBuild
import Testing

/// Parameters of a class type (Enchanted's functions taking a `CompletionInstructionSD`), prepared,
/// compiled against the SDK stand-in and run: the thunk sends a read-only copy of the object, one
/// level deep (not its own references, so the completion → panel → completion cycle never reaches the
/// JSON), the same copy a receiver's reference carries, and never writes the app's object. Without
/// the copy these functions are skipped ("is not Codable and is a class").
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ObjectParameterRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeObjectParameters")

    static func prepared() throws -> (plan: PreparePlan, sources: [SourceFile]) {
        let sources = try ["Completions.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        return (plan, sources)
    }

    @Test func theThunkSendsACopyOfTheParametersObject() throws {
        let (plan, sources) = try Self.prepared()
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Panel_prompt__for_selectedText", "_pf_Panel_send___"])
        let generated = plan.updates.compactMap { $0.after.map { String(decoding: $0, as: UTF8.self) } }.joined()
        #expect(generated.contains("struct __PatchValue_Completion: Encodable { let name: String; let instruction: String; let order: Int; init(_ __v: Completion) { self.name = __v.name; self.instruction = __v.instruction; self.order = __v.order } }"), "\(generated)")
        #expect(generated.contains("__PatchArguments(completion: __PatchValue_Completion(completion), selectedText: selectedText)"), "\(generated)")
        let files = SDKStandIn.prepared(sources, by: plan)
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0, "\(result.output)")
        // Native, then the module's answers: the panel's `sent` written back, the completion the app
        // sent untouched and still referencing its panel. The calls carry the completion's `name`,
        // `instruction` and `order`, not its `panel`; calls.txt is what ObjectParameterBuildCLITests
        // runs the built module on.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: Fix the grammar: a text | 2. Fix | nothing | 2 | Fix 2 true | writes: sent, sent
            module: module prompt | module send | module send | 5 | Fix 2 true | writes: sent
            calls:

            """ + calls)
    }
}
