// Stand-in for PatchSwiftUI's `thunkBody` (sdk-contract §5.1): returns the module's rendering when
// the active module routes the type name, nil otherwise.
import PatchSDK
import SwiftUI

public struct PatchedBodyHost: PrimitiveView {
    let typeName: String
    public func render() -> String { "module:\(typeName)" }
}

extension Patch {
    @MainActor
    public func thunkBody(typeName: String, instance: Any) -> PatchedBodyHost? {
        routedViews.contains(typeName) ? PatchedBodyHost(typeName: typeName) : nil
    }
}
