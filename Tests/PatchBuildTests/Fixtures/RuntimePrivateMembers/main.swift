import PatchSDK

func exercise() -> String {
    var ledger = Ledger(entries: [Entry(title: "tea", cents: 300)], fee: 20)
    let before = ledger.summary()
    ledger.charge(5)
    let charged = ledger.fee
    ledger.reset()
    return "\(before) | \(charged) | \(ledger.fee) \(ledger.total)"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    "_pf_Ledger_balance__get": #"{"value":999}"#,
    "_pf_Ledger_label__prefix": #"{"value":"module label"}"#,
    "_pf_Ledger_apply__fee": #"{"self":{"entries":[],"fee":77}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
