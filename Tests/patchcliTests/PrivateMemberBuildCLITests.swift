import Foundation
import Testing

/// Through the CLI: `init` prepares a struct with `private` members (widened to `fileprivate`), the
/// prepared tree passes `prepare --check`, the user edits a private method, `build` ships it (judging
/// the user's edit only) and `run` calls it (docs/prepare.md "Private members").
@Suite struct PrivateMemberBuildCLITests {
    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(name: "Shop", targets: [.target(name: "ShopCore")])
        """

    static let basket = """
        public struct Basket {
            var cents: Int
            var count: Int

            public func price() -> Int {
                discounted(percent: 10)
            }

            private func discounted(percent: Int) -> Int {
                cents * count * (100 - percent) / 100
            }
        }
        """

    static let tally = """
        public final class Tally {
            var count = 0

            public init() {}

            public func record(_ step: Int) -> Int { bump(by: step) }

            private func bump(by step: Int) -> Int {
                count += step
                return count
            }
        }
        """

    /// A class's private method: the guest's copy of the class widens it too, so its glue can call it.
    @Test func anEditedPrivateMethodOfAClassShipsWithTheObjectsNewState() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            let sources = project.appendingPathComponent("Sources/ShopCore")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try Self.manifest.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let file = sources.appendingPathComponent("Tally.swift")
            try Self.tally.write(to: file, atomically: true, encoding: .utf8)
            let initResult = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            try #require(initResult.status == 0, "\(initResult.stdout)\(initResult.stderr)")
            let prepared = try String(contentsOf: file, encoding: .utf8)
            #expect(prepared.contains("    fileprivate dynamic func bump(by step: Int) -> Int {"), "\(prepared)")
            try prepared.replacingOccurrences(of: "count += step\n", with: "count += step * 3\n").write(to: file, atomically: true, encoding: .utf8)

            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.map { $0["status"] as? String } == ["patched"], "\(changes)")
            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let run = try CLI.run(["run", module, "_pf_Tally_bump__by", "--input", #"{"step":2,"self":{"count":1}}"#, "--decode", "text", "--json"])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.result?["output"] as? String == #"{"value":7,"self":{"count":7}}"#, "\(run.stdout)")
        }
    }

    @Test func anEditedPrivateMethodShipsAndRuns() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Shop")
            let sources = project.appendingPathComponent("Sources/ShopCore")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try Self.manifest.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let file = sources.appendingPathComponent("Basket.swift")
            try Self.basket.write(to: file, atomically: true, encoding: .utf8)
            let initResult = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            try #require(initResult.status == 0, "\(initResult.stdout)\(initResult.stderr)")
            let prepared = try String(contentsOf: file, encoding: .utf8)
            #expect(prepared.contains("    fileprivate dynamic func discounted(percent: Int) -> Int {"), "\(prepared)")
            // The widened file is what prepare makes of it: its baseline and routing are up to date.
            let check = try CLI.run(["prepare", "--project", project.path, "--check"])
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

            try prepared.replacingOccurrences(of: "(100 - percent) / 100", with: "(100 - percent - 5) / 100")
                .write(to: file, atomically: true, encoding: .utf8)
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.map { $0["id"] as? String } == ["ShopCore:Basket.discounted(percent:Int)"], "\(changes)")
            #expect(changes.first?["status"] as? String == "patched", "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let run = try CLI.run(["run", module, "_pf_Basket_discounted__percent", "--input", #"{"percent":10,"self":{"cents":200,"count":3}}"#,
                                   "--decode", "text", "--json"])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.result?["output"] as? String == #"{"value":510}"#, "\(run.stdout)")

            // As `audit --history` applies a commit: the file as committed (`private`, no `dynamic`)
            // with the generated section put back. The member is still routed by the shipped thunk.
            let section = try #require(prepared.range(of: "\n// patchcli:begin generated").map { String(prepared[$0.lowerBound...]) })
            try (Self.basket.replacingOccurrences(of: "(100 - percent) / 100", with: "(100 - percent - 5) / 100") + section)
                .write(to: file, atomically: true, encoding: .utf8)
            let replayed = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
            let replayedChanges = try #require(replayed.result?["changes"] as? [[String: Any]], "\(replayed.stdout)")
            #expect(replayedChanges.map { $0["status"] as? String } == ["patched"], "\(replayedChanges)")

        }
    }
}
