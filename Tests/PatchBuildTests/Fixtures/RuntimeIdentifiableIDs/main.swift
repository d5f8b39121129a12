import PatchSDK

func exercise() -> String {
    let tally = Tally(counts: [Flavor(id: 1, name: "glazed").id: 3])
    return "\(tally.count(of: 1)) \(tally.count(of: 2))"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = ["_pf_Tally_count__of": #"{"value":42}"#]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
