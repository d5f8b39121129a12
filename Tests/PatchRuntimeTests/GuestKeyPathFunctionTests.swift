import Foundation
import PatchBuild
@testable import PatchRuntime
import Testing

/// Key paths standing for functions (`items.map(\.name)`, SE-0249), written as closures in the guest
/// program (GuestKeyPathRewriteTests), built into a module and run against the same code natively.
struct GuestKeyPathFunctionTests {
    /// Real code's forms (Backyard Birds' `birdFood.filter(\.isPremium)`, Swiftfin's
    /// `filter(\.isText).compactMap(\.utType)`, `first(where: \.isNotEmpty)`), built into a module
    /// and run, against the same code natively.
    static let source = """
        struct Food: Codable {
            var name: String
            var isPremium: Bool
            var tags: [String]
            var supplier: Supplier?
            var isTagged: Bool { !tags.isEmpty }
        }

        struct Supplier: Codable {
            var name: String
        }

        func premiumNames(_ foods: [Food]) -> [String] {
            foods.filter(\\.isPremium).map(\\.name)
        }

        func suppliers(_ foods: [Food]) -> [String] {
            foods.compactMap(\\Food.supplier?.name) + foods.flatMap(\\.tags)
        }

        func firstTagged(_ foods: [Food]) -> String {
            (foods.first(where: \\.isTagged)?.name ?? "none") + " \\(foods.contains(where: \\.isPremium)) \\(foods.allSatisfy(\\.isTagged))"
        }

        """

    struct Food: Codable {
        var name: String
        var isPremium: Bool
        var tags: [String]
        var supplier: Supplier?
        var isTagged: Bool { !tags.isEmpty }
    }

    struct Supplier: Codable {
        var name: String
    }

    @Test(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
    func keyPathFunctionsRunInTheGuestAsNatively() throws {
        let (module, symbols) = try GuestFoundationTests.build(["Foods.swift": Self.source], exports: ["premiumNames(_:)", "suppliers(_:)", "firstTagged(_:)"])
        let guest = try session(module, testOptions(fuel: nil))
        struct Arguments: Encodable { var foods: [Food] }
        let foods = [Food(name: "seeds", isPremium: false, tags: [], supplier: Supplier(name: "Acme")),
                     Food(name: "nectar", isPremium: true, tags: ["sweet", "liquid"], supplier: nil),
                     Food(name: "suet", isPremium: true, tags: ["fat"], supplier: Supplier(name: "Birdy"))]
        for list in [foods, [], [foods[0]]] {
            let arguments = Arguments(foods: list)
            #expect(try GuestFoundationTests.value(guest, symbols, "premiumNames(_:)", arguments, as: [String].self) == list.filter(\.isPremium).map(\.name))
            #expect(try GuestFoundationTests.value(guest, symbols, "suppliers(_:)", arguments, as: [String].self)
                    == list.compactMap(\Food.supplier?.name) + list.flatMap(\.tags))
            #expect(try GuestFoundationTests.value(guest, symbols, "firstTagged(_:)", arguments, as: String.self)
                    == (list.first(where: \.isTagged)?.name ?? "none") + " \(list.contains(where: \.isPremium)) \(list.allSatisfy(\.isTagged))")
        }
    }
}
