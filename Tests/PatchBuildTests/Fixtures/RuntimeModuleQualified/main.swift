import Kit
import PatchSDK

func exercise() -> String {
    [Shelf.label(for: .fish), Shelf.next(after: .fish).rawValue, String(Shelf.count([Tag(name: "a")], style: Tag.Style(bold: true))),
     Progress(category: .bugs, done: 3).summary].joined(separator: " ")
}

print("native: " + exercise())
Patch.shared.standInFunctionResults = [
    "_pf_Shelf_label__for": #"{"value":"patched"}"#,
    "_pf_Shelf_next__after": #"{"value":"fish"}"#,
    "_pf_Shelf_count____style": #"{"value":7}"#,
    "_pf_Progress_summary__get": #"{"value":"done"}"#,
]
print("module: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
