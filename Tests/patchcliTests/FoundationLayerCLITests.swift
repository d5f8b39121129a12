import Foundation
import Testing

/// The guest Foundation layer through the CLI (docs/guest-foundation.md): a package's
/// `// @patchable` function using DateFormatter and Calendar is changed, `build` ships it and `run`
/// answers as Foundation does; a changed function using Foundation the layer lacks stays native with
/// `os_framework_api` naming the symbol at its file:line.
@Suite struct FoundationLayerCLITests {
    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Agenda",
            targets: [.target(name: "AgendaCore")]
        )
        """

    static let source = """
        import Foundation

        public enum Agenda {
            // @patchable
            public static func label(for date: Date) -> String {
                let formatter = DateFormatter()
                formatter.dateFormat = "yyyy-MM-dd"
                formatter.timeZone = TimeZone(identifier: "UTC")
                return formatter.string(from: date)
            }

            // @patchable
            public static func months() -> [String] {
                ["Jan"]
            }
        }
        """

    @Test func aChangedFunctionUsingDateFormatterAndCalendarShipsAndAnswersAsFoundation() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Agenda")
            let file = project.appendingPathComponent("Sources/AgendaCore/Agenda.swift")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.manifest.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            try Self.source.write(to: file, atomically: true, encoding: .utf8)
            let initResult = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            try #require(initResult.status == 0, "\(initResult.stdout)\(initResult.stderr)")

            // The label gains the weekday and the next day; the months become the process's arguments, which the guest has not.
            var text = try String(contentsOf: file, encoding: .utf8)
            text = text.replacingOccurrences(of: """
                        return formatter.string(from: date)
                """, with: """
                        let calendar = Calendar.current
                        let next = calendar.date(byAdding: .day, value: 1, to: date)!
                        return formatter.string(from: date) + " weekday \\(calendar.component(.weekday, from: date)) then " + formatter.string(from: next)
                """)
            text = text.replacingOccurrences(of: #"["Jan"]"#, with: "ProcessInfo.processInfo.arguments")
            try text.write(to: file, atomically: true, encoding: .utf8)

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            let label = try #require(changes.first { ($0["id"] as? String)?.contains("label") == true }, "\(changes)")
            #expect(label["status"] as? String == "patched", "\(label)")
            let months = try #require(changes.first { ($0["id"] as? String)?.contains("months") == true }, "\(changes)")
            #expect(months["status"] as? String == "native_only")
            #expect(months["reason"] as? String == "os_framework_api")
            #expect((months["detail"] as? String)?.contains("uses ProcessInfo from Foundation") == true, "\(months)")
            #expect((months["location"] as? [String: Any])?["line"] as? Int == 15, "\(months)")

            // 2023-11-14T22:13:20Z, a Tuesday, as the thunk's JSONEncoder sends it (seconds since 2001).
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            let input = String(decoding: try JSONEncoder().encode(["date": date]), as: UTF8.self)
            let export = try #require((build.result?["exports"] as? [[String: Any]])?.first?["symbol"] as? String, "\(build.stdout)")
            let run = try CLI.run(["run", project.appendingPathComponent(".patch/build/module.wasm").path, export, "--input", input,
                                   "--decode", "text", "--json"])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            // Foundation's answer for `run`'s device (UTC, en_US_POSIX).
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            let expected = formatter.string(from: date) + " weekday \(calendar.component(.weekday, from: date)) then "
                + formatter.string(from: calendar.date(byAdding: .day, value: 1, to: date)!)
            #expect(run.result?["output"] as? String == #"{"value":"\#(expected)"}"#)
        }
    }
}
