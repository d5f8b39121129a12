import Foundation
@testable import PatchBuild
import Testing

/// Async functions prepared with their prologue (`AsyncPrologue`), compiled against the SDK stand-in
/// and run with Swift concurrency: without the module the original body runs once (no recursion, which
/// a `@_dynamicReplacement` would have, AsyncRuntimeTests); with it, the module's value, thrown error
/// or transport failure reaches the caller; a module that refuses the arguments leaves the original;
/// a class's method gets back what the module's task changed of the object.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct AsyncRoutingRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeAsync")

    @Test func preparedAsyncFunctionsRouteToTheModuleOrRunTheirBody() throws {
        let sources = try ["Quotes.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["patch_start__pf_Quotes_fetch__id", "patch_start__pf_Shelf_total__of", "patch_start__pf_Store_load__extra"])
        let result = try SDKStandIn.compileAndRun(SDKStandIn.prepared(sources, by: plan))
        #expect(result.status == 0)
        #expect(result.output == """
            native: native 1 5 after 2 entries
            module: module 1 50 after 2 entries
            thrown: QuoteError thrown by the patch: "offline"
            urlError: true
            refused: native 3 after 3 entries
            store native: 1 items [4] loads 1
            store module: 7 items [4, 9] loads 1
            calls: patch_start__pf_Quotes_fetch__id {"id":1}; patch_start__pf_Shelf_total__of {"extra":3,"self":{"base":2}}; patch_start__pf_Quotes_fetch__id {"id":2}; patch_start__pf_Quotes_fetch__id {"id":2}; patch_start__pf_Quotes_fetch__id {"id":3}; patch_start__pf_Store_load__extra {"extra":9,"self":{"items":[4],"loads":1}}

            """, "\(result.output)")
    }

    /// Shapes of real apps' async methods (enchanted's stores and services), prepared, typecheck in
    /// Swift 6 mode against the stand-in: a main-actor class, a method isolated to the main actor in
    /// a plain class, a private method of a view-like struct, a single-expression body.
    @Test func preparedAsyncMethodsOfRealShapesTypecheckInSwift6() throws {
        let source = """
            import Foundation

            @MainActor
            final class LanguageModelStore {
                var models: [String] = []
                var error: String?

                func loadModels() async throws {
                    models = try await OllamaService.shared.getModels()
                }
            }

            final class OllamaService: @unchecked Sendable {
                static let shared = OllamaService()
                var base = "http://localhost"

                func getModels() async throws -> [String] { [base] }

                @MainActor
                func reachable() async -> Bool { !base.isEmpty }
            }

            struct RecordingView {
                var isRecording = false

                private func toggleTranscribing() async {
                    _ = isRecording
                }
            }

            """
        let project = PreparedProject(source, routing: .all)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.plan.functions.count == 4, "\(project.plan.functions.map(\.key))")
        var files: [String: String] = [:]
        for (path, text) in project.files where path.hasPrefix("Sources/App/") { files[(path as NSString).lastPathComponent] = text }
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }
}
