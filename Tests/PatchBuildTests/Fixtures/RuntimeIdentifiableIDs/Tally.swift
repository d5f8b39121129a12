/// `Flavor.ID` is the type of Flavor's `id` (Flavor declares no `ID` of its own).
struct Flavor: Identifiable {
    let id: Int
    var name: String
}

struct Tally {
    var counts: [Flavor.ID: Int]

    func count(of flavor: Flavor.ID) -> Int {
        counts[flavor] ?? 0
    }
}
