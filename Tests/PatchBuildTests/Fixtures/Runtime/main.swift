import PatchSDK
import SwiftUI

@MainActor func renderAll() -> String {
    [renderView(Greeting(name: "Ada")), renderView(Outer.Inner()), renderView(Box(value: 3)), renderSecret(),
     renderView(Text("card").modifier(Bordered(width: 2))),
     String(Pricing.total(cents: 250, quantity: 2)), greetingLine(for: "Ada")].joined(separator: " | ")
}

MainActor.assumeIsolated {
    print("native: " + renderAll())
    Patch.shared.standInRoutedViews = ["Greeting", "Outer_Inner", "Box", "Secret", "Bordered"]
    Patch.shared.standInFunctionResults = ["_pf_Pricing_total__cents_quantity": #"{"value":999}"#, "_pf_greetingLine__for": #"{"value":"Hi from the module"}"#]
    print("module: " + renderAll())
    print("calls: " + Patch.shared.standInCalls.joined(separator: "; "))
}
