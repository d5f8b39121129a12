import Foundation
import Testing

/// Values that are not Codable end to end: `init` routes functions taking and returning project structs
/// and enums that do not declare Codable, changed bodies build into the module, and `run` calls them
/// with exactly the JSON the native thunks send (Tests/PatchBuildTests/Fixtures/RuntimeValues/calls.txt,
/// which ValueMirrorRuntimeTests checks the compiled thunks send): the guest's codecs read the value
/// mirrors' JSON and write what the mirrors decode.
@Suite(.serialized) struct ValueMirrorBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeValues").standardizedFileURL
    static let modelsFile = "Sources/Trips/Models.swift"
    static let app = """
        import SwiftUI

        @main
        struct TripsApp: App {
            var body: some Scene {
                WindowGroup { Text(label(for: .today)) }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Trips",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Trips")]
        )

        """

    /// The argument JSON the native thunk sends for `export`, as recorded in calls.txt.
    static func nativeCall(_ export: String) throws -> String {
        let calls = try String(contentsOf: fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        let line = try #require(calls.split(separator: "\n").first { $0.hasPrefix(export + " ") })
        return String(line.dropFirst(export.count + 1))
    }

    @Test func changedFunctionsOfNonCodableValuesShipAndRunOnTheThunksJSON() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Trips")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Trips/TripsApp.swift", in: project)
            try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Models.swift"), encoding: .utf8),
                                        to: Self.modelsFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let prepared = try String(contentsOf: project.appendingPathComponent(Self.modelsFile), encoding: .utf8)
            #expect(prepared.contains("dynamic func shifted(_ route: Route, by dx: Int) -> Route {"), "\(prepared)")

            try ViewBuildCLITests.edit(project, Self.modelsFile, replacing: #"case .month: "native month""#, with: #"case .month: "patched month""#)
            try ViewBuildCLITests.edit(project, Self.modelsFile, replacing: "days > 3", with: "days > 10")
            try ViewBuildCLITests.edit(project, Self.modelsFile, replacing: "        case .today: .week\n", with: "        case .today: .month\n")
            try ViewBuildCLITests.edit(project, Self.modelsFile, replacing: "Point(x: $0.x + dx, y: $0.y)", with: "Point(x: $0.x + dx * 2, y: $0.y)")
            try ViewBuildCLITests.edit(project, Self.modelsFile, replacing: "        legs += 1\n", with: "        legs += 2\n")
            try ViewBuildCLITests.edit(project, Self.modelsFile, replacing: ".rect(width * 2, height: height * 2)", with: ".rect(width * 3, height: height)")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.compactMap { $0["id"] as? String } == [
                "Trips:Timeframe.next()", "Trips:Trip.extend(to:Point)", "Trips:grown(_:Shape)", "Trips:label(for:Timeframe)",
                "Trips:shifted(_:Route,by:Int)", "Trips:status(after:Int)",
            ])
            #expect(changes.allSatisfy { $0["status"] as? String == "patched" }, "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            // Each result in the shape the thunk's value mirrors decode (ValueMirrorRuntimeTests feeds them the same shapes).
            let expected = [
                "_pf_label__for": #"{"value":"patched month"}"#,
                "_pf_status__after": #"{"value":"here"}"#,
                "_pf_Timeframe_next__": #"{"value":{"month":{}}}"#,
                "_pf_shifted____by": #"{"value":{"name":"loop","stops":[{"x":21,"y":2}],"timeframe":{"week":{}},"byName":{"home":{"x":0,"y":0}},"version":1}}"#,
                "_pf_Trip_extend__to": #"{"value":3,"self":{"route":{"name":"loop","stops":[{"x":1,"y":2},{"x":5,"y":6}],"timeframe":{"week":{}},"byName":{"home":{"x":0,"y":0}},"version":1},"legs":3}}"#,
                "_pf_grown___": #"{"value":{"rect":{"_0":3,"height":2}}}"#,
            ]
            for (export, output) in expected.sorted(by: { $0.key < $1.key }) {
                let run = try CLI.run(["run", module, export, "--input", Self.nativeCall(export), "--decode", "text", "--json"])
                #expect(run.status == 0, "\(export): \(run.stdout)\(run.stderr)")
                #expect(run.result?["output"] as? String == output, "\(export)")
            }
        }
    }
}
