import Foundation
@testable import PatchBuild
import Testing

/// Instance methods of a struct and an enum, prepared, compiled against the SDK stand-in and run:
/// the thunks send `self` as the guest reads it and write a mutating method's new `self` back.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct InstanceMethodRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeMethods")

    @Test func methodsSendSelfAndMutatingMethodsTakeTheModulesNewSelf() throws {
        let sources = try ["Cart.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .marked, existingFile: { _ in nil })
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(plan.functions.map(\.export) == ["_pf_Cart_add__item", "_pf_Cart_clear__", "_pf_Cart_itemCount__get", "_pf_Cart_total__", "_pf_Endpoint_init__name", "_pf_Size_label__prefix", "_pf_Size_toggle__"])
        let files = SDKStandIn.prepared(sources, by: plan)
        // `Cart.note` is private: the thunks are appended to Cart.swift, the routing file has the enum's.
        let cart = String(decoding: files["Sources/App/Cart.swift"] ?? [], as: UTF8.self)
        #expect(cart.contains("@_dynamicReplacement(for: add(item:))\n    mutating func __patch_add(item: Item) -> Int {"), "\(cart)")
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        // The module's results are used; a mutating method's and an initializer's `var`s take the
        // module's values, the `let`s (`currency`, `name`) keep their own.
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: 300 1 2 ["tea", "cake"] -0 EUR  | [] -0 EUR cleared | size:large large | https://example.com/cart 3 cart
            module: 999 42 7 ["jam"] -5 EUR added | ["kept"] -0 EUR module | module label small | https://patched.example/cart 5 cart
            calls:

            """ + calls)
    }

    /// Failable initializers of a struct and an enum, compiled against the stand-in and run: the
    /// module's value and its `null`, and the guest's `{"error": …}`, which leaves the original's value.
    @Test func failableInitializersTakeTheModulesValueOrNil() throws {
        let folder = Self.fixtures.deletingLastPathComponent().appendingPathComponent("RuntimeFailableInit")
        let sources = try ["Slug.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .all, existingFile: { _ in nil })
        #expect(plan.functions.map(\.export).filter { $0.contains("_init_") } == ["_pf_Slug_init__title", "_pf_Tier_init__code"], "\(plan.functions.map(\.export))")
        let result = try SDKStandIn.compileAndRun(SDKStandIn.prepared(sources, by: plan))
        #expect(result.status == 0)
        let calls = try String(contentsOf: folder.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: slug:Hello World/Hello World nil pro nil
            module: patched/Hello World nil nil nil
            refused: slug:Hello World/Hello World nil free nil
            calls:

            """ + calls)
    }
}
