import Foundation
@testable import PatchBuild
import Testing

/// `Type.ID` of an `Identifiable` struct that declares no `ID` itself is the type of its stored `id`
/// (Swift infers the associated type from it): prepare checks that type for Codable, as the guest
/// glue resolves it (`GuestExportPlan.memberAlias`), instead of refusing a type it cannot see.
struct IdentifiableIDRoutingTests {
    @Test func anIdentifiableStructsIDIsTheTypeOfItsID() {
        let project = PreparedProject("""
            struct Donut: Identifiable, Hashable {
                var id: Int
                var name: String
            }
            struct City {
                var id: String
            }
            struct Spot: Identifiable {
                var name: String
                var id: String { name }
            }
            struct Order {
                var sales: [Donut.ID: Int]

                func units(of donut: Donut.ID) -> Int { sales[donut] ?? 0 }
                func inCity(_ city: City.ID) -> Bool { true }
                func at(_ spot: Spot.ID) -> Bool { true }
            }
            extension Donut {
                static func named(_ id: Self.ID) -> String { "\\(id)" }
            }

            """)
        #expect(project.plan.functions.map(\.export) == ["_pf_Donut_named___", "_pf_Order_at___", "_pf_Order_units__of", "_pf_Spot_id__get"], "\(project.plan.functions.map(\.export))")
        #expect(project.routingThunks.contains("        struct __PatchSelf: Encodable { let sales: [Donut.ID: Int] }\n"), "\(project.routingThunks)")
        // City is not Identifiable: `City.ID` names nothing prepare can check.
        let skip = project.plan.skipped.map { "\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skip == ["16 Order.inCity(_:): parameter type `City.ID`: `City.ID` is neither declared in the prepared targets nor a standard Codable type, so prepare cannot tell that the thunk compiles"], "\(skip)")
    }

    @Test func anIDWhoseTypeIsNotCodableSaysSo() {
        let project = PreparedProject("""
            struct Shape {}
            struct Tile: Identifiable {
                let id: Shape
            }
            func place(_ tile: Tile.ID) -> Int { 1 }

            """)
        let skip = project.plan.skipped.map { "\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skip.contains("5 place(_:): parameter type `Tile.ID`: `Tile.ID` is the type of `Tile.id`: `Shape` is not Encodable; declare `Shape: Codable` (in the type or an extension) or patch a function that takes and returns Codable values"), "\(skip)")
    }
}

/// The thunk of a method whose receiver and parameter use `Flavor.ID`, compiled against the SDK
/// stand-in and run: unpatched it answers natively, patched the module's value.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct IdentifiableIDRuntimeTests {
    @Test func aMethodTakingAnIDRoutesAndRuns() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeIdentifiableIDs")
        let sources = try ["Tally.swift", "main.swift"].map { name in
            SourceFile(path: "Sources/App/\(name)", bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: sources)],
                                 appTarget: "App", routing: .all, existingFile: { _ in nil })
        #expect(plan.functions.map(\.export).contains("_pf_Tally_count__of"), "\(plan.skipped)")
        let result = try SDKStandIn.compileAndRun(SDKStandIn.prepared(sources, by: plan))
        #expect(result.status == 0)
        #expect(result.output == """
            native: 3 0
            module: 42 42
            calls:
            _pf_Tally_count__of {"flavor":1,"self":{"counts":{"1":3}}}
            _pf_Tally_count__of {"flavor":2,"self":{"counts":{"1":3}}}

            """)
    }
}
