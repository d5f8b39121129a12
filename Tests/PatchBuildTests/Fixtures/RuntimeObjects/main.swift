import PatchSDK

func exercise() -> String {
    writes = []
    let species = BirdSpecies(id: "robin", parts: [BirdPart(name: "wing"), BirdPart(name: "tail")])
    let bird = Bird(tag: "r1", species: species)
    species.birds = [bird]
    species.mascot = bird
    let stray = Bird(tag: "s1", species: nil)
    let line = "\(bird.speciesName) | \(stray.speciesName) | \(bird.visit(times: 2)) | \(bird.visits)"
    // The bird still references the app's own species object, unchanged.
    return line + " | \(bird.species === species) \(species.id) \(species.parts.count) | writes: \(writes.joined(separator: ", "))"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    "_pf_Bird_speciesName__get": #"{"value":"Robin","self":{"tag":"r1","visits":0,"species":{"id":"robin","naturalScale":1,"parts":[]}}}"#,
    // A module's copy of the species comes back (never changed: build refuses a write to it); the
    // thunk writes back `visits` and never replaces the species.
    "_pf_Bird_visit__times": #"{"value":"module visit","self":{"tag":"r1","visits":7,"species":{"id":"other","naturalScale":2,"parts":[]}}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
