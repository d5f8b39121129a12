// Stand-in for PatchRender's `PatchHostToken` (sdk-contract §11).
import SwiftUI

public enum PatchHostToken: Sendable {
    case color(Color)
    case font(Font)
    case number(Double)
    case string(String)
}
