import Foundation
import Testing

/// Through the CLI: two files each declare `private let logger` and `private func label`, used by a
/// changed function in each, and a changed Void function writes UserDefaults. `build` ships all three
/// (the guest program names each file's private globals apart: docs/guest-foundation.md
/// "Private names"); `run` answers with each file's own helper and shows the bridges each call used.
@Suite struct PrivateNamesVoidCLITests {
    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(name: "Birds", targets: [.target(name: "BirdsCore")])
        """

    static func bird(_ name: String) -> String {
        """
        import Foundation
        import os

        private let logger = Logger(subsystem: "birds", category: "\(name)")

        private func label(_ count: Int) -> String {
            "\(name) \\(count)"
        }

        public enum \(name.capitalized) {
            // @patchable
            public static func describe(count: Int) -> String {
                label(count)
            }
        }
        """
    }

    static let launches = """
        import Foundation

        public enum Launches {
            // @patchable
            public static func record(count: Int) {
                UserDefaults.standard.set(count, forKey: "launches")
            }
        }
        """

    @Test func privateGlobalsOfTwoFilesAndAVoidFunctionShipAndRun() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Birds")
            let sources = project.appendingPathComponent("Sources/BirdsCore")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try Self.manifest.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            for name in ["alpha", "beta"] {
                try Self.bird(name).write(to: sources.appendingPathComponent("\(name.capitalized).swift"), atomically: true, encoding: .utf8)
            }
            try Self.launches.write(to: sources.appendingPathComponent("Launches.swift"), atomically: true, encoding: .utf8)
            let initResult = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            try #require(initResult.status == 0, "\(initResult.stdout)\(initResult.stderr)")
            let prepared = try String(contentsOf: sources.appendingPathComponent("Launches.swift"), encoding: .utf8)
            #expect(prepared.contains("public static dynamic func record(count: Int)"), "the Void function is routed:\n\(prepared)")

            // Each changed function logs through its file's logger and doubles the count; the Void one
            // records one more launch.
            for name in ["alpha", "beta"] {
                let file = sources.appendingPathComponent("\(name.capitalized).swift")
                let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "        label(count)\n", with: """
                            logger.info("describing \\(count)")
                            return label(count * 2)

                    """)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            let launchesFile = sources.appendingPathComponent("Launches.swift")
            try String(contentsOf: launchesFile, encoding: .utf8).replacingOccurrences(of: "set(count, forKey", with: "set(count + 1, forKey")
                .write(to: launchesFile, atomically: true, encoding: .utf8)

            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.count == 3, "\(changes)")
            for change in changes { #expect(change["status"] as? String == "patched", "\(change)") }
            let symbols = Set((build.result?["exports"] as? [[String: Any]] ?? []).compactMap { $0["symbol"] as? String })
            #expect(symbols == ["_pf_Alpha_describe__count", "_pf_Beta_describe__count", "_pf_Launches_record__count"], "\(build.stdout)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            for (name, output) in [("Alpha", #"{"value":"alpha 6"}"#), ("Beta", #"{"value":"beta 6"}"#)] {
                let run = try CLI.run(["run", module, "_pf_\(name)_describe__count", "--input", #"{"count":3}"#, "--decode", "text", "--json"])
                #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
                #expect(run.result?["output"] as? String == output, "\(run.stdout)")
                #expect(run.result?["bridge_calls"] as? [String] == ["patch.log(info, describing 3)"], "\(run.stdout)")
            }
            // The Void function answers `{}`; what it did is the bridge call.
            let record = try CLI.run(["run", module, "_pf_Launches_record__count", "--input", #"{"count":3}"#, "--decode", "text", "--json"])
            #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
            #expect(record.result?["output"] as? String == "{}", "\(record.stdout)")
            #expect(record.result?["bridge_calls"] as? [String] == ["patch_host.defaults_set_int(launches, 4)"], "\(record.stdout)")
        }
    }
}
