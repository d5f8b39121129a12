import Foundation
@testable import PatchBuild
import Testing

/// Helpers of SwiftUI views (structs with `@Environment`, `@Binding`, `@State`, `@ObservedObject`),
/// prepared, compiled against the SDK stand-in and run: a method or getter that only reads `self`
/// sends a copy of the stored properties that travel, each wrapper's wrapped value as `self.x` reads
/// it; the object and the closure are left out. Mutating methods, initializers and setters still need
/// the whole value, and keep their reason (docs/prepare.md "Views' helpers").
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct WrappedReceiverRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeViewHelpers")

    @Test func viewHelpersSendACopyOfTheWrappedValues() throws {
        let sources = try ["Today.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_SubscriptionOption_savingsText__get", "_pf_TodaySection_dayNumber__", "_pf_TodaySection_label__get",
                                                 "_pf_TodaySection_modelName__", "_pf_TodaySection_savings__percent", "_pf_TodaySection_switchOff__"])
        let files = SDKStandIn.prepared(sources, by: plan)
        // `currentDate` and `count` are private: the thunks sit in Today.swift, and read the wrapped values.
        let today = String(decoding: files["Sources/App/Today.swift"] ?? [], as: UTF8.self)
        #expect(today.contains("__PatchSelf(currentDate: self.currentDate, isOn: self.isOn, count: self.count, title: self.title)"), "\(today)")
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0, "\(result.output)")
        // The module's results are used; `switchOff`'s write to the copy does not come back (the
        // module never builds such a body, `build` refuses it), so `isOn` stays on. calls.txt is what
        // WrappedReceiverBuildCLITests runs the built module on.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: Today day 3 | 3 | 20% | turnips | save 20% | on: false
            module: module label | 40 | module savings | turnips | module option | on: true
            calls:

            """ + calls)
    }

    @Test func onlyMethodsThatReadSelfReceiveACopy() {
        let project = PreparedProject("""
            import SwiftUI

            struct Toggle: View {
                @Binding var isOn: Bool
                @ObservedObject var model: Model
                var count = 0
                var body: some View { Text("") }
                // @patchable
                mutating func reset() { count = 0 }
                // @patchable
                var doubled: Int {
                    get { count * 2 }
                    set { count = newValue / 2 }
                }
                // @patchable
                init(count: Int) {
                    self.count = count
                }
                // @patchable
                func label() -> String { isOn ? "on" : "off" }
            }
            final class Model: ObservableObject {}

            """, routing: .marked)
        let skipped = project.plan.skipped.map { "\($0.declaration): \($0.reason)" }.sorted()
        // The whole value is what comes back from these; the first property that keeps it from
        // travelling is named.
        let whole = "the receiver (`self`) cannot travel to the module: `Toggle` (Sources/App/View.swift:3): stored property `isOn` has the attribute `@Binding` (a property wrapper's storage is not the declared value) (line 4)"
        #expect(skipped == ["Toggle.doubled: " + whole, "Toggle.init(count:): " + whole, "Toggle.reset(): " + whole], "\(skipped)")
        #expect(project.plan.functions.map(\.export) == ["_pf_Toggle_label__"])
        // The object is left out; the Binding's wrapped value travels.
        #expect(project.routingThunks.contains("struct __PatchSelf: Encodable { let isOn: Bool; let count: Int }"), "\(project.routingThunks)")
    }
}
