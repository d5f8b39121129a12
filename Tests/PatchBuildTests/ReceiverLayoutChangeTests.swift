import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// A changed instance member of a type whose stored properties changed natively cannot ship: its
/// shipped thunk sends `self` with the shipped layout, which the module (compiled from the new
/// declaration) could not decode (`ChangeDetector.demoteMembersOfChangedLayouts`).
@Suite struct ReceiverLayoutChangeTests {
    static let source = """
        struct Money: Codable {
            var cents: Int

            func formatted() -> String {
                "\\(cents) cents"
            }

            static func zero() -> Int {
                0
            }
        }

        """

    static func judge(_ edits: [(String, String)]) -> [String: DeclarationChange] {
        var edited = source
        for (old, new) in edits {
            if !edited.contains(old) { Issue.record("the fixture does not contain \(old)") }
            edited = edited.replacingOccurrences(of: old, with: new)
        }
        let shipped = PreparedProject(source).plan
        let current = PreparedProject(edited).plan
        var changes = ChangeDetector.compare(baseline: shipped.baseline, current: current,
                                             shippedExports: Set(shipped.functions.map(\.export)))
        ChangeDetector.demoteMembersOfChangedLayouts(&changes, current: current)
        return Dictionary(uniqueKeysWithValues: changes.map { ($0.id, $0) })
    }

    @Test func aMethodOfATypeWhoseLayoutChangedStaysNative() throws {
        let changes = Self.judge([
            ("var cents: Int\n", "var cents: Int\n    var currency: String\n"),
            ("\"\\(cents) cents\"", "\"\\(cents) \\(currency)\""),
            ("        0\n", "        1\n"),
        ])
        #expect(changes["App:Money"]?.reason == DeclarationChange.NativeReason.storedLayoutChanged)
        let method = try #require(changes["App:Money.formatted()"])
        #expect(method.status == .nativeOnly && method.reason == DeclarationChange.NativeReason.storedLayoutChanged, "\(method)")
        #expect(method.detail?.contains("sends `self` as the shipped build lays out `Money`, whose stored properties changed (Sources/App/View.swift:1)") == true, "\(method)")
        // A static member sends no `self`: it still ships.
        #expect(changes["App:Money.zero()"]?.status == .patched, "\(changes.keys.sorted())")
    }

    @Test func aMethodOfATypeWhoseLayoutDidNotChangeShips() {
        let changes = Self.judge([("\"\\(cents) cents\"", "\"\\(cents) ¢\"")])
        #expect(changes["App:Money.formatted()"]?.status == .patched)
        #expect(changes["App:Money"] == nil)
    }
}
