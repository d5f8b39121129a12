import PatchSDK

func exercise() -> String {
    writes = []
    let completion = Completion(name: "Fix", instruction: "Fix the grammar", order: 2)
    let panel = Panel()
    completion.panel = panel
    panel.last = completion
    let line = "\(Panel.prompt(for: completion, selectedText: "a text")) | \(panel.send(completion)) | \(panel.send(nil)) | \(panel.sent)"
    // The app's completion is the one it was, unchanged, still referencing its panel.
    return line + " | \(completion.name) \(completion.order) \(completion.panel === panel) | writes: \(writes.joined(separator: ", "))"
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    "_pf_Panel_prompt__for_selectedText": #"{"value":"module prompt"}"#,
    // The thunk writes back the panel's `sent`; the completion it sent a copy of is not written.
    "_pf_Panel_send___": #"{"value":"module send","self":{"sent":5}}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
