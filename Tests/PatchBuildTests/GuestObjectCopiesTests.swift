@testable import PatchBuild
import Testing

/// What build makes of code that uses objects other than a class receiver, on sources shaped like
/// Backyard Birds' SwiftData models: a receiver's optional reference is copied into the guest (its
/// SwiftData attributes dropped), and each way the copy could lose a write, or an object could reach
/// the module some other way, is refused with the place and why.
struct GuestObjectCopiesTests {
    static let index = GuestSourceIndex(sources: [
        ("Data/Bird.swift", """
            import SwiftData

            struct BirdPart: Codable { var name: String }

            @Model final class BirdSpecies {
                @Attribute(.unique) var id: String
                var naturalScale: Double
                var parts: [BirdPart]
                @Relationship(deleteRule: .cascade, inverse: \\Bird.species)
                var birds: [Bird] = []

                init(id: String, naturalScale: Double, parts: [BirdPart]) {
                    self.id = id
                    self.naturalScale = naturalScale
                    self.parts = parts
                }

                func grow() { naturalScale *= 2 }
            }

            @Model final class Bird {
                @Attribute(.unique) var tag: String
                var species: BirdSpecies?

                init(tag: String) { self.tag = tag }

                var speciesName: String { species?.id ?? "- Species name is missing. -" }
                func forget() { species = nil }
                func addPart(_ part: BirdPart) { if let known = species { known.parts.append(part) } }
                func grow() { species?.grow() }
            }
            """),
        ("Data/Plant.swift", """
            final class PlantSpecies {
                var id: String = ""
                private var secret: Int = 0
            }

            final class Tally { var count = 0 }

            final class Plant {
                var species: PlantSpecies?
                var speciesName: String { species?.id ?? "-" }
                func tally() -> Int {
                    let tally = Tally()
                    tally.count += 1
                    return tally.count
                }
                var keeper: Keeper!
                var keeperName: String { keeper.name }
            }

            final class Keeper { var name = "" }

            enum Roster {
                static func greet(_ keeper: Keeper) -> String { "hi " + keeper.name }
                static func rename(_ keeper: Keeper?) -> String {
                    keeper?.name = "x"
                    return keeper?.name ?? "-"
                }
                static func retire(_ keeper: Keeper) -> String {
                    clear(keeper)
                    return keeper.name
                }
                static func clear(_ someone: Keeper) { someone.name = "" }
            }
            """),
    ])

    static func export(_ id: String) throws -> GuestExportName { try #require(GuestExportName(declarationID: id)) }

    static func problem(_ id: String) throws -> String? {
        let program = GuestSourceGenerator(index: index).generate(exports: [try export(id)])
        return program.unpatchable.first.map { "\($0.location?.file ?? ""):\($0.location?.line ?? 0) \($0.detail)" }
    }

    @Test func theReferencedModelIsCopiedIntoTheGuestWithoutItsSwiftDataAttributes() throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try Self.export("Bird.speciesName")])
        #expect(program.unpatchable.isEmpty, "\(program.unpatchable)")
        let source = program.source
        #expect(source.contains("final class BirdSpecies {") && source.contains("final class Bird {"), "\(source)")
        #expect(source.contains("var species: BirdSpecies?") && source.contains("var parts: [BirdPart]"), "\(source)")
        // The to-many relationship (the cycle back to the birds) is not part of the copy.
        #expect(!source.contains("var birds") && !source.contains("@Attribute") && !source.contains("@Relationship"), "\(source)")
        #expect(source.components(separatedBy: "init(_patchJSON value: _PatchJSONValue)").count == 4, "a decoder in each class, and BirdPart's: \(source)")
    }

    @Test func writesThatWouldNotReachTheAppsObjectStayNative() throws {
        #expect(try Self.problem("Bird.forget()") == "Data/Bird.swift:28 assigns `species`, which references an object of class BirdSpecies: the module has a copy of that object and cannot make the app's object reference another")
        #expect(try Self.problem("Bird.addPart(_:)") == "Data/Bird.swift:29 writes `known.parts` of `known`, an object of class BirdSpecies that the receiver references: the module changes a copy of that object, and the write would not reach the app's")
        #expect(try Self.problem("Bird.grow()") == "Data/Bird.swift:18 writes `naturalScale` of class BirdSpecies, whose object the module receives as a copy (the receiver's `species` references it): the write would not reach the app's object (in BirdSpecies.grow, which it uses)")
    }

    @Test func objectsTheModuleHasNoCopyOfAreNamedWithWhy() throws {
        #expect(try Self.problem("Plant.speciesName") == "Data/Plant.swift:1 uses class PlantSpecies, which the receiver's `species` (Data/Plant.swift:9) references but its copy leaves out (stored property `species` references class PlantSpecies: its stored property `secret` (Data/Plant.swift:3) is `private` to its file, which the thunk cannot read) (in PlantSpecies, which it uses)")
        // Backyard Birds' `Bird.species` was `BirdSpecies!` before Xcode 15 beta 3.
        let keeper = try Self.problem("Plant.keeperName")
        #expect(keeper == "Data/Plant.swift:20 uses class Keeper, which the receiver's `keeper` (Data/Plant.swift:16) references but its copy leaves out (stored property `keeper`: implicitly unwrapped optionals (`Keeper!`) are not supported; use `?`) (in Keeper, which it uses)")
        #expect(try Self.problem("Plant.tally()") == "Data/Plant.swift:6 uses class Tally; the module receives copies of objects only as the receiver of a class's method, the objects its optional stored properties reference and the objects its parameters receive (`X` or `X?`), not as results, collections, globals or objects it creates (in Tally, which it uses)")
    }

    @Test func aParameterOfAClassTypeReceivesACopyThatItCannotWriteTo() throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try Self.export("Roster.greet(_:)")])
        #expect(program.unpatchable.isEmpty, "\(program.unpatchable)")
        #expect(program.source.contains("final class Keeper {") && program.source.contains("init(_patchJSON value: _PatchJSONValue)"), "\(program.source)")
        #expect(try Self.problem("Roster.rename(_:)") == "Data/Plant.swift:25 writes `keeper.name` through the parameter `keeper`, an object of class Keeper: the module changes a copy of that object, and the write would not reach the app's")
        // Passed on to a function that writes to it: still the copy.
        #expect(try Self.problem("Roster.retire(_:)") == "Data/Plant.swift:32 writes `someone.name` through the parameter `someone`, an object of class Keeper: the module changes a copy of that object, and the write would not reach the app's (in Roster.clear, which it uses)")
    }
}
