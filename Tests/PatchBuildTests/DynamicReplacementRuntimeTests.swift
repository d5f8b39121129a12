import Foundation
@testable import PatchBuild
import Testing

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Runtime")

/// Compiles prepared sources against the SDK stand-in (Tests/SDKStandIn) and runs them:
/// on Linux, dynamic replacement and the generated routing are real, only the UI types are not.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct DynamicReplacementRuntimeTests {
    @Test func preparedViewsAndFunctionsRouteToTheModuleOrTheOriginal() throws {
        let sources = try ["Views.swift", "Pricing.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .all, existingFile: { _ in nil })
        #expect(plan.views.map(\.typeName) == ["Bordered", "Box", "Greeting", "Outer_Inner", "Secret"])
        // `routing: all` routes the fixture's unmarked functions too: their thunks compile and, with no
        // module export for them, run the original.
        #expect(plan.functions.map(\.export) == ["_pf_Pricing_total__cents_quantity", "_pf_greetingLine__for", "_pf_renderAll__", "_pf_renderSecret__"])
        let files = SDKStandIn.prepared(sources, by: plan)
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        #expect(result.output == """
            native: Hello, Ada | VStack(inner, second line) | box of 3 | secret | VStack(card, border 2) | 500 | Welcome, Ada!
            module: module:Greeting | module:Outer_Inner | module:Box | module:Secret | module:Bordered+1 slots | 999 | Hi from the module
            calls: _pf_Pricing_total__cents_quantity {"cents":250,"quantity":2}; _pf_greetingLine__for {"name":"Ada"}

            """)
    }

    /// Why prepare renames `body` instead of emitting sdk-contract §5.1's replacement: a replacement
    /// of `body` whose fallback calls the original `body` has an opaque result type that contains
    /// itself, and the runtime recurses resolving it. If a toolchain ever runs this, revisit the shape.
    @Test func contractShapeFallbackCrashesOnThisToolchain() throws {
        let compiler = try #require(SDKStandIn.compiler, "CI=true requires swiftc")
        let standIns = try SDKStandIn.directory().path
        let directory = try SDKStandIn.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let build = try SDKStandIn.run(compiler, ["-module-name", "Shape", "-I", standIns, "-L", standIns, "-lSwiftUI", "-lPatchSDK", "-lPatchRender", "-lPatchSwiftUI",
                                       fixtures.appendingPathComponent("ContractShape.swift").path, "-o", "shape"], in: directory)
        try #require(build.status == 0, "the contract shape failed to compile:\n\(build.output)")
        let result = try SDKStandIn.run(directory.appendingPathComponent("shape").path, [], in: directory)
        #expect(result.status != 0, "the §5.1 shape ran; output: \(result.output)")
        #expect(!result.output.contains("native banner"))
    }
}
