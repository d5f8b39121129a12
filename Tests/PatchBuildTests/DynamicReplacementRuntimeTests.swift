import Foundation
@testable import PatchBuild
import Testing

/// The compiler that builds the prepared samples: $SWIFTC, else `swiftc` on PATH.
private let swiftc: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["SWIFTC"] { return explicit }
    let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    return directories.map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// A peer tool the test needs: under CI=true its absence fails the test instead of skipping it.
private let canRun = swiftc != nil || ProcessInfo.processInfo.environment["CI"] == "true"

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Runtime")

/// Compiles prepared sources against stand-ins for SwiftUI, PatchSDK and PatchSwiftUI and runs them:
/// on Linux, dynamic replacement and the generated routing are real, only the UI types are not.
@Suite(.serialized, .enabled(if: canRun, "swiftc not found on PATH (set SWIFTC)"))
struct DynamicReplacementRuntimeTests {
    private struct Outcome {
        var status: Int32
        var output: String
    }

    private func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Builds the stand-in modules into `directory` (Swift 5 mode: they only need to type-check callers).
    private func buildStandIns(in directory: URL, compiler: String) throws {
        for module in ["SwiftUI", "PatchSDK", "PatchSwiftUI"] {
            let result = try run(compiler, [
                "-swift-version", "5", "-parse-as-library", "-emit-library", "-static", "-emit-module",
                "-module-name", module, "-I", ".", fixtures.appendingPathComponent("\(module).swift").path, "-o", "lib\(module).a",
            ], in: directory)
            try #require(result.status == 0, "stand-in \(module) failed to build:\n\(result.output)")
        }
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patch-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func preparedViewsAndFunctionsRouteToTheModuleOrTheOriginal() throws {
        let compiler = try #require(swiftc, "CI=true requires swiftc")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try buildStandIns(in: directory, compiler: compiler)

        let sources = try ["Views.swift", "Pricing.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", patchableFunctions: [], existingFile: { _ in nil })
        #expect(plan.views.map(\.typeName) == ["Box", "Greeting", "Outer_Inner", "Secret"])
        #expect(plan.functions.map(\.export) == ["_pf_Pricing_total__cents_quantity", "_pf_greetingLine__for"])
        var files: [String: [UInt8]] = [:]
        for source in sources { files[source.path] = source.bytes }
        for update in plan.updates { files[update.path] = update.after }
        var paths: [String] = []
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let name = (path as NSString).lastPathComponent
            try Data(bytes).write(to: directory.appendingPathComponent(name))
            paths.append(name)
        }

        // Swift 6 language mode, as current apps build.
        let build = try run(compiler, ["-swift-version", "6", "-module-name", "App", "-I", ".", "-L", ".",
                                       "-lSwiftUI", "-lPatchSDK", "-lPatchSwiftUI"] + paths + ["-o", "app"], in: directory)
        try #require(build.status == 0, "prepared sources failed to compile:\n\(build.output)")
        let result = try run(directory.appendingPathComponent("app").path, [], in: directory)
        #expect(result.status == 0)
        #expect(result.output == """
            native: Hello, Ada | VStack(inner, second line) | box of 3 | secret | 500 | Welcome, Ada!
            module: module:Greeting | module:Outer_Inner | module:Box | module:Secret | 999 | Hi from the module
            calls: _pf_Pricing_total__cents_quantity {"cents":250,"quantity":2}; _pf_greetingLine__for {"name":"Ada"}

            """)
    }

    /// Why prepare renames `body` instead of emitting sdk-contract §5.1's replacement: a replacement
    /// of `body` whose fallback calls the original `body` has an opaque result type that contains
    /// itself, and the runtime recurses resolving it. If a toolchain ever runs this, revisit the shape.
    @Test func contractShapeFallbackCrashesOnThisToolchain() throws {
        let compiler = try #require(swiftc, "CI=true requires swiftc")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try buildStandIns(in: directory, compiler: compiler)
        let build = try run(compiler, ["-module-name", "Shape", "-I", ".", "-L", ".", "-lSwiftUI", "-lPatchSDK", "-lPatchSwiftUI",
                                       fixtures.appendingPathComponent("ContractShape.swift").path, "-o", "shape"], in: directory)
        try #require(build.status == 0, "the contract shape failed to compile:\n\(build.output)")
        let result = try run(directory.appendingPathComponent("shape").path, [], in: directory)
        #expect(result.status != 0, "the §5.1 shape ran; output: \(result.output)")
        #expect(!result.output.contains("native banner"))
    }
}
