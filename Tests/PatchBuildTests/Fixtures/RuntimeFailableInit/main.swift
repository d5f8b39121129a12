import PatchSDK

func describe(_ slug: Slug?) -> String { slug.map { "\($0.text)/\($0.source)" } ?? "nil" }
func describe(_ tier: Tier?) -> String { tier.map(\.rawValue) ?? "nil" }

func exercise() -> String {
    [describe(Slug(title: "Hello World")), describe(Slug(title: "")), describe(Tier(code: 1)), describe(Tier(code: 7))].joined(separator: " ")
}

print("native: " + exercise())
// The module's value replaces the `var`s (the `let` keeps the original's), its `null` says nil.
Patch.shared.standInFunctionResults = [
    "_pf_Slug_init__title": #"{"value":{"text":"patched","source":"ignored"}}"#,
    "_pf_Tier_init__code": #"{"value":null}"#,
]
print("module: " + exercise())
// The guest's `{"error": …}` (it could not decode the arguments) is no nil: the original's value stays.
Patch.shared.standInFunctionResults = [
    "_pf_Slug_init__title": #"{"error":"bad arguments"}"#,
    "_pf_Tier_init__code": #"{"value":"free"}"#,
]
print("refused: " + exercise())
print("calls:")
for call in Patch.shared.standInCalls { print(call) }
