// The replacement exactly as sdk-contract §5.1 shows it: `dynamic var body` and a
// `@_dynamicReplacement(for: body)` whose fallback calls the original `body`. Compiled by
// DynamicReplacementRuntimeTests to show why prepare does not emit this shape (docs/prepare.md).
import PatchSDK
import PatchSwiftUI
import SwiftUI

struct Banner: View {
    dynamic var body: some View {
        Text("native banner")
    }
}

extension Banner {
    @_dynamicReplacement(for: body)
    @ViewBuilder @MainActor var __patch_body: some View {
        if let __p = Patch.shared.thunkBody(typeName: "Banner", instance: self) {
            __p
        } else {
            body
        }
    }
}

MainActor.assumeIsolated {
    print(renderView(Banner()))
}
