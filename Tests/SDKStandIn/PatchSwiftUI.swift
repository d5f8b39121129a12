// Stand-in for PatchSwiftUI's `thunkBody` (sdk-contract §11 and §5.1): the module's rendering when the
// active module routes the type name, nil otherwise. Like the real module it imports PatchSDK and
// PatchRender without re-exporting them.
import PatchRender
import PatchSDK
import SwiftUI

public struct PatchedBodyHost: PrimitiveView {
    let typeName: String
    let slotCount: Int
    public func render() -> String { "module:\(typeName)" + (slotCount == 0 ? "" : "+\(slotCount) slots") }
}

extension Patch {
    @MainActor
    public func thunkBody(typeName: String, instance: Any, slots: () -> [String: () -> AnyView] = { [:] },
                          tokens: () -> [String: PatchHostToken] = { [:] }) -> PatchedBodyHost? {
        guard standInRoutedViews.contains(typeName) else { return nil }
        return PatchedBodyHost(typeName: typeName, slotCount: slots().count)
    }
}
