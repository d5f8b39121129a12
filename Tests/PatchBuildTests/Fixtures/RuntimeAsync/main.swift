import Foundation
import PatchSDK

// No module: each original runs once (the prologue answers nil, the body continues).
print("native: \(try await Quotes.fetch(id: 1)) \(await Shelf(base: 2).total(of: 3)) after \(entries) entries")
Patch.shared.standInFunctionResults = ["patch_start__pf_Quotes_fetch__id": #"{"value":"module 1"}"#,
                                       "patch_start__pf_Shelf_total__of": #"{"value":50}"#]
print("module: \(try await Quotes.fetch(id: 1)) \(await Shelf(base: 2).total(of: 3)) after \(entries) entries")
Patch.shared.standInFunctionResults["patch_start__pf_Quotes_fetch__id"] = #"{"thrown":{"type":"QuoteError","value":"\"offline\""}}"#
do { print("no error: \(try await Quotes.fetch(id: 2))") } catch { print("thrown: \(error)") }
Patch.shared.standInFunctionResults["patch_start__pf_Quotes_fetch__id"] = #"{"urlError":-1}"#
do { print("no error: \(try await Quotes.fetch(id: 2))") } catch let error as URLError { print("urlError: \(error.code == .unknown)") }
// The module could not read the arguments: the original runs.
Patch.shared.standInFunctionResults["patch_start__pf_Quotes_fetch__id"] = #"{"error":"arguments"}"#
print("refused: \(try await Quotes.fetch(id: 3)) after \(entries) entries")
// A class's method: the properties the module changed are written back when its task ends.
let store = Store()
print("store native: \(await store.load(extra: 4)) items \(store.items) loads \(store.loads)")
Patch.shared.standInFunctionResults["patch_start__pf_Store_load__extra"] = #"{"value":7,"self":{"items":[4,9],"loads":1}}"#
print("store module: \(await store.load(extra: 9)) items \(store.items) loads \(store.loads)")
print("calls: " + Patch.shared.standInCalls.joined(separator: "; "))
