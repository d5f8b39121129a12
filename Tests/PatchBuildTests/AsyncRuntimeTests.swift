import Foundation
@testable import PatchBuild
import Testing

/// Why `prepare` routes async functions by a prologue in their body rather than by a replacement
/// (docs/async.md "The app side", `AsyncPrologue`): on this toolchain a `@_dynamicReplacement` of an
/// async function that calls the original re-enters the replacement, so a thunk could not fall back to
/// the app's own code when the active module lacks the function.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct AsyncRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Async")

    @Test func anAsyncReplacementCannotCallTheOriginalOnThisToolchain() throws {
        let compiler = try #require(SDKStandIn.compiler, "CI=true requires swiftc")
        let directory = try SDKStandIn.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let build = try SDKStandIn.run(compiler, ["-swift-version", "6", "-parse-as-library", "-module-name", "Replacement",
                                                  Self.fixtures.appendingPathComponent("AsyncReplacement.swift").path, "-o", "replacement"], in: directory)
        try #require(build.status == 0, "the fixture failed to compile:\n\(build.output)")
        let result = try SDKStandIn.run(directory.appendingPathComponent("replacement").path, [], in: directory)
        #expect(result.status == 0)
        #expect(result.output == "async: -1 after 4 entries\nsync: 4 after 1 entries\n", "\(result.output)")
    }
}
