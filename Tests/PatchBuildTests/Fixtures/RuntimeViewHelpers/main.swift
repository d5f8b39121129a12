import PatchSDK
import SwiftUI

@MainActor func exercise() -> String {
    var on = true
    let binding = Binding(get: { on }, set: { on = $0 })
    let section = TodaySection(isOn: binding, model: TodayModel(), title: "Today", onTap: {})
    let option = SubscriptionOption(isOn: binding, percent: 20)
    let read = "\(section.label) | \(section.dayNumber()) | \(section.savings(percent: 10)) | \(section.modelName()) | \(option.savingsText)"
    section.switchOff()
    return read + " | on: \(on)"
}

MainActor.assumeIsolated {
    print("native: " + exercise())
    Patch.shared.standInFunctionResults = [
        "_pf_TodaySection_label__get": #"{"value":"module label"}"#,
        "_pf_TodaySection_dayNumber__": #"{"value":40}"#,
        "_pf_TodaySection_savings__percent": #"{"value":"module savings"}"#,
        "_pf_SubscriptionOption_savingsText__get": #"{"value":"module option"}"#,
        // A non-mutating method's result carries no `self`: what the module did to its copy stays there.
        "_pf_TodaySection_switchOff__": #"{}"#,
    ]
    print("module: " + exercise())
    print("calls:")
    for call in Patch.shared.standInCalls { print(call) }
}
