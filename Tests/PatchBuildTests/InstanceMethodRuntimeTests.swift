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
}
