import Foundation
import Testing

/// Helpers of SwiftUI views end to end: `init` routes methods and getters of views with
/// `@Environment`, `@Binding`, `@State` and `@ObservedObject` properties; changed bodies build into
/// the module against the copy of the view the thunk sends (its wrappers blanked, the object and the
/// closure left out), and `run` calls them with exactly the JSON the native thunks send
/// (Tests/PatchBuildTests/Fixtures/RuntimeViewHelpers/calls.txt, which WrappedReceiverRuntimeTests
/// checks). Bodies the copy cannot run stay native with their place and why.
@Suite(.serialized) struct WrappedReceiverBuildCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../PatchBuildTests/Fixtures/RuntimeViewHelpers").standardizedFileURL
    static let todayFile = "Sources/Shop/Today.swift"
    static let app = """
        import SwiftUI

        @main
        struct ShopApp: App {
            var body: some Scene {
                WindowGroup { Text("shop") }
            }
        }

        """

    static func initialized(in directory: URL) throws -> URL {
        let project = directory.appendingPathComponent("Shop")
        try ViewBuildCLITests.write(InstanceMethodBuildCLITests.manifest, to: "Package.swift", in: project)
        try ViewBuildCLITests.write(Self.app, to: "Sources/Shop/ShopApp.swift", in: project)
        try ViewBuildCLITests.write(String(contentsOf: Self.fixtures.appendingPathComponent("Today.swift"), encoding: .utf8),
                                    to: Self.todayFile, in: project)
        let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path, "--json"])
        #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
        return project
    }

    static func changes(of project: URL) throws -> [String: [String: Any]] {
        let build = try CLI.run(["build", "--project", project.path, "--json"])
        let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)\(build.stderr)")
        return Dictionary(uniqueKeysWithValues: changes.compactMap { change in (change["id"] as? String).map { ($0, change) } })
    }

    @Test func changedViewHelpersShipAndReadTheCopysWrappedValues() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "/ 86_400\n", with: "/ 86_400 + 1\n")
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "\"\\(percent * count)%\"", with: "\"\\(percent * count * 2)%\"")
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "\"save \\(percent)%\"", with: "\"save \\(percent + 5)%\"")
            let changes = try Self.changes(of: project)
            for id in ["Shop:TodaySection.dayNumber()", "Shop:TodaySection.savings(percent:Int)", "Shop:SubscriptionOption.savingsText"] {
                #expect(changes[id]?["status"] as? String == "patched", "\(id): \(changes[id] ?? [:])")
            }
            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8).split(separator: "\n")
            func run(_ export: String) throws -> String? {
                // The first call the native thunk made: the view as it was sent.
                let line = try #require(calls.first { $0.hasPrefix(export + " ") })
                let result = try CLI.run(["run", module, export, "--input", String(line.dropFirst(export.count + 1)), "--decode", "text", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                return result.result?["output"] as? String
            }
            // `currentDate` (an @Environment Date, day 3) and `isOn` (a @Binding) and `count` (@State) arrive as sent.
            #expect(try run("_pf_TodaySection_dayNumber__") == #"{"value":4}"#)
            #expect(try run("_pf_TodaySection_savings__percent") == #"{"value":"40%"}"#)
            #expect(try run("_pf_SubscriptionOption_savingsText__get") == #"{"value":"save 25%"}"#)
        }
    }

    @Test func bodiesTheCopyCannotRunStayNativeSayingWhy() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "        model.name\n", with: "        model.name + \"!\"\n")
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "        isOn = false\n", with: "        isOn = count > 5\n")
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "        isOn ? \"\\(percent * count)%\" : \"off\"\n",
                                       with: "        count += 1\n        return isOn ? \"\\(percent * count)%\" : \"off\"\n")
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "day \\(dayNumber())", with: "day \\(dayNumber()) \\($isOn.wrappedValue)")
            let changes = try Self.changes(of: project)
            let modelName = try #require(changes["Shop:TodaySection.modelName()"])
            #expect(modelName["status"] as? String == "native_only")
            #expect(modelName["reason"] as? String == "unsupported_language_feature")
            #expect((modelName["detail"] as? String)?.hasPrefix("touches `model` (Sources/Shop/Today.swift:21), a stored property of struct TodaySection that the copy the module receives leaves out (stored property `model` has the attribute `@ObservedObject`: it holds an object") == true, "\(modelName)")
            let switchOff = try #require(changes["Shop:TodaySection.switchOff()"])
            #expect(switchOff["status"] as? String == "native_only")
            #expect(switchOff["detail"] as? String == "writes `isOn`, the `@Binding` stored property `isOn` of TodaySection: the module runs on a copy of the view's values and does not write them back (only the result comes back), so the write would be lost", "\(switchOff)")
            #expect((switchOff["problem_location"] as? [String: Any])?["line"] as? Int == 53, "\(switchOff)")
            // A `@State` write is a nonmutating write to the app's storage too.
            #expect(changes["Shop:TodaySection.savings(percent:Int)"]?["detail"] as? String
                == "writes `count`, the `@State` stored property `count` of TodaySection: the module runs on a copy of the view's values and does not write them back (only the result comes back), so the write would be lost")
            #expect(changes["Shop:TodaySection.label"]?["detail"] as? String
                == "uses `$isOn`, the projected value of `@Binding` stored property `isOn` of TodaySection: the copy the module receives holds the wrapped value only")
        }
    }

    @Test func aHelperOfAViewTheModuleAlsoLowersStaysNative() throws {
        try withScratchDirectory { directory in
            let project = try Self.initialized(in: directory)
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "        Text(savingsText)\n", with: "        Text(savingsText + \"!\")\n")
            try ViewBuildCLITests.edit(project, Self.todayFile, replacing: "\"save \\(percent)%\"", with: "\"save \\(percent + 5)%\"")
            let changes = try Self.changes(of: project)
            #expect(changes["Shop:SubscriptionOption.body"]?["status"] as? String == "patched", "\(changes)")
            let helper = try #require(changes["Shop:SubscriptionOption.savingsText"])
            #expect(helper["status"] as? String == "native_only")
            #expect((helper["detail"] as? String)?.hasPrefix("the module also lowers the view `SubscriptionOption`") == true, "\(helper)")
        }
    }
}
