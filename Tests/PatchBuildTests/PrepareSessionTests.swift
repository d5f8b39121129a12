import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import Testing

/// `prepare` on a project folder: the files it writes, `--revert`, and edits made in between.
@Suite struct PrepareSessionTests {
    private let viewSource = """
        import SwiftUI

        struct Home: View {
            var body: some View {
                Text("home")   // greeting
            }
        }

        private struct Badge: View { var body: some View { Text("b") } }
        """
    private let logicSource = "enum Tax {\n    // @patchable\n    static func rate(for region: String) -> Int { 20 }\n}"

    private func makeProject() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prepare-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/Sources/App", withIntermediateDirectories: true)
        try Data(viewSource.utf8).write(to: URL(fileURLWithPath: root + "/Sources/App/Home.swift"))
        try Data(logicSource.utf8).write(to: URL(fileURLWithPath: root + "/Sources/App/Tax.swift"))
        let config = ProjectConfig(
            appKey: "app", appID: nil, apiBaseURL: "https://example.invalid", channel: "production",
            project: .init(kind: .swiftPackage, path: "Package.swift"),
            targets: [.init(name: "App", sourceRoots: ["Sources/App"])], appTarget: "App",
            include: ["**/*.swift"], exclude: [], patchableFunctions: [],
            signing: .init(keyDirectory: "/nonexistent", publicKeyFile: "Sources/App/Key.swift"))
        try Data(config.encoded()).write(to: URL(fileURLWithPath: root + "/patch.json"))
        return root
    }

    @Test func prepareWritesSourcesGeneratedFilesBaselineAndState() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let session = try PrepareSession.run(root: root)
        #expect(Set(session.updates.map(\.path)) == [
            "Sources/App/Home.swift", "Sources/App/Tax.swift", "Sources/App/Patch/PatchThunks-Sources_App.generated.swift",
            "Sources/App/Patch/PatchFingerprint.generated.swift", ".patch/baseline.json",
        ])
        try apply(session.updatesInWriteOrder, root: root)
        for path in ["Sources/App/Home.swift", "Sources/App/Tax.swift", "Sources/App/Patch/PatchThunks-Sources_App.generated.swift",
                     "Sources/App/Patch/PatchFingerprint.generated.swift"] {
            assertParses(read(root, path) ?? "", path)
        }
        #expect(read(root, ".patch/originals/Sources/App/Home.swift") == viewSource)
        let baseline = try Baseline(json: JSONDecoder().decode(JSONValue.self, from: Data((read(root, ".patch/baseline.json") ?? "").utf8)))
        #expect(BuildFingerprint.compute(baseline: baseline) == session.plan.fingerprint)
        #expect(read(root, "Sources/App/Patch/PatchFingerprint.generated.swift")?.contains(session.plan.fingerprint) == true)

        let again = try PrepareSession.run(root: root)
        #expect(again.updates.isEmpty)
        // The re-run takes every scan from .patch/cache: nothing is parsed.
        #expect(session.plan.filesParsed == 2)
        #expect(again.plan.filesParsed == 0)
        #expect(again.plan.baseline == session.plan.baseline)
        #expect(again.plan.views == session.plan.views)
    }

    /// Files parse on several cores at once: the wall-clock parse time counts overlapping parses
    /// once, the CPU time counts each.
    @Test func parseWallClockTimeIsTheUnionOfTheParses() {
        let start = ContinuousClock.now
        func interval(_ from: Int, _ to: Int) -> Range<ContinuousClock.Instant> {
            start.advanced(by: .milliseconds(from))..<start.advanced(by: .milliseconds(to))
        }
        // Two cores: [0, 10) and [5, 15) overlap, [12, 14) lies inside the second, [20, 25) is alone.
        #expect(ParseTime.wallClock([interval(20, 25), interval(5, 15), interval(0, 10), interval(12, 14)]) == .milliseconds(20))
        #expect(ParseTime.wallClock([interval(0, 10), interval(10, 20)]) == .milliseconds(20))
        #expect(ParseTime.wallClock([Range<ContinuousClock.Instant>]()) == .zero)

        let root = (try? makeProject()) ?? ""
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard let plan = try? PrepareSession.run(root: root).plan else {
            Issue.record("prepare failed")
            return
        }
        #expect(plan.filesParsed == 2)
        #expect(plan.parseSeconds > 0)
        #expect(plan.parseSeconds <= plan.parseCPUSeconds)
    }

    /// The state file is written as a JSON tree with the Codable key names and read with
    /// JSONDecoder: every field must survive, and the same state must give the same bytes.
    @Test func stateFileRoundTrips() throws {
        var state = PrepareState()
        state.files["Sources/App/Home.swift"] = .init(
            preparedSHA256: String(repeating: "ab", count: 32),
            insertions: PreparedInsertions(viewBuilderOwners: ["Home", "Home.Row"], mainActorOwners: ["Home"], dynamicFunctions: ["Tax.rate(of:)"]))
        state.files["Sources/App/\"Odd\" name.swift"] = .init(preparedSHA256: "00", insertions: PreparedInsertions())
        state.generatedFiles = ["Sources/App/Patch/PatchFingerprint.generated.swift", "Sources/App/Patch/PatchThunks-Sources_App.generated.swift"]
        let bytes = state.encoded()
        #expect(try PrepareState.decode(bytes, path: PrepareState.path) == state)
        #expect(state.encoded() == bytes)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(throws: ProjectError.self) { try PrepareState.decode(Array("{\"files\":[]}".utf8), path: PrepareState.path) }
    }

    @Test func revertRestoresOriginalBytesExactly() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let session = try PrepareSession.run(root: root)
        try apply(session.updatesInWriteOrder, root: root)
        try apply(try PrepareSession.revert(root: root).updates, root: root)
        #expect(read(root, "Sources/App/Home.swift") == viewSource)
        #expect(read(root, "Sources/App/Tax.swift") == logicSource)
        #expect(read(root, "Sources/App/Patch/PatchThunks-Sources_App.generated.swift") == nil)
        #expect(read(root, "Sources/App/Patch/PatchFingerprint.generated.swift") == nil)
        #expect(read(root, PrepareState.path) == nil)
        #expect(read(root, ".patch/originals/Sources/App/Home.swift") == nil)
    }

    @Test func revertKeepsEditsMadeAfterPrepare() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let session = try PrepareSession.run(root: root)
        try apply(session.updatesInWriteOrder, root: root)
        // The user edits the prepared file (a new line in the view), without running prepare again.
        let prepared = read(root, "Sources/App/Home.swift") ?? ""
        let edited = prepared.replacingOccurrences(of: "Text(\"home\")", with: "Text(\"home\")\n        Text(\"new\")")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: root + "/Sources/App/Home.swift"))
        try apply(try PrepareSession.revert(root: root).updates, root: root)
        #expect(read(root, "Sources/App/Home.swift") == viewSource.replacingOccurrences(of: "Text(\"home\")", with: "Text(\"home\")\n        Text(\"new\")"))
        #expect(read(root, "Sources/App/Tax.swift") == logicSource)
    }

    @Test func editsBetweenPrepareRunsStillRevertToTheUsersText() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try apply({ let s = try PrepareSession.run(root: root); return s.updatesInWriteOrder }(), root: root)
        let prepared = read(root, "Sources/App/Tax.swift") ?? ""
        try Data(prepared.replacingOccurrences(of: "{ 20 }", with: "{ 21 }").utf8).write(to: URL(fileURLWithPath: root + "/Sources/App/Tax.swift"))
        try apply({ let s = try PrepareSession.run(root: root); return s.updatesInWriteOrder }(), root: root)
        try apply(try PrepareSession.revert(root: root).updates, root: root)
        #expect(read(root, "Sources/App/Tax.swift") == logicSource.replacingOccurrences(of: "{ 20 }", with: "{ 21 }"))
        #expect(read(root, "Sources/App/Home.swift") == viewSource)
    }

    @Test func missingConfigIsReported() {
        #expect(throws: ProjectError.self) { try PrepareSession.run(root: "/nonexistent-\(UUID().uuidString)") }
    }
}
