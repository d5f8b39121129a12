@testable import PatchBuild
import Testing

/// In a function export's code, no name means a member of an extension of a framework type the guest
/// lacks, and `Swift.min` is the standard library's: Backyard Birds' `min(max(value, 0), 1)`,
/// `Swift.min(…)` and `+` in its color and interpolation code pulled in `extension CGRect { var min }`,
/// `extension CGPoint { static func + }` and, with them, CoreGraphics, so every method of `Bird`
/// (whose palette that code belongs to) stayed native.
struct GuestForeignExtensionScopeTests {
    static let index = GuestSourceIndex(sources: [
        ("UI/CoreGraphics+Math.swift", """
            import CoreGraphics

            extension CGRect {
                var min: CGPoint { CGPoint(x: minX, y: minY) }
            }

            extension CGPoint {
                static func + (lhs: CGPoint, rhs: CGPoint) -> CGPoint { CGPoint(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
            }
            """),
        ("Data/Clamp.swift", """
            extension Double {
                func clamped() -> Double { min(max(self, 0), 1) }
                func unit() -> Double { clamped() }
            }

            struct Level: Codable {
                var value: Double
                func clamped() -> Double { min(max(value, 0), 1) }
                func scaled() -> Double { value.unit() }
                func bounded() -> Double { Swift.min(Swift.max(value, 0), 1) }
                func label() -> String { "level " + String(Int(value)) }
            }
            """),
    ])

    /// Nor does an operator or member name mean one of a framework type the guest does not have
    /// (Backyard Birds' `extension CGPoint { static func + }`, reached by any `+`).
    @Test(arguments: ["Level.clamped()", "Level.bounded()", "Level.label()"])
    func aBareOrSwiftQualifiedNameDoesNotMeanAnotherTypesExtensionMember(_ id: String) throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try #require(GuestExportName(declarationID: id))])
        #expect(program.unpatchable.isEmpty, "\(program.unpatchable)")
        #expect(!program.source.contains("var min: CGPoint") && !program.source.contains("CGPoint(x: lhs.x"), "\(program.source)")
    }

    /// Within an extension of a type, a bare name still finds that type's members in its other extensions.
    @Test func withinAnExtensionABareNameFindsTheSameTypesMembers() throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try #require(GuestExportName(declarationID: "Level.scaled()"))])
        #expect(program.unpatchable.isEmpty, "\(program.unpatchable)")
        #expect(program.source.contains("func unit() -> Double { clamped() }") && program.source.contains("func clamped() -> Double { min(max(self, 0), 1) }"), "\(program.source)")
        #expect(!program.source.contains("var min: CGPoint"), "\(program.source)")
    }
}
