import Foundation
import SwiftUI

extension EnvironmentValues {
    var currentDate: Date { Date(timeIntervalSinceReferenceDate: 86_400 * 3) }
}

/// Not Codable, and no value mirror can carry `Any`: left out of the copy.
enum Sheet {
    case share(Any)
}

final class TodayModel: ObservableObject {
    var name = "turnips"
}

struct TodaySection: View {
    @Environment(\.currentDate) private var currentDate: Date
    @Binding var isOn: Bool
    @State private var count = 2
    @ObservedObject var model: TodayModel
    let title: String
    let onTap: () -> Void
    @State private var sheet: Sheet? = nil

    var body: some View {
        Text(label)
    }

    // @patchable
    var label: String {
        "\(title) day \(dayNumber())"
    }

    // @patchable
    func dayNumber() -> Int {
        Int(currentDate.timeIntervalSinceReferenceDate) / 86_400
    }

    // @patchable
    func savings(percent: Int) -> String {
        isOn ? "\(percent * count)%" : "off"
    }

    // @patchable
    func modelName() -> String {
        model.name
    }

    // @patchable
    func switchOff() {
        isOn = false
    }
}

struct SubscriptionOption: View {
    @Binding var isOn: Bool
    let percent: Int

    var body: some View {
        Text(savingsText)
    }

    // @patchable
    var savingsText: String {
        isOn ? "save \(percent)%" : "no savings"
    }
}
