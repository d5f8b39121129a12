import SwiftUI

/// A title on the left and any trailing content: generic over the trailing view.
struct LabeledRow<Trailing: View>: View {
    let title: String
    @ViewBuilder let trailing: () -> Trailing

    var body: some View {
        HStack {
            Text(title)
            Spacer()
            trailing()
        }
    }
}

/// A card that shows its content with a title, or a placeholder when empty.
struct Card<Content: View> {
    let title: String
    let content: Content?
}

extension Card: View {
    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(title).font(.title3.bold())
            if let content {
                content
            } else {
                Text("Nothing here yet").foregroundStyle(.secondary)
            }
        }
        .padding()
        .background(.thinMaterial, in: RoundedRectangle(cornerRadius: 12))
    }
}
