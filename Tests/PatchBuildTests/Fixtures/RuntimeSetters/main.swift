import PatchSDK

func exercise() -> String {
    var thermostat = Thermostat(tenths: 215, room: "hall")
    let before = thermostat.degrees
    thermostat.degrees = 30
    Thermostat.label = "°F"
    return "\(before) \(thermostat.tenths) \(thermostat.degrees) \(Thermostat.label) \(Thermostat.unit) \(thermostat.room)"
}

print("native: " + exercise())
Thermostat.unit = "C"
Patch.shared.standInFunctionResults = [
    "_pf_Thermostat_degrees__set": #"{"self":{"tenths":301,"room":"ignored"}}"#,
    "_pf_Thermostat_label__get": #"{"value":"module label"}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
