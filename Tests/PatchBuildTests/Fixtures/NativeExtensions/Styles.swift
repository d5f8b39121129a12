import SwiftUI

public extension Image {
    enum AppImageStyle {
        case barButton
    }

    func style(appStyle: AppImageStyle) -> some View {
        switch appStyle {
        case .barButton: return barButton()
        }
    }
}

extension Image {
    @ViewBuilder
    private func barButton() -> some View {
        self.resizable()
            .frame(width: 16, height: 16)
    }
}

public extension Text {
    enum AppTextStyle {
        case title
    }

    func style(appStyle: AppTextStyle) -> some View {
        switch appStyle {
        case .title: return self.font(.title)
        }
    }
}
