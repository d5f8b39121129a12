// Modelled on Backyard Birds' `Bird` and `BirdSpecies` (SwiftData `@Model` classes, plain final
// classes here): a bird references its species, a to-one relationship, and the species its birds,
// a to-many one, which makes a cycle. Each write to a bird is recorded, as observation would see it.
nonisolated(unsafe) var writes: [String] = []

struct BirdPart: Codable { var name: String }

final class BirdSpecies {
    var id: String
    var naturalScale: Double
    var parts: [BirdPart]
    // Left out of the copy a bird's mirror carries: objects travel one level deep.
    var birds: [Bird] = []
    var mascot: Bird?

    init(id: String, naturalScale: Double = 1, parts: [BirdPart]) {
        self.id = id
        self.naturalScale = naturalScale
        self.parts = parts
    }

    var partCount: Int { parts.count }
}

final class Bird {
    var tag: String
    var species: BirdSpecies? { didSet { writes.append("species") } }
    var visits = 0 { didSet { writes.append("visits") } }

    init(tag: String, species: BirdSpecies?) {
        self.tag = tag
        self.species = species
    }

    // @patchable
    var speciesName: String { species?.id ?? "- Species name is missing. -" }

    // @patchable
    func visit(times: Int) -> String {
        visits += times
        return tag + " saw " + (species.map { "\($0.id) with \($0.partCount) parts" } ?? "nothing")
    }
}
