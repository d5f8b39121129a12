import PatchSDK
import SwiftUI

struct SettingsScreen: View {
    @AppStorage("prefersMetric") private var prefersMetric = true

    var body: some View {
        Form {
            Toggle("Metric units", isOn: $prefersMetric)
            #if DEBUG
            DebugPanel()
            #endif
            if #available(iOS 18, macOS 15, *) {
                WhatsNewCard()
            }
        }
        .navigationTitle("Settings")
    }
}

#if DEBUG
/// Developer-only information; compiled into debug builds only.
struct DebugPanel: View {
    var body: some View {
        Section("Debug") {
            Text("Build fingerprint")
            Text(PatchBuildFingerprint.value).font(.caption.monospaced()).textSelection(.enabled)
        }
    }
}
#endif

@available(iOS 18, macOS 15, *)
struct WhatsNewCard: View {
    @MainActor var body: some View {
        Card(title: "What's new", content: Text("Faster checkout and EU shipping."))
    }
}
